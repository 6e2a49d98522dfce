#!/usr/bin/env python3
"""Every conformance vector file matches conformance/vectors.schema.json (JSON Schema draft 2020-12).

Usage: .ci/checks/vector_schema.py   (from the repository root; exit 1 with the first errors of each bad file)
"""
import glob
import json

import jsonschema

schema = json.load(open("conformance/vectors.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
for path in sorted(glob.glob("conformance/vectors/*.json")):
    errors = list(validator.iter_errors(json.load(open(path))))
    for error in errors[:5]:
        print(f"{path}: {error.json_path}: {error.message[:200]}")
    if errors:
        raise SystemExit(f"{path}: {len(errors)} schema errors")
print("vector files match conformance/vectors.schema.json")
