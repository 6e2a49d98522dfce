# tier: quick
# what: Build: the package and its tests, with no warning in the project's own code
source .ci/lib.sh
# A plain build, then the warnings counted: -warnings-as-errors would make the next `swift test` build everything
# again with other flags. On a fresh clone every file is compiled here, so every warning is seen.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log" | grep -E '^Build|error:' || true
if grep -E "^$root/(Sources|Tests)/.*: (warning|error):" "$log"; then
  echo "warnings or errors in the project's code (above)" >&2
  exit 1
fi
grep -q '^Build complete' "$log" || { tail -40 "$log" >&2; exit 1; }
