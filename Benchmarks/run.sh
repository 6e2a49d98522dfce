#!/usr/bin/env bash
# The one command of the benchmarks: builds every peer harness (Benchmarks/peers/build*.sh) and the benchmark
# driver (release), then `locwire-bench run` drives LocationWire, swift-protobuf, C++ protobuf, native upb,
# protobuf-go, protobuf-java, protobuf-c and Python protobuf through one protocol (Benchmarks/peers/PROTOCOL.md) on
# the same inputs, interleaved sample by sample, and writes Benchmarks/RESULTS.md and Benchmarks/results.json.
# About 12 minutes with the defaults (10 rounds, the instruction counts); a quiet machine gives steadier figures.
# Arguments go to `locwire-bench run` (see --help): --quick for a rough run in a few minutes, --rounds N,
# --only IMPLEMENTATION, --workload NAME, --output FILE. A slice (--only, --workload) builds only the harnesses it
# names, measures what it selects (the targets it cannot judge say "not measured in this run") and writes its
# report to Benchmarks/.build/slice/ unless --output says where, so the committed report stays whole.
# The region planner's and the engines' benchmarks run alone: `.build/release/locwire-bench planner|engines`.
#
# Needs the peers (Debian: scripts/install-peers.sh as root) and a Swift 6.1+ toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

# With --only, only the harnesses of the implementations named are built (a slice should not wait for Java).
only=()
previous=""
for argument in "$@"; do
    case $argument in
        --only=*) only+=("${argument#--only=}") ;;
        *) [[ $previous == --only ]] && only+=("$argument") ;;
    esac
    previous=$argument
done
# selected IMPLEMENTATION...: true when there is no --only, or it names one of them.
selected() {
    ((${#only[@]} == 0)) && return 0
    local name wanted
    for name in "$@"; do for wanted in "${only[@]}"; do [[ $name == "$wanted" ]] && return 0; done; done
    return 1
}
builds=(
    "build.sh cpp-libprotobuf c-protobuf-c python-protobuf-upb-backend"
    "build-upb.sh upb"
    "build-go.sh go-protobuf"
    "build-java.sh java-protobuf"
)
for entry in "${builds[@]}"; do
    read -r script implementations <<<"$entry"
    # shellcheck disable=SC2086 # the implementations are words
    selected $implementations || continue
    echo "run.sh: building the peer harnesses: peers/$script" >&2
    "$here/peers/$script" >&2
done
echo "run.sh: building the benchmark driver (release)" >&2
swift build -c release --package-path "$here" 2>&1 | tail -1 >&2
"$here/.build/release/locwire-bench" run --root "$root" "$@"
