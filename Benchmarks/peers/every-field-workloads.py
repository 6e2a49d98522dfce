#!/usr/bin/env python3
"""every-field-workloads.py: writes workloads whose messages set every field, for checking read-all visitors.

    python3 Benchmarks/peers/every-field-workloads.py DIR [--inputs N] [--seed S]

The benchmark's workloads leave fields unset (a Region's parent_id, most of DeviceStatus, unknown enum values),
so two decode-read-all implementations can agree on them and still both miss a field. This writes three
workloads in PROTOCOL.md's format (every-field-batch, every-field-fence, every-field-assignment) whose inputs
set every field of every message reachable from LocationBatch, FenceEvent and RegionAssignment, found by
reflection over the descriptors (so a field added to proto/ is covered without editing this file): repeated
fields get two elements, integers random values of their whole range (negative ones for the signed types), enums
a known or an unknown value, strings multi-byte UTF-8, floats values whose bit patterns differ. Compare the
harnesses' checksums on them:

    python3 Benchmarks/peers/every-field-workloads.py /tmp/wl-every
    Benchmarks/peers/check-harness.sh Benchmarks/peers/build/bench_cpp /tmp/wl-every --op decode-read-all
    Benchmarks/peers/check-harness.sh Benchmarks/peers/build-upb/bench_upb /tmp/wl-every --op decode-read-all

Imports the Python code build.sh generated into build/python (and Python protobuf, as bench_python.py does).
"""
from __future__ import annotations

import argparse
import json
import random
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "build" / "python"))
try:
    from google.protobuf import descriptor as _descriptor
    from locationwire.v1 import fence_event_pb2, location_batch_pb2, region_assignment_pb2
except ImportError as error:  # pragma: no cover - a setup problem, said plainly
    sys.exit(f"every-field-workloads.py: {error} (run Benchmarks/peers/build.sh; needs pip install protobuf)")

F = _descriptor.FieldDescriptor
SIGNED_32 = (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32)
UNSIGNED_32 = (F.TYPE_UINT32, F.TYPE_FIXED32)
SIGNED_64 = (F.TYPE_INT64, F.TYPE_SINT64, F.TYPE_SFIXED64)
UNSIGNED_64 = (F.TYPE_UINT64, F.TYPE_FIXED64)


def scalar(field, rng: random.Random):
    """A non-zero value of the field's type (zero would add nothing to a checksum and test nothing)."""
    t = field.type
    if t in SIGNED_32:
        return rng.choice([-1, 1]) * rng.randint(1, 2**31 - 1)
    if t in UNSIGNED_32:
        return rng.randint(1, 2**32 - 1)
    if t in SIGNED_64:
        return rng.choice([-1, 1]) * rng.randint(1, 2**63 - 1)
    if t in UNSIGNED_64:
        return rng.randint(1, 2**64 - 1)
    if t == F.TYPE_BOOL:
        return True
    if t == F.TYPE_FLOAT:
        return rng.choice([-1.5, 1013.25, 3.25e10, 1e-30])
    if t == F.TYPE_DOUBLE:
        return rng.uniform(-1e9, 1e9)
    if t == F.TYPE_STRING:
        return "é" * rng.randint(1, 20)
    if t == F.TYPE_BYTES:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
    if t == F.TYPE_ENUM:
        known = [value.number for value in field.enum_type.values if value.number != 0]
        return rng.choice(known + [-3, 77])  # open enums: unknown values are kept and read
    raise ValueError(f"{field.full_name}: unexpected type {t}")


def fill(message, rng: random.Random, depth: int = 0):
    if depth > 20:
        raise ValueError("the schema nests deeper than expected (recursive?)")
    for field in message.DESCRIPTOR.fields:
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            raise ValueError(f"{field.full_name}: maps are not in this schema")
        if field.is_repeated:
            for _ in range(2):
                if field.type == F.TYPE_MESSAGE:
                    fill(getattr(message, field.name).add(), rng, depth + 1)
                else:
                    getattr(message, field.name).append(scalar(field, rng))
        elif field.type == F.TYPE_MESSAGE:
            fill(getattr(message, field.name), rng, depth + 1)
        else:
            setattr(message, field.name, scalar(field, rng))
    return message


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--inputs", type=int, default=8, help="inputs per workload (default 8)")
    parser.add_argument("--seed", type=int, default=14, help="random seed (default 14)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    args.directory.mkdir(parents=True, exist_ok=True)
    for name, cls in [
        ("every-field-batch", location_batch_pb2.LocationBatch),
        ("every-field-fence", fence_event_pb2.FenceEvent),
        ("every-field-assignment", region_assignment_pb2.RegionAssignment),
    ]:
        inputs = [fill(cls(), rng).SerializeToString() for _ in range(args.inputs)]
        frames = b"".join(struct.pack("<I", len(data)) + data for data in inputs)
        (args.directory / f"{name}.binpb.frames").write_bytes(frames)
        size = sum(map(len, inputs))
        meta = {
            "type": cls.DESCRIPTOR.full_name,
            "inputs": len(inputs),
            "fixes_per_input": 0,
            "input_bytes": size,
            "canonical_bytes": size,
            "json_bytes": 0,
            "description": "every field set, for checking read-all visitors (binary only)",
        }
        (args.directory / f"{name}.meta.json").write_text(json.dumps(meta, sort_keys=True))
    print(f"every-field-workloads.py: 3 workloads of {args.inputs} inputs in {args.directory}", file=sys.stderr)


if __name__ == "__main__":
    main()
