#!/usr/bin/env bash
# Instructions per operation of the codec's hot paths, counted by callgrind: the load-independent check that a
# change to the codec costs nothing (timings swing ±30% on a shared machine; instruction counts do not).
#
#   scripts/measure/instruction-counts.sh            # builds Benchmarks/ in release, prints a table
#   scripts/measure/instruction-counts.sh --json     # one JSON object, for scripts
#
# Each count is (instructions of 4 operations - instructions of 2 operations) / 2, so start-up cancels out,
# measured on a copy of locwire-bench without debug information (valgrind 3.19 cannot read Swift 6.3's).
# Operations: decode and encode of the 1000-fix walking batch and of a one-fix batch, decode of the compact
# walking batch and its expansion to rows (where the generated column code runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
format=table
[[ "${1:-}" == --json ]] && format=json
command -v valgrind >/dev/null || { echo "instruction-counts.sh: valgrind is not installed (scripts/install-peers.sh)" >&2; exit 2; }

(cd Benchmarks && swift build -c release --product locwire-bench >&2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench="$work/locwire-bench"
# Dictionaries hash with a random seed per process; a fixed one makes the counts repeat exactly.
export SWIFT_DETERMINISTIC_HASHING=1
cp "Benchmarks/.build/release/locwire-bench" "$bench"
strip -g "$bench"

count() {  # count ITERATIONS PROFILE-ARGS...
  local iterations=$1; shift
  local refs
  refs=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" profile "$@" --iterations "$iterations" 2>&1 >/dev/null |
    sed -n 's/.*I *refs: *//p' | tr -d ,)
  [[ -n $refs ]] || { echo "instruction-counts.sh: callgrind failed on: profile $* --iterations $iterations" >&2; exit 1; }
  echo "$refs"
}
per_operation() {
  local two four
  two=$(count 2 "$@"); four=$(count 4 "$@")
  echo $(((four - two) / 2))
}

names=("decode walk-1000" "encode walk-1000" "decode one-fix" "encode one-fix" "decode compact walk-1000"
  "expand compact walk-1000")
values=(
  "$(per_operation decode)"
  "$(per_operation encode)"
  "$(per_operation decode --fixes 1)"
  "$(per_operation encode --fixes 1)"
  "$(per_operation decode-compact)"
  "$(per_operation expand)"
)
if [[ $format == json ]]; then
  printf '{'
  for i in "${!names[@]}"; do
    [[ $i -gt 0 ]] && printf ', '
    printf '"%s": %s' "${names[$i]}" "${values[$i]}"
  done
  printf '}\n'
else
  printf '%-28s %12s\n' operation instructions
  for i in "${!names[@]}"; do printf '%-28s %12s\n' "${names[$i]}" "${values[$i]}"; done
fi
