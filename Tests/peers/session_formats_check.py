#!/usr/bin/env python3
"""Proves that proto/locationwire/session/v1/ describes the bytes the session engines store: every sample of
Tests/Goldens/session-formats.json (bytes the hand-written persistence code wrote before the schema existed) is
parsed by Python's official protobuf on upb as the message the sample names, must hold no field the schema does not
describe (at any depth) but the top-level unknown fields the sample lists in `unknownFields`, and must serialize
back to exactly its bytes. The last part checks presence too: a field the engine writes even when zero is only
written back by upb if the schema gives it explicit presence.

    session_formats_check.py [--descriptors FILE] [--samples FILE]

Defaults: Tests/Goldens/locationwire.descriptors.binpb (scripts/regenerate.sh makes it from proto/) and
Tests/Goldens/session-formats.json. SessionFormatTests.swift holds the Swift side of the same samples. Exit status 0
when every sample passes, 1 otherwise.
"""

import argparse
import json
import os
import sys

from google.protobuf import message_factory, unknown_fields
from google.protobuf.descriptor import FieldDescriptor as FD
from google.protobuf.internal import api_implementation

from every_field_goldens import load_pool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDENS = os.path.join(ROOT, "Tests", "Goldens")


def unknown_numbers(message, path):
    """(path, field number) of every unknown field in `message` and the messages it holds."""
    found = [(path, field.field_number) for field in unknown_fields.UnknownFieldSet(message)]
    for field, value in message.ListFields():
        if field.type != FD.TYPE_MESSAGE:
            continue
        elements = value if field.is_repeated else [value]
        for index, element in enumerate(elements):
            where = f"{path}.{field.name}" + (f"[{index}]" if field.is_repeated else "")
            found += unknown_numbers(element, where)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--descriptors", default=os.path.join(GOLDENS, "locationwire.descriptors.binpb"))
    parser.add_argument("--samples", default=os.path.join(GOLDENS, "session-formats.json"))
    args = parser.parse_args()
    if api_implementation.Type() != "upb":
        sys.exit(f"session_formats_check.py: Python protobuf runs on {api_implementation.Type()}, not upb")
    _, pool = load_pool(args.descriptors)
    samples = json.load(open(args.samples, encoding="utf-8"))["samples"]
    failures = 0
    for sample in samples:
        name, data = sample["name"], bytes.fromhex(sample["hex"])
        message = message_factory.GetMessageClass(pool.FindMessageTypeByName(sample["type"]))()
        problems = []
        try:
            message.ParseFromString(data)
        except Exception as error:  # a parse error is a finding, not a crash of the check
            problems.append(f"upb cannot parse it: {error}")
        else:
            # A sample may carry fields of a newer engine on purpose, to show that they are kept.
            expected = [(sample["type"], number) for number in sample.get("unknownFields", [])]
            found = unknown_numbers(message, sample["type"])
            for path, number in found:
                if (path, number) not in expected:
                    problems.append(f"{path} has field {number}, which the schema does not describe")
            for path, number in expected:
                if (path, number) not in found:
                    problems.append(f"the sample should carry the unknown field {number}, and does not")
            again = message.SerializeToString(deterministic=True)
            if again != data:
                problems.append(f"upb writes it back as {again.hex()}")
        failures += bool(problems)
        print(f"{'FAIL' if problems else 'ok'}   {name} ({sample['type']}, {len(data)} bytes)")
        for problem in problems:
            print(f"       {problem}")
    print(f"session_formats_check.py: {len(samples) - failures} of {len(samples)} samples match proto/", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
