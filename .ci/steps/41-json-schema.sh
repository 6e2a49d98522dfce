# tier: full
# lane: root
# what: The JSON Schemas of proto/jsonschema/ validate every valid JSON vector, catch the invalid ones as proto/jsonschema/VECTORS.md lists, and judge edge cases as locwire's JSON reader does
source .ci/lib.sh
# The debug locwire (the quick tier built it): a hundred or so small conversions.
python3 scripts/judges/jsonschema_vectors.py --locwire "$(locwire_debug)"
