#!/usr/bin/env python3
"""Checks that the codec's hand-written schema tables (`locwire types --schema`) match the descriptors protoc
builds from proto/: every message, field number, name, JSON name, type and label (explicit presence is a one-field
oneof named optional_<field>), and every enum value. Usage: schema_check.py [LOCWIRE]"""
import json, os, subprocess, sys, tempfile

from google.protobuf import descriptor_pb2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOCWIRE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "locwire")
TYPES = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32", 8: "bool",
         9: "string", 12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64"}

with tempfile.TemporaryDirectory() as work:
    out = os.path.join(work, "descriptors.pb")
    protos = sorted(os.path.join("proto", "locationwire", "v1", name)
                    for name in os.listdir(os.path.join(ROOT, "proto", "locationwire", "v1")) if name.endswith(".proto"))
    subprocess.run(["protoc", "-Iproto", "--include_imports", "--descriptor_set_out=" + out] + protos, cwd=ROOT, check=True)
    files = descriptor_pb2.FileDescriptorSet.FromString(open(out, "rb").read())

expected_messages, expected_enums = {}, {}
for file in files.file:
    for message in file.message_type:
        fields = []
        for field in message.field:
            if field.type in (11, 14):  # message, enum: the full name without the leading dot
                type_name = field.type_name.lstrip(".")
            else:
                type_name = TYPES[field.type]
            if field.label == 3:
                label = "repeated"
            elif field.HasField("oneof_index"):
                oneof = message.oneof_decl[field.oneof_index].name
                if oneof != "optional_" + field.name:
                    sys.exit(f"{message.name}.{field.name}: oneof {oneof} is not the explicit-presence form optional_{field.name}")
                label = "optional"
            else:
                label = "singular"
            fields.append({"number": field.number, "name": field.name, "jsonName": field.json_name, "type": type_name, "label": label})
        expected_messages[f"{file.package}.{message.name}"] = sorted(fields, key=lambda f: f["number"])
    for enum in file.enum_type:
        expected_enums[f"{file.package}.{enum.name}"] = [{"name": v.name, "number": v.number} for v in enum.value]

actual = json.loads(subprocess.run([LOCWIRE, "types", "--schema"], check=True, capture_output=True, text=True).stdout)
actual_messages = {m["name"]: m["fields"] for m in actual["messages"]}
actual_enums = {e["name"]: e["values"] for e in actual["enums"]}
problems = []
for name in sorted(set(expected_messages) | set(actual_messages)):
    if expected_messages.get(name) != actual_messages.get(name):
        problems.append(f"message {name}:\n  proto/:  {expected_messages.get(name)}\n  locwire: {actual_messages.get(name)}")
for name in sorted(set(expected_enums) | set(actual_enums)):
    if expected_enums.get(name) != actual_enums.get(name):
        problems.append(f"enum {name}:\n  proto/:  {expected_enums.get(name)}\n  locwire: {actual_enums.get(name)}")
if problems:
    print("\n".join(problems))
    sys.exit(f"schema_check: {len(problems)} differences between proto/ and the codec's schema tables")
print(f"schema_check: {len(actual_messages)} messages and {len(actual_enums)} enums match proto/ exactly")
