#!/usr/bin/env bash
# Checks the Promela model of the upload queue and the ingest ledger (model/session.pml) with spin, exhaustively:
# the model must verify, and every mutant must be caught. model/README.md says what the model checks.
#
#   scripts/model-check.sh [--quick] [--json] [--keep] [-D NAME=VALUE ...]
#
#   (default)        the long bounds: N=3 fixes, NREC=3 batch records (two in flight and one given up on),
#                    NREQ=2, NRESP=2 messages in the network each way, MAXDUP=1 duplication (about 6 minutes,
#                    up to 3.2 GB)
#   --quick          the CI bounds: as the long ones but NREC=2 (about a minute, under 1 GB)
#   -D NAME=VALUE    override a bound of the model (N, DEFECT, NREC, NREQ, NRESP, MAXDUP); may be repeated
#   --json           print one JSON object (each run's states, transitions, depth, memory in MB, errors, pan's
#                    seconds, and wall seconds with spin -a and gcc) on stdout instead of the text report
#   --keep           keep the build folder (pan, trails) and print where it is
#   -h, --help       this text
#
# Runs, in order, each built in a temporary folder with spin -a and gcc:
#   model            safety: every assertion (INV1-INV4) and pan's end-state check; must report 0 errors over the
#                    whole state space, without "max search depth too small"
#   liveness         the LTL property heal_ends_the_run (pan -a): 0 errors, whole state space
#   HOLE1            the mutant of the old range scope: must violate INV2; its trail (breadth-first, so the
#                    shortest) must replay with spin -t -p
#   MUT_STORE_TWICE, MUT_FLOOR_AHEAD, MUT_NO_GIVE_UP, MUT_KEEP_DUPLICATES
#                    the other mutants: each must be caught (the last one by the liveness check)
#
# Environment: MODEL_MEMLIM_MB (default 4096) caps pan's memory; MODEL_DEPTH (default 3000000) is pan -m.
# Exit status: 0 the model verifies and every mutant is caught; 1 it does not, or a mutant escapes, or a search
# was cut short; 2 usage error or a missing tool (spin, gcc). Installs nothing: Debian's package is spin
# (6.5.2), gcc comes with build-essential.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="$root/model/session.pml"

usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }
die() { echo "model-check.sh: $*" >&2; exit 2; }

quick=0
json=0
keep=0
overrides=()
while (($#)); do
  case "$1" in
    --quick) quick=1; shift ;;
    --json) json=1; shift ;;
    --keep) keep=1; shift ;;
    -D) [[ $# -ge 2 ]] || { usage >&2; die "-D needs NAME=VALUE"; }; overrides+=("$2"); shift 2 ;;
    -D*) overrides+=("${1#-D}"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

for tool in spin gcc; do
  command -v "$tool" >/dev/null 2>&1 ||
    die "'$tool' not found: install it first (Debian: apt-get install -y spin gcc); this script installs nothing"
done
[[ -f "$model" ]] || die "$model not found"

# The bounds: the defaults of each mode, then the overrides.
declare -A bound=([N]=3 [DEFECT]=2 [NREC]=3 [NREQ]=2 [NRESP]=2 [MAXDUP]=1)
((quick)) && bound[NREC]=2
for item in "${overrides[@]+"${overrides[@]}"}"; do
  [[ "$item" =~ ^(N|DEFECT|NREC|NREQ|NRESP|MAXDUP)=([0-9]+)$ ]] ||
    die "-D $item: expected NAME=NUMBER with NAME one of N DEFECT NREC NREQ NRESP MAXDUP"
  bound[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
done
defines=()
for name in N DEFECT NREC NREQ NRESP MAXDUP; do defines+=("-D$name=${bound[$name]}"); done

memlim="${MODEL_MEMLIM_MB:-4096}"
depth="${MODEL_DEPTH:-3000000}"
hash_bits=24
((quick)) || hash_bits=25

work="$(mktemp -d "${TMPDIR:-/tmp}/model-check.XXXXXX")"
if ((keep)); then
  trap 'echo "model-check.sh: build folder kept: $work" >&2' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi

say() { ((json)) || echo "$*"; }
failures=0
results=()   # one JSON object per run

# run NAME KIND EXPECT [spin -D options...]
#   KIND: safety | liveness;  EXPECT: verify (0 errors, whole state space) | violation (at least one error)
run() {
  local name="$1" kind="$2" expect="$3"
  shift 3
  local dir="$work/$name"
  mkdir -p "$dir"
  cp "$model" "$dir/session.pml"
  local spin_flags=("${defines[@]}" "$@")
  local cc_flags=(-O2 -w "-DMEMLIM=$memlim")
  local pan_flags=("-m$depth" "-w$hash_bits")
  if [[ "$kind" == liveness ]]; then
    spin_flags+=(-DLIVENESS)
    cc_flags+=(-DCOLLAPSE)
    pan_flags+=(-a)
  elif [[ "$expect" == verify ]]; then
    cc_flags+=(-DSAFETY -DCOLLAPSE)
  else
    cc_flags+=(-DSAFETY -DBFS)   # breadth-first: the shortest trail
  fi
  local started ended seconds status=ok note=""
  started=$(date +%s.%N)
  (
    cd "$dir"
    spin "${spin_flags[@]}" -a session.pml >spin.out 2>&1 && ! grep -q 'Error' spin.out
  ) || { cat "$dir/spin.out" >&2; echo "model-check.sh: spin -a failed for $name" >&2; exit 1; }
  (cd "$dir" && gcc "${cc_flags[@]}" -o pan pan.c) ||
    { echo "model-check.sh: gcc failed to build pan for $name" >&2; exit 1; }
  (cd "$dir" && ./pan "${pan_flags[@]}" >pan.out 2>&1) || true
  ended=$(date +%s.%N)
  seconds=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }')

  local out="$dir/pan.out"
  local states transitions depth_reached memory errors pan_seconds
  states=$(awk '/states, stored/ { print $1; exit }' "$out")
  transitions=$(awk '/transitions \(= / { print $1; exit }' "$out")
  depth_reached=$(sed -n 's/.*depth reached \([0-9]*\),.*/\1/p' "$out" | sed -n 1p)
  memory=$(awk '/total actual memory usage/ { print $1; exit }' "$out")
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out" | sed -n 1p)
  pan_seconds=$(awk '/^pan: elapsed time/ { print $4; exit }' "$out")
  : "${states:=0}" "${transitions:=0}" "${depth_reached:=0}" "${memory:=0}" "${errors:=-1}" "${pan_seconds:=0}"
  transitions=$(awk -v t="$transitions" 'BEGIN { printf "%.0f", t }')

  if grep -q 'max search depth too small' "$out"; then
    status=fail; note="max search depth too small: raise MODEL_DEPTH"
  elif grep -qiE 'out of memory|reached -DMEMLIM' "$out"; then
    status=fail; note="out of memory (MODEL_MEMLIM_MB=$memlim)"
  elif [[ "$expect" == verify ]]; then
    if [[ "$errors" != 0 ]]; then
      status=fail; note="$errors error(s): $(grep -m1 -E 'pan:1:|violated|invalid end|acceptance cycle' "$out" || true)"
    elif grep -q 'Search not completed' "$out" || ! grep -q 'Full statespace search' "$out"; then
      status=fail; note="the search did not cover the whole state space"
    elif [[ "$kind" == safety ]] &&
      ! awk '/unreached in proctype Device/ { getline; if ($0 ~ /\(0 of/) found = 1 } END { exit !found }' "$out"; then
      status=fail; note="part of the device is unreachable (the end of a healed run, INV4, must be reached)"
    fi
  else
    local wanted="${EXPECT_TEXT:-}"
    if [[ "$errors" -lt 1 ]]; then
      status=fail; note="the mutant was not caught"
    elif [[ -n "$wanted" ]] && ! grep -qE "$wanted" "$out"; then
      status=fail; note="caught, but not by the expected check ($wanted): $(grep -m1 'pan:1:' "$out" || true)"
    else
      note="$(grep -m1 -E 'pan:1:' "$out" | sed 's/^pan:1: //' || true)"
      # The trail must replay.
      # The trail must replay and end where pan said: at the failed assertion, in a cycle, or with a process
      # that is not at a valid end state.
      local replayed=0
      if (cd "$dir" && spin -t -p "${spin_flags[@]}" session.pml >replay.out 2>&1); then
        case "$wanted" in
          *'assertion violated'*) grep -q 'assertion violated' "$dir/replay.out" && replayed=1 ;;
          *'acceptance cycle'*) grep -q 'START OF CYCLE' "$dir/replay.out" && replayed=1 ;;
          *'invalid end state'*)
            # (no grep -q at the end of a pipe under pipefail: it may stop reading early)
            [[ -n "$(grep -E '^ *[0-9]+:[[:space:]]+proc ' "$dir/replay.out" | grep -v 'valid end state' || true)" ]] &&
              replayed=1 ;;
        esac
      fi
      if ((replayed == 0)); then
        status=fail; note="$note; the trail does not replay with spin -t -p"
      fi
      (cd "$dir" && spin -T -t "${spin_flags[@]}" session.pml >story.out 2>&1) || true
    fi
  fi

  [[ "$status" == ok ]] || failures=$((failures + 1))
  results+=("$(printf '{"name":"%s","kind":"%s","expect":"%s","ok":%s,"states":%s,"transitions":%s,"depth":%s,"memory_mb":%s,"errors":%s,"pan_seconds":%s,"seconds":%s,"note":"%s"}' \
    "$name" "$kind" "$expect" "$([[ $status == ok ]] && echo true || echo false)" "$states" "$transitions" \
    "$depth_reached" "$memory" "$errors" "$pan_seconds" "$seconds" \
    "$(printf '%s' "$note" | tr -d '"\\' | tr '\t' ' ')")")
  if ! ((json)); then
    printf '%-20s %-8s %-9s %-4s states %10s  transitions %11s  depth %7s  memory %8s MB  pan %6s s  wall %6s s\n' \
      "$name" "$kind" "$expect" "$status" "$states" "$transitions" "$depth_reached" "$memory" "$pan_seconds" \
      "$seconds"
    [[ -z "$note" ]] || printf '%20s %s\n' '' "$note"
    if [[ "$name" == HOLE1 && -s "$dir/story.out" ]]; then
      echo "                     the trail (spin -T -t):"
      grep -E '^(device|server|network):' "$dir/story.out" | sed 's/^/                       /'
    fi
  fi
}

say "model/session.pml with $(printf '%s ' "${defines[@]}")($( ((quick)) && echo quick || echo long) bounds)"
EXPECT_TEXT='' run model safety verify
EXPECT_TEXT='' run liveness liveness verify
EXPECT_TEXT='assertion violated inv2_deleted_only_if_stored_or_refused' run HOLE1 safety violation -DHOLE1
EXPECT_TEXT='assertion violated inv1_stored_at_most_once' run MUT_STORE_TWICE safety violation -DMUT_STORE_TWICE
EXPECT_TEXT='assertion violated' run MUT_FLOOR_AHEAD safety violation -DMUT_FLOOR_AHEAD
EXPECT_TEXT='invalid end state' run MUT_NO_GIVE_UP safety violation -DMUT_NO_GIVE_UP
EXPECT_TEXT='acceptance cycle' run MUT_KEEP_DUPLICATES liveness violation -DMUT_KEEP_DUPLICATES

if ((json)); then
  bounds_json=""
  for name in N DEFECT NREC NREQ NRESP MAXDUP; do bounds_json+="${bounds_json:+,}\"$name\":${bound[$name]}"; done
  runs_json=$(IFS=,; echo "${results[*]}")
  spin_version=$(spin -V 2>/dev/null | sed -n 1p)
  printf '{"mode":"%s","bounds":{%s},"spin":"%s","ok":%s,"runs":[%s]}\n' \
    "$( ((quick)) && echo quick || echo long)" "$bounds_json" "$spin_version" \
    "$( ((failures == 0)) && echo true || echo false)" "$runs_json"
fi
if ((failures)); then
  ((json)) || echo "model-check.sh: $failures check(s) failed" >&2
  exit 1
fi
say "ok: the model verifies and every mutant is caught"
