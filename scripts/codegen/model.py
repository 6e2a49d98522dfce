"""The schema of package locationwire.v1 as the generators need it, read from a descriptor set that protoc made
with --include_source_info (for the comments, which are the specification) and --include_imports.

Everything Swift-specific about a name or a type is decided here once, from the mechanical mapping and the one
overrides table (overrides.py), so that every generator (messages, columns, hand-written line hints) agrees."""
import re
from dataclasses import dataclass, field as dataclass_field

from google.protobuf import descriptor_pb2

import overrides

PACKAGE = "locationwire.v1"
FieldDescriptor = descriptor_pb2.FieldDescriptorProto

# The .proto scalar types, by descriptor type number: (.proto name, also the FieldDeclaration case; Swift type).
SCALARS = {
    FieldDescriptor.TYPE_DOUBLE: ("double", "Double"),
    FieldDescriptor.TYPE_FLOAT: ("float", "Float"),
    FieldDescriptor.TYPE_INT64: ("int64", "Int64"),
    FieldDescriptor.TYPE_UINT64: ("uint64", "UInt64"),
    FieldDescriptor.TYPE_INT32: ("int32", "Int32"),
    FieldDescriptor.TYPE_FIXED64: ("fixed64", "UInt64"),
    FieldDescriptor.TYPE_FIXED32: ("fixed32", "UInt32"),
    FieldDescriptor.TYPE_BOOL: ("bool", "Bool"),
    FieldDescriptor.TYPE_STRING: ("string", "String"),
    FieldDescriptor.TYPE_BYTES: ("bytes", "[UInt8]"),
    FieldDescriptor.TYPE_UINT32: ("uint32", "UInt32"),
    FieldDescriptor.TYPE_SFIXED32: ("sfixed32", "Int32"),
    FieldDescriptor.TYPE_SFIXED64: ("sfixed64", "Int64"),
    FieldDescriptor.TYPE_SINT32: ("sint32", "Int32"),
    FieldDescriptor.TYPE_SINT64: ("sint64", "Int64"),
}
ZERO_VALUES = {"Double": "0", "Float": "0", "Int64": "0", "UInt64": "0", "Int32": "0", "UInt32": "0", "Bool": "false",
               "String": '""', "[UInt8]": "[]"}


class SchemaError(Exception):
    """proto/ uses something the generators do not support, or breaks a convention they rely on."""


def lower_camel(snake):
    """protoc's JSON-name rule, which is also the Swift name: drop each underscore, upper-case the letter after it
    (`speed_cm_s` -> `speedCmS`); an all-capitals name is lowered first (`WGS84` -> `wgs84`)."""
    words = snake.lower().split("_")
    return words[0] + "".join(word[:1].upper() + word[1:] for word in words[1:])


def upper_snake(camel):
    """`CoordinateDatum` -> `COORDINATE_DATUM`: the prefix every value of the enum carries."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel).upper()


def comment(location):
    """The comment of a declaration, leading then trailing, as lines without the `// ` prefix; [] for none."""
    if location is None:
        return []
    text = location.leading_comments + location.trailing_comments
    lines = [line[1:] if line.startswith(" ") else line for line in text.rstrip("\n").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines if any(line.strip() for line in lines) else []


@dataclass
class EnumValue:
    name: str  # FIX_REASON_PERIODIC
    number: int
    swift_name: str  # periodic
    doc: list


@dataclass
class Enum:
    name: str
    full_name: str
    file: str  # proto/locationwire/v1/location_fix.proto
    doc: list
    values: list


@dataclass
class Field:
    message: "Message"
    name: str  # latitude_e7
    number: int
    proto_type: str  # sfixed32, or the full name of an enum or message
    kind: str  # "scalar", "enum" or "message"
    label: str  # "singular", "optional" (explicit presence) or "repeated"
    doc: list
    case_name: str  # the case of the message's Field enum: latitudeE7
    property_name: str  # the stored property: latitudeE7 (pressureHpaBits by override)
    element_type: str  # the Swift type of one value: Int32, FixReason, Circle
    doc_note: list = dataclass_field(default_factory=list)  # what an override adds to the comment
    enum: Enum = None  # the enum type, for an enum field

    @property
    def full_name(self):
        return f"{self.message.full_name}.{self.name}"

    @property
    def type_name(self):
        """The Swift name of an enum or message type (the last component of its full name)."""
        return self.proto_type.rsplit(".", 1)[-1]

    @property
    def swift_type(self):
        if self.label == "repeated":
            return f"[{self.element_type}]"
        if self.label == "optional" or self.kind == "message":
            return f"{self.element_type}?"
        return self.element_type

    @property
    def default(self):
        """The initial value of the stored property; None for an optional (nil)."""
        if self.label == "repeated":
            return "[]"
        if self.label == "optional" or self.kind == "message":
            return None
        if self.kind == "enum":
            return "." + self.enum.values[0].swift_name
        return ZERO_VALUES[self.element_type]

    @property
    def declared_type(self):
        """The type as a FieldDeclaration row names it: `.sfixed32`, `.enumeration(FixReason.self)`."""
        if self.kind == "enum":
            return f".enumeration({self.type_name}.self)"
        if self.kind == "message":
            return f".message({self.type_name}.self)"
        return "." + self.proto_type

    @property
    def has_presence(self):
        return self.label == "optional"


@dataclass
class Message:
    name: str
    full_name: str
    file: str
    doc: list
    fields: list
    reserved_ranges: list  # (first, last), inclusive

    def field(self, name):
        return next((f for f in self.fields if f.name == name), None)

    @property
    def hand_written_struct(self):
        return self.full_name in overrides.HAND_WRITTEN_STRUCTS


@dataclass
class Schema:
    messages: list
    enums: list
    compact_columns: list  # the LocationFix fields, in column order: column N is LocationFix field N
    future_columns: tuple  # (first, last): the CompactFixes numbers kept for columns of later fields

    def message(self, full_name):
        return next(m for m in self.messages if m.full_name == full_name)


def load(descriptor_set_path):
    files = descriptor_pb2.FileDescriptorSet.FromString(open(descriptor_set_path, "rb").read())
    files = sorted((f for f in files.file if f.package == PACKAGE), key=lambda f: f.name)
    if not files:
        raise SchemaError(f"the descriptor set has no file of package {PACKAGE}")
    if not any(f.source_code_info.location for f in files):
        raise SchemaError("the descriptor set has no comments: make it with protoc --include_source_info")
    enums, messages, raw_fields = {}, [], []
    for file in files:
        locations = {tuple(loc.path): loc for loc in file.source_code_info.location}
        path = "proto/" + file.name
        for index, enum in enumerate(file.enum_type):
            prefix = upper_snake(enum.name) + "_"
            values = []
            for value_index, value in enumerate(enum.value):
                if not value.name.startswith(prefix):
                    raise SchemaError(f"{enum.name}.{value.name} does not start with {prefix}")
                values.append(EnumValue(value.name, value.number, lower_camel(value.name[len(prefix):]),
                                        comment(locations.get((5, index, 2, value_index)))))
            if not values or values[0].number != 0:
                raise SchemaError(f"{enum.name}: the first value must be the 0 value, *_UNSPECIFIED")
            full_name = f"{PACKAGE}.{enum.name}"
            enums[full_name] = Enum(enum.name, full_name, path, comment(locations.get((5, index))), values)
        for index, descriptor in enumerate(file.message_type):
            if descriptor.nested_type or descriptor.enum_type:
                raise SchemaError(f"{descriptor.name}: nested types are not supported")
            message = Message(descriptor.name, f"{PACKAGE}.{descriptor.name}", path,
                              comment(locations.get((4, index))), [],
                              [(r.start, r.end - 1) for r in descriptor.reserved_range])
            messages.append(message)
            for field_index, descriptor_field in enumerate(descriptor.field):
                doc = comment(locations.get((4, index, 2, field_index)))
                if not doc and descriptor_field.HasField("oneof_index"):
                    # `oneof optional_<name> { ... }` carries the comment of its one field.
                    doc = comment(locations.get((4, index, 8, descriptor_field.oneof_index)))
                raw_fields.append((message, descriptor, descriptor_field, doc))
    messages.sort(key=lambda m: m.name)
    for message, descriptor, raw, doc in raw_fields:
        message.fields.append(_field(message, descriptor, raw, doc, enums))
    for message in messages:
        message.fields.sort(key=lambda f: f.number)
    _check_overrides(messages)
    schema = Schema(messages, sorted(enums.values(), key=lambda e: e.name), *_compact_columns(messages))
    return schema


def _field(message, descriptor, raw, doc, enums):
    if raw.label == FieldDescriptor.LABEL_REPEATED:
        label = "repeated"
    elif raw.HasField("oneof_index"):
        oneof = descriptor.oneof_decl[raw.oneof_index].name
        if oneof != "optional_" + raw.name:
            raise SchemaError(f"{message.name}.{raw.name}: oneof {oneof} is not the explicit-presence form "
                              f"optional_{raw.name} (real oneofs are not supported)")
        label = "optional"
    else:
        label = "singular"
    if raw.type == FieldDescriptor.TYPE_ENUM:
        kind, proto_type = "enum", raw.type_name.lstrip(".")
        element = proto_type.rsplit(".", 1)[-1]
    elif raw.type == FieldDescriptor.TYPE_MESSAGE:
        kind, proto_type = "message", raw.type_name.lstrip(".")
        element = proto_type.rsplit(".", 1)[-1]
    elif raw.type in SCALARS:
        kind = "scalar"
        proto_type, element = SCALARS[raw.type]
    else:
        raise SchemaError(f"{message.name}.{raw.name}: type {raw.type} (groups?) is not supported")
    name = lower_camel(raw.name)
    field = Field(message, raw.name, raw.number, proto_type, kind, label, doc, name, name, element)
    if kind == "enum":
        field.enum = enums[proto_type]
    override = overrides.FIELDS.get(field.full_name)
    if override:
        field.property_name = override.get("property", field.property_name)
        field.element_type = override.get("swift_type", field.element_type)
        field.doc_note = override.get("doc_note", [])
    return field


def _check_overrides(messages):
    known = {f.full_name for m in messages for f in m.fields}
    for name in overrides.FIELDS:
        if name not in known:
            raise SchemaError(f"overrides.FIELDS names {name}, which proto/ does not have")
    names = {m.full_name for m in messages}
    for name in overrides.HAND_WRITTEN_STRUCTS:
        if name not in names:
            raise SchemaError(f"overrides.HAND_WRITTEN_STRUCTS names {name}, which proto/ does not have")


def _compact_columns(messages):
    """Column N of CompactFixes is LocationFix field N (compact_fixes.proto): checks that the two lists agree
    number for number and name for name, and finds the numbers reserved for the columns of later fields (the
    reserved range that starts right after the last column)."""
    fix = next(m for m in messages if m.name == "LocationFix")
    compact = next(m for m in messages if m.name == "CompactFixes")
    columns = [f for f in compact.fields if f.proto_type == f"{PACKAGE}.FixColumn"]
    fix_fields = list(fix.fields)
    if [(c.number, c.name) for c in columns] != [(f.number, f.name) for f in fix_fields]:
        raise SchemaError(
            "compact_fixes.proto: CompactFixes must have one FixColumn per LocationFix field, of the same number "
            f"and name.\n  LocationFix:  {[(f.number, f.name) for f in fix_fields]}\n"
            f"  CompactFixes: {[(c.number, c.name) for c in columns]}")
    if [f.number for f in fix_fields] != list(range(1, len(fix_fields) + 1)):
        raise SchemaError("LocationFix's field numbers must run from 1 without gaps: they index the columns")
    for f in fix_fields:
        if f.label == "repeated" or f.kind == "message" or f.proto_type in ("string", "bytes", "double"):
            raise SchemaError(f"LocationFix.{f.name}: a column holds 64-bit integers, so a LocationFix field must "
                              "be an integer, bool, enum or 32-bit float")
    after = len(fix_fields) + 1
    future = next((r for r in compact.reserved_ranges if r[0] == after), None)
    if future is None:
        raise SchemaError(f"compact_fixes.proto: no `reserved {after} to ...;` for the columns of later LocationFix "
                          f"fields (shrink it when a field is added)")
    return fix_fields, future
