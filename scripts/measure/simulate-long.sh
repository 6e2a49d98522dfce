#!/usr/bin/env bash
# The long run of the session fault simulator, whose figures are committed (CI runs 100,000 sessions; this runs a
# million by default) and written to model/SIMULATION.md together with the machine and the command.
#
#   scripts/measure/simulate-long.sh [--count N] [--seed S] [--jobs J] [--locwire PATH]
#
# Exit status: 0 no invariant violated (the figures are written), 1 a violation (the minimized schedule is in
# model/simulation-failure.json, which `locwire simulate replay` runs), 2 usage error or a failed build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

count=1000000
seed=20261122
jobs=$(nproc)
locwire=""
while (($#)); do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --locwire) locwire="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo pipefail/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "simulate-long.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z "$locwire" ]]; then
  swift build -c release --product locwire >&2 || exit 2
  locwire="$(swift build -c release --show-bin-path)/locwire"
fi

mkdir -p model
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
status=0
"$locwire" simulate sessions --count "$count" --seed "$seed" --jobs "$jobs" --json \
  --save-failure model/simulation-failure.json >"$summary" || status=$?
if ((status == 2)); then exit 2; fi

python3 - "$summary" "$count" "$seed" "$jobs" <<'PY' >model/SIMULATION.md
import json, platform, subprocess, sys
summary, count, seed, jobs = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
per_second = summary["sessions"] / max(summary["seconds"], 0.001)
print(f"""# Session simulation: the long run

Written by `scripts/measure/simulate-long.sh --count {count} --seed {seed} --jobs {jobs}` (commit {commit}, {platform.machine()},
{cores} cores). CI runs the same simulator for 100,000 sessions (`.ci/run`).

| Figure | Value |
|---|---|
| sessions | {summary['sessions']:,} |
| fault kinds | {', '.join(summary['faults'])} |
| violated invariants | {summary['violated_sessions']} |
| run time | {summary['seconds']} s ({per_second:,.0f} sessions/s) |
| fixes recorded | {summary['recorded_fixes']:,} |
| fixes stored (each exactly once) | {summary['stored_fixes']:,} |
| fixes refused as defective | {summary['rejected_fixes']:,} |
| fixes really lost (reinstall, full storage), each reported by the ledger as a gap or pending | {summary['lost_fixes']:,} |
| batches sent | {summary['batches_sent']:,} |
| acks ignored (duplicates, late, malformed) | {summary['acks_ignored']:,} |

Invariants, checked after every step and, for the first, once more after the network heals: every recorded fix
and fence event is stored exactly once (or refused for a defect, or really lost); nothing leaves the device
before the server stored or refused it; the server never stores a key twice; every gap the ledger reports is a
real loss; the server refuses only defective fixes.""")
PY
cat model/SIMULATION.md
exit "$status"
