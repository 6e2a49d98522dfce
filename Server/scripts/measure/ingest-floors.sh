#!/usr/bin/env bash
# Issue 24, item 2: `serve`'s cost per request against two floors, side by side in one run, on one machine, at
# one durability:
#   (a) `floor --storage none`: Hummingbird with serve's connection setup; reads the body, answers a constant ack
#   (b) `floor --storage sqlite`: (a), and the body stored as one row with serve's PRAGMAs and group commit
#   serve: the reference server on SQLite
# (b) and serve sync the WAL at every commit (durability full, serve's default); each server gets a fresh
# database. Neither floor looks tokens up, checks or decodes the batch, or runs the ledger: that is part of the
# difference measured.
#
#   Server/scripts/measure/ingest-floors.sh [--short] [--no-build] [--keep]
#
# Full form (about 8 minutes after the build): for each batch size (1, 10, 50 fixes), $FLOORS_ROUNDS rounds
# (default 2) of the three servers, the second round in reverse order (a b serve, serve b a), so drift in the
# machine's load hits all three alike; each run is `load` with $FLOORS_DEVICES devices (default 200) in a closed
# loop for $FLOORS_SECONDS s (default 20). Per run: requests/s and fixes/s (load's report), and the server's CPU
# seconds (utime + stime from /proc/PID/stat, before and after) per request. Then the sqlite3 CLI's insert
# limit for the fix rows of serve's first 50-fix run (load-sqlite.sh's method). Prints a Markdown table and
# writes the floors section of Server/RESULTS.md. Stored rows are checked: (b) one row per acknowledged request,
# serve one fix row per acknowledged fix.
#
# --short, the CI form (under 60 s after the build): each combination once for 3 s with 50 devices; fails on any
# error, checks no figure, writes no RESULTS.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

short=0
keep=0
sizes=(1 10 50)
while [ $# -gt 0 ]; do
    case $1 in
        --short) short=1; shift ;;
        --no-build) SKIP_BUILD=1; shift ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--short] [--no-build] [--keep]" >&2; exit 2 ;;
    esac
done
floors_run_shape "$short"
if [ "$short" = 0 ]; then
    command -v sqlite3 >/dev/null || { echo "sqlite3 is missing: apt-get install -y sqlite3" >&2; exit 2; }
fi

build_locwire_server "$root"
make_work_dir floors
failures=0

# run_one NAME KIND FIXES: a fresh server of KIND (a, b or serve) and one closed-loop load run against it. Leaves
# $work/NAME.json (load's report) and $work/NAME.server ("cpu_before cpu_after stored_rows").
run_one() {
    local name=$1 kind=$2 fixes=$3
    local tokens=$work/$name.tokens.json database=$work/$name.sqlite
    local common=(--host 127.0.0.1 --port 0 --extra-devices $((devices - 1)) --tokens-file "$tokens")
    local load_options=()
    case $kind in
        a) start_floor "$work/$name.log" --storage none "${common[@]}" ;;
        b) start_floor "$work/$name.log" --storage sqlite --database "$database" --durability full \
            "${common[@]}" ;;
        serve) start_server "$work/$name.log" --database "$database" --durability full "${common[@]}" ;;
    esac
    # The floors' ack is constant: load must take it as each batch's (LoadCommand --constant-ack).
    [ "$kind" = serve ] || load_options=(--constant-ack)
    local cpu_before cpu_after status=0 stored=0
    cpu_before=$(process_cpu_seconds "$server_pid")
    echo "$name: $kind, $devices devices, $fixes-fix batches, $seconds s ($server_url)" >&2
    "$bin" load --server "$server_url" --tokens-file "$tokens" --devices "$devices" --seconds "$seconds" \
        --fixes-per-batch "$fixes" --format json --output "$work/$name.json" --quiet \
        "${load_options[@]+"${load_options[@]}"}" || status=$?
    cpu_after=$(process_cpu_seconds "$server_pid")
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    if [ "$status" != 0 ]; then
        echo "$name: the load run reported errors (exit $status)" >&2
        failures=$((failures + 1))
    fi
    if [ "$short" = 0 ]; then
        case $kind in
            b) stored=$(sqlite3 "$database" "SELECT COUNT(*) FROM raw_batch") ;;
            serve) stored=$(sqlite3 "$database" "SELECT COUNT(*) FROM fix") ;;
        esac
    fi
    echo "$cpu_before $cpu_after $stored" >"$work/$name.server"
    # Only serve's first 50-fix database is kept, for the sqlite3 CLI's limit; the others take disk for nothing.
    [ "$name" = serve-50-1 ] || rm -f "$database" "$database-wal" "$database-shm"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for fixes in "${sizes[@]}"; do
    for round in $(seq 1 "$rounds"); do
        order=(a b serve)
        [ $((round % 2)) = 0 ] && order=(serve b a)
        for kind in "${order[@]}"; do run_one "$kind-$fixes-$round" "$kind" "$fixes"; done
    done
done
[ "$short" = 1 ] || bulk_insert_limit serve-50-1
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

status=0
python3 - "$work" "$short" "$rounds" "$devices" "$seconds" "$(machine_line "$work")" \
    "$(cd "$root" && git rev-parse --short HEAD)" "$load_before" "$load_after" "${sizes[@]}" \
    >"$work/section.md" <<'PYTHON' || status=$?
import datetime, json, pathlib, statistics, sys
work, short, rounds, devices, seconds, machine, commit, load_before, load_after = sys.argv[1:10]
work, short, rounds, sizes = pathlib.Path(work), short == "1", int(rounds), [int(s) for s in sys.argv[10:]]
kinds = {"a": "(a) floor, no storage", "b": "(b) floor, body as one row", "serve": "serve"}
problems = []

def run(kind, fixes, round):
    name = f"{kind}-{fixes}-{round}"
    load = json.loads((work / f"{name}.json").read_text())
    before, after, stored = (work / f"{name}.server").read_text().split()
    cpu = float(after) - float(before)
    requests = load["batchesSent"]
    errors = sum(load["errors"].values())
    if errors:
        problems.append(f"{name}: {errors} errors {load['errors']}")
    if not short:
        expected = {"b": load["batchesAcknowledged"], "serve": load["fixesAcknowledged"]}.get(kind)
        # serve: a DUPLICATE (a resend after a lost ack) is acknowledged twice and stored once.
        if expected is not None and int(stored) != expected - load["fixesAcknowledgedAsDuplicate"]:
            problems.append(f"{name}: {stored} rows stored for {expected} acknowledged")
    return {"rps": load["batchesPerSecond"], "fps": load["fixesPerSecond"],
            "cpu_us": cpu / max(requests, 1) * 1e6, "cores": cpu / load["elapsedSeconds"],
            "load_cores": load["loadGeneratorCores"], "p50": (load["latencyMs"] or {}).get("p50", 0),
            "errors": errors}

runs = {(k, f): [run(k, f, r) for r in range(1, rounds + 1)] for f in sizes for k in kinds}
mean = {key: {m: statistics.mean(r[m] for r in rs) for m in rs[0]} for key, rs in runs.items()}

def spread(key, metric, fmt):
    values = [r[metric] for r in runs[key]]
    return fmt.format(values[0]) if len(values) == 1 else "–".join(fmt.format(v) for v in (min(values), max(values)))

lines = ["| batch | server | requests/s | (rounds) | fixes/s | server CPU µs/request | (rounds) | server cores | "
         "load cores | p50 ms | errors |", "|---|---|---|---|---|---|---|---|---|---|---|"]
for f in sizes:
    for k, title in kinds.items():
        m = mean[(k, f)]
        lines.append(
            f"| {f} | {title} | {m['rps']:,.0f} | {spread((k, f), 'rps', '{:,.0f}')} | {m['fps']:,.0f} | "
            f"{m['cpu_us']:,.0f} | {spread((k, f), 'cpu_us', '{:,.0f}')} | {m['cores']:.2f} | "
            f"{m['load_cores']:.2f} | {m['p50']:.1f} | {sum(r['errors'] for r in runs[(k, f)])} |")
table = "\n".join(lines)
ratios = ["| batch | requests/s serve/(a) | requests/s serve/(b) | CPU/request serve/(a) | CPU/request serve/(b) | "
          "serve − (b), µs/request | (b) − (a), µs/request |", "|---|---|---|---|---|---|---|"]
for f in sizes:
    a, b, s = mean[("a", f)], mean[("b", f)], mean[("serve", f)]
    ratios.append(
        f"| {f} | {s['rps'] / a['rps']:.2f} | {s['rps'] / b['rps']:.2f} | {s['cpu_us'] / a['cpu_us']:.2f} | "
        f"{s['cpu_us'] / b['cpu_us']:.2f} | {s['cpu_us'] - b['cpu_us']:,.0f} | {b['cpu_us'] - a['cpu_us']:,.0f} |")
ratio_table = "\n".join(ratios)

if short:
    print(table)
else:
    limit = json.loads((work / "limit.json").read_text())
    sql_rate = limit["rows"] / (limit["sqlMs"] / 1000)
    serve50 = mean[("serve", 50)]["fps"]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
    print(f"""## Floors

{now}, {machine}, commit {commit}. Load average before and after (1, 5, 15 min): {load_before} / {load_after}.
`Server/scripts/measure/ingest-floors.sh`: for each batch size, {rounds} rounds of the three servers (the second in reverse
order), each a fresh server (and database) driven by `locwire-server load` with {devices} devices in a closed loop
for {seconds} s. (b) and serve run with durability full (the WAL synced at every commit). Requests/s and fixes/s are
load's; server CPU is the server process's user + system time over the run (from /proc/PID/stat) over the
requests sent. The load generator shares the machine's 2 cores (load cores). Figures are means of the rounds;
(rounds) gives the lowest and highest.

{table}

Ratios (means):

{ratio_table}

Against the sqlite3 CLI limit (load-sqlite.sh's method, the fix rows of serve's first 50-fix run,
{limit['rows']:,} rows as INSERT statements in one transaction): {sql_rate:,.0f} rows/s; serve's 50-fix
fixes/s ({serve50:,.0f}) is **{serve50 / sql_rate:.0%}** of it.

What the floors leave out, and so what serve − (b) holds: bearer-token lookup (SHA-256 and a SELECT on a reader
per request; the floors take any `Authorization`), the media type, coding and size checks and the body time-out
task of RequestReader, decoding the batch, the ingest ledger (the installation's record read, decoded, updated
and encoded), one row per fix instead of one per request (plus the device status upsert), and encoding an ack
per request instead of sending one made at start.

Commands (from the repository root):
```
Server/scripts/measure/ingest-floors.sh               # everything above; builds release first; --short is the CI form
# one combination by hand (floor (b), 1-fix batches):
Server/.build/release/locwire-floor --storage sqlite --database /tmp/f.sqlite --port 8080 --extra-devices {int(devices) - 1} --tokens-file /tmp/t.json &
Server/.build/release/locwire-server load --server http://127.0.0.1:8080 --tokens-file /tmp/t.json --devices {devices} --seconds {seconds} --fixes-per-batch 1 --constant-ack
```""")
for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PYTHON
finish_measure floors $((failures + status))
