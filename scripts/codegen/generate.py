#!/usr/bin/env python3
"""Writes everything per field that is not the hand-written codec, from proto/ (a field is declared once, there):

  Sources/LocationWire/Generated/Messages.swift        every message's struct: stored properties, `Field`, schema
  Sources/LocationWire/Generated/Enums.swift           every enum: value constants and `EnumSchema`
  Sources/LocationWire/Messages/LocationFix+Columns.swift
                                                       LocationFix's compact column mapping, CompactFixes.futureColumns
  Sources/LocationWireValidation/Generated/ViolationCodes.swift
                                                       Violation.Code constants and `all`, from proto/README.md's
                                                       table of validation rules
  Tests/LocationWireConformanceTests/Generated/HandWrittenLines.swift
                                                       the codec lines each field needs, for the forgotten-field test
  Benchmarks/peers/generated/bench_cpp_headers.inc     the C++ harness's read-all checksum and compact expansion
  Benchmarks/peers/generated/bench_cpp_fields.inc
  proto/README.md                                      its generated spans (<!-- codegen:NAME -->...<!-- /codegen -->),
                                                       the stability list from every package

from package locationwire.v1, and from locationwire.conformance.v1 (the testee protocol):

  Sources/LocationWireConformance/Generated/TesteeProtocol.swift
                                                       every message's struct, its oneofs' enums and its FieldTable;
                                                       every enum; the list of message types

Swift-specific representation choices are in overrides.py. Run through scripts/regenerate.sh, which makes the
descriptor set and, with --check, compares the output with what is committed.

  generate.py --descriptors SET [--root DIR] [--out DIR]
      SET   a descriptor set of proto/locationwire/v1/*.proto, proto/locationwire/conformance/v1/*.proto and
            proto/locationwire/session/v1/*.proto (for the stability list only) from protoc --include_source_info
            --include_imports
      DIR   the repository (default: the one this script is in); --out writes the same paths under another folder
      Prints the paths written, relative to the output folder, one a line.
  generate.py --descriptors SET --verify-lines
      checks that every hand-written line HandWrittenLines.swift suggests appears in its message's file (a check of
      codec_lines.py against the codec, not of the codec)
Exit status: 0 written, 1 a --verify-lines mismatch, 2 a schema the generator does not support or a tool failure.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import codec_lines  # noqa: E402
import cpp_gen  # noqa: E402
import model  # noqa: E402
import spec_gen  # noqa: E402
import swift_gen  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schema"))
import stability  # noqa: E402

COLUMNS_FILE = "Sources/LocationWire/Messages/LocationFix+Columns.swift"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = "proto/README.md"
TESTEE_FILE = "Sources/LocationWireConformance/Generated/TesteeProtocol.swift"


def swift_format(text, root, name):
    """`text` as `swift format` formats it with the repository's .swift-format, so that the lint of Sources and
    Tests holds for generated files too."""
    result = subprocess.run(
        ["swift", "format", "format", "--configuration", os.path.join(root, ".swift-format"),
         "--assume-filename", name],
        input=text, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"swift format failed on {name}:\n{result.stderr}")
    return result.stdout


def outputs(schema, testee, root, descriptors):
    spec = open(os.path.join(root, SPEC), encoding="utf-8").read()
    swift = {
        TESTEE_FILE: swift_gen.testee_file(testee),
        "Sources/LocationWire/Generated/Messages.swift": swift_gen.messages_file(schema),
        "Sources/LocationWire/Generated/Enums.swift": swift_gen.enums_file(schema),
        # Beside CompactFixes+Rows.swift rather than in Generated/: its expansion loops inline storeColumn, and the
        # optimizer did so only with this file after it in the module's (sorted) file order (Benchmarks/NOTES.md,
        # "Figures behind the code").
        COLUMNS_FILE: swift_gen.columns_file(schema),
        "Sources/LocationWireValidation/Generated/ViolationCodes.swift": spec_gen.codes_file(spec),
        "Tests/LocationWireConformanceTests/Generated/HandWrittenLines.swift": swift_gen.hand_written_lines_file(schema),
    }
    files = {path: swift_format(text, root, path) for path, text in swift.items()}
    files["Benchmarks/peers/generated/bench_cpp_headers.inc"] = cpp_gen.headers_file(schema)
    files["Benchmarks/peers/generated/bench_cpp_fields.inc"] = cpp_gen.fields_file(schema)
    # "Stability": each package's stable and experimental items, from the `Stability:` lines of the comments.
    stability_lines = stability.summary(stability.load(descriptors))
    files[SPEC] = spec_gen.rewrite_spans(spec, schema, {"stability": stability_lines})
    return files


# Lines the codec writes in another, faster form on purpose; the suggestion is still correct code.
FASTER_BY_HAND = {
    # A batch encodes its fixes in place through LocationFix.encodeFields(at:), without copying each.
    ("locationwire.v1.LocationBatch", "fixes"),
}


def verify_lines(schema, root):
    """Every suggested line, whitespace aside, in its message's file."""
    def squeeze(text):
        return re.sub(r"\s+", "", text)

    missing = []
    for message in schema.messages:
        if message.hand_written_struct:
            continue
        path = f"Sources/LocationWire/Messages/{message.name}.swift"
        source = squeeze(open(os.path.join(root, path), encoding="utf-8").read())
        for field in message.fields:
            suggested = ["\n".join(codec_lines.decode_case(field))]
            if (message.full_name, field.name) not in FASTER_BY_HAND:
                suggested.append(codec_lines.encode_line(field))
            if message.full_name == codec_lines.FAST_MESSAGE:
                suggested.append("\n".join(codec_lines.fast_decode_case(field)))
            missing += [f"{path}: {line!r}" for line in suggested if squeeze(line) not in source]
    for line in missing:
        print(line)
    return not missing


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--descriptors", required=True)
    parser.add_argument("--root", default=ROOT)
    parser.add_argument("--out")
    parser.add_argument("--verify-lines", action="store_true")
    args = parser.parse_args()
    try:
        schema = model.load(args.descriptors)
        if args.verify_lines:
            return 0 if verify_lines(schema, args.root) else 1
        files = outputs(schema, model.load(args.descriptors, model.TESTEE_PACKAGE), args.root, args.descriptors)
    except (model.SchemaError, spec_gen.SpecError, stability.StabilityError, RuntimeError, OSError) as error:
        print(f"generate.py: {error}", file=sys.stderr)
        return 2
    out = args.out or args.root
    for path, text in files.items():
        target = os.path.join(out, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as file:
            file.write(text)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
