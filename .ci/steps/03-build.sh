# tier: quick
# what: Build: the package and its tests; a warning in the project's own code is an error (Package.swift)
source .ci/lib.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log" | grep -E '^Build|error:' || true
grep -q '^Build complete' "$log" || { tail -40 "$log" >&2; exit 1; }
