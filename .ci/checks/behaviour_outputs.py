#!/usr/bin/env python3
"""The behaviour commands' outputs on the real track are plausible: `simulate record` records more than 50 fixes,
`simulate fences` finds at least 3 entries and 3 exits of the example regions.

Usage: .ci/checks/behaviour_outputs.py RECORD.json FENCES.json
"""
import json
import sys

record = json.load(open(sys.argv[1]))["summary"]
if record["recorded"] <= 50:
    raise SystemExit(f"simulate record recorded only {record['recorded']} fixes: {record}")
print("record:", record)
kinds = json.load(open(sys.argv[2]))["summary"]["byKind"]
if kinds.get("FENCE_EVENT_KIND_ENTER", 0) < 3 or kinds.get("FENCE_EVENT_KIND_EXIT", 0) < 3:
    raise SystemExit(f"simulate fences found too few entries or exits: {kinds}")
print("fences:", kinds)
