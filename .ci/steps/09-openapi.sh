# tier: quick
# what: The HTTP binding's OpenAPI 3.1 document (proto/openapi.yaml) is valid, its referenced JSON Schemas exist, and it says what proto/HTTP.md's tables say
source .ci/lib.sh
# A $ref to a file that does not exist is an error here, not a schema that allows anything.
python3 - <<'PY'
import sys
sys.path.insert(0, "scripts/judges")
from openapi_exchanges import load_document
load_document("proto/openapi.yaml")
print("proto/openapi.yaml: a valid OpenAPI 3.1 document (openapi-spec-validator), every referenced file present")
PY
python3 .ci/checks/openapi_tables.py
