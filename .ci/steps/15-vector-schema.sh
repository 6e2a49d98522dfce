# tier: full
# lane: root
# what: Conformance vectors match their JSON Schema (conformance/vectors.schema.json)
source .ci/lib.sh
python3 .ci/checks/vector_schema.py
