# tier: full
# lane: last
# what: CONTRIBUTING.md's walk-through, run: a throwaway LocationFix field with a range rule and a warning code, added exactly as the document says, then regenerate, tests, conformance and the Python readings (last: it works in this clone and puts it back)
source .ci/lib.sh
scripts/walkthrough.sh --in-place
