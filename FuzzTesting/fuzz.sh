#!/usr/bin/env bash
# Builds, runs and replays the LocationWire libFuzzer targets. Run from anywhere.
#
#   fuzz.sh build                        sanitized release build of all targets (prints its wall time)
#   fuzz.sh prepare                      dictionaries (from proto/) and seed corpora (vectors, fixtures, regressions)
#   fuzz.sh run SECONDS [-j N] [TARGET...]
#                                        build, prepare, then fuzz every target (or the ones named) for SECONDS
#                                        each, N at a time (default 1); prints a table; exits 1 on any finding
#   fuzz.sh smoke [-j N] [TARGET...]     run 60 (what CI runs)
#   fuzz.sh replay DIR [TARGET...]       run the built targets over files without fuzzing: DIR/<Target>/* for
#                                        each target that has a folder in DIR (e.g. Regressions/, work/seeds/), or,
#                                        if DIR has no target folders, every file of DIR through each TARGET named
#   fuzz.sh minimize TARGET FILE         minimize a finding (-minimize_crash=1) and store it in Regressions/TARGET/
#   fuzz.sh targets                      list the targets
#
# Environment: SANITIZER (address), MAX_LEN (32768), TIMEOUT (10), RSS_LIMIT_MB (2048), FUZZ_WORK (FuzzTesting/work),
# LOCWIRE (a built locwire CLI for fixtures; default: `swift build -c release --product locwire` at the root),
# SKIP_BUILD=1 (use the binaries already built), FUZZ_BIN (take the fuzzers from this folder instead of the build),
# EXTRA_FUZZER_ARGS (appended to every libFuzzer command line), MINIMIZE_SECONDS (120), KEEP_GOING=1 (fork mode:
# record timeouts and OOMs and keep fuzzing; a crash still stops the target).
#
# Layout under $FUZZ_WORK: dicts/<T>.dict; seeds/<T>/ (regenerated, read-only, never written by libFuzzer);
# corpus/<T>/ (the working corpus, kept between runs); runs/<UTC time>/{logs,findings}/<T>/ (one per run).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="${FUZZ_WORK:-$HERE/work}"
SANITIZER="${SANITIZER:-address}"
MAX_LEN="${MAX_LEN:-32768}"
TIMEOUT="${TIMEOUT:-10}"
RSS_LIMIT_MB="${RSS_LIMIT_MB:-2048}"
TARGETS=(FuzzLocationBatch FuzzBatchAck FuzzRegionAssignment FuzzRegionRequest FuzzFenceEvent FuzzTrackingPolicy
         FuzzValidation FuzzJSON)
# SwiftPM's own flags, plus the combined -sanitize= for swiftc. SwiftPM (6.3.1) passes its sanitizers as separate
# -sanitize=X flags in the order of a Set (random from one run to the next), and swiftc uses only the last one:
# so --sanitize=fuzzer --sanitize=address alone gives either coverage without ASan or ASan without coverage
# (libFuzzer then fuzzes blind). The combined flag comes last and wins. check_instrumentation verifies it.
BUILD_FLAGS=(-c release --sanitize=fuzzer "--sanitize=$SANITIZER" -Xswiftc "-sanitize=fuzzer,$SANITIZER")

die() { echo "fuzz.sh: $*" >&2; exit 2; }

is_target() { local t; for t in "${TARGETS[@]}"; do [[ "$t" == "$1" ]] && return 0; done; return 1; }

# The built fuzzers; FUZZ_BIN overrides (e.g. an OSS-Fuzz $OUT, to replay with the binaries build.sh made).
bin_dir() {
    if [[ -n "${FUZZ_BIN:-}" ]]; then echo "$FUZZ_BIN"; return; fi
    (cd "$HERE" && swift build "${BUILD_FLAGS[@]}" --show-bin-path)
}

cmd_build() {
    [[ "${SKIP_BUILD:-0}" == 1 ]] && return 0
    echo "== swift build ${BUILD_FLAGS[*]} (in FuzzTesting/)"
    local start end
    start=$(date +%s)
    # A checkout edited while it builds fails with "modified during the build": try again, up to 3 times.
    local attempt
    for attempt in 1 2 3; do
        if (cd "$HERE" && swift build "${BUILD_FLAGS[@]}"); then break; fi
        ((attempt < 3)) || die "build failed"
        echo "== build failed; retrying ($attempt)"
    done
    end=$(date +%s)
    echo "== sanitized build: $((end - start)) s wall"
    check_instrumentation "$(bin_dir)"
}

# Every fuzzer must hold libFuzzer's coverage counters and, for address, ASan-instrumented globals.
check_instrumentation() {
    local bin="$1" target sections
    for target in "${TARGETS[@]}"; do
        sections="$(objdump -h "$bin/$target")"
        grep -q __sancov_cntrs <<<"$sections" || die "$target has no coverage instrumentation (-sanitize=fuzzer lost)"
        if [[ "$SANITIZER" == address ]] && ! grep -q asan_globals <<<"$sections"; then
            die "$target has no ASan instrumentation (-sanitize=address lost)"
        fi
    done
    echo "== instrumentation: coverage${SANITIZER:+ and $SANITIZER} in all ${#TARGETS[@]} fuzzers"
}

locwire() {
    if [[ -n "${LOCWIRE:-}" ]]; then echo "$LOCWIRE"; return; fi
    (cd "$ROOT" && swift build -c release --product locwire >&2)
    echo "$(cd "$ROOT" && swift build -c release --show-bin-path)/locwire"
}

cmd_prepare() {
    local lw
    lw="$(locwire)"
    echo "== dictionaries -> $WORK/dicts"
    python3 "$HERE/tools/make_dictionaries.py" --out "$WORK/dicts"
    echo "== seed corpora -> $WORK/seeds"
    if [[ -d "$WORK/seeds" ]]; then chmod -R u+w "$WORK/seeds"; fi
    python3 "$HERE/tools/make_corpus.py" --out "$WORK/seeds" --locwire "$lw"
    chmod -R a-w "$WORK/seeds"/*
}

# One libFuzzer run; its log goes to $RUN/logs/<T>.log, its artifacts to $RUN/findings/<T>/.
fuzz_one() {
    local target="$1" seconds="$2" bin="$3"
    mkdir -p "$WORK/corpus/$target" "$RUN/findings/$target"
    local cmd=("$bin/$target" "$WORK/corpus/$target" "$WORK/seeds/$target"
        "-dict=$WORK/dicts/$target.dict" "-max_total_time=$seconds" "-print_final_stats=1"
        "-timeout=$TIMEOUT" "-rss_limit_mb=$RSS_LIMIT_MB" "-max_len=$MAX_LEN"
        "-artifact_prefix=$RUN/findings/$target/")
    # KEEP_GOING=1: libFuzzer's fork mode, which records timeouts and out-of-memory inputs and goes on fuzzing
    # (a crash, i.e. an oracle violation or a sanitizer report, still stops the run).
    [[ "${KEEP_GOING:-0}" == 1 ]] && cmd+=(-fork=1 -ignore_timeouts=1 -ignore_ooms=1)
    # shellcheck disable=SC2206
    [[ -n "${EXTRA_FUZZER_ARGS:-}" ]] && cmd+=(${EXTRA_FUZZER_ARGS})
    echo "${cmd[*]}" > "$RUN/logs/$target.cmd"
    local rc=0
    "${cmd[@]}" > "$RUN/logs/$target.log" 2>&1 || rc=$?
    echo "$rc" > "$RUN/logs/$target.rc"
    echo "-- $target done (exit $rc)"
}

stat_of() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }

summary() {
    local failed=0 target log rc runs eps cov ft corp files finds
    printf '\n%-21s %10s %8s %6s %7s %12s %8s %s\n' TARGET RUNS EXECS/S COV FT CORPUS FILES FINDINGS
    for target in "$@"; do
        log="$RUN/logs/$target.log"
        rc="$(cat "$RUN/logs/$target.rc" 2>/dev/null || echo '?')"
        local last
        if grep -q -- '-fork=1: fuzzing in separate process' "$log"; then
            # Fork mode prints no final stats; its last line is "#N: cov: C ft: F corp: U exec/s: E ... time: Ts".
            last="$(grep -E '^#[0-9]+: cov: ' "$log" | tail -1 || true)"
            runs="$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")"
            local secs
            secs="$(sed -n 's/.* time: \([0-9]*\)s.*/\1/p' <<<"$last")"
            eps="$([[ -n "$runs" && "${secs:-0}" -gt 0 ]] && echo $((runs / secs)) || true)"
            corp="$(sed -n 's/.* corp: \([0-9]*\) .*/\1/p' <<<"$last")"
        else
            runs="$(stat_of "$log" number_of_executed_units)"
            eps="$(stat_of "$log" average_exec_per_sec)"
            # The last status line: "#N  DONE  cov: C ft: F corp: U/Sb ..." (or the last pulse/NEW line).
            last="$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1 || true)"
            corp="$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")"
        fi
        cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
        ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
        files="$(find "$WORK/corpus/$target" -type f | wc -l)"
        finds="$(find "$RUN/findings/$target" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
            -o -name 'oom-*' \) -printf '%f\n' | sed 's/-.*//' | sort | uniq -c | awk '{printf "%s%s x%s", (NR>1?", ":""), $2, $1}')"
        local forked
        forked="$(sed -n 's/.* oom\/timeout\/crash: \([0-9]*\/[0-9]*\/[0-9]*\) .*/\1/p' <<<"$last")"
        if [[ -n "$forked" && "$forked" != 0/0/0 ]]; then
            finds="${finds:+$finds; }fork: $forked oom/timeout/crash"
        fi
        if [[ "$rc" != 0 || -n "$finds" ]]; then
            failed=1
            [[ -z "$finds" ]] && finds="exit $rc (see log)"
        fi
        printf '%-21s %10s %8s %6s %7s %12s %8s %s\n' "$target" "${runs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" \
            "${corp:-?}" "$files" "${finds:-none}"
    done
    echo
    echo "RUNS and EXECS/S: libFuzzer's final stats; COV/FT: edges and features at the end; CORPUS: units/bytes"
    echo "in memory at the end (seeds + working corpus); FILES: files in the working corpus $WORK/corpus/<T>."
    echo "Logs: $RUN/logs   Findings: $RUN/findings"
    return "$failed"
}

cmd_run() {
    local seconds="$1"; shift
    local jobs=1 selected=()
    while (($#)); do
        case "$1" in
            -j) jobs="$2"; shift 2 ;;
            -j*) jobs="${1#-j}"; shift ;;
            *) is_target "$1" || die "unknown target $1"; selected+=("$1"); shift ;;
        esac
    done
    [[ "$seconds" =~ ^[0-9]+$ ]] || die "run: SECONDS must be a number"
    ((${#selected[@]})) || selected=("${TARGETS[@]}")
    cmd_build
    cmd_prepare
    local bin
    bin="$(bin_dir)"
    RUN="$WORK/runs/$(date -u +%Y%m%dT%H%M%SZ)"
    mkdir -p "$RUN/logs" "$RUN/findings"
    echo "== fuzzing ${#selected[@]} targets for $seconds s each, $jobs at a time; run folder $RUN"
    local target running=0
    for target in "${selected[@]}"; do
        if ((running >= jobs)); then wait -n || true; running=$((running - 1)); fi
        echo "-- $target started $(date -u +%H:%M:%S)"
        fuzz_one "$target" "$seconds" "$bin" &
        running=$((running + 1))
    done
    wait || true
    summary "${selected[@]}" | tee "$RUN/summary.txt"
    return "${PIPESTATUS[0]}"
}

# Files to replay from a folder: everything but dot files and READMEs.
replay_files() { find "$1" -maxdepth 1 -type f ! -name '.*' ! -iname 'readme*' | sort; }

cmd_replay() {
    local dir="$1"; shift
    [[ -d "$dir" ]] || die "replay: $dir is not a folder"
    local bin target failed=0 any=0 files
    bin="$(bin_dir)"
    local selected=("$@")
    local per_target=0
    for target in "${TARGETS[@]}"; do [[ -d "$dir/$target" ]] && per_target=1; done
    if ((per_target)); then
        ((${#selected[@]})) || selected=("${TARGETS[@]}")
    else
        ((${#selected[@]})) || die "replay: $dir has no <Target>/ folders: name the targets to run its files through"
    fi
    for target in "${selected[@]}"; do
        is_target "$target" || die "unknown target $target"
        [[ -x "$bin/$target" ]] || die "$bin/$target is not built (fuzz.sh build)"
        if ((per_target)); then
            [[ -d "$dir/$target" ]] || continue
            mapfile -t files < <(replay_files "$dir/$target")
        else
            mapfile -t files < <(replay_files "$dir")
        fi
        ((${#files[@]})) || { echo "$target: no files"; continue; }
        any=1
        # Given files (not folders), libFuzzer runs each once and exits: no fuzzing, no corpus writes.
        local rc=0 log
        log="$(mktemp)"
        "$bin/$target" "-timeout=$TIMEOUT" "-rss_limit_mb=$RSS_LIMIT_MB" "${files[@]}" > "$log" 2>&1 || rc=$?
        # libFuzzer does not enforce -timeout on files given by name: flag the slow ones from "Executed F in N ms".
        local slow
        slow="$(awk -v limit=$((TIMEOUT * 1000)) '/^Executed .* in [0-9]+ ms$/ && $(NF-1) > limit {print "    " $2 ": " $(NF-1) " ms"}' "$log")"
        if ((rc)); then
            failed=1
            echo "$target: FAILED on $(grep -c '^Running: ' "$log") of ${#files[@]} files (exit $rc):"
            grep -E '^Running: |Fatal error|ERROR: |SUMMARY: ' "$log" | tail -8 | sed 's/^/    /'
        elif [[ -n "$slow" ]]; then
            failed=1
            echo "$target: ${#files[@]} files, but some took longer than the ${TIMEOUT} s timeout:"
            echo "$slow"
        else
            echo "$target: ${#files[@]} files OK"
        fi
        rm -f "$log"
    done
    ((any)) || echo "replay: nothing to replay in $dir"
    return "$failed"
}

cmd_minimize() {
    local target="$1" file="$2"
    is_target "$target" || die "unknown target $target"
    [[ -f "$file" ]] || die "minimize: no file $file"
    local bin kind tmp sha
    bin="$(bin_dir)"
    kind="$(basename "$file" | sed -n 's/^\(crash\|leak\|timeout\|oom\)-.*/\1/p')"
    kind="${kind:-crash}"
    tmp="$(mktemp -d)"
    "$bin/$target" -minimize_crash=1 -runs=100000 "-max_total_time=${MINIMIZE_SECONDS:-120}" \
        "-timeout=$TIMEOUT" "-rss_limit_mb=$RSS_LIMIT_MB" "-exact_artifact_path=$tmp/min" "$file" \
        > "$tmp/log" 2>&1 || true
    [[ -s "$tmp/min" ]] || cp "$file" "$tmp/min"   # could not minimize: keep the original
    sha="$(sha1sum "$tmp/min" | cut -d' ' -f1)"
    mkdir -p "$HERE/Regressions/$target"
    cp "$tmp/min" "$HERE/Regressions/$target/$kind-$sha"
    echo "stored $HERE/Regressions/$target/$kind-$sha ($(stat -c %s "$tmp/min") bytes, was $(stat -c %s "$file")): $(xxd -p "$tmp/min" | tr -d '\n' | cut -c1-200)"
    echo "violation (or, for a timeout, the time it took):"
    "$bin/$target" "-timeout=$TIMEOUT" "-rss_limit_mb=$RSS_LIMIT_MB" "$tmp/min" 2>&1 | grep -E 'Fatal error|ERROR: |SUMMARY: |^Executed ' | head -3 | sed 's/^/    /' || true
    rm -rf "$tmp"
}

main() {
    local cmd="${1:-}"; shift || true
    case "$cmd" in
        build) cmd_build ;;
        prepare) cmd_prepare ;;
        run) [[ $# -ge 1 ]] || die "usage: fuzz.sh run SECONDS [-j N] [TARGET...]"; cmd_run "$@" ;;
        smoke) cmd_run 60 "$@" ;;
        replay) [[ $# -ge 1 ]] || die "usage: fuzz.sh replay DIR [TARGET...]"; cmd_replay "$@" ;;
        minimize) [[ $# -eq 2 ]] || die "usage: fuzz.sh minimize TARGET FILE"; cmd_minimize "$@" ;;
        targets) printf '%s\n' "${TARGETS[@]}" ;;
        *) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; [[ -z "$cmd" || "$cmd" == help || "$cmd" == -h ]] ;;
    esac
}

main "$@"
