# tier: full
# lane: packages
# what: The Server package (Hummingbird, GRDB, postgres-nio) builds without warnings in its own code; its tests pass on SQLite and PostgreSQL
source .ci/lib.sh
LOCWIRE_TEST_POSTGRES_URL=$(Server/scripts/start-postgres.sh)
export LOCWIRE_TEST_POSTGRES_URL
log=$(mktemp)
trap 'rm -f "$log"; Server/scripts/start-postgres.sh stop >/dev/null 2>&1 || true' EXIT
# Warnings counted in the package's own modules only: -warnings-as-errors would apply to Hummingbird and NIO too.
(cd Server && swift build --build-tests 2>&1 | tee "$log" | tail -3)
if grep -E "/Server/(Sources|Tests)/.*: warning:" "$log"; then
  echo "warnings in the Server package's code" >&2
  exit 1
fi
set +o pipefail
(cd Server && swift test 2>&1) | quiet_test_log
exit "${PIPESTATUS[0]}"
