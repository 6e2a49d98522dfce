#!/usr/bin/env python3
"""Writes proto/jsonschema/<full.message.name>.schema.json: a JSON Schema (draft 2020-12) of every message's proto3
JSON form as LocationWire's reader takes it (proto/README.md, "## JSON", `§json-mapping` and
`§json-unknown-members`), for every message of locationwire.v1 (the wire protocol) and
locationwire.conformance.v1 (the testee protocol).

Each file stands alone: its root is the message, and `$defs` holds every message and enum it reaches (by full
name, `#/$defs/locationwire.v1.LocationFix`) and every scalar form its fields use (by .proto type, `#/$defs/int64`).
What a schema cannot check (duplicate members, the precision a validator reads numbers with, ...) is listed in
proto/jsonschema/README.md; scripts/judges/jsonschema_vectors.py tests the files against the conformance vectors.

  jsonschema_gen.py --descriptors SET [--out DIR]
      SET   a descriptor set of every .proto file of proto/, from protoc --include_imports --include_source_info
            (the comments become descriptions)
      DIR   where proto/jsonschema/ is written (default: the repository this script is in); *.schema.json files
            there that no message has any more are removed. Prints the paths written, relative to DIR.
Exit status: 0 written, 2 a schema the generator does not support or a tool failure.

Run through scripts/regenerate.sh, which makes the descriptor set and, with --check, compares the output with what
is committed.
"""
import argparse
import glob
import json
import os
import sys

from google.protobuf import descriptor_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDER = "proto/jsonschema"
# The wire protocol, and the testee protocol, whose requests and responses the conformance vectors carry in JSON.
# (The storage formats of locationwire.session.v1 are stored in binary.)
PACKAGES = ("locationwire.v1", "locationwire.conformance.v1")
ID_BASE = "https://locationwire.example/proto/jsonschema/"
FieldDescriptor = descriptor_pb2.FieldDescriptorProto

# RFC 8259's number grammar, with the leading "+" the reader also takes inside a string (JSONNumberText.isValid).
NUMBER_TEXT = r"[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?"
# A number with an exponent: integral or not depending on both parts, which a pattern does not weigh.
EXPONENT_FORM = r"[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?[eE][-+]?[0-9]+"
# Standard or URL-safe base64 (the two alphabets may even mix), padded or not; a lone character after the last
# group of four encodes no byte (JSONTextWriter.decodeBase64).
BASE64 = r"^([A-Za-z0-9+/_-]{4})*([A-Za-z0-9+/_-]{2}(==)?|[A-Za-z0-9+/_-]{3}=?)?$"
# Where numbers start to round to infinity, exclusive. A reader rounds a number to the nearest double (halfway to
# even), and a float field then rounds that double to a float: infinity from the double halfway between the
# largest float and 2^128 on, and that double from half a double's ulp below it on (its significand is even).
# So a validator that reads numbers exactly and one that reads them as doubles draw the same line.
FLOAT_LIMIT = 2**128 - 2**103 - 2**74
DOUBLE_LIMIT = 2**1024 - 2**970

# The integer types' JSON forms: (minimum, maximum, what a description says).
INTEGERS = {
    "int32": (-2**31, 2**31 - 1, "A 32-bit signed integer"),
    "uint32": (0, 2**32 - 1, "A 32-bit unsigned integer"),
    "int64": (-2**63, 2**63 - 1, "A 64-bit signed integer"),
    "uint64": (0, 2**64 - 1, "A 64-bit unsigned integer"),
}
# The integer types whose JSON is another's: they differ only on the wire.
SAME_JSON = {"sint32": "int32", "sfixed32": "int32", "fixed32": "uint32", "sint64": "int64", "sfixed64": "int64",
             "fixed64": "uint64"}


def digits_up_to(limit):
    """A pattern of the decimal numerals from 0 to `limit`, without leading zeros: every shorter numeral, then
    for each digit of `limit` the numerals that follow its digits so far and are lower at that digit."""
    text = str(limit)
    alternatives = ["0"]
    if len(text) > 1:
        alternatives.append("[1-9]" if len(text) == 2 else f"[1-9][0-9]{{0,{len(text) - 2}}}")
    for index, digit in enumerate(text):
        lowest = 1 if index == 0 else 0
        if int(digit) > lowest:
            below = str(lowest) if int(digit) - 1 == lowest else f"[{lowest}-{int(digit) - 1}]"
            rest = len(text) - index - 1
            alternatives.append(text[:index] + below + ("" if rest == 0 else "[0-9]" if rest == 1 else
                                                        f"[0-9]{{{rest}}}"))
    if limit > 0:
        alternatives.append(text)
    return "(" + "|".join(alternatives) + ")"


def integer_string_pattern(minimum, maximum):
    """The strings the reader takes for an integer of minimum...maximum, as far as a pattern can tell: a numeral,
    signed or not, with an all-zero fraction or none, is held to the range exactly; a numeral with an exponent only
    to the number grammar (and, for an unsigned type, to a sign that allows only zero below it)."""
    plain = [rf"\+?{digits_up_to(maximum)}(\.0+)?"]
    if minimum < 0:
        plain.append(rf"-{digits_up_to(-minimum)}(\.0+)?")
        exponent = EXPONENT_FORM
    else:
        plain.append(r"-0(\.0+)?")
        exponent = r"(\+?(0|[1-9][0-9]*)(\.[0-9]+)?|-0(\.0+)?)[eE][-+]?[0-9]+"
    return "^(" + "|".join(plain + [exponent]) + ")$"


def scalar_schema(proto_type):
    """The $defs entry of a scalar type."""
    if proto_type in SAME_JSON:
        return {"description": f"{proto_type}: the JSON form of {SAME_JSON[proto_type]} (they differ only on the "
                               "wire).", "$ref": f"#/$defs/{SAME_JSON[proto_type]}"}
    if proto_type in INTEGERS:
        minimum, maximum, what = INTEGERS[proto_type]
        written = "a decimal string" if abs(maximum) > 2**32 else "a number"
        return {
            "description": f"{what}, from {minimum} to {maximum}: a JSON number or a numeric string (a writer uses "
                           f"{written}); an exponent or a fraction is taken when the value is integral.",
            "anyOf": [
                {"type": "integer", "minimum": minimum, "maximum": maximum},
                {"type": "string", "pattern": integer_string_pattern(minimum, maximum)},
            ],
        }
    if proto_type in ("float", "double"):
        limit = FLOAT_LIMIT if proto_type == "float" else DOUBLE_LIMIT
        bits = 32 if proto_type == "float" else 64
        return {
            "description": f"An IEEE 754 binary{bits} number: a JSON number that does not round to infinity, a "
                           'numeric string, or "NaN", "Infinity", "-Infinity".',
            "anyOf": [
                {"type": "number", "exclusiveMinimum": -limit, "exclusiveMaximum": limit},
                {"enum": ["NaN", "Infinity", "-Infinity"]},
                {"type": "string", "pattern": f"^{NUMBER_TEXT}$"},
            ],
        }
    if proto_type == "bool":
        return {"description": "true or false (not quoted).", "type": "boolean"}
    if proto_type == "string":
        return {"description": "A string.", "type": "string"}
    if proto_type == "bytes":
        return {"description": "Bytes in base64, standard or URL-safe, padded or not (a writer uses standard, "
                               "padded).", "type": "string", "pattern": BASE64}
    raise model.SchemaError(f"scalar type {proto_type} is not supported")


def description(lines):
    return "\n".join(lines)


class Types:
    """Every message and enum of the descriptor set, by full name, with its comments."""

    def __init__(self, descriptor_set):
        self.messages, self.enums, self.docs, self.files = {}, {}, {}, {}
        for file in descriptor_set.file:
            locations = {tuple(location.path): location for location in file.source_code_info.location}
            for index, message in enumerate(file.message_type):
                name = f"{file.package}.{message.name}"
                if message.nested_type or message.enum_type:
                    raise model.SchemaError(f"{name}: nested types are not supported")
                self.messages[name] = message
                self.files[name] = file
                self.docs[name] = model.comment(locations.get((4, index)))
                for field_index, field in enumerate(message.field):
                    doc = model.comment(locations.get((4, index, 2, field_index)))
                    if not doc and field.HasField("oneof_index") and self.is_presence(message, field):
                        doc = model.comment(locations.get((4, index, 8, field.oneof_index)))
                    self.docs[f"{name}.{field.name}"] = doc
            for index, enum in enumerate(file.enum_type):
                name = f"{file.package}.{enum.name}"
                self.enums[name] = enum
                self.docs[name] = model.comment(locations.get((5, index)))

    @staticmethod
    def is_presence(message, field):
        """Whether `field` is the one member of a `oneof optional_<name>` (explicit presence, not a real oneof)."""
        oneof = message.oneof_decl[field.oneof_index]
        members = [f for f in message.field if f.HasField("oneof_index") and f.oneof_index == field.oneof_index]
        return oneof.name == "optional_" + field.name and len(members) == 1

    def reached(self, root):
        """The messages, enums and scalar types `root` reaches, itself included."""
        messages, enums, scalars = set(), set(), set()
        pending = [root]
        while pending:
            name = pending.pop()
            if name in messages:
                continue
            messages.add(name)
            for field in self.messages[name].field:
                type_name = field.type_name.lstrip(".")
                if field.type == FieldDescriptor.TYPE_MESSAGE:
                    if type_name not in self.messages:
                        raise model.SchemaError(f"{name}.{field.name}: type {type_name} is not supported (map "
                                                "entries, well-known types and nested types are not)")
                    pending.append(type_name)
                elif field.type == FieldDescriptor.TYPE_ENUM:
                    enums.add(type_name)
                    scalars.add("int32")  # an enum by number
                elif field.type in model.SCALARS:
                    proto_type = model.SCALARS[field.type][0]
                    scalars.update({proto_type, SAME_JSON.get(proto_type, proto_type)})
                else:
                    raise model.SchemaError(f"{name}.{field.name}: type {field.type} (groups?) is not supported")
        return messages, enums, scalars

    def message_schema(self, name):
        message = self.messages[name]
        properties, dependent = {}, {}
        for field in message.field:
            if field.type in (FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_ENUM):
                value = {"$ref": f"#/$defs/{field.type_name.lstrip('.')}"}
            else:
                value = {"$ref": f"#/$defs/{model.SCALARS[field.type][0]}"}
            doc = self.docs[f"{name}.{field.name}"]
            if field.label == FieldDescriptor.LABEL_REPEATED:
                # null is "not set" (empty), but not an element.
                schema = {"type": ["array", "null"], "items": value}
            else:
                schema = {"anyOf": [value, {"type": "null"}]}
            if doc:
                schema["description"] = description(doc)
            json_name = field.json_name or model.lower_camel(field.name)
            properties[json_name] = schema
            if field.name != json_name:
                properties[field.name] = {
                    "description": f"{json_name} under its .proto name: a reader takes either name, not both.",
                    "$ref": f"#/$defs/{name}/properties/{json_name}",
                }
                dependent[field.name] = {"not": {"required": [json_name]}}
        schema = {"type": "object", "properties": properties, "additionalProperties": False}
        if dependent:
            schema["dependentSchemas"] = dependent
        if self.docs[name]:
            schema["description"] = description(self.docs[name])
        return schema

    def enum_schema(self, name):
        enum = self.enums[name]
        schema = {
            "anyOf": [
                {"description": "By name.", "enum": [value.name for value in enum.value]},
                {"description": "By number, which may be one the enum does not name (enums are open).",
                 "$ref": "#/$defs/int32"},
            ],
        }
        if self.docs[name]:
            schema["description"] = description(self.docs[name])
        return schema

    def file_schema(self, root):
        messages, enums, scalars = self.reached(root)
        definitions = {name: self.message_schema(name) for name in messages}
        definitions.update({name: self.enum_schema(name) for name in enums})
        definitions.update({name: scalar_schema(name) for name in scalars})
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"{ID_BASE}{root}.schema.json",
            "title": f"{root}, proto3 JSON",
            "description": f"The proto3 JSON form of {root} (proto/{self.files[root].name}) as a LocationWire reader "
                           "takes it: proto/README.md, \"## JSON\". Generated from proto/ by "
                           "scripts/codegen/jsonschema_gen.py; proto/jsonschema/README.md says what it cannot "
                           "check.",
            "$ref": f"#/$defs/{root}",
            "$defs": definitions,
        }


def outputs(descriptor_set):
    """The files, by path relative to the repository."""
    types = Types(descriptor_set)
    roots = sorted(name for name in types.messages if name.rsplit(".", 1)[0] in PACKAGES)
    missing = [package for package in PACKAGES if not any(name.startswith(package + ".") for name in roots)]
    if missing:
        raise model.SchemaError(f"the descriptor set has no message of {', '.join(missing)}")
    return {f"{FOLDER}/{root}.schema.json": json.dumps(types.file_schema(root), indent=2, sort_keys=True,
                                                       ensure_ascii=False) + "\n"
            for root in roots}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--descriptors", required=True)
    parser.add_argument("--out", default=ROOT)
    args = parser.parse_args()
    try:
        descriptor_set = descriptor_pb2.FileDescriptorSet.FromString(open(args.descriptors, "rb").read())
        files = outputs(descriptor_set)
    except (model.SchemaError, OSError) as error:
        print(f"jsonschema_gen.py: {error}", file=sys.stderr)
        return 2
    os.makedirs(os.path.join(args.out, FOLDER), exist_ok=True)
    for stale in glob.glob(os.path.join(args.out, FOLDER, "*.schema.json")):
        if os.path.relpath(stale, args.out) not in files:
            os.remove(stale)
    for path, text in files.items():
        with open(os.path.join(args.out, path), "w", encoding="utf-8") as file:
            file.write(text)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
