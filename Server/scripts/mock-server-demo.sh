#!/usr/bin/env bash
# The mock server catching a broken upload client and passing a correct one (issue 12, Server/MOCK-SERVER.md).
#
# Starts `locwire-server mock-server run` with faults on a loopback port the system chooses, runs
# conformance/clients/python-uploader/uploader.py against it in correct mode, stops the server and reports
# (expected: 0 lost, 0 doubled, exit 0); then the Swift reference device (`locwire device run`, LocationWireDevice)
# on the real track, likewise; then the same with a fresh server and journal for the client in --broken mode,
# which deletes on any 2xx without reading the ack (expected: fixes lost, exit 1).
#
# Exits 0 only when the correct client passed and the broken one was caught; 1 otherwise; 2 when something could
# not run. Takes about 20 s after the build. Environment: FAULTS, SEED, FIXES override the defaults below;
# LOCWIRE_SERVER names a built locwire-server binary (otherwise it is built from Server/), LOCWIRE a built locwire
# (otherwise the root package's debug build is made).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
faults="${FAULTS:-drop-after-commit=0.1,status-503=0.05:retry-after=1,status-429=0.05:retry-after=1,partial-ack=0.2,duplicate-response=0.1,truncate=0.05,slow=0.1:delay-ms=300,reset=0.05,commands=0.05}"
seed="${SEED:-7}"
fixes="${FIXES:-200}"
uploader="$root/conformance/clients/python-uploader/uploader.py"

if [[ -n "${LOCWIRE_SERVER:-}" ]]; then
    server="$LOCWIRE_SERVER"
else
    echo "building locwire-server ..."
    swift build --package-path "$root/Server" --product locwire-server >/dev/null
    server="$(swift build --package-path "$root/Server" --show-bin-path)/locwire-server"
fi

if [[ -n "${LOCWIRE:-}" ]]; then
    locwire="$LOCWIRE"
else
    echo "building locwire ..."
    swift build --package-path "$root" --product locwire >/dev/null
    locwire="$(swift build --package-path "$root" --show-bin-path)/locwire"
fi

work="$(mktemp -d)"
mock_pid=""
cleanup() {
    if [[ -n "$mock_pid" ]] && kill -0 "$mock_pid" 2>/dev/null; then kill "$mock_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Starts the mock server journaling to $1; sets mock_pid and mock_url.
start_mock() {
    local journal="$1" out="$1.out"
    "$server" mock-server run --faults "$faults" --seed "$seed" --port 0 --journal "$journal" >"$out" 2>&1 &
    mock_pid=$!
    mock_url=""
    for _ in $(seq 1 100); do
        mock_url="$(sed -n 's/^locwire-server mock-server listening on \(http:[^ ]*\)$/\1/p' "$out")"
        [[ -n "$mock_url" ]] && return 0
        kill -0 "$mock_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "the mock server did not start:" >&2
    cat "$out" >&2
    exit 2
}

# Stops the mock server with SIGINT, as a person would with Ctrl-C, and shows its summary.
stop_mock() {
    kill -INT "$mock_pid"
    wait "$mock_pid" || true
    mock_pid=""
    sed 's/^/  mock: /' "$1.out"
}

# Runs one client against a fresh mock server; prints the report; returns the report's exit status.
run_client() {
    local name="$1"
    shift
    start_mock "$work/$name-journal.jsonl"
    echo
    echo "== $name client against $mock_url (faults $faults, seed $seed)"
    local client_status=0
    python3 "$uploader" --server "$mock_url" --fixes "$fixes" --batch-size 20 --seed 1 --gzip \
        --queue "$work/$name-queue.json" --client-log "$work/$name-client-log.jsonl" \
        --timeout 5 --deadline 40 --back-off-ms 100 --max-back-off 1 "$@" || client_status=$?
    stop_mock "$work/$name-journal.jsonl"
    [[ "$client_status" -eq 0 ]] || echo "  the $name client ended with status $client_status (3: deadline passed)"
    local report_status=0
    "$server" mock-server report --journal "$work/$name-journal.jsonl" \
        --client-log "$work/$name-client-log.jsonl" | sed 's/^/  report: /' || true
    "$server" mock-server report --journal "$work/$name-journal.jsonl" \
        --client-log "$work/$name-client-log.jsonl" --format json >"$work/$name-report.json" || report_status=$?
    return "$report_status"
}

# The Swift reference device (LocationWireDevice, through `locwire device run`) on the real track with the walker
# policy, against a fresh mock server; returns the report's exit status.
run_device() {
    start_mock "$work/device-journal.jsonl"
    echo
    echo "== the Swift device against $mock_url (faults $faults, seed $seed)"
    local device_status=0
    "$locwire" device run --trace "$root/conformance/data/korita-zbevnica.gpx" \
        --policy "$root/examples/walker-policy.json" --server "$mock_url" --token mock --store "$work/device-store" \
        --no-regions --timeout 5 --client-log "$work/device-client-log.jsonl" --quiet 2>&1 |
        sed 's/^/  device: /' || device_status=$?
    stop_mock "$work/device-journal.jsonl"
    [[ "$device_status" -eq 0 ]] || echo "  the device ended with status $device_status (3: fixes still pending)"
    local report_status=0
    "$server" mock-server report --journal "$work/device-journal.jsonl" \
        --client-log "$work/device-client-log.jsonl" | sed 's/^/  report: /' || report_status=$?
    return "$report_status"
}

correct_status=0
run_client correct || correct_status=$?
device_status=0
run_device || device_status=$?
broken_status=0
run_client broken --broken || broken_status=$?

echo
if [[ "$correct_status" -eq 0 && "$device_status" -eq 0 && "$broken_status" -eq 1 ]]; then
    echo "mock-server demo: PASS (the correct client and the Swift device lost nothing; the broken client was caught)"
    exit 0
fi
echo "mock-server demo: FAIL (correct client report status $correct_status, want 0; Swift device" \
    "$device_status, want 0; broken client report status $broken_status, want 1)"
exit 1
