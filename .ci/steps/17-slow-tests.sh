# tier: full
# lane: root
# what: The slow test suites: committed vectors current and covering the spec, the built-in implementation passes them all
source .ci/lib.sh
set +o pipefail
scripts/slow-tests.sh 2>&1 | quiet_test_log
exit "${PIPESTATUS[0]}"
