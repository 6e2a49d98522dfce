# tier: full
# lane: packages
# what: The Server package (Hummingbird, GRDB, postgres-nio) builds (a warning in its own code is an error); its tests pass on SQLite and PostgreSQL
source .ci/lib.sh
LOCWIRE_TEST_POSTGRES_URL=$(Server/scripts/start-postgres.sh)
export LOCWIRE_TEST_POSTGRES_URL
log=$(mktemp)
trap 'rm -f "$log"; Server/scripts/start-postgres.sh stop >/dev/null 2>&1 || true' EXIT
# Server/Package.swift makes a warning in the package's own targets an error; Hummingbird and NIO keep theirs.
# (lib.sh's server_build: the tests, then locwire-server linked statically for the release step.)
server_build 2>&1 | tee "$log" | grep -E '^Build|error:' || true
[[ $(grep -cE '^Build complete|^Build of product .locwire-server. complete' "$log") == 2 ]] || { grep -E 'error:' "$log" | head -40 >&2; exit 1; }
set +o pipefail
(cd Server && swift test --skip-build 2>&1) | quiet_test_log
exit "${PIPESTATUS[0]}"
