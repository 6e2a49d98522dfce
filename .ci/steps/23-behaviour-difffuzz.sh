# tier: full
# lane: root
# what: Differential fuzzing of the behaviour engines: random scenarios, the Swift engines against the Python reading
source .ci/lib.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
python3 conformance/testees/python-behavior/difffuzz.py --testee "$(locwire_release) conformance testee" --count 300 \
  --seed 20261122 | tee "$out"
if grep -v ' agree$' "$out" | grep -q .; then echo "the engines and the Python reading disagree" >&2; exit 1; fi
