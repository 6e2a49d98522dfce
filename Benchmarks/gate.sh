#!/usr/bin/env bash
# The instruction gate: builds the benchmark driver (release) and runs `locwire-bench gate`, which counts
# LocationWire's instructions per operation on every headline workload under callgrind and holds each count to
# its figure in Benchmarks/instruction-gate.txt (2 % either way). About 30 seconds after the build.
#
#   Benchmarks/gate.sh                                   # check; exit 1 names each count that moved
#   Benchmarks/gate.sh --workload batch-walk-1           # one workload
#   Benchmarks/gate.sh --update --reason "why"           # rewrite the lines that moved, with the reason
#   Benchmarks/gate.sh --json                            # the verdicts as JSON
#
# Needs valgrind and binutils (scripts/install-peers.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
echo "gate.sh: building the benchmark driver (release)" >&2
swift build -c release --package-path "$here" --product locwire-bench 2>&1 | tail -1 >&2
exec "$here/.build/release/locwire-bench" gate --root "$here/.." "$@"
