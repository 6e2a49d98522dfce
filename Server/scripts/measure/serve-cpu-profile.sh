#!/usr/bin/env bash
# Where `serve`'s CPU per request goes beyond floor (b) (issue 24, item 2): `perf record` of serve and of
# `floor --storage sqlite`, one after the other, each under `load` (200 devices, closed loop, 1-fix batches by
# default), then every CPU sample put in one category by the frames of its call stack, and the two compared in
# microseconds of CPU per request (the category's share of samples times the run's CPU per request).
#
#   Server/scripts/measure/serve-cpu-profile.sh [--no-build] [--fixes N] [--seconds S] [--keep]
#
# Needs perf (apt-get install linux-perf) and the release build, which keeps frame pointers; stacks are unwound
# with DWARF (--call-graph dwarf) because the system's libsqlite3 has none. Prints a Markdown table; RESULTS.md's
# floors profile is this table by hand. The categories are regular expressions over demangled symbols, first
# match wins (see RULES below): a sample whose stack names none of them falls to "other".
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

fixes=1
seconds=20
devices=200
keep=0
while [ $# -gt 0 ]; do
    case $1 in
        --no-build) SKIP_BUILD=1; shift ;;
        --fixes) fixes=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--no-build] [--fixes N] [--seconds S] [--keep]" >&2; exit 2 ;;
    esac
done
command -v perf >/dev/null || { echo "perf is missing: apt-get install -y linux-perf" >&2; exit 2; }

build_locwire_server "$root"
work=$(mktemp -d "${TMPDIR:-/tmp}/profile-serve.XXXXXX")
cleanup() {
    [ -n "${server_pid:-}" ] && kill -9 "$server_pid" 2>/dev/null || true
    if [ "$keep" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

for kind in serve b; do
    common=(--host 127.0.0.1 --port 0 --extra-devices $((devices - 1)) --tokens-file "$work/$kind.tokens.json")
    load_options=()
    if [ "$kind" = serve ]; then
        start_server "$work/$kind.log" --database "$work/$kind.sqlite" --durability full "${common[@]}"
    else
        start_floor "$work/$kind.log" --storage sqlite --database "$work/$kind.sqlite" --durability full \
            "${common[@]}"
        load_options=(--constant-ack)
    fi
    cpu_before=$(process_cpu_seconds "$server_pid")
    # 399 Hz: DWARF stacks are 16 KiB a sample; the load's first and last second are left out.
    perf record -F 399 --call-graph dwarf,16384 -p "$server_pid" -o "$work/$kind.perf.data" \
        -- sleep $((seconds - 2)) >"$work/$kind.perf.log" 2>&1 &
    perf_pid=$!
    echo "$kind: $devices devices, $fixes-fix batches, $seconds s under perf ($server_url)" >&2
    "$bin" load --server "$server_url" --tokens-file "$work/$kind.tokens.json" --devices "$devices" \
        --seconds "$seconds" --fixes-per-batch "$fixes" --quiet --format json --output "$work/$kind.json" \
        "${load_options[@]+"${load_options[@]}"}"
    wait "$perf_pid"
    echo "$cpu_before $(process_cpu_seconds "$server_pid")" >"$work/$kind.cpu"
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    perf script -i "$work/$kind.perf.data" -F comm,tid,ip,sym,dso 2>/dev/null | swift demangle --simplified \
        >"$work/$kind.stacks.txt"
done

python3 - "$work" <<'PYTHON'
import collections, json, pathlib, re, sys
work = pathlib.Path(sys.argv[1])

# First match wins, so the specific come before the general (HTTP and the runtime are at the root of most stacks).
RULES = [
    ("token lookup (SHA-256, GRDB reader pool, SELECT)",
     r"forToken|tokenDigest|AuthenticationMiddleware|SHA256|Pool\.get|Pool\.release|DatabasePool\.read"),
    ("logging (per-request logger, request id)", r"Logger|LogHandler|RequestID|LoggingSystem"),
    ("WAL checkpointer", r"startCheckpointing|checkpoint\("),
    ("writer: ledger (installation record decode and encode, LedgerStep)",
     r"LedgerStep|InstallationRecord|IngestLedger|SequenceSet"),
    ("writer: SQL prepared per batch (not cached statements)", r"makeStatement|sqlite3_prepare"),
    ("writer: fix rows (encode, cached INSERT)", r"StoredRows|cachedStatement"),
    ("writer: commit and WAL sync", r"Database\.commit|fdatasync|CommitPhase|sqlite3WalFrames"),
    ("writer: running the per-batch SQL (SELECT record, upserts, savepoints), GRDB",
     r"commitWaitingBatches|commitWaitingBodies|DatabaseWriter|SerializedDatabase|inSavepoint|libsqlite3"),
    ("batch decode (protobuf)", r"LocationBatch|BodyFormat\.decode|LocationFix|readMessage"),
    ("body read (collect, task group with a time-out task)",
     r"RequestReader|TaskGroup|Task\.sleep|Clock\.sleep|InFlightCounter|collect\("),
    ("ack encode and response", r"Response\.message|BodyFormat\.encode|BatchAck|responseFormat|FloorAck"),
    ("Hummingbird router and middleware", r"Router|Middleware|RouteList|postBatch|ErrorBody"),
    ("HTTP (NIO channel pipeline, socket reads and writes)",
     r"NIO|HTTP|Channel|EventLoop|ConnectionDiscipline|Selector|epoll|sendmsg|recvmsg|tcp_|sock"),
    ("hops onto GRDB's dispatch queues", r"DispatchQueueExecutor|DispatchQueueActor"),
    ("Swift concurrency and dispatch (task switches, no frame of ours)", r"swift_task|swift_job|dispatch|swift::|Executor"),
]
RULES = [(name, re.compile(pattern)) for name, pattern in RULES]

def categories(path):
    counts, total = collections.Counter(), 0
    for block in path.read_text().split("\n\n"):
        symbols = [m.group(1) + " " + m.group(2) for m in
                   (re.match(r"\s*[0-9a-f]+ (.*) \(([^)]*)\)\s*$", line) for line in block.split("\n")[1:]) if m]
        if not symbols:
            continue
        total += 1
        counts[next((name for name, rule in RULES if any(rule.search(s) for s in symbols)), "other")] += 1
    return {name: n / total for name, n in counts.items()}, total

rows, cost = {}, {}
for kind in ("serve", "b"):
    load = json.loads((work / f"{kind}.json").read_text())
    before, after = map(float, (work / f"{kind}.cpu").read_text().split())
    cost[kind] = (after - before) / load["batchesSent"] * 1e6
    rows[kind], total = categories(work / f"{kind}.stacks.txt")
    print(f"{kind}: {load['batchesPerSecond']:,.0f} requests/s, {cost[kind]:,.0f} µs CPU per request "
          f"(under perf), {total:,} samples", file=sys.stderr)
names = sorted(set(rows["serve"]) | set(rows["b"]),
               key=lambda n: -(rows["serve"].get(n, 0) * cost["serve"] - rows["b"].get(n, 0) * cost["b"]))
print(f"serve {cost['serve']:,.0f} µs CPU per request, floor (b) {cost['b']:,.0f} (both under perf)\n")
print("| where | share of serve's samples | serve µs/request | (b) µs/request | serve − (b) µs/request |")
print("|---|---|---|---|---|")
for name in names:
    s, b = rows["serve"].get(name, 0), rows["b"].get(name, 0)
    print(f"| {name} | {s:.1%} | {s * cost['serve']:,.0f} | {b * cost['b']:,.0f} | "
          f"{s * cost['serve'] - b * cost['b']:+,.0f} |")
PYTHON
