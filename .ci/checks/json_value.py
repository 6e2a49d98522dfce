#!/usr/bin/env python3
"""Prints one value of a JSON file, by a dotted path of keys: `.ci/checks/json_value.py summary.json imported`.

Exit 1 when the path is not in the file.
"""
import json
import sys

value = json.load(open(sys.argv[1]))
for key in sys.argv[2].split("."):
    if not isinstance(value, dict) or key not in value:
        raise SystemExit(f"{sys.argv[1]} has no {sys.argv[2]}")
    value = value[key]
print(value)
