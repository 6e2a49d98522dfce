#!/usr/bin/env bash
# The reference device through real crashes (issue 23): a long trace (the real track lap after lap, a reboot every
# fourth lap) replayed into `locwire device run`, which is killed with SIGKILL at random moments, 20 to 600 ms
# into each run (it writes its store all the time, so kills land in the middle of writes), and started again on its
# store; the reference server is killed too (15% of the device kills) and restarted on its database. Then the same
# against the mock server's faults. Judged by the server's read-back and the mock server's report against the
# device's client log (a line per fix once it is durable): nothing durable lost, nothing stored twice, no gap in
# the server's sequence numbers, nothing left pending.
#
#   scripts/measure/device-soak.sh [--seconds N] [--laps N] [--seed N] [--no-results]
#
# --seconds is the time spent killing (default 300; 70% against the reference server, 30% against the mock
# server); each round then runs to the end of the trace. The figures go to model/DEVICE-SOAK.md unless
# --no-results (CI's short round). Exit status: 0 passed, 1 failed, 2 could not run. LOCWIRE and LOCWIRE_SERVER
# name built binaries; otherwise release builds are made (the figures are about the device, not a debug build).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
results="$root/model/DEVICE-SOAK.md"
args=()
while (($#)); do
  case "$1" in
    --no-results) results="" ;;
    --seconds | --laps | --seed) args+=("$1" "$2"); shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "device-soak.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
if [[ -z ${LOCWIRE:-} ]]; then
  swift build -c release --package-path "$root" --product locwire >&2
  export LOCWIRE="$root/.build/release/locwire"
fi
if [[ -z ${LOCWIRE_SERVER:-} ]]; then
  swift build -c release --package-path "$root/Server" --product locwire-server >&2
  export LOCWIRE_SERVER="$root/Server/.build/release/locwire-server"
fi
python3 "$root/scripts/device_runs.py" soak "${args[@]}" ${results:+--results "$results"}
