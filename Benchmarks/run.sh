#!/usr/bin/env bash
# The one command of the benchmarks: builds every peer harness (Benchmarks/peers/build*.sh) and the benchmark
# driver (release), then `locwire-bench run` drives LocationWire, swift-protobuf, C++ protobuf, native upb,
# protobuf-go, protobuf-java, protobuf-c and Python protobuf through one protocol (Benchmarks/peers/PROTOCOL.md) on
# the same inputs, interleaved sample by sample, and writes Benchmarks/RESULTS.md and Benchmarks/results.json.
# About 12 minutes with the defaults (10 rounds, the instruction counts); a quiet machine gives steadier figures.
# Arguments go to `locwire-bench run` (see --help): --quick for a rough run in a few minutes, --rounds N,
# --only IMPLEMENTATION, --workload NAME, --output FILE.
# The region planner's and the engines' benchmarks run alone: `.build/release/locwire-bench planner|engines`.
#
# Needs the peers (Debian: scripts/install-peers.sh as root) and a Swift 6.1+ toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

for script in build.sh build-upb.sh build-go.sh build-java.sh; do
    echo "run.sh: building the peer harnesses: peers/$script" >&2
    "$here/peers/$script" >&2
done
echo "run.sh: building the benchmark driver (release)" >&2
swift build -c release --package-path "$here" 2>&1 | tail -1 >&2
"$here/.build/release/locwire-bench" run --root "$root" "$@"
