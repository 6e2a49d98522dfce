# tier: full
# lane: packages
# what: Benchmarks: every harness and the driver build, one quick run through the protocol (figures not kept; every cross-check must pass)
source .ci/lib.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
Benchmarks/run.sh --quick --require-all-harnesses --output "$out/RESULTS.quick.md" >/dev/null
grep -q '^## Targets' "$out/RESULTS.quick.md"
