# tier: full
# lane: root
# what: CONTRIBUTING.md's walk-through, run: a throwaway LocationFix field with a range rule and a warning code, added exactly as the document says to a scratch clone, then regenerate, tests, conformance and the Python readings
source .ci/lib.sh
# A scratch clone, not this checkout: the other lane builds the Server and Benchmarks packages from this
# checkout's sources while this step runs. The field's edit rebuilds nearly every module either way.
scripts/walkthrough.sh
