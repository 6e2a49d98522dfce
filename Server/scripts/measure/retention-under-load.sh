#!/usr/bin/env bash
# Retention while ingesting (issue 24, item 3): how fast `serve --retain-days` removes old rows, and what it
# costs the ingest beside it. On SQLite (a fresh file) and, with --postgres, on PostgreSQL (day partitions).
#
#   Server/scripts/measure/retention-under-load.sh [--short] [--no-build] [--postgres URL] [--keep]
#
# Each backend, on one database:
#   old       `serve --clock-offset-ms -40 days` (a hidden option: the server's clock 40 days back), DEVICES
#             devices upload for OLD_SECONDS: the rows retention will remove. It runs with --retain-days 1000,
#             which removes nothing but makes PostgreSQL's day partitions for those days.
#   baseline  `serve` on today's clock, no retention: DEVICES devices for SECONDS, the ingest rate alone.
#   retained  `serve --retain-days 30 --retention-interval-seconds 1` with the same load: the ingest rate while
#             retention removes the old rows, and retention's own log lines (rows removed, seconds, partitions).
# Then it checks that no row received 40 days back is left and that every row of the two later runs is.
# Full form: DEVICES=100, OLD_SECONDS=60, SECONDS=30, and writes the retention section of Server/RESULTS.md.
# --short (CI, about a minute): 20 devices, 5 s each, checks only.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

short=0
keep=0
postgres=
while [ $# -gt 0 ]; do
    case $1 in
        --short) short=1; shift ;;
        --no-build) SKIP_BUILD=1; shift ;;
        --postgres) postgres=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--short] [--no-build] [--postgres URL] [--keep]" >&2; exit 2 ;;
    esac
done
if [ "$short" = 1 ]; then devices=20 old_seconds=5 seconds=5; else devices=100 old_seconds=60 seconds=30; fi
command -v sqlite3 >/dev/null || { echo "sqlite3 is missing: apt-get install -y sqlite3" >&2; exit 2; }
if [ -n "$postgres" ]; then command -v psql >/dev/null || { echo "psql is missing" >&2; exit 2; }; fi

build_locwire_server "$root"
make_work_dir retention-run
day_ms=86400000
offset_ms=$((-40 * day_ms))

# run_load NAME BACKEND SEED SERVE-ARGS...: one serve, one load; the load's JSON report in $work/NAME.json.
run_load() {
    local name=$1 backend=$2 seed=$3
    shift 3
    local storage
    if [ "$backend" = sqlite ]; then storage=(--database "$work/retention.sqlite"); else storage=(--postgres "$postgres"); fi
    start_server "$work/$backend-$name.log" --host 127.0.0.1 --port 0 "${storage[@]}" \
        --extra-devices $((devices - 1)) --tokens-file "$work/$backend.tokens.json" "$@"
    local cpu_before
    cpu_before=$(process_cpu_seconds "$server_pid")
    echo "$backend $name: $devices devices, ${run_seconds} s ($server_url)" >&2
    "$bin" load --server "$server_url" --tokens-file "$work/$backend.tokens.json" --devices "$devices" \
        --seconds "$run_seconds" --fixes-per-batch 50 --seed "$seed" --format json --output "$work/$backend-$name.json"
    # Retention may still be at work once the load stops: give its round time to end and log.
    if [ "$name" = retained ]; then
        for _ in $(seq 1 600); do
            grep -q "retention removed rows" "$work/$backend-$name.log" && break
            sleep 0.1
        done
    fi
    echo "$cpu_before $(process_cpu_seconds "$server_pid")" >"$work/$backend-$name.cpu"
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

# count BACKEND SQL: one number from the backend's database.
count() {
    if [ "$1" = sqlite ]; then sqlite3 "$work/retention.sqlite" "$2"; else psql -qtA "$postgres" -c "$2"; fi
}

backends=(sqlite)
[ -n "$postgres" ] && backends+=(postgres)
failures=0
: >"$work/table.md"
for backend in "${backends[@]}"; do
    if [ "$backend" = postgres ]; then
        psql -q "$postgres" -c "DROP TABLE IF EXISTS fix, fence_event, lifecycle_event, device_status, assignment,
            installation, device_token, operator_token, schema_migration CASCADE" >/dev/null
    fi
    run_seconds=$old_seconds run_load old "$backend" 1 --clock-offset-ms="$offset_ms" --retain-days 1000
    old_rows=$(count "$backend" "SELECT COUNT(*) FROM fix")
    run_seconds=$seconds run_load baseline "$backend" 2
    run_seconds=$seconds run_load retained "$backend" 3 --retain-days 30 --retention-interval-seconds 1
    cutoff=$(($(date +%s) * 1000 - 30 * day_ms))
    left_old=$(count "$backend" "SELECT COUNT(*) FROM fix WHERE received_at_ms < $cutoff")
    kept=$(count "$backend" "SELECT COUNT(*) FROM fix WHERE received_at_ms >= $cutoff")
    python3 - "$work" "$backend" "$old_rows" "$left_old" "$kept" >>"$work/table.md" <<'PYTHON' || failures=$((failures + 1))
import json, pathlib, re, sys
work, backend, old_rows, left_old, kept = pathlib.Path(sys.argv[1]), sys.argv[2], *map(int, sys.argv[3:])
def load(name):
    report = json.loads((work / f"{backend}-{name}.json").read_text())
    before, after = map(float, (work / f"{backend}-{name}.cpu").read_text().split())
    return report, after - before
baseline, baseline_cpu = load("baseline")
retained, retained_cpu = load("retained")
removed = {"fixes": 0, "fenceEvents": 0, "lifecycleEvents": 0, "partitionsDropped": 0, "seconds": 0.0}
for line in (work / f"{backend}-retained.log").read_text().splitlines():
    if "retention removed rows" not in line:
        continue
    for key in removed:
        match = re.search(rf"\b{key}=([0-9.]+)", line)
        if match:
            removed[key] += float(match.group(1))
problems = []
if left_old:
    problems.append(f"{left_old} fixes received 40 days back are left")
stored_later = baseline["fixesAcknowledged"] + retained["fixesAcknowledged"]
if kept != stored_later:
    problems.append(f"{kept} recent fixes stored, {stored_later} acknowledged by the two later runs")
if removed["fixes"] != old_rows:
    problems.append(f"retention logged {int(removed['fixes'])} fixes removed, {old_rows} were old")
rate = removed["fixes"] / removed["seconds"] if removed["seconds"] else float("nan")
print(f"| {backend} | {old_rows:,} | {int(removed['fixes']):,} in {removed['seconds']:.1f} s | {rate:,.0f} | "
      f"{int(removed['partitionsDropped'])} | {baseline['fixesPerSecond']:,.0f} | {retained['fixesPerSecond']:,.0f} | "
      f"{retained['fixesPerSecond'] / baseline['fixesPerSecond']:.2f} | "
      f"{(baseline.get('latencyMs') or {}).get('p99', float('nan')):.1f} / "
      f"{(retained.get('latencyMs') or {}).get('p99', float('nan')):.1f} |")
for problem in problems:
    print(f"{backend}: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
PYTHON
done
{
    echo "| backend | old fixes | removed (retention's rounds) | fixes removed per s | partitions dropped |" \
        "ingest alone, fixes/s | ingest beside retention, fixes/s | ratio | batch p99 ms alone / beside |"
    echo "|---|---|---|---|---|---|---|---|---|"
    cat "$work/table.md"
} >"$work/table.full.md"
cat "$work/table.full.md"
if [ "$failures" != 0 ]; then
    echo "retention-run.sh: $failures backend(s) failed their checks" >&2
    exit 1
fi
if [ "$short" = 0 ]; then
    {
        echo "## Retention while ingesting"
        echo
        echo "\`Server/scripts/measure/retention-under-load.sh${postgres:+ --postgres URL}\`, $(date -u +%Y-%m-%d), commit" \
            "$(git -C "$root" rev-parse --short HEAD), $(machine_line "$work")."
        echo "$devices devices with 50-fix batches upload for $old_seconds s on a clock 40 days back; then, on" \
            "today's clock, the same load for $seconds s without retention and $seconds s with \`--retain-days 30\`," \
            "whose first round removes every old row while the load runs. Removal rate: the fixes retention's" \
            "log lines count over the seconds they report (events and lifecycle rows are removed too, not counted" \
            "here). Checked: no old fix left, every later fix kept."
        echo
        cat "$work/table.full.md"
    } >"$work/section.md"
    replace_results_section "$root/Server/RESULTS.md" retention "$work/section.md"
    echo "wrote the retention section of Server/RESULTS.md" >&2
fi
