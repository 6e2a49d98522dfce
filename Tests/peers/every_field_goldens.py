#!/usr/bin/env python3
"""Writes the every-field goldens: for every message type of a FileDescriptorSet, samples in which every field is
set, serialized by Python's official protobuf on upb. Tests/LocationWireConformanceTests/EveryFieldTests.swift decodes them
with the hand-written codec (unknown fields rejected) and requires upb's bytes back, so a field that a decode or
encode switch forgets fails `swift test`, at any nesting depth.

    every_field_goldens.py [--descriptors FILE] [--out FILE]

Defaults: Tests/Goldens/locationwire.descriptors.binpb (protoc --include_imports, every file of proto/) and
Tests/Goldens/every-field.json. scripts/regenerate.sh runs both steps (and --check compares them).

Every field is set to a non-zero value of its type, distinct within a sample: negative values for signed types,
values with the top bit set for unsigned ones (so varints take 5 or 10 bytes), ASCII and non-ASCII strings, bytes
that are not UTF-8, a named non-zero value for enums, 2 elements for repeated fields, and sub-messages filled the
same way. A real oneof holds one member at a time, so a type gets one sample per member of its largest oneof
(sample i sets member i mod n of each oneof); a one-member `oneof optional_<name>` (explicit presence) is just set.
Nothing here knows LocationWire's field names: a field added to proto/ is covered without touching this file.
"""

import argparse
import json
import os
import sys

from google.protobuf import __version__ as PROTOBUF_VERSION
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor as FD
from google.protobuf.internal import api_implementation

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIGNED = {FD.TYPE_INT32: 31, FD.TYPE_SINT32: 31, FD.TYPE_SFIXED32: 31,
          FD.TYPE_INT64: 63, FD.TYPE_SINT64: 63, FD.TYPE_SFIXED64: 63}
UNSIGNED = {FD.TYPE_UINT32: 32, FD.TYPE_FIXED32: 32, FD.TYPE_UINT64: 64, FD.TYPE_FIXED64: 64}
MAX_DEPTH = 16  # far deeper than the schema nests; a recursive type would have to be cut off, and is refused


def load_pool(path):
    files = descriptor_pb2.FileDescriptorSet.FromString(open(path, "rb").read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    return files, pool


def message_names(files):
    """Every message type's full name, nested types included, in the descriptor set's order."""
    def walk(prefix, messages):
        for message in messages:
            name = f"{prefix}.{message.name}"
            yield name
            yield from walk(name, message.nested_type)
    for file in files.file:
        yield from walk(file.package, file.message_type)


def real_oneofs(descriptor):
    """Oneofs that can hold more than the explicit-presence form `oneof optional_<name> { <name> }`."""
    return [o for o in descriptor.oneofs if not (len(o.fields) == 1 and o.name == "optional_" + o.fields[0].name)]


def variants(descriptor):
    """How many samples it takes to set every member of every real oneof at least once."""
    return max([len(o.fields) for o in real_oneofs(descriptor)], default=1)


class Filler:
    """Sets every field of a message; `counter` makes the values of one sample distinct."""

    def __init__(self):
        self.counter = 0

    def scalar(self, field):
        self.counter += 1
        k = self.counter
        if field.type in SIGNED:
            magnitude = k * (1_000_000_007_000 if SIGNED[field.type] == 63 else 100_003)
            return -magnitude if k % 2 else magnitude
        if field.type in UNSIGNED:
            bits = UNSIGNED[field.type]
            return (1 << (bits - 1)) + k * (1_000_000_007_000 if bits == 64 else 100_003)
        if field.type == FD.TYPE_BOOL:
            return True
        if field.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE):
            value = k + (0.5 if field.type == FD.TYPE_FLOAT else 0.25)  # exact in binary32 and binary64
            return -value if k % 2 else value
        if field.type == FD.TYPE_STRING:
            return f"{field.name}:{k}" if k % 2 else f"{field.name}:{k}:é朝😀"
        if field.type == FD.TYPE_BYTES:
            return bytes([k & 0xFF, 0x00, 0xFF, 0x80, 0xC3, 0x28])  # not UTF-8: bytes are not validated
        if field.type == FD.TYPE_ENUM:
            named = [v.number for v in field.enum_type.values if v.number != 0]
            if not named:
                sys.exit(f"every_field_goldens.py: enum {field.enum_type.full_name} has no non-zero value")
            return named[k % len(named)]
        sys.exit(f"every_field_goldens.py: {field.full_name}: unsupported field type {field.type}")

    def fill(self, message, variant, depth=0):
        descriptor = message.DESCRIPTOR
        if depth > MAX_DEPTH:
            sys.exit(f"every_field_goldens.py: {descriptor.full_name} nests deeper than {MAX_DEPTH} (recursive?)")
        skipped = set()
        for oneof in real_oneofs(descriptor):
            chosen = oneof.fields[variant % len(oneof.fields)]
            skipped |= {f.name for f in oneof.fields if f is not chosen}
        for field in descriptor.fields:
            if field.name in skipped:
                continue
            if field.type == FD.TYPE_MESSAGE:
                if field.is_repeated:
                    for element in range(2):
                        self.fill(getattr(message, field.name).add(), variant + element, depth + 1)
                else:
                    self.fill(getattr(message, field.name), variant, depth + 1)
                    getattr(message, field.name).SetInParent()  # set even if it had no fields
            elif field.is_repeated:
                getattr(message, field.name).extend([self.scalar(field), self.scalar(field)])
            else:
                setattr(message, field.name, self.scalar(field))


def samples(files, pool):
    for name in message_names(files):
        descriptor = pool.FindMessageTypeByName(name)
        cls = message_factory.GetMessageClass(descriptor)
        for variant in range(variants(descriptor)):
            message = cls()
            Filler().fill(message, variant)
            oneofs = {o.name: message.WhichOneof(o.name) for o in real_oneofs(descriptor)}
            sample = {"type": name, "variant": variant}
            if oneofs:
                sample["oneofs"] = oneofs
            sample["hex"] = message.SerializeToString(deterministic=True).hex()
            yield sample


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    goldens = os.path.join(ROOT, "Tests", "Goldens")
    parser.add_argument("--descriptors", default=os.path.join(goldens, "locationwire.descriptors.binpb"))
    parser.add_argument("--out", default=os.path.join(goldens, "every-field.json"))
    args = parser.parse_args()
    if api_implementation.Type() != "upb":
        sys.exit(f"every_field_goldens.py: Python protobuf runs on {api_implementation.Type()}, not upb")
    files, pool = load_pool(args.descriptors)
    rows = list(samples(files, pool))
    header = {
        "generatedBy": "Tests/peers/every_field_goldens.py (Python protobuf %s on upb, SerializeToString("
                       "deterministic=True)) from Tests/Goldens/locationwire.descriptors.binpb" % PROTOBUF_VERSION,
        "regenerate": "scripts/regenerate.sh (or: python3 Tests/peers/every_field_goldens.py); do not edit",
    }
    # One sample per line, so a schema change shows as a readable diff.
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("{\n")
        for key, value in header.items():
            out.write(f"  {json.dumps(key)}: {json.dumps(value)},\n")
        out.write('  "samples": [\n    ' + ",\n    ".join(lines) + "\n  ]\n}\n")
    print(f"every_field_goldens.py: {len(rows)} samples of {len(set(r['type'] for r in rows))} message types "
          f"-> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
