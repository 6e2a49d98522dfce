#!/usr/bin/env bash
# The shard soak of issue 38: two `locwire-server serve` processes over N PostgreSQL shards (each server given
# every shard, `--postgres-shard URL` in the same order), `locwire-server load` spreading its devices over both
# servers, and faults on a schedule printed as it goes: `kill -9` of each server and its restart on the same port,
# and `pg_ctl stop -m immediate` of one shard's cluster in the middle of the load (so in the middle of its
# transactions), held down for a while, then started again. Judged by the read-back of every shard with psql.
#
#   Server/scripts/measure/shard-soak.sh [--short] [--shards 3] [--seconds 120] [--devices 60] [--fixes 10]
#                                        [--no-build] [--pg-port 55701] [--pg-dir /tmp/locwire-shard-soak]
#                                        [--keep]
#
# Shard i (from 1) is the cluster of Server/scripts/start-postgres.sh in PG_DIR-i on port PG_PORT+i-1, started
# when not running and stopped at the end when this script started it; the server's tables are dropped first.
# --short is the CI form (2 shards, 40 s of load, 30 devices, one kill of each kind: about 60-90 s in all; options
# given beside it override these): it prints and checks, and leaves Server/RESULTS.md alone. The full form
# replaces the shard-soak section of Server/RESULTS.md. With a server that has no --postgres-shard, only
# --shards 1 runs (on `serve --postgres`). LOCWIRE_SERVER names a binary built elsewhere instead of building one.
#
# The verdict, from the ack journal and request log of the load run (`--ack-journal`, `--request-log`) and each
# shard's fix rows (Server/scripts/check-ack-journal.py --postgres, once per shard): every acknowledged fix stored
# exactly once, with its bytes, in its device's shard; rows stored and never acknowledged are allowed (an ack lost
# in a kill). The schedule, in fractions of --seconds: server A killed at 12 % and 75 %, B at 25 % and 87 %, shard
# ceil(N/2) stopped at 40 % for 15 % of the run (at least 5 s; no server restarts meanwhile); --short kills A at
# 20 % and stops the shard at 40 %.
# Exit status 1 when anything acknowledged is lost, changed, stored twice or in the wrong shard, when any device
# got a 401 or 403, when a fault was not applied, when a device of another shard got no ack during the outage,
# or a device of the stopped shard none after its restart; 2 on a setup failure. Loopback only.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

shards=3
seconds=120
devices=60
fixes=10
short=0
keep=0
pg_port=55701
pg_dir=/tmp/locwire-shard-soak
# --short sets the CI form's defaults, which the options given beside it still override.
for arg in "$@"; do
    if [ "$arg" = --short ]; then
        short=1
        shards=2
        seconds=40
        devices=30
    fi
done
usage="usage: $0 [--short] [--shards N] [--seconds S] [--devices N] [--fixes K] [--no-build] [--pg-port P]
    [--pg-dir PREFIX] [--keep]"
while [ $# -gt 0 ]; do
    case $1 in
        --short) short=1; shift ;;
        --shards) shards=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --devices) devices=$2; shift 2 ;;
        --fixes) fixes=$2; shift 2 ;;
        --no-build) SKIP_BUILD=1; shift ;;
        --pg-port) pg_port=$2; shift 2 ;;
        --pg-dir) pg_dir=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
command -v psql >/dev/null || { echo "psql is missing: apt-get install -y postgresql-client" >&2; exit 2; }
[ "$seconds" -ge 30 ] || { echo "--seconds must be at least 30 (the schedule needs room)" >&2; exit 2; }

# LOCWIRE_SERVER names a binary built elsewhere (a second checkout), instead of building one here.
if [ -n "${LOCWIRE_SERVER:-}" ]; then bin=$LOCWIRE_SERVER; else build_locwire_server "$root"; fi
# Latencies from a debug build are not the release's; the section says which ran.
if [ -n "${LOCWIRE_SERVER:-}" ]; then
    build_line="locwire-server $LOCWIRE_SERVER"
else
    build_line="${LOCWIRE_BUILD_CONFIGURATION:-release} build"
fi
# The help into a variable first: grep -q ending the pipe early would fail it under pipefail.
serve_help=$("$bin" serve --help 2>&1)
if grep -q -- --postgres-shard <<<"$serve_help"; then
    shard_flag=--postgres-shard
elif [ "$shards" = 1 ]; then
    shard_flag=--postgres
else
    echo "$bin has no serve --postgres-shard: only --shards 1 runs with it" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/shard-soak.XXXXXX")
load_pid=
declare -A server_pid_of=()
started_clusters=()
cleanup() {
    for name in "${!server_pid_of[@]}"; do kill -9 "${server_pid_of[$name]}" 2>/dev/null || true; done
    [ -n "$load_pid" ] && kill -9 "$load_pid" 2>/dev/null || true
    for index in "${started_clusters[@]}"; do
        "$root/Server/scripts/start-postgres.sh" stop --dir "$pg_dir-$index" >/dev/null 2>&1 || true
    done
    if [ "$keep" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

now_ms() { date +%s%3N; }

# The clusters, emptied of the server's tables (the run's journal must be the only source of its rows).
urls=()
shard_args=()
for index in $(seq 1 "$shards"); do
    [ -f "$pg_dir-$index/data/postmaster.pid" ] || started_clusters+=("$index")
    url=$("$root/Server/scripts/start-postgres.sh" --dir "$pg_dir-$index" --port $((pg_port + index - 1)))
    psql -X -q -v ON_ERROR_STOP=1 "$url" -c "SET client_min_messages = warning; DO \$\$ DECLARE t text; BEGIN
        FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
            EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', t);
        END LOOP; END \$\$" >/dev/null
    urls+=("$url")
    shard_args+=("$shard_flag" "$url")
done

# Both servers on fixed ports, so that a restart answers the devices at the URL they know. A restart is the
# same command again: server A makes the devices' tokens once and then finds them, B finds them.
declare -A serve_args_of=() url_of=() starts_of=()
events=$work/events.csv
: >"$events"
start_named_server() {
    local name=$1
    starts_of[$name]=$((${starts_of[$name]:-0} + 1))
    # shellcheck disable=SC2086 # serve_args_of holds words
    start_server "$work/serve-$name-${starts_of[$name]}.log" ${serve_args_of[$name]}
    server_pid_of[$name]=$server_pid
    url_of[$name]=$server_url
}
port_a=$(free_port)
port_b=$(free_port)
serve_args_of[A]="--host 127.0.0.1 --port $port_a ${shard_args[*]} --extra-devices $((devices - 1))
    --tokens-file $work/tokens.json"
serve_args_of[B]="--host 127.0.0.1 --port $port_b ${shard_args[*]}"
start_named_server A
start_named_server B

# The schedule, as fractions of the load's seconds: each server killed (twice in the full form), and one shard
# stopped for 15 % of the run (at least 5 s) while no server restarts, so that its outage is the only fault then.
down_shard=$(((shards + 1) / 2))
hold_ms=$((seconds * 150 > 5000 ? seconds * 150 : 5000))
if [ "$short" = 1 ]; then
    schedule="200 kill A
400 stop $down_shard"
else
    schedule="120 kill A
250 kill B
400 stop $down_shard
750 kill A
870 kill B"
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "shard soak: $shards shard(s) ($shard_flag), $devices devices, $fixes-fix batches, $seconds s," \
    "servers A ${url_of[A]} and B ${url_of[B]}, work $work" >&2
"$bin" load --server "${url_of[A]},${url_of[B]}" --tokens-file "$work/tokens.json" --devices "$devices" \
    --seconds "$seconds" --fixes-per-batch "$fixes" --timeout 15 --ack-journal "$work/acks.csv" \
    --request-log "$work/requests.csv" --format json --output "$work/load.json" 2>"$work/load.log" &
load_pid=$!
started_ms=$(now_ms)
echo "$started_ms,load started," >>"$events"

say_event() {
    local elapsed_ms=$(($(now_ms) - started_ms))
    printf '[%4d.%d s] %s\n' $((elapsed_ms / 1000)) $((elapsed_ms % 1000 / 100)) "$*" >&2
}
while read -r permille action target; do
    due_ms=$((started_ms + seconds * permille))
    wait_ms=$((due_ms - $(now_ms)))
    [ "$wait_ms" -le 0 ] || sleep "$(printf '%d.%03d' $((wait_ms / 1000)) $((wait_ms % 1000)))"
    case $action in
        kill)
            kill -9 "${server_pid_of[$target]}"
            wait "${server_pid_of[$target]}" 2>/dev/null || true
            echo "$(now_ms),server killed,$target" >>"$events"
            say_event "kill -9 server $target (pid ${server_pid_of[$target]})"
            start_named_server "$target"
            echo "$(now_ms),server listening,$target" >>"$events"
            say_event "server $target restarted (pid ${server_pid_of[$target]}), listening again"
            ;;
        stop)
            "$root/Server/scripts/start-postgres.sh" stop --immediate --dir "$pg_dir-$target" 2>/dev/null
            echo "$(now_ms),shard stopped,$target" >>"$events"
            say_event "pg_ctl stop -m immediate of shard $target; held down $((hold_ms / 1000)) s"
            sleep "$(printf '%d.%03d' $((hold_ms / 1000)) $((hold_ms % 1000)))"
            say_event "starting shard $target again"
            "$root/Server/scripts/start-postgres.sh" --dir "$pg_dir-$target" --port $((pg_port + target - 1)) \
                >/dev/null 2>"$work/restart-shard-$target.log"
            echo "$(now_ms),shard started,$target" >>"$events"
            say_event "shard $target accepts connections again (WAL replayed)"
            ;;
    esac
done <<<"$schedule"

load_status=0
wait "$load_pid" || load_status=$?
load_pid=
echo "$(now_ms),load ended," >>"$events"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
# A server that does not exit within 10 s of SIGTERM is killed, and the summary says so.
for name in A B; do
    kill -TERM "${server_pid_of[$name]}" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "${server_pid_of[$name]}" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "${server_pid_of[$name]}" 2>/dev/null; then
        kill -9 "${server_pid_of[$name]}"
        echo "$(now_ms),server hung on SIGTERM,$name" >>"$events"
        echo "server $name did not exit within 10 s of SIGTERM: killed" >&2
    fi
    wait "${server_pid_of[$name]}" 2>/dev/null || true
    unset "server_pid_of[$name]"
done
if [ ! -s "$work/load.json" ]; then
    echo "the load run wrote no report (exit $load_status):" >&2
    tail -n 20 "$work/load.log" >&2
    exit 2
fi

# The read-back: every shard's fix rows with the SHA-256 of the bytes kept, read with psql, in shard order.
shard_urls=()
for url in "${urls[@]}"; do shard_urls+=(--postgres "$url"); done
check_status=0
python3 "$root/Server/scripts/check-ack-journal.py" "${shard_urls[@]}" --journal "$work/acks.csv" \
    --json "$work/check.json" >"$work/check.txt" || check_status=$?
[ "$check_status" -le 1 ] || { cat "$work/check.txt" >&2; exit 2; }

# The figures of the request log, by the devices' shards and the moments of the events.
report_status=0
summary=$(python3 - "$root/Server/scripts/check-ack-journal.py" "$work" "$shards" "$down_shard" "$short" \
    <<'PYTHON'
import csv, importlib.util, json, math, sys, textwrap
judge_path, work, shards, down, short = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) - 1, sys.argv[5]
spec = importlib.util.spec_from_file_location("check_ack_journal", judge_path)
judge = importlib.util.module_from_spec(spec)
spec.loader.exec_module(judge)
ranges = judge.even_ranges(shards)
load, check = json.load(open(f"{work}/load.json")), json.load(open(f"{work}/check.json"))
events = [(int(ms), kind, target) for ms, kind, target in csv.reader(open(f"{work}/events.csv"))]
def moment(kind, target=None):
    return next(ms for ms, k, t in events if k == kind and (target is None or t == target))
kills = {name: sum(1 for _, k, t in events if k == "server killed" and t == name) for name in "AB"}
restart_ms = [listening - killed for (killed, k1, t1), (listening, k2, t2) in zip(events, events[1:])
              if k1 == "server killed" and k2 == "server listening"]
stopped, started = moment("shard stopped"), moment("shard started")
# start_ms, device, latency_ms, answer (the rest of the line)
requests = []
for line in open(f"{work}/requests.csv", encoding="utf-8"):
    start, device, latency, answer = line.rstrip("\n").split(",", 3)
    requests.append((int(start), device, float(latency), answer, judge.shard_of(device, ranges)))
down_requests = [r for r in requests if r[4] == down]
other_requests = [r for r in requests if r[4] != down]
def during(r):
    return stopped <= r[0] <= started
def p99(sample):
    """Nearest rank, as the load run's own percentiles."""
    return f"{sorted(sample)[max(0, math.ceil(0.99 * len(sample)) - 1)]:.1f} ms" if sample else "none"
processed = "processed"
in_flight = sum(1 for r in down_requests if r[0] < stopped < r[0] + r[2])
down_503 = sum(1 for r in down_requests if r[3].startswith("http 503"))
# What the stopped shard's devices got for the requests that overlapped its outage (in flight at the stop, or
# sent before it was back).
overlapping = {}
for r in down_requests:
    if r[0] <= started and r[0] + r[2] >= stopped:
        overlapping[r[3]] = overlapping.get(r[3], 0) + 1
refused = sum(1 for r in requests if r[3].startswith(("http 401", "http 403")))
other_during = [r[2] for r in other_requests if r[3] == processed and during(r)]
other_outside = [r[2] for r in other_requests if r[3] == processed and not during(r)]
other_errors_during = sum(1 for r in other_requests if r[3] != processed and during(r))
back = [r[0] + r[2] - started for r in down_requests if r[3] == processed and r[0] >= started]
# Every device must notice the outage only if it is on the stopped shard, and then only until the restart.
devices_of = lambda wanted: {f"device-{i + 1}" for i in range(load["devices"])
                             if (judge.shard_of(f"device-{i + 1}", ranges) == down) == wanted}
never_back = sorted(devices_of(True) - {r[1] for r in down_requests if r[3] == processed and r[0] >= started})
unnoticed = {r[1] for r in other_requests if r[3] == processed and during(r)}
stalled = sorted(devices_of(False) - unnoticed)
errors = ", ".join(f"{k}: {v}" for k, v in sorted(load["errors"].items())) or "none"
outage_s = (started - stopped) / 1000
lines = [
    f"shards: {shards}; devices per shard: "
    + ", ".join(str(sum(1 for i in range(load['devices']) if judge.shard_of(f'device-{i + 1}', ranges) == s))
                for s in range(shards)),
    f"server kills (kill -9, restart on the same port): A {kills['A']}, B {kills['B']}; restart to listening "
    f"{sum(restart_ms) / max(len(restart_ms), 1):.0f} ms on average",
    f"shard stops (pg_ctl stop -m immediate): 1, shard {down + 1}, down {outage_s:.1f} s (stop to accepting "
    f"connections again); its devices' requests in flight at the stop: {in_flight}",
    f"acknowledged fixes: {check['acknowledged_fixes']} ({load['fixesPerSecond']:.0f} per second through the faults); "
    f"requests answered with an applied ack: {sum(1 for r in requests if r[3] == processed)}",
    f"lost: {check['lost']}; changed: {check['changed']}; stored twice: {check['duplicates']}; "
    f"in the wrong shard: {check['misplaced']}",
    f"acks answering a resend DUPLICATE (stored before a fault, ack lost): {load['fixesAcknowledgedAsDuplicate']} "
    f"fixes; stored and never acknowledged: {check['stored_not_acknowledged']}",
    f"503s seen by shard {down + 1}'s devices: {down_503}; the answers to their requests that overlapped the "
    f"outage: " + (", ".join(f"{k}: {v}" for k, v in sorted(overlapping.items())) or "none"),
    f"401 or 403 answers: {refused}",
]
if shards > 1:
    lines += [
        f"other shards' acked requests during the outage: {len(other_during)}, p99 {p99(other_during)}; "
        f"outside it: {len(other_outside)}, p99 {p99(other_outside)}",
        f"other shards' requests during the outage that were not acked: {other_errors_during}; their devices "
        f"with no ack during it: {len(stalled)} of {len(devices_of(False))}",
    ]
    for shard in range(shards):
        acked = [r for r in requests if r[4] == shard and r[3] == processed]
        lines.append(
            f"  shard {shard + 1}{' (stopped)' if shard == down else ''}: acked requests p99 during the outage "
            f"{p99([r[2] for r in acked if during(r)])}, outside it {p99([r[2] for r in acked if not during(r)])}"
        )
lines += [
    f"shard {down + 1}'s first ack after its restart: "
    + (f"{min(back) / 1000:.1f} s after it accepted connections" if back else "none")
    + f"; its devices with no ack after the restart: {len(never_back)} of {len(devices_of(True))}"
    + (f" ({', '.join(never_back[:8])}{', ...' if len(never_back) > 8 else ''})" if never_back else ""),
    f"errors the devices rode through: {errors}",
]
hung = [t for _, k, t in events if k == "server hung on SIGTERM"]
if hung:
    lines.append(f"servers that did not exit within 10 s of SIGTERM at the end (then killed): {', '.join(hung)}")
print("\n".join(textwrap.fill(line, 120, subsequent_indent="    ", break_on_hyphens=False) for line in lines))
failures = []
if refused:
    failures.append("a device got 401 or 403")
if kills["A"] == 0 or (kills["B"] == 0 and short == "0"):
    failures.append("a server was never killed")
if shards > 1 and not other_during:
    failures.append("the other shards acknowledged nothing during the outage")
if never_back:
    failures.append(f"{len(never_back)} devices of shard {down + 1} got no ack after its restart")
if shards > 1 and stalled:
    failures.append(f"{len(stalled)} devices of the other shards got no ack during the outage")
for failure in failures:
    print(f"FAIL: {failure}", file=sys.stderr)
sys.exit(1 if failures else 0)
PYTHON
) || report_status=$?
[ "$report_status" -le 1 ] || exit 2
echo "$summary"
status=0
if [ "$check_status" != 0 ] || [ "$report_status" != 0 ]; then status=1; fi

if [ "$short" = 0 ]; then
    {
        echo "## Shard soak (PostgreSQL)"
        echo
        echo "$(date -u +%Y-%m-%dT%H:%MZ), $(machine_line "$work")," \
            "commit $(cd "$root" && git rev-parse --short HEAD), $build_line." \
            "Load average before and after (1, 5, 15 min): $load_before / $load_after."
        echo
        echo "\`Server/scripts/measure/shard-soak.sh --shards $shards --seconds $seconds --devices $devices" \
            "--fixes $fixes\`: two \`serve\` processes over $shards PostgreSQL 15 clusters" \
            "(Server/scripts/start-postgres.sh: fsync and synchronous_commit on), each server given every shard;" \
            "$devices devices uploading $fixes-fix batches in a closed loop for $seconds s, spread over both" \
            "servers. Each server killed with SIGKILL and restarted on its port; one shard stopped with" \
            "\`pg_ctl stop -m immediate\` in the middle of the load, held down, then started again. Every" \
            "acknowledged fix of the load run's journal is then looked up in every shard's rows read with psql" \
            "(Server/scripts/check-ack-journal.py --postgres); latencies are the load run's per-request log" \
            "(\`--request-log\`), split by the devices' shards."
        echo
        echo '```'
        echo "$summary"
        echo '```'
        echo
        if [ "$status" = 0 ]; then
            echo "Verdict: pass (0 lost, 0 stored twice, 0 in a wrong shard, no 401)."
        else
            echo "Verdict: FAIL."
        fi
    } | python3 -c 'import sys, textwrap  # paragraphs (not the summary block) within 120 columns
block = False
for line in sys.stdin.read().split("\n"):
    block ^= line.startswith("```")
    wrap = not block and not line.startswith(("```", "#"))
    print(textwrap.fill(line, 120, break_on_hyphens=False, break_long_words=False) if wrap and line else line)
' >"$work/section.md"
    replace_results_section "$root/Server/RESULTS.md" shard-soak "$work/section.md"
    echo "wrote the shard-soak section of Server/RESULTS.md" >&2
fi
exit "$status"
