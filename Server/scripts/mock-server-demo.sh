#!/usr/bin/env bash
# The mock server judging upload clients (Server/MOCK-SERVER.md): it passes a correct one and catches each planted
# mutant by a check that names the rule the mutant breaks.
#
# 1. conformance/clients/python-uploader/uploader.py, correct, against `locwire-server mock-server run` with every
#    fault at a small probability; when a status-401 or status-403 refuses its token it is started again with a new
#    one (as an app given new credentials), going on from its queue. Expected: every check passes, with
#    --require-drained.
# 2. The Swift reference device (`locwire device run`, LocationWireDevice) on the real track, against the same
#    faults but 401 and 403 (it cannot be given a new token in one run). Its result is shown, and every check but
#    `paced` (see below) must pass.
# 3. For each of the uploader's mutants (--list-mutants), a short run against a fresh mock server with the one fault
#    that exposes it at a high probability. Expected: the report fails, and every failing check names the mutant's
#    tag. A table is printed: mutant, tag, failing checks, verdict.
#
# Exits 0 only when all three hold; 1 otherwise; 2 when something could not run. Takes about 2 minutes after the
# build (the uploader backs off for real: 1 s doubling). Environment: FAULTS, SEED, FIXES override the correct run's
# defaults; LOCWIRE_SERVER names a built locwire-server binary (otherwise it is built from Server/), LOCWIRE a built
# locwire (otherwise the root package's debug build is made); STEPS (default "correct device mutants") the steps to
# run, SKIP_DEVICE=1 the same as leaving out "device".
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
faults="${FAULTS:-drop-after-commit=0.04,status-503=0.03:retry-after=2:retry-after-form=date,status-429=0.03:retry-after=1,partial-ack=0.1,duplicate-response=0.04,truncate=0.03,slow=0.03:delay-ms=300,reset=0.03,commands=0.04,status-400=0.02,status-401=0.005,status-403=0.005,status-408=0.02:retry-after=1,status-413=0.02,status-415=0.02,cut-ack=0.03,retry-later=0.03,reject-unknown=0.02,policy=0.03,hint=0.03}"
# The device cannot be given a new token in one run: without the credential faults.
device_faults="$(tr ',' '\n' <<<"$faults" | grep -v -e '^status-401' -e '^status-403' | paste -sd, -)"
seed="${SEED:-7}"
fixes="${FIXES:-200}"
uploader="$root/conformance/clients/python-uploader/uploader.py"
# The check the device's run cannot pass, and why: `paced` judges waits on the wall clock, and `locwire device run`
# replays the trace as fast as it can (--speed 0), so every wait, back-off included, passes on the trace's clock
# in no real time. The device's waits are checked on its own clock by the session vectors (§back-off,
# §retry-after) and DeviceTests (§wait-clock) instead.
known_device_failures="${KNOWN_DEVICE_FAILURES:-paced}"
steps=" ${STEPS:-correct device mutants} "
[[ -z "${SKIP_DEVICE:-}" ]] || steps="${steps/ device / }"
started=$SECONDS

if [[ -n "${LOCWIRE_SERVER:-}" ]]; then
    server="$LOCWIRE_SERVER"
else
    echo "building locwire-server ..."
    swift build --package-path "$root/Server" --product locwire-server >/dev/null
    server="$(swift build --package-path "$root/Server" --show-bin-path)/locwire-server"
fi

if [[ -n "${LOCWIRE:-}" ]]; then
    locwire="$LOCWIRE"
elif [[ "$steps" == *" device "* ]]; then
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

# Starts the mock server with faults $2 journaling to $1; sets mock_pid and mock_url.
start_mock() {
    local journal="$1" spec="$2" out="$1.out"
    # Created here, not by the background job's redirection, which may come after the first look at it.
    : >"$out"
    "$server" mock-server run --faults "$spec" --seed "$seed" --port 0 --journal "$journal" >"$out" 2>&1 &
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

# Stops the mock server with SIGINT, as a person would with Ctrl-C; shows its summary unless $2 is "quiet".
stop_mock() {
    kill -INT "$mock_pid"
    wait "$mock_pid" || true
    mock_pid=""
    [[ "${2:-}" == quiet ]] || sed 's/^/  mock: /' "$1.out"
}

# The names of the failing checks of a JSON report, comma-separated ("-" for none).
failing_checks() {
    python3 -c 'import json, sys
report = json.load(open(sys.argv[1]))
print(",".join(c["name"] for c in report["checks"] if c["verdict"] != "pass") or "-")' "$1"
}

# 1. The correct client, started again with a new token whenever one is refused.
run_correct() {
    local journal="$work/correct-journal.jsonl" log="$work/correct-client-log.jsonl"
    start_mock "$journal" "$faults"
    echo
    echo "== the correct client against $mock_url (faults $faults, seed $seed)"
    local status attempt=1 count="$fixes"
    while :; do
        status=0
        # A new seed each start: batch ids are drawn from it, and one id must never name two batches.
        python3 "$uploader" --server "$mock_url" --fixes "$count" --batch-size 20 --seed "$attempt" --gzip \
            --token "demo-token-$attempt" --queue "$work/correct-queue.json" --client-log "$log" \
            --timeout 5 --deadline 150 >"$work/correct-client.out" 2>&1 || status=$?
        sed 's/^/  client: /' "$work/correct-client.out"
        # 2: the token was refused (401, 403). The app is given another one and goes on from its queue.
        [[ "$status" -eq 2 && "$attempt" -lt 10 ]] || break
        attempt=$((attempt + 1))
        count=0
        echo "  the token was refused: starting again with demo-token-$attempt, from the queue"
    done
    stop_mock "$journal"
    [[ "$status" -eq 0 ]] || echo "  the client ended with status $status (2: token refused, 3: deadline passed)"
    local report_status=0
    "$server" mock-server report --journal "$journal" --client-log "$log" --require-drained |
        sed 's/^/  report: /' || true
    "$server" mock-server report --journal "$journal" --client-log "$log" --require-drained --format json \
        >"$work/correct-report.json" || report_status=$?
    return "$report_status"
}

# 2. The Swift reference device on the real track with the walker policy.
device_result="skipped"
run_device() {
    local journal="$work/device-journal.jsonl" log="$work/device-client-log.jsonl"
    start_mock "$journal" "$device_faults"
    echo
    echo "== the Swift device against $mock_url (faults $device_faults, seed $seed)"
    local device_status=0
    "$locwire" device run --trace "$root/conformance/data/korita-zbevnica.gpx" \
        --policy "$root/examples/walker-policy.json" --server "$mock_url" --token mock --store "$work/device-store" \
        --no-regions --timeout 5 --client-log "$log" --quiet 2>&1 |
        sed 's/^/  device: /' || device_status=$?
    stop_mock "$journal"
    [[ "$device_status" -eq 0 ]] || echo "  the device ended with status $device_status (3: fixes still pending)"
    "$server" mock-server report --journal "$journal" --client-log "$log" | sed 's/^/  report: /' || true
    "$server" mock-server report --journal "$journal" --client-log "$log" --format json \
        >"$work/device-report.json" || true
    device_result="$(failing_checks "$work/device-report.json")"
    # Every failing check must be a known one.
    local check
    for check in ${device_result//,/ }; do
        [[ "$check" == - || ",$known_device_failures," == *",$check,"* ]] || return 1
    done
}

# 3. One mutant against the fault that exposes it. Arguments: mutant, faults, then uploader options.
mutant_rows=()
mutants_caught=0
run_mutant() {
    local mutant="$1" spec="$2"
    shift 2
    local journal="$work/$mutant-journal.jsonl" log="$work/$mutant-client-log.jsonl"
    local tag
    tag="$(python3 "$uploader" --list-mutants | sed -n "s/^$mutant: .*(\(§[a-z0-9-]*\))\$/\1/p")"
    start_mock "$journal" "$spec"
    python3 "$uploader" --server "$mock_url" --seed 1 --queue "$work/$mutant-queue.json" --client-log "$log" \
        --timeout 5 --mutant "$mutant" "$@" >"$work/$mutant-client.out" 2>&1 || true
    stop_mock "$journal" quiet
    local report_status=0
    "$server" mock-server report --journal "$journal" --client-log "$log" --format json \
        >"$work/$mutant-report.json" || report_status=$?
    local failing verdict="caught"
    failing="$(failing_checks "$work/$mutant-report.json")"
    if [[ "$report_status" -ne 1 ]]; then
        verdict="MISSED"
    else
        # Every failing check must name the mutant's tag.
        verdict="$(python3 -c 'import json, sys
report, tag = json.load(open(sys.argv[1])), sys.argv[2]
failing = [c for c in report["checks"] if c["verdict"] != "pass"]
print("caught" if all(tag in c["tags"] for c in failing) else "OTHER CHECK")' "$work/$mutant-report.json" "$tag")"
    fi
    [[ "$verdict" == caught ]] && mutants_caught=$((mutants_caught + 1))
    mutant_rows+=("$(printf '%-28s %-24s %-34s %s' "$mutant" "$tag" "$failing" "$verdict")")
    printf '  %-28s %-24s %-34s %s\n' "$mutant" "$tag" "$failing" "$verdict"
}

correct_status=0
[[ "$steps" != *" correct "* ]] || run_correct || correct_status=$?
correct_seconds=$((SECONDS - started))

device_ok=0
[[ "$steps" != *" device "* ]] || run_device || device_ok=$?
device_seconds=$((SECONDS - started - correct_seconds))

if [[ "$steps" == *" mutants "* ]]; then
    echo
    echo "== each mutant against the fault that exposes it (fresh mock server, seed $seed)"
    # The tags' section sign is two bytes, which printf counts: the header's column is one wider.
    printf '  %-28s %-25s %-34s %s\n' mutant tag "failing checks" verdict
    # Each run is short, but makes enough requests (small batches) that the fault comes, at its probability, for any
    # seed. The batches of delete-on-2xx keep at least two fixes, so that every partial ack deletes some: only the
    # loss shows.
    run_mutant delete-on-2xx partial-ack=1:keep=0.5 --fixes 30 --batch-size 20 --deadline 10
    run_mutant no-back-off retry-later=0.7 --fixes 20 --batch-size 5 --deadline 10
    run_mutant nothing-deleted-no-wait retry-later=0.7 --fixes 20 --batch-size 5 --deadline 10
    run_mutant retry-after-seconds-only status-503=0.7:retry-after=5:retry-after-form=date --fixes 20 --batch-size 5 \
        --deadline 10
    run_mutant retry-after-401 status-401=0.6 --fixes 20 --batch-size 5 --deadline 10
    # Batches above 16384 bytes, so that a stated limit is a real one, and a 408 asks for smaller ones.
    run_mutant ignore-413-limit status-413=0.7:max-batch-bytes=16384 --fixes 600 --batch-size 150 --deadline 10
    run_mutant same-size-after-408 status-408=0.6 --fixes 600 --batch-size 150 --deadline 10
    # Every batch a lone fix.
    run_mutant resend-single-item status-413=0.4 --fixes 20 --batch-size 1 --deadline 10
    run_mutant keep-coding-after-415 status-415=0.6 --fixes 20 --batch-size 5 --gzip --deadline 10
    run_mutant resend-same-bytes-after-400 status-400=0.6 --fixes 20 --batch-size 5 --deadline 10
    run_mutant apply-cut-body cut-ack=0.7 --fixes 20 --batch-size 5 --deadline 10
    run_mutant apply-other-ack duplicate-response=0.9 --fixes 20 --batch-size 5 --deadline 10
    run_mutant commands-twice commands=0.9 --fixes 20 --batch-size 5 --deadline 10
    run_mutant no-policy-version policy=0.9 --fixes 20 --batch-size 5 --deadline 10
    # Fix 0 is never acknowledged (it has no key): the client backs off with it until the deadline.
    run_mutant number-from-zero none --fixes 20 --deadline 4
    run_mutant keep-unknown-reject reject-unknown=0.6 --fixes 20 --batch-size 5 --deadline 10
    run_mutant ask-regions-on-hint hint=0.9 --fixes 20 --batch-size 5 --deadline 10
fi
mutant_seconds=$((SECONDS - started - correct_seconds - device_seconds))
total_mutants=${#mutant_rows[@]}

echo
echo "mock-server demo: correct client report status $correct_status (want 0), ${correct_seconds}s;" \
    "Swift device failing checks: ${device_result} (allowed: ${known_device_failures:--}), ${device_seconds}s;" \
    "mutants caught by a check naming their tag: $mutants_caught of $total_mutants, ${mutant_seconds}s;" \
    "total $((SECONDS - started))s"
if [[ "$correct_status" -eq 0 && "$device_ok" -eq 0 && "$mutants_caught" -eq "$total_mutants" ]]; then
    echo "mock-server demo: PASS"
    exit 0
fi
echo "mock-server demo: FAIL"
exit 1
