#!/usr/bin/env bash
# Issue 38, item 4: `serve --postgres`, the build before group commit against the build after it, side by side in
# one run on one PostgreSQL cluster, with PostgreSQL's own floor for the same rows: COPY of them into the same
# tables.
#
#   Server/scripts/measure/postgres-floors.sh --before BIN [--after BIN] [--short] [--no-build] [--keep]
#       [--postgres URL | --postgres-dir DIR --postgres-port PORT]
#
# --before BIN   the build before (a locwire-server binary); optional with --short, which then runs only after.
# --after BIN    the build after; by default this checkout's, built here (release, or the debug build with
#                LOCWIRE_BUILD_CONFIGURATION=debug; --no-build or SKIP_BUILD=1 takes it as built). The after
#                build's `load` drives both builds, so the load generator is the same.
# --postgres URL a running PostgreSQL on this machine (its CPU is read from /proc); by default the cluster of
#                Server/scripts/start-postgres.sh, started when not running (--postgres-dir and --postgres-port
#                are passed to it) and left running. Every run drops the server's tables first: not a database
#                whose data matter.
#
# Full form (about 5 minutes after the build): for each batch size (1, 10, 50 fixes), $FLOORS_ROUNDS rounds
# (default 2) of the two builds, the second round in reverse order (before after, after before), so drift in the
# machine's load hits both alike. Each run: the tables dropped, one `serve --postgres` of that build, and `load`
# with $FLOORS_DEVICES devices (default 200) in a closed loop for $FLOORS_SECONDS s (default 20). Per run:
# requests/s and fixes/s (load's report), server CPU (utime + stime from /proc/PID/stat) and PostgreSQL CPU (the
# cluster's processes, postgres_cpu_seconds) per request, and the 1-minute load average before and after.
# Checked with psql: the fix rows stored are the fixes acknowledged, each key once.
# After each run of the after build, its floor: every row the ingest left (installation, fix, device_status, and
# fence_event and lifecycle_event when not empty) copied out in arrival order (binary COPY), the tables truncated,
# and the rows copied back in by psql's \copy (COPY FROM STDIN), all tables in one transaction; wall time and
# PostgreSQL CPU from just before BEGIN to just after COMMIT, measured inside the psql session.
# Prints a Markdown table and the issue's three targets as ratios within the run (whether each is met; a missed
# target does not fail the script), and writes the postgres-floors section of Server/RESULTS.md. Exits non-zero
# on any load error or inconsistent rows.
#
# --short, the CI form (under a minute after the build): one round, 3 s per run, 50 devices, 1- and 50-fix batches;
# fails on errors and inconsistent rows only, writes no RESULTS.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

usage="usage: $0 --before BIN [--after BIN] [--short] [--no-build] [--keep] [--postgres URL | --postgres-dir DIR \
--postgres-port PORT]"
short=0
keep=0
before_bin=
after_bin=
url=
start_options=()
read -r -a sizes <<<"${FLOORS_SIZES:-1 10 50}"
while [ $# -gt 0 ]; do
    case $1 in
        --before) before_bin=$2; shift 2 ;;
        --after) after_bin=$2; shift 2 ;;
        --short) short=1; shift ;;
        --no-build) SKIP_BUILD=1; shift ;;
        --keep) keep=1; shift ;;
        --postgres) url=$2; shift 2 ;;
        --postgres-dir) start_options+=(--dir "$2"); shift 2 ;;
        --postgres-port) start_options+=(--port "$2"); shift 2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
floors_run_shape "$short"
if [ "$short" = 1 ]; then
    sizes=(1 50)
elif [ -z "$before_bin" ]; then
    echo "the full form compares two builds: --before BIN is required (only --short runs without it)" >&2
    exit 2
fi
command -v psql >/dev/null || { echo "psql is missing: apt-get install -y postgresql-client" >&2; exit 2; }
if [ -z "$after_bin" ]; then
    build_locwire_server "$root"
    after_bin=$bin
fi
for binary in "$after_bin" ${before_bin:+"$before_bin"}; do
    [ -x "$binary" ] || { echo "no executable at $binary" >&2; exit 2; }
done
[ -n "$url" ] || url=$("$root/Server/scripts/start-postgres.sh" "${start_options[@]+"${start_options[@]}"}")
postmaster=$(postmaster_pid "$url")

make_work_dir postgres-floors
# The COPY floor reads the clock and the cluster's CPU from inside its psql session (\!), so that neither the
# connection's start nor psql's own start is timed.
cat >"$work/mark.sh" <<SCRIPT
#!/usr/bin/env bash
. "$root/Server/scripts/lib-server-runs.sh"
echo "\$(date +%s%N) \$(postgres_cpu_seconds $postmaster)"
SCRIPT
chmod +x "$work/mark.sh"

# sql ARGS...: psql on the cluster, unaligned, stopping at the first error.
sql() { psql -X -q -tA -v ON_ERROR_STOP=1 "$url" "$@"; }

# run_one NAME BUILD FIXES: empty tables, a `serve --postgres` of BUILD (before or after) and one closed-loop load
# run. Leaves $work/NAME.json (load's report) and $work/NAME.run ("server CPU s before, after; PostgreSQL CPU s
# before, after; load average before, after; exit status of load; fix rows stored; distinct fix keys").
run_one() {
    local name=$1 build=$2 fixes=$3
    local binary=$after_bin
    local options=()
    [ "$build" = before ] && binary=$before_bin
    # FLOORS_AFTER_OPTIONS: serve options for the after build only (say, --postgres-groups 4), to try settings.
    [ "$build" = after ] && read -r -a options <<<"${FLOORS_AFTER_OPTIONS:-}"
    drop_server_tables "$url"
    start_locwire "$work/$name.log" "$binary" serve --host 127.0.0.1 --port 0 --postgres "$url" \
        --extra-devices $((devices - 1)) --tokens-file "$work/$name.tokens.json" "${options[@]}"
    local load_before server_before postgres_before commits_before status=0
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    commits_before=$(committed_transactions)
    server_before=$(process_cpu_seconds "$server_pid")
    postgres_before=$(postgres_cpu_seconds "$postmaster")
    echo "$name: $build, $devices devices, $fixes-fix batches, $seconds s ($server_url)" >&2
    "$after_bin" load --server "$server_url" --tokens-file "$work/$name.tokens.json" --devices "$devices" \
        --seconds "$seconds" --fixes-per-batch "$fixes" --format json --output "$work/$name.json" --quiet ||
        status=$?
    echo "$server_before $(process_cpu_seconds "$server_pid") $postgres_before $(postgres_cpu_seconds "$postmaster")" \
        "$load_before $(cut -d' ' -f1 /proc/loadavg) $status" \
        "$(sql -F ' ' -c "SELECT COUNT(*), COUNT(DISTINCT (device_id, install_id, sequence)) FROM fix")" \
        "$commits_before $(committed_transactions)" >"$work/$name.run"
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

# committed_transactions: the database's commits so far (pg_stat_database, flushed after a second of idleness; the
# psql sessions of the script add a few): requests per commit is the mean size of a group.
committed_transactions() {
    sleep 1
    sql -c "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
}

# The tables the ingest writes, each with the column that orders its rows by arrival: the floor copies them back
# in the order the server stored them.
ingest_tables=(installation:updated_at_ms fix:received_at_ms device_status:received_at_ms
    fence_event:received_at_ms lifecycle_event:received_at_ms)

# copy_floor NAME: PostgreSQL's floor for the rows the server just stored: they are copied out, the tables
# truncated, and the rows copied back in one transaction. Leaves $work/NAME.run ("fix rows; wall ns and
# PostgreSQL CPU s at the start, then at the end; load average before, after; fix rows after; the tables copied
# with their rows").
copy_floor() {
    local name=$1 entry table order rows copied=() load_before
    local script=$work/$name.sql marks=$work/$name.marks
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    {
        echo "\\! '$work/mark.sh' >>'$marks'"
        echo "BEGIN;"
    } >"$script"
    for entry in "${ingest_tables[@]}"; do
        table=${entry%%:*}
        order=${entry#*:}
        rows=$(sql -c "SELECT COUNT(*) FROM $table")
        [ "$rows" != 0 ] || continue
        sql -c "\\copy (SELECT * FROM $table ORDER BY $order) TO '$work/$name.$table' WITH (FORMAT binary)"
        echo "\\copy $table FROM '$work/$name.$table' WITH (FORMAT binary)" >>"$script"
        copied+=("$table:$rows")
    done
    echo "COMMIT;" >>"$script"
    echo "\\! '$work/mark.sh' >>'$marks'" >>"$script"
    local source_rows
    source_rows=$(sql -c "SELECT COUNT(*) FROM fix")
    sql -c "TRUNCATE $(printf '%s\n' "${ingest_tables[@]%%:*}" | paste -sd,)"
    echo "$name: COPY of $source_rows fix rows (${copied[*]})" >&2
    sql -f "$script"
    echo "$source_rows $(paste -sd' ' "$marks") $load_before $(cut -d' ' -f1 /proc/loadavg)" \
        "$(sql -c "SELECT COUNT(*) FROM fix") ${copied[*]}" >"$work/$name.run"
    rm -f "$work/$name".{installation,fix,device_status,fence_event,lifecycle_event}
}

load_average_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date +%s)
builds=(before after)
[ -n "$before_bin" ] || builds=(after)
for fixes in "${sizes[@]}"; do
    for round in $(seq 1 "$rounds"); do
        order=("${builds[@]}")
        if [ $((round % 2)) = 0 ]; then
            order=()
            for ((i = ${#builds[@]} - 1; i >= 0; i--)); do order+=("${builds[i]}"); done
        fi
        for build in "${order[@]}"; do
            run_one "$build-$fixes-$round" "$build" "$fixes"
            if [ "$build" = after ]; then copy_floor "copy-$fixes-$round"; fi
        done
    done
done
load_average_after=$(cut -d' ' -f1-3 /proc/loadavg)
elapsed=$(($(date +%s) - started))

# binary_line PATH [WHAT]: how the section names a build; FLOORS_BEFORE_NAME and FLOORS_AFTER_NAME say what it is
# (say, "a release build of 64e0747"), which a path alone does not.
binary_line() { echo "\`$1\` (sha256 $(sha256sum "$1" | cut -c1-12))${2:+, $2}"; }
status=0
python3 - "$work" "$short" "$rounds" "$devices" "$seconds" "$(machine_line "$work")" \
    "$(cd "$root" && git rev-parse --short HEAD)" "$load_average_before" "$load_average_after" "$elapsed" \
    "$(binary_line "$after_bin" "${FLOORS_AFTER_NAME:-}")" \
    "${before_bin:+$(binary_line "$before_bin" "${FLOORS_BEFORE_NAME:-}")}" "${builds[*]}" "${sizes[@]}" \
    >"$work/section.md" <<'PYTHON' || status=$?
import datetime, json, os, pathlib, statistics, sys
(work, short, rounds, devices, seconds, machine, commit, load_before, load_after, elapsed, after_bin, before_bin,
 builds) = sys.argv[1:14]
work, short, rounds, builds = pathlib.Path(work), short == "1", int(rounds), builds.split()
sizes = [int(s) for s in sys.argv[14:]]
problems = []
ticks = os.sysconf("SC_CLK_TCK")

def served(build, fixes, round):
    name = f"{build}-{fixes}-{round}"
    load = json.loads((work / f"{name}.json").read_text())
    (server_before, server_after, postgres_before, postgres_after, load1_before, load1_after, status, stored,
     distinct, commits_before, commits_after) = (work / f"{name}.run").read_text().split()
    requests = max(load["batchesSent"], 1)
    acked = load["fixesAcknowledged"] - load["fixesAcknowledgedAsDuplicate"]
    errors = sum(load["errors"].values())
    if errors or status != "0":
        problems.append(f"{name}: load exited {status} with {errors} errors {load['errors']}")
    if not int(stored) == int(distinct) == acked:
        problems.append(f"{name}: {stored} fix rows stored, {distinct} distinct keys, {acked} fixes acknowledged")
    postgres = float(postgres_after) - float(postgres_before)
    return {"rps": load["batchesPerSecond"], "fps": load["fixesPerSecond"],
            "server_us": (float(server_after) - float(server_before)) / requests * 1e6,
            "postgres_us": postgres / requests * 1e6, "postgres_fix_us": postgres / max(int(stored), 1) * 1e6,
            "per_commit": requests / max(int(commits_after) - int(commits_before), 1),
            "p50": (load["latencyMs"] or {}).get("p50", 0), "load": (float(load1_before), float(load1_after)),
            "errors": errors}

def copied(fixes, round):
    name = f"copy-{fixes}-{round}"
    fields = (work / f"{name}.run").read_text().split()
    rows, ns_start, cpu_start, ns_end, cpu_end, load1_before, load1_after, after_rows = fields[:8]
    if int(after_rows) != int(rows):
        problems.append(f"{name}: {after_rows} fix rows after the COPY of {rows}")
    wall, cpu = (int(ns_end) - int(ns_start)) / 1e9, float(cpu_end) - float(cpu_start)
    return {"fps": int(rows) / wall, "postgres_fix_us": cpu / int(rows) * 1e6, "rows": int(rows),
            "load": (float(load1_before), float(load1_after)), "tables": fields[8:]}

runs = {(b, f): [served(b, f, r) for r in range(1, rounds + 1)] for f in sizes for b in builds}
runs.update({("copy", f): [copied(f, r) for r in range(1, rounds + 1)] for f in sizes})

def mean(key, metric):
    return statistics.mean(r[metric] for r in runs[key])

def loads(key):
    return ", ".join(f"{r['load'][0]:.2f}→{r['load'][1]:.2f}" for r in runs[key])

titles = {"before": "before", "after": "after", "copy": "COPY floor"}
lines = ["| batch | build | requests/s | fixes/s | server CPU µs/request | PostgreSQL CPU µs/request | "
         "PostgreSQL CPU µs/fix | requests per commit | p50 ms | load average (1 min, each round) |",
         "|---|---|---|---|---|---|---|---|---|---|"]
for f in sizes:
    for b in builds:
        k = (b, f)
        lines.append(f"| {f} | {b} | {mean(k, 'rps'):,.0f} | {mean(k, 'fps'):,.0f} | {mean(k, 'server_us'):,.0f} | "
                     f"{mean(k, 'postgres_us'):,.0f} | {mean(k, 'postgres_fix_us'):,.1f} | "
                     f"{mean(k, 'per_commit'):,.1f} | {mean(k, 'p50'):.1f} | "
                     f"{loads(k)} |")
    k = ("copy", f)
    lines.append(f"| {f} | COPY floor | – | {mean(k, 'fps'):,.0f} | – | – | {mean(k, 'postgres_fix_us'):,.1f} | "
                 f"– | – | {loads(k)} |")
table = "\n".join(lines)

# The issue's targets, each a ratio of means within this run, with the ratio of each round beside it.
targets = []
def target(title, numerator, denominator, metric_n, metric_d, limit, at_most):
    ratio = mean(numerator, metric_n) / mean(denominator, metric_d)
    per_round = [n[metric_n] / d[metric_d] for n, d in zip(runs[numerator], runs[denominator])]
    met = ratio <= limit if at_most else ratio >= limit
    bound = f"{'≤' if at_most else '≥'} {limit}"
    rounds_text = ", ".join(f"{r:.2f}" for r in per_round)
    targets.append(f"- {title}: **{ratio:.2f}** (rounds: {rounds_text}), target {bound}: "
                   f"{'met' if met else 'NOT met'}")
if "before" in builds and 1 in sizes:
    target("PostgreSQL CPU per 1-fix request, after ÷ before", ("after", 1), ("before", 1),
           "postgres_us", "postgres_us", 0.1, True)
    target("server CPU per 1-fix request, after ÷ before", ("after", 1), ("before", 1), "server_us", "server_us",
           0.4, True)
if 50 in sizes:
    target("50-fix fixes/s, after ÷ COPY floor", ("after", 50), ("copy", 50), "fps", "fps", 0.8, False)
target_text = "\n".join(targets)
# What the floor of the last size's first round copied, as "fix 699,500 rows, installation 200, ...".
copy_tables = ", ".join(f"{table} {int(rows):,}" for table, rows in
                        (entry.split(":") for entry in runs[("copy", sizes[-1])][0]["tables"]))

if short:
    print(table + "\n\n" + target_text)
else:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
    print(f"""## PostgreSQL: before and after group commit, and the COPY floor

{now}, {machine}, commit {commit}. Load average before and after (1, 5, 15 min): {load_before} / {load_after};
the run took {int(elapsed) // 60} min {int(elapsed) % 60} s.
Before: {before_bin}. After: {after_bin}.
`Server/scripts/measure/postgres-floors.sh`: one PostgreSQL 15 cluster (Server/scripts/start-postgres.sh: fsync and
synchronous_commit on). For each batch size, {rounds} rounds of the two builds (the second in reverse order), each
run on empty tables with one `serve --postgres` (default options) driven by the after build's `load`
with {devices} devices in a closed loop for {seconds} s; server, PostgreSQL and load generator share the
machine's 2 cores. Requests/s and fixes/s are load's; server CPU is the serve process's user + system time (from
/proc/PID/stat), PostgreSQL CPU that of the cluster's processes (postmaster, backends, WAL writer, checkpointer,
and those that exited), each over the requests sent or the fix rows stored. Figures are means of the rounds.
Checked: every acknowledged fix stored once.

COPY floor: after each run of the after build, the rows it stored in every table the ingest wrote were copied out
in arrival order, the tables truncated (same indexes, same partitions), and the rows copied back with psql's
`\\copy ... FROM` (binary COPY FROM STDIN), every table in one transaction; wall time and PostgreSQL CPU from just
before BEGIN to just after COMMIT, over the fix rows. The floor holds each installation's and device status's
final row, not the updates each batch makes to them. /proc counts CPU in ticks of 1/{ticks} s per process, so
the floor's CPU over the few rows of a 1-fix run is coarse. Rows copied after the first {sizes[-1]}-fix run:
{copy_tables}.

{table}

Targets of issue 38 (ratios within this run):

{target_text}

Command (from the repository root):
```
Server/scripts/measure/postgres-floors.sh --before BEFORE/locwire-server --after AFTER/locwire-server
```""")
for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PYTHON
echo "postgres-floors: $elapsed s of runs" >&2
finish_measure postgres-floors "$status"
