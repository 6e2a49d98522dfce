# tier: quick
# what: Tests: swift test, the README's test command (the slow suites are the full tier's slow-tests step)
source .ci/lib.sh
# Started and passed tests are left out of the log; failures, suites and the summary stay.
set +o pipefail
swift test 2>&1 | quiet_test_log
exit "${PIPESTATUS[0]}"
