#!/usr/bin/env bash
# The one command of the benchmarks: builds the peer harnesses (Benchmarks/peers/build.sh) and the benchmark
# driver (release), measures LocationWire, swift-protobuf, C++ protobuf, protobuf-c and upb on the same bytes,
# and writes Benchmarks/RESULTS.md and Benchmarks/results.json. About 15 minutes with the defaults; a quiet
# machine gives steadier figures. Arguments go to `locwire-bench run` (see --help): --quick for a rough run
# in about a minute, --rounds N, --output FILE.
# The region planner's benchmark runs alone: `.build/release/locwire-bench planner` (Benchmarks/NOTES.md).
#
# Needs the peers (Debian: scripts/install-peers.sh as root) and a Swift 6.1+ toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

echo "run.sh: building the peer harnesses" >&2
"$here/peers/build.sh"
echo "run.sh: building the benchmark driver (release)" >&2
swift build -c release --package-path "$here" 2>&1 | tail -1 >&2
"$here/.build/release/locwire-bench" run --root "$root" "$@"
