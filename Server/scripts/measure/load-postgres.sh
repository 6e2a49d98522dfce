#!/usr/bin/env bash
# The load run of issue 12 against the PostgreSQL backend: two `locwire-server serve --postgres` processes on one
# database (the scale-out shape: stateless servers behind a load balancer), and `locwire-server load` spreading
# its devices over both URLs round-robin, as a balancer would.
#
#   Server/scripts/measure/load-postgres.sh [--no-build] [--devices 1000] [--seconds 60] [--fixes 50]
#   LOCWIRE_SERVER=/path/to/release/locwire-server Server/scripts/measure/load-postgres.sh
#
# Starts PostgreSQL with Server/scripts/start-postgres.sh (127.0.0.1:55432) and leaves it running as it found it;
# drops the server's tables first, so each run starts empty. Checks consistency with psql: the rows stored are the
# fixes acknowledged (no resend happens without a failure), each key once. Writes the postgres-load section of
# Server/RESULTS.md. Loopback only.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

devices=1000
seconds=60
fixes=50
while [ $# -gt 0 ]; do
    case $1 in
        --no-build) SKIP_BUILD=1; shift ;;
        --devices) devices=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --fixes) fixes=$2; shift 2 ;;
        *) echo "usage: $0 [--no-build] [--devices N] [--seconds S] [--fixes K]" >&2; exit 2 ;;
    esac
done
command -v psql >/dev/null || { echo "psql is missing: apt-get install -y postgresql-client" >&2; exit 2; }

# LOCWIRE_SERVER names a release binary built elsewhere (a second checkout), instead of building one here.
if [ -n "${LOCWIRE_SERVER:-}" ]; then bin=$LOCWIRE_SERVER; else build_locwire_server "$root"; fi
url=$("$root/Server/scripts/start-postgres.sh")
work=$(mktemp -d "${TMPDIR:-/tmp}/load-postgres.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

drop_server_tables "$url"
postmaster=$(postmaster_pid "$url")

# The first process creates the schema and the tokens; the second finds both.
start_server "$work/one.log" --port 0 --postgres "$url" --extra-devices $((devices - 1)) \
    --tokens-file "$work/tokens.json"
pids+=("$server_pid")
first_url=$server_url
first_pid=$server_pid
start_server "$work/two.log" --port 0 --postgres "$url" --extra-devices $((devices - 1))
pids+=("$server_pid")
second_url=$server_url
second_pid=$server_pid

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# PostgreSQL's own CPU: every process of this cluster (postgres_cpu_seconds), not other clusters on the machine.
cpu_before="$(process_cpu_seconds "$first_pid") $(process_cpu_seconds "$second_pid")"
cpu_before+=" $(postgres_cpu_seconds "$postmaster")"
echo "load: $devices devices, $seconds s, $fixes fixes per batch, over $first_url and $second_url" >&2
"$bin" load --server "$first_url,$second_url" --tokens-file "$work/tokens.json" --devices "$devices" \
    --seconds "$seconds" --fixes-per-batch "$fixes" --format json --output "$work/load.json"
cpu_after="$(process_cpu_seconds "$first_pid") $(process_cpu_seconds "$second_pid")"
cpu_after+=" $(postgres_cpu_seconds "$postmaster")"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
stored=$(psql -tA "$url" -c "SELECT COUNT(*) FROM fix")
distinct=$(psql -tA "$url" -c "SELECT COUNT(*) FROM (SELECT DISTINCT device_id, install_id, sequence FROM fix) k")
# Bytes on disk for the fixes (heap, TOAST and indexes of every partition), for the scale page's storage figures.
fix_bytes=$(psql -tA "$url" -c "SELECT COALESCE(SUM(pg_total_relation_size(inhrelid)), 0) FROM pg_inherits
    WHERE inhparent = 'fix'::regclass")

python3 - "$work/load.json" "$stored" "$distinct" "$fix_bytes" "$cpu_before" "$cpu_after" "$load_before" "$load_after" \
    "$(machine_line "$work")" "$(cd "$root" && git rev-parse --short HEAD)" "$devices" "$seconds" "$fixes" \
    >"$work/section.md" <<'PYTHON'
import datetime, json, sys
path, stored, distinct, fix_bytes, cpu_before, cpu_after, load_before, load_after, machine, commit, devices, seconds, fixes = sys.argv[1:]
load = json.load(open(path))
stored, distinct = int(stored), int(distinct)
before, after = [list(map(float, x.split())) for x in (cpu_before, cpu_after)]
cores = [(a - b) / load["elapsedSeconds"] for a, b in zip(after, before)]
errors = sum(load["errors"].values())
lat = load["latencyMs"] or {}
acked = load["fixesAcknowledged"] - load["fixesAcknowledgedAsDuplicate"]
ok = errors == 0 and stored == distinct == acked
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
print(f"""## Load against two `serve --postgres` processes on one PostgreSQL{"" if fixes == "50" else f" ({fixes}-fix batches)"}

{now}, {machine}, commit {commit}. Load average before and after (1, 5, 15 min): {load_before} / {load_after}.
PostgreSQL 15 from Debian's package (Server/scripts/start-postgres.sh: fsync and synchronous_commit on), both servers
and the load generator on the same 2 cores.

| run | fixes/s acked | batches/s | p50 ms | p90 ms | p99 ms | max ms | errors | stored / distinct / acked | server cores (each) | PostgreSQL cores | load cores |
|---|---|---|---|---|---|---|---|---|---|---|---|
| {int(devices):,} devices, {fixes}-fix batches, closed loop, {seconds} s, two servers | {load['fixesPerSecond']:,.0f} | {load['batchesPerSecond']:,.0f} | {lat.get('p50', 0):.1f} | {lat.get('p90', 0):.1f} | {lat.get('p99', 0):.1f} | {lat.get('max', 0):.1f} | {errors} | {stored:,} / {distinct:,} / {acked:,} | {cores[0]:.2f}, {cores[1]:.2f} | {cores[2]:.2f} | {load['loadGeneratorCores']:.2f} |

CPU per 1,000 fixes: servers {1000 * (cores[0] + cores[1]) / load['fixesPerSecond'] * 1000:.1f} ms, PostgreSQL {1000 * cores[2] / load['fixesPerSecond'] * 1000:.1f} ms; per batch: servers {(cores[0] + cores[1]) / load['batchesPerSecond'] * 1000:.3f} ms, PostgreSQL {cores[2] / load['batchesPerSecond'] * 1000:.3f} ms.
Disk: {int(fix_bytes) / max(stored, 1):.0f} bytes per stored fix (the fix table's heap, TOAST and indexes over its rows).

Consistency: {"every acknowledged fix stored once" if ok else "FAILED: the stored rows do not match the acknowledged fixes"}.

Command: `Server/scripts/measure/load-postgres.sh --devices {devices} --seconds {seconds} --fixes {fixes}`.""")
sys.exit(0 if ok else 1)
PYTHON
cat "$work/section.md"
# The default run (50-fix batches) has its section; any other batch size gets one of its own beside it.
section=postgres-load
[ "$fixes" != 50 ] && section="postgres-load-$fixes"
replace_results_section "$root/Server/RESULTS.md" "$section" "$work/section.md"
echo "==> wrote the $section section of Server/RESULTS.md" >&2
