#!/usr/bin/env python3
"""Proves the breaking-change check (scripts/schema/breaking-check.sh) on a table of schema mutations: each is
applied to a copy of proto/ (with buf.yaml), the check runs against the release image, and buf's verdict must be
the expected one: a breaking mutation fails with the expected rule id and names the expected field or value; a
harmless one passes.

    mutations.py [--against IMAGE] [--markdown | --json] [--only NAME...] [--jobs N]

    --against IMAGE  the release image (default: the newest proto/released/locationwire-v*.binpb)
    --markdown       the table as Markdown (for a closing note); --json: one object per mutation
    --only NAME      run only these mutations (names from the table; repeatable)
    --jobs N         checks run side by side (default 2)

Exit status: 0 every verdict as expected, 1 a verdict differs (or a mutation no longer applies to proto/: its text
moved), 2 usage error or a check that could not run (a missing tool, a mutation that does not build).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "schema", "breaking-check.sh")
V1, SESSION, TESTEE = "locationwire/v1/", "locationwire/session/v1/", "locationwire/conformance/v1/testee.proto"
EXPERIMENTAL = "// Stability: experimental.\n  "


def break_(rule, name):
    return {"verdict": "break", "rule": rule, "name": name}


PASS = {"verdict": "pass"}

# Each mutation: its name, what it does, and edits: (file under proto/, or "*" for every file, a regular expression
# that must match at least once, its replacement: every match is replaced). `copy` makes a new file from an
# existing one first.
MUTATIONS = [
    {"name": "renumber-stable-field", "what": "LocationFix.time_ms 2 -> 120",
     "edits": [(V1 + "location_fix.proto", r"int64 time_ms = 2;", "int64 time_ms = 120;")],
     "expect": break_("FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", '"time_ms"')},
    {"name": "retype-stable-field", "what": "LocationFix.latitude_e7 sfixed32 -> int32 (another wire type)",
     "edits": [(V1 + "location_fix.proto", r"sfixed32 latitude_e7 = 3;", "int32 latitude_e7 = 3;")],
     "expect": break_("FIELD_WIRE_JSON_COMPATIBLE_TYPE", '"latitude_e7"')},
    {"name": "retype-varint-widen", "what": "Region.priority uint32 -> uint64 (same wire type; JSON string)",
     "edits": [(V1 + "region.proto", r"uint32 priority = 11;", "uint64 priority = 11;")],
     "expect": break_("FIELD_WIRE_JSON_COMPATIBLE_TYPE", '"priority"')},
    {"name": "retype-signedness", "what": "Region.priority uint32 -> int32 (same wire type and JSON number)",
     "edits": [(V1 + "region.proto", r"uint32 priority = 11;", "int32 priority = 11;")],
     "expect": PASS},
    {"name": "retype-string-bytes", "what": "Region.name string -> bytes (same wire type; JSON base64)",
     "edits": [(V1 + "region.proto", r"string name = 14;", "bytes name = 14;")],
     "expect": break_("FIELD_WIRE_JSON_COMPATIBLE_TYPE", '"name"')},
    {"name": "retype-zigzag", "what": "Region.expires_at_ms int64 -> sint64 (zigzag: other bytes)",
     "edits": [(V1 + "region.proto", r"int64 expires_at_ms = 12;", "sint64 expires_at_ms = 12;")],
     "expect": break_("FIELD_WIRE_JSON_COMPATIBLE_TYPE", '"expires_at_ms"')},
    {"name": "repeat-stable-field", "what": "Region.parent_id singular -> repeated",
     "edits": [(V1 + "region.proto", r"string parent_id = 6;", "repeated string parent_id = 6;")],
     "expect": break_("FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY", '"parent_id"')},
    {"name": "remove-stable-field", "what": "Region.parent_id deleted, nothing reserved",
     "edits": [(V1 + "region.proto", r"  string parent_id = 6;\n", "")],
     "expect": break_("FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", '"parent_id"')},
    {"name": "remove-reserving-number-only", "what": "Region.parent_id deleted, `reserved 6;`",
     "edits": [(V1 + "region.proto", r"  string parent_id = 6;\n", "  reserved 6;\n")],
     "expect": break_("FIELD_NO_DELETE_UNLESS_NAME_RESERVED", '"parent_id"')},
    {"name": "remove-reserving-both", "what": "Region.parent_id deleted, number 6 and name reserved",
     "edits": [(V1 + "region.proto", r"  string parent_id = 6;\n", '  reserved 6;\n  reserved "parent_id";\n')],
     "expect": PASS},
    {"name": "rename-stable-field", "what": "Region.priority renamed rank",
     "edits": [(V1 + "region.proto", r"uint32 priority = 11;", "uint32 rank = 11;")],
     "expect": break_("FIELD_SAME_NAME", '"priority"')},
    {"name": "change-json-name", "what": 'LocationBatch.device_id [json_name = "deviceID"]',
     "edits": [(V1 + "location_batch.proto", r"  string device_id = 1;",
                '  string device_id = 1 [json_name = "deviceID"];')],
     "expect": break_("FIELD_SAME_JSON_NAME", '"device_id"')},
    {"name": "rename-enum-value", "what": "PLATFORM_IOS renamed PLATFORM_APPLE",
     "edits": [(V1 + "common.proto", r"PLATFORM_IOS = 1;", "PLATFORM_APPLE = 1;")],
     "expect": break_("ENUM_VALUE_SAME_NAME", '"PLATFORM_IOS"')},
    {"name": "renumber-enum-value", "what": "PLATFORM_ANDROID 2 -> 4",
     "edits": [(V1 + "common.proto", r"PLATFORM_ANDROID = 2;", "PLATFORM_ANDROID = 4;")],
     "expect": break_("ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED", 'value "2" on enum "Platform"')},
    {"name": "move-into-oneof", "what": "Region.priority into `oneof optional_priority` (explicit presence)",
     "edits": [(V1 + "region.proto", r"uint32 priority = 11;", "oneof optional_priority { uint32 priority = 11; }")],
     "expect": break_("FIELD_SAME_ONEOF", '"priority"')},
    {"name": "move-out-of-oneof", "what": "VectorRequest.json_input out of oneof input",
     "edits": [(TESTEE, r"    string json_input = 4;\n  \}\n", "  }\n  string json_input = 4;\n")],
     "expect": break_("FIELD_SAME_ONEOF", '"json_input"')},
    {"name": "rename-message", "what": "Circle renamed Disc everywhere",
     "edits": [("*", r"\bCircle\b", "Disc")],
     "expect": break_("PACKAGE_MESSAGE_NO_DELETE", '"Circle"')},
    {"name": "rename-unreferenced-message", "what": "TesteeRequest renamed RunnerRequest (no field refers to it)",
     "edits": [(TESTEE, r"\bTesteeRequest\b", "RunnerRequest")],
     "expect": break_("PACKAGE_MESSAGE_NO_DELETE", '"TesteeRequest"')},
    {"name": "demote-stable-field", "what": "Region.refine_on_entry marked experimental",
     "edits": [(V1 + "region.proto", r"bool refine_on_entry = 13;", EXPERIMENTAL + "bool refine_on_entry = 13;")],
     "expect": break_("FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", '"refine_on_entry"')},
    # No enum value of the release is experimental (every one a vector carries): the experimental fields below show
    # that what is experimental is left out; this shows that a value made stable by its vector is guarded.
    {"name": "renumber-vector-carried-value", "what": "PLATFORM_OTHER (stable: canonical vectors carry it) 3 -> 9",
     "edits": [(V1 + "common.proto", r"PLATFORM_OTHER = 3;", "PLATFORM_OTHER = 9;")],
     "expect": break_("ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED", 'value "3" on enum "Platform"')},
    {"name": "renumber-experimental-field", "what": "DeviceRecord.record_fix_owed (experimental) 9 -> 29",
     "edits": [(SESSION + "device_record.proto", r"bool record_fix_owed = 9;", "bool record_fix_owed = 29;")],
     "expect": PASS},
    {"name": "retype-experimental-field", "what": "DeviceRecord.refused_token (experimental) string -> bytes",
     "edits": [(SESSION + "device_record.proto", r"string refused_token = 11;", "bytes refused_token = 11;")],
     "expect": PASS},
    {"name": "new-optional-field", "what": "Region gains `oneof optional_colour { uint32 colour = 15; }`",
     "edits": [(V1 + "region.proto", r"  string name = 14;\n",
                "  string name = 14;\n  // A colour for maps.\n  " + EXPERIMENTAL
                + "oneof optional_colour { uint32 colour = 15; }\n")],
     "expect": PASS},
    {"name": "new-enum-value", "what": "Platform gains PLATFORM_WEB = 4",
     "edits": [(V1 + "common.proto", r"PLATFORM_OTHER = 3;\n", "PLATFORM_OTHER = 3;\n  " + EXPERIMENTAL
                + "PLATFORM_WEB = 4;\n")],
     "expect": PASS},
    {"name": "comment-change", "what": "LocationFix.time_ms's comment reworded",
     "edits": [(V1 + "location_fix.proto", r"When the position was measured:", "The time of the measurement:")],
     "expect": PASS},
    {"name": "session-renumber-field", "what": "session.v1 UploadSchedulerState.attempt_count 5 -> 15",
     "edits": [(SESSION + "upload_scheduler.proto", r"uint64 attempt_count = 5;", "uint64 attempt_count = 15;")],
     "expect": break_("FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", '"attempt_count"')},
    {"name": "session-retype-field", "what": "session.v1 UploadSchedulerState.failures_in_a_row uint32 -> fixed32",
     "edits": [(SESSION + "upload_scheduler.proto", r"uint32 failures_in_a_row = 6;",
                "fixed32 failures_in_a_row = 6;")],
     "expect": break_("FIELD_WIRE_JSON_COMPATIBLE_TYPE", '"failures_in_a_row"')},
    {"name": "testee-rename-enum-value", "what": "conformance.v1 FEATURE_ARMING renamed FEATURE_ARMING_ORDER",
     "edits": [(TESTEE, r"FEATURE_ARMING = 13;", "FEATURE_ARMING_ORDER = 13;")],
     "expect": break_("ENUM_VALUE_SAME_NAME", '"FEATURE_ARMING"')},
    {"name": "testee-remove-field", "what": "conformance.v1 HttpAnswerRequest.sent_gzip deleted",
     "edits": [(TESTEE, r"  bool sent_gzip = 4;\n", "")],
     "expect": break_("FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", '"sent_gzip"')},
    {"name": "replace-package", "what": "locationwire.v1 renamed locationwire.v2 in place",
     "edits": [("*", r"\blocationwire\.v1\b", "locationwire.v2")],
     "expect": break_("PACKAGE_NO_DELETE", '"locationwire.v1"')},
    {"name": "v2-beside-v1", "what": "a locationwire.v2 copy of location_fix.proto with time_ms renumbered, v1 kept",
     "copy": (V1 + "location_fix.proto", "locationwire/v2/location_fix.proto"),
     "edits": [("locationwire/v2/location_fix.proto", r"package locationwire\.v1;", "package locationwire.v2;"),
               ("locationwire/v2/location_fix.proto", r"int64 time_ms = 2;", "int64 time_ms = 120;")],
     "expect": PASS},
]


class MutationError(Exception):
    """A mutation that no longer applies to proto/ (its text changed): the table needs updating."""


def apply(mutation, proto):
    """Applies the mutation's edits to the copy of proto/ in `proto`."""
    if "copy" in mutation:
        source, target = mutation["copy"]
        os.makedirs(os.path.dirname(os.path.join(proto, target)), exist_ok=True)
        shutil.copy(os.path.join(proto, source), os.path.join(proto, target))
    for file, pattern, replacement in mutation["edits"]:
        if "*" in file:
            folder = os.path.join(proto, os.path.dirname(file)) if file != "*" else proto
            paths = [os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs if f.endswith(".proto")]
        else:
            paths = [os.path.join(proto, file)]
        total = 0
        for path in paths:
            text = open(path, encoding="utf-8").read()
            changed, count = re.subn(pattern, replacement, text)
            total += count
            if count:
                open(path, "w", encoding="utf-8").write(changed)
        if total == 0:
            raise MutationError(f"{mutation['name']}: /{pattern}/ matches nothing in proto/{file}")


def run(mutation, against):
    """The check's verdict on one mutation: (verdict, the line that judges it, whether it is the expected one)."""
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(os.path.join(ROOT, "buf.yaml"), scratch)
        shutil.copytree(os.path.join(ROOT, "proto"), os.path.join(scratch, "proto"),
                        ignore=shutil.ignore_patterns("released", "*.md"))
        apply(mutation, os.path.join(scratch, "proto"))
        command = [CHECK, "--root", scratch] + (["--against", against] if against else [])
        result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"{mutation['name']}: the check failed (exit {result.returncode}):\n{result.stderr}")
    lines = [line for line in result.stdout.splitlines() if line.startswith("proto/")]
    expect = mutation["expect"]
    if result.returncode == 0:
        return "pass", "", expect["verdict"] == "pass"
    matching = [line for line in lines if f": {expect.get('rule')}: " in line and expect.get("name", "") in line]
    # buf's pointer to the protobuf docs after each retype says nothing about this mutation.
    judged = (matching[0] if matching else lines[0]).split(" See https://")[0]
    others = len(lines) - 1
    if others:
        judged += f" (+{others} more)"
    return "break", judged, expect["verdict"] == "break" and bool(matching)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true")
    form.add_argument("--json", action="store_true")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    chosen = [m for m in MUTATIONS if not args.only or m["name"] in args.only]
    unknown = set(args.only) - {m["name"] for m in MUTATIONS}
    if unknown:
        parser.error(f"no mutation named {', '.join(sorted(unknown))}")
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            verdicts = list(pool.map(lambda m: run(m, args.against), chosen))
    except MutationError as error:
        print(f"mutations.py: {error}", file=sys.stderr)
        return 1
    except RuntimeError as error:
        print(f"mutations.py: {error}", file=sys.stderr)
        return 2
    rows = []
    for mutation, (verdict, line, ok) in zip(chosen, verdicts):
        expect = mutation["expect"]
        expected = "pass" if expect["verdict"] == "pass" else f"break {expect['rule']} {expect['name']}"
        rows.append({"mutation": mutation["name"], "what": mutation["what"], "expected": expected,
                     "verdict": verdict, "buf": line, "ok": ok})
    if args.json:
        print(json.dumps(rows, indent=2))
    elif args.markdown:
        print("| Mutation | What | Expected | buf's verdict | ok |\n|---|---|---|---|---|")
        for row in rows:
            buf = row["buf"].replace("|", "\\|")
            print(f"| {row['mutation']} | {row['what']} | {row['expected']} | {row['verdict']}"
                  f"{': `' + buf + '`' if buf else ''} | {'yes' if row['ok'] else 'NO'} |")
    else:
        for row in rows:
            print(f"{'ok ' if row['ok'] else 'BAD'} {row['mutation']:30} expected {row['expected']}")
            print(f"    {row['what']}: {row['verdict']}{' ' + row['buf'] if row['buf'] else ''}")
    wrong = [row["mutation"] for row in rows if not row["ok"]]
    print(f"mutations.py: {len(rows) - len(wrong)} of {len(rows)} verdicts as expected"
          + (f"; differing: {', '.join(wrong)}" if wrong else ""), file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
