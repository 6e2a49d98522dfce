#!/usr/bin/env bash
# The crash soak of issue 12: `locwire-server serve` (SQLite) is killed with SIGKILL at random moments and
# restarted on the same database and port, while `locwire-server load` uploads with --ack-journal; then every
# acknowledged fix must be in the database exactly once with the same bytes (Server/scripts/check-ack-journal.py).
#
#   Server/scripts/measure/crash-soak.sh [--seconds 120] [--devices 50] [--short] [--no-build] [--keep]
#
# --short is the CI form (20 s, 20 devices, kills every 0.5-2 s); it prints and checks, and leaves
# Server/RESULTS.md alone. The full form replaces the crash-soak section of Server/RESULTS.md.
# Loopback only; everything it starts it stops. Exit status 1 on any lost or duplicated fix, or when nothing was
# killed or acknowledged.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

seconds=120
devices=50
fixes_per_batch=50
short=0
keep=0
min_gap_ms=1000
max_gap_ms=5000
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift 2 ;;
        --devices) devices=$2; shift 2 ;;
        --short) short=1; shift ;;
        --no-build) SKIP_BUILD=1; shift ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--seconds S] [--devices N] [--short] [--no-build] [--keep]" >&2; exit 2 ;;
    esac
done
if [ "$short" = 1 ]; then
    seconds=20
    devices=20
    min_gap_ms=500
    max_gap_ms=2000
fi

build_locwire_server "$root"
work=$(mktemp -d "${TMPDIR:-/tmp}/crash-soak.XXXXXX")
load_pid=
cleanup() {
    [ -n "${server_pid:-}" ] && kill -9 "$server_pid" 2>/dev/null || true
    [ -n "$load_pid" ] && kill -9 "$load_pid" 2>/dev/null || true
    if [ "$keep" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

port=$(free_port)
serve_args=(--host 127.0.0.1 --port "$port" --database "$work/soak.sqlite" --extra-devices $((devices - 1))
    --tokens-file "$work/tokens.json")
start_server "$work/serve.log" "${serve_args[@]}"
echo "crash soak: $devices devices, $seconds s, server $server_url, work $work" >&2

"$bin" load --server "$server_url" --tokens-file "$work/tokens.json" --devices "$devices" --seconds "$seconds" \
    --fixes-per-batch "$fixes_per_batch" --timeout 5 --ack-journal "$work/acks.csv" --format json \
    --output "$work/load.json" 2>"$work/load.log" &
load_pid=$!

# Kill at uniformly random moments min_gap..max_gap apart until 1 s before the load stops, so that the last
# batches meet a running server; restart at once on the same database and port.
kills=0
restart_ms_total=0
deadline=$(($(date +%s%N) / 1000000 + seconds * 1000 - 1000))
while :; do
    gap_ms=$((min_gap_ms + (RANDOM * 32768 + RANDOM) % (max_gap_ms - min_gap_ms + 1)))
    now_ms=$(($(date +%s%N) / 1000000))
    [ $((now_ms + gap_ms)) -lt "$deadline" ] || break
    sleep "$(printf '%d.%03d' $((gap_ms / 1000)) $((gap_ms % 1000)))"
    kill -9 "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    kills=$((kills + 1))
    down_ms=$(($(date +%s%N) / 1000000))
    start_server "$work/serve.log" "${serve_args[@]}"
    restart_ms_total=$((restart_ms_total + $(date +%s%N) / 1000000 - down_ms))
done

load_status=0
wait "$load_pid" || load_status=$?
load_pid=
kill -TERM "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
server_pid=

if [ ! -s "$work/load.json" ]; then
    echo "the load run wrote no report (exit $load_status):" >&2
    tail -n 20 "$work/load.log" >&2
    exit 1
fi
check_status=0
python3 "$root/Server/scripts/check-ack-journal.py" --database "$work/soak.sqlite" --journal "$work/acks.csv" \
    --json "$work/check.json" >"$work/check.txt" || check_status=$?

summary=$(python3 - "$work/load.json" "$work/check.json" "$kills" "$restart_ms_total" <<'PYTHON'
import json, sys
load, check = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
kills, restart_ms = int(sys.argv[3]), int(sys.argv[4])
errors = ", ".join(f"{k}: {v}" for k, v in sorted(load["errors"].items())) or "none"
print(f"kills: {kills} (restart to listening: {restart_ms / max(kills, 1):.0f} ms on average)")
print(f"acknowledged fixes: {check['acknowledged_fixes']} ({load['fixesPerSecond']:.0f} per second through the kills)")
print(f"acks answering a resend DUPLICATE (stored before a kill, ack lost): {load['fixesAcknowledgedAsDuplicate']} fixes")
print(f"lost: {check['lost']}")
print(f"changed: {check['changed']}")
print(f"duplicates: {check['duplicates']}")
print(f"stored but never acknowledged (acks lost to the last kills or the end): {check['stored_not_acknowledged']}")
print(f"batches: {load['batchesSent']} sent, {load['batchesAcknowledged']} acknowledged")
print(f"errors the devices rode through: {errors}")
PYTHON
)
echo "$summary"
if [ "$kills" -eq 0 ]; then
    echo "FAIL: the server was never killed (the run was too short)" >&2
    check_status=1
fi

if [ "$short" = 0 ]; then
    {
        echo "## Crash soak (SQLite)"
        echo
        echo "$(date -u +%Y-%m-%dT%H:%MZ), $(machine_line "$work"), $(cd "$root" && git rev-parse --short HEAD)."
        echo
        echo "\`Server/scripts/measure/crash-soak.sh --seconds $seconds --devices $devices\`: $devices devices uploading" \
            "$fixes_per_batch-fix batches in a closed loop for $seconds s; \`serve\` (durability full) killed" \
            "with SIGKILL every $((min_gap_ms / 1000))-$((max_gap_ms / 1000)) s (uniformly random) and" \
            "restarted on the same database and port. Every acknowledged fix journalled by the load run" \
            "(\`--ack-journal\`) is then looked up with Python's sqlite3 (Server/scripts/check-ack-journal.py)."
        echo
        echo '```'
        echo "$summary"
        echo '```'
        if [ "$check_status" = 0 ]; then echo; echo "Verdict: pass (0 lost, 0 duplicates)."; else echo; echo "Verdict: FAIL."; fi
    } >"$work/section.md"
    replace_results_section "$root/Server/RESULTS.md" crash-soak "$work/section.md"
    echo "wrote the crash-soak section of Server/RESULTS.md" >&2
fi
exit "$check_status"
