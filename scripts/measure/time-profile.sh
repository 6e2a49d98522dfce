#!/usr/bin/env bash
# Where the time goes, not the instructions: perf's cpu-clock samples (this VM has no hardware counters) of one
# operation of LocationWire's harness and of a peer's, on the same workload, side by side, with the page faults
# each takes. Issue 39 asked why the row batch and the assignment decode at 0.80-0.87x C++ in time with their
# instruction counts at parity; Benchmarks/NOTES.md ("Issue 39: decode in time") holds the answer this gave.
#
#   scripts/measure/time-profile.sh batch-walk-1000 decode-reuse decode-reuse
#   scripts/measure/time-profile.sh assignment-20 decode decode-arena-block --peer cpp --top 25
#
# Arguments: WORKLOAD LOCATIONWIRE-OPERATION PEER-OPERATION; --peer cpp|upb (default cpp), --top N symbols
# (default 15), --iterations N (default: enough for about 2 s). Needs perf (linux-perf), the peers built
# (Benchmarks/run.sh builds them) and the benchmark driver built in release.
set -euo pipefail
cd "$(dirname "$0")/../.."
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 3 ]] || usage
workload=$1 ours=$2 theirs=$3
shift 3
peer=cpp top=15 iterations=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --peer) peer=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    *) usage ;;
  esac
done
command -v perf >/dev/null || { echo "time-profile.sh: perf is not installed" >&2; exit 2; }
bench=Benchmarks/.build/release/locwire-bench
case $peer in
  cpp) peer_command=Benchmarks/peers/build/bench_cpp ;;
  upb) peer_command=Benchmarks/peers/build-upb/bench_upb ;;
  *) usage ;;
esac
[[ -x $bench && -x $peer_command ]] || {
  echo "time-profile.sh: build first: Benchmarks/run.sh --quick --workload $workload (or its peers' build scripts)" >&2
  exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bench" workloads "$work/workloads" >/dev/null
# Iterations for about 2 s: from one timed run of 200 of LocationWire's operation.
if [[ -z $iterations ]]; then
  ns=$(printf 'prepare %s %s\nrun %s %s 200\nquit\n' "$workload" "$ours" "$workload" "$ours" |
    "$bench" harness swift-locationwire --workloads "$work/workloads" | sed -n 's/.*"ns":\([0-9]*\).*/\1/p')
  iterations=$((2000000000 / (ns / 200 + 1)))
fi
profile() {  # profile NAME OPERATION COMMAND...
  local name=$1 operation=$2
  shift 2
  printf 'prepare %s %s\nrun %s %s %s\nquit\n' "$workload" "$operation" "$workload" "$operation" "$iterations" \
    >"$work/$name.in"
  perf stat -e page-faults,task-clock -x, -o "$work/$name.stat" "$@" --workloads "$work/workloads" \
    <"$work/$name.in" >/dev/null
  perf record -q -e cpu-clock -F 10000 -o "$work/$name.data" "$@" --workloads "$work/workloads" \
    <"$work/$name.in" >/dev/null 2>&1
  local faults milliseconds
  faults=$(awk -F, '/page-faults/ {print $1}' "$work/$name.stat")
  milliseconds=$(awk -F, '/task-clock/ {printf "%.0f", $1}' "$work/$name.stat")
  echo "## $name: $operation on $workload, $iterations operations: $milliseconds ms of CPU, $faults page faults"
  echo "(start-up and preparation included: compare with a run of 1 operation for their share)"
  perf report -i "$work/$name.data" --no-children --sort symbol --stdio 2>/dev/null |
    grep -v '^#' | grep -v '^$' | awk -v top="$top" 'NR <= top' | cut -c1-150
  echo
}
profile swift-locationwire "$ours" "$bench" harness swift-locationwire
profile "$peer" "$theirs" "$peer_command"
