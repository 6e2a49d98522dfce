#!/usr/bin/env bash
# The load runs of issue 12 against `locwire-server serve` on SQLite, and the physical limit they are measured
# against: the same rows bulk-inserted through the sqlite3 CLI in one transaction, in the same run.
#
#   Server/scripts/measure/load-sqlite.sh [--short] [--no-build] [--keep]
#
# Full form (about 4 minutes after the build), each run on a fresh database and a fresh `serve`:
#   A  1,000 devices, 60 s, 50-fix batches, closed loop: fixes per second, batch latency
#   B  100 devices, 30 s, 500-fix batches, closed loop: the most the devices can offer
#   C  100 devices, 30 s, 500-fix batches, one batch per device every $PACED_INTERVAL s (default 1): latency
#      at a stated load below saturation
#   L  the fix rows of run A, dumped as SQL INSERT statements beforehand, then timed into a fresh database
#      with the same table through `sqlite3` in one transaction; also INSERT ... SELECT from the attached
#      database (no SQL text to parse), the bare B-tree cost
# and writes Server/RESULTS.md (its load-sqlite section). Every run also checks consistency: every
# acknowledged fix is stored once with the bytes sent (Server/scripts/check-ack-journal.py).
#
# --short, the CI form (about 30 s): 50 devices for 10 s (50-fix batches) and 20 devices for 5 s (500-fix
# batches); fails on any error or inconsistency, checks no target, writes no RESULTS.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

short=0
keep=0
paced_interval=${PACED_INTERVAL:-1}
while [ $# -gt 0 ]; do
    case $1 in
        --short) short=1; shift ;;
        --no-build) SKIP_BUILD=1; shift ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--short] [--no-build] [--keep]" >&2; exit 2 ;;
    esac
done
command -v sqlite3 >/dev/null || { echo "sqlite3 is missing: apt-get install -y sqlite3" >&2; exit 2; }

build_locwire_server "$root"
work=$(mktemp -d "${TMPDIR:-/tmp}/load-sqlite.XXXXXX")
cleanup() {
    [ -n "${server_pid:-}" ] && kill -9 "$server_pid" 2>/dev/null || true
    if [ "$keep" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
failures=0

# run_load NAME DEVICES SECONDS FIXES INTERVAL: a fresh serve and database, one load run with the ack journal,
# the server's CPU over the run, and the consistency check. Leaves $work/NAME.{sqlite,json,server-cpu,check.json}.
run_load() {
    local name=$1 devices=$2 seconds=$3 fixes=$4 interval=$5
    start_server "$work/$name.serve.log" --host 127.0.0.1 --port 0 --database "$work/$name.sqlite" \
        --extra-devices $((devices - 1)) --tokens-file "$work/$name.tokens.json"
    local cpu_before status=0
    cpu_before=$(process_cpu_seconds "$server_pid")
    echo "run $name: $devices devices, $seconds s, $fixes fixes per batch, interval $interval s ($server_url)" >&2
    "$bin" load --server "$server_url" --tokens-file "$work/$name.tokens.json" --devices "$devices" \
        --seconds "$seconds" --fixes-per-batch "$fixes" --interval "$interval" --ack-journal "$work/$name.acks.csv" \
        --format json --output "$work/$name.json" || status=$?
    echo "$cpu_before $(process_cpu_seconds "$server_pid")" >"$work/$name.server-cpu"
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    if [ "$status" != 0 ]; then
        echo "run $name: the load run reported errors (exit $status)" >&2
        failures=$((failures + 1))
    fi
    if ! python3 "$root/Server/scripts/check-ack-journal.py" --database "$work/$name.sqlite" \
        --journal "$work/$name.acks.csv" --json "$work/$name.check.json" >"$work/$name.check.txt"; then
        echo "run $name: inconsistent database:" >&2
        cat "$work/$name.check.txt" >&2
        failures=$((failures + 1))
    fi
    rm -f "$work/$name.acks.csv"
}

if [ "$short" = 1 ]; then
    run_load short-a 50 10 50 0
    run_load short-b 20 5 500 0
    python3 - "$work" <<'PYTHON'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
for name in ("short-a", "short-b"):
    load = json.loads((work / f"{name}.json").read_text())
    check = json.loads((work / f"{name}.check.json").read_text())
    print(f"{name}: {load['devices']} devices x {load['fixesPerBatch']} fixes: {load['fixesAcknowledged']} fixes "
          f"acknowledged ({load['fixesPerSecond']:.0f}/s), p99 {load['latencyMs']['p99']:.1f} ms, "
          f"errors {sum(load['errors'].values())}, lost {check['lost']}, duplicates {check['duplicates']}")
PYTHON
    if [ "$failures" != 0 ]; then echo "load-sqlite --short: FAIL ($failures)" >&2; exit 1; fi
    echo "load-sqlite --short: pass"
    exit 0
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
run_load a 1000 60 50 0
run_load b 100 30 500 0
run_load c 100 30 500 "$paced_interval"
bulk_insert_limit a
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work" "$(machine_line "$work")" "$(cd "$root" && git rev-parse --short HEAD)" "$load_before" \
    "$load_after" "$paced_interval" >"$work/section.md" <<'PYTHON'
import datetime, json, pathlib, sys
work, machine, commit, load_before, load_after, paced = sys.argv[1:7]
work = pathlib.Path(work)
runs = {name: json.loads((work / f"{name}.json").read_text()) for name in "abc"}
checks = {name: json.loads((work / f"{name}.check.json").read_text()) for name in "abc"}
cpu = {}
for name in "abc":
    before, after = map(float, (work / f"{name}.server-cpu").read_text().split())
    cpu[name] = (after - before) / runs[name]["elapsedSeconds"]
limit = json.loads((work / "limit.json").read_text())
sql_rate = limit["rows"] / (limit["sqlMs"] / 1000)
select_rate = limit["rows"] / (limit["selectMs"] / 1000)
a = runs["a"]
ratio = a["fixesPerSecond"] / sql_rate
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")

def row(title, name):
    r, lat = runs[name], runs[name]["latencyMs"] or {}
    errors = sum(r["errors"].values())
    return (f"| {title} | {r['fixesPerSecond']:,.0f} | {r['batchesPerSecond']:,.0f} | {lat.get('p50', 0):.1f} | "
            f"{lat.get('p90', 0):.1f} | {lat.get('p99', 0):.1f} | {lat.get('max', 0):.1f} | {errors} | "
            f"{checks[name]['lost']} / {checks[name]['duplicates']} | {cpu[name]:.2f} | {r['loadGeneratorCores']:.2f} |")

b, c = runs["b"], runs["c"]
print(f"""## Load against `serve` on SQLite

{now}, {machine}, commit {commit}. Load average before and after (1, 5, 15 min): {load_before} / {load_after}.
The server and the load generator share the machine's 2 cores; the last two columns say how much of them
each took (CPU seconds over the run's seconds). `serve` runs with its default durability (full: the WAL is synced
at every commit).

| run | fixes/s acked | batches/s | p50 ms | p90 ms | p99 ms | max ms | errors | lost / dup | server cores | load cores |
|---|---|---|---|---|---|---|---|---|---|---|
{row("A: 1,000 devices, 50-fix batches, closed loop, 60 s", "a")}
{row("B: 100 devices, 500-fix batches, closed loop, 30 s", "b")}
{row(f"C: 100 devices, 500-fix batches, one per device every {paced} s, 30 s", "c")}

Physical limit (rows of run A: {limit['rows']:,} fixes, {limit['sqlBytes'] / 1e6:.0f} MB of SQL):
- `sqlite3` CLI, the rows as INSERT statements, one transaction: {limit['sqlMs'] / 1000:.2f} s,
  **{sql_rate:,.0f} rows/s** (the issue's limit).
- `sqlite3` CLI, `INSERT INTO fix SELECT * FROM` the attached served database, one transaction (no SQL text to
  parse: the bare B-tree and index cost): {limit['selectMs'] / 1000:.2f} s, {select_rate:,.0f} rows/s.

Ingest over the limit (run A's acknowledged fixes per second over the CLI's rows per second):
**{ratio:.0%}** (target: at least 50%); over the INSERT ... SELECT figure: {a['fixesPerSecond'] / select_rate:.0%}.

Batch latency target (500-fix batches, 100 devices, p99 at most 50 ms): closed loop (B) p99
{b['latencyMs']['p99']:.1f} ms; at one batch per device every {paced} s (C, an offered
{100 * 500 / float(paced):,.0f} fixes/s) p99 {c['latencyMs']['p99']:.1f} ms. In a closed loop every device sends again as
soon as it is answered, so the batches queue at the one SQLite writer and latency is devices / batches per second
(Little's law) whatever the server does; the paced run gives the latency at a stated load below saturation.

Commands (from the repository root):
```
Server/scripts/measure/load-sqlite.sh          # everything above; builds release first (swift build -c release)
# one run by hand:
Server/.build/release/locwire-server serve --port 8080 --database /tmp/l.sqlite --extra-devices 999 --tokens-file /tmp/t.json &
Server/.build/release/locwire-server load --server http://127.0.0.1:8080 --tokens-file /tmp/t.json --devices 1000 --seconds 60 --fixes-per-batch 50
```""")
PYTHON
cat "$work/section.md"
replace_results_section "$root/Server/RESULTS.md" load-sqlite "$work/section.md"
echo "wrote the load-sqlite section of Server/RESULTS.md" >&2
if [ "$failures" != 0 ]; then echo "load-sqlite: $failures failures" >&2; exit 1; fi
