"""The schema of one package of proto/ as the generators need it (locationwire.v1, the wire protocol, or
locationwire.conformance.v1, the testee protocol), read from a descriptor set that protoc made with
--include_source_info (for the comments, which are the specification) and --include_imports.

Everything Swift-specific about a name or a type is decided here once, from the mechanical mapping and the one
overrides table (overrides.py), so that every generator (messages, columns, hand-written line hints) agrees."""
import re
from dataclasses import dataclass, field as dataclass_field

from google.protobuf import descriptor_pb2

import overrides

PACKAGE = "locationwire.v1"
TESTEE_PACKAGE = "locationwire.conformance.v1"
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


def upper_camel(snake):
    """`result` -> `Result`, `parse_error` -> `ParseError`: a Swift type name made from a .proto name."""
    return "".join(word[:1].upper() + word[1:] for word in snake.split("_"))


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
    swift_name: str = ""  # the name by default, another by override (Feature -> TesteeFeature)


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
    collection_type: str = None  # a repeated field's Swift collection when not an array (CoordinateList)
    enum: Enum = None  # the enum type, for an enum field
    oneof: "Oneof" = None  # the real oneof it is a member of (label "oneof")

    @property
    def full_name(self):
        return f"{self.message.full_name}.{self.name}"

    @property
    def type_name(self):
        """The name of an enum or message type (the last component of its full name): also its Swift and C++ name in
        locationwire.v1 (`element_type` is the Swift name in any package)."""
        return self.proto_type.rsplit(".", 1)[-1]

    @property
    def kind_name(self):
        """The FieldKind a FieldTable row names: `.uint32`, `.string`, `.enumeration`, `.message`."""
        return {"enum": ".enumeration", "message": ".message"}.get(self.kind, "." + self.proto_type)

    @property
    def swift_type(self):
        if self.label == "repeated":
            return self.collection_type or f"[{self.element_type}]"
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
class Oneof:
    """A real oneof (not the `oneof optional_<name>` form of explicit presence): one optional property whose Swift
    enum has a case per member."""
    message: "Message"
    name: str  # result
    doc: list
    members: list = dataclass_field(default_factory=list)  # its Fields, in number order
    hand_written: dict = None  # its overrides.HAND_WRITTEN_ONEOFS entry: a Swift type declared by hand

    @property
    def full_name(self):
        return f"{self.message.full_name}.{self.name}"

    @property
    def property_name(self):
        return lower_camel(self.name)

    @property
    def swift_type(self):
        """The enum's name: generated inside the message (`VectorResponse.Result`), or the hand-written type."""
        return self.hand_written["swift_type"] if self.hand_written else upper_camel(self.name)

    @property
    def number(self):
        """Where its property stands among the fields: at its first member."""
        return self.members[0].number


@dataclass
class Message:
    name: str
    full_name: str
    file: str
    doc: list
    fields: list
    reserved_ranges: list  # (first, last), inclusive
    swift_name: str = ""  # the name by default, another by override (ParseError -> ParseErrorReport)
    oneofs: list = dataclass_field(default_factory=list)  # its real oneofs, by their first member's number

    def field(self, name):
        return next((f for f in self.fields if f.name == name), None)

    @property
    def properties(self):
        """The stored properties in field-number order: a Field, or a Oneof (which stands for all its members) at
        its first member."""
        out = []
        for field in self.fields:
            if field.oneof is None:
                out.append(field)
            elif field is field.oneof.members[0]:
                out.append(field.oneof)
        return out

    @property
    def hand_written_struct(self):
        return self.full_name in overrides.HAND_WRITTEN_STRUCTS


@dataclass
class Schema:
    package: str
    messages: list
    enums: list
    compact_columns: list  # locationwire.v1: the LocationFix fields, in column order (column N is field N)
    future_columns: tuple  # locationwire.v1: (first, last), the CompactFixes numbers kept for later columns

    def message(self, full_name):
        return next(m for m in self.messages if m.full_name == full_name)


def load(descriptor_set_path, package=PACKAGE):
    """The schema of `package`. The set must hold the files it imports too: a field may name a type of another
    package (the testee protocol's fields hold locationwire.v1 messages)."""
    every_file = descriptor_pb2.FileDescriptorSet.FromString(open(descriptor_set_path, "rb").read()).file
    files = sorted((f for f in every_file if f.package == package), key=lambda f: f.name)
    if not files:
        raise SchemaError(f"the descriptor set has no file of package {package}")
    if not any(f.source_code_info.location for f in files):
        raise SchemaError("the descriptor set has no comments: make it with protoc --include_source_info")
    # Every enum of the set, and the Swift name of every type, by full name: what a field of another package's
    # type needs (an enum field's default is the enum's first value).
    enums, swift_names = {}, {}
    for file in every_file:
        locations = {tuple(loc.path): loc for loc in file.source_code_info.location}
        for index, enum in enumerate(file.enum_type):
            enums[f"{file.package}.{enum.name}"] = _enum(file, index, enum, locations)
        for descriptor in file.message_type:
            full_name = f"{file.package}.{descriptor.name}"
            swift_names[full_name] = overrides.SWIFT_NAMES.get(full_name, descriptor.name)
    swift_names.update({name: enum.swift_name for name, enum in enums.items()})
    messages, raw_fields = [], []
    for file in files:
        locations = {tuple(loc.path): loc for loc in file.source_code_info.location}
        path = "proto/" + file.name
        for index, descriptor in enumerate(file.message_type):
            if descriptor.nested_type or descriptor.enum_type:
                raise SchemaError(f"{descriptor.name}: nested types are not supported")
            full_name = f"{package}.{descriptor.name}"
            message = Message(descriptor.name, full_name, path, comment(locations.get((4, index))), [],
                              [(r.start, r.end - 1) for r in descriptor.reserved_range], swift_names[full_name])
            messages.append(message)
            oneofs = {}  # the real oneofs, by index in the descriptor
            for oneof_index, oneof in enumerate(descriptor.oneof_decl):
                members = [f.name for f in descriptor.field if f.HasField("oneof_index")
                           and f.oneof_index == oneof_index]
                if len(members) != 1 or oneof.name != "optional_" + members[0]:
                    if package == PACKAGE:
                        raise SchemaError(f"{descriptor.name}: oneof {oneof.name} is not the explicit-presence form "
                                          f"optional_<name> (real oneofs are not supported in {PACKAGE}, whose "
                                          "codec is hand-written)")
                    oneofs[oneof_index] = Oneof(message, oneof.name, comment(locations.get((4, index, 8, oneof_index))))
            message.oneofs = list(oneofs.values())
            for field_index, descriptor_field in enumerate(descriptor.field):
                doc = comment(locations.get((4, index, 2, field_index)))
                in_oneof = descriptor_field.HasField("oneof_index")
                oneof = oneofs.get(descriptor_field.oneof_index) if in_oneof else None
                if not doc and in_oneof and oneof is None:
                    # `oneof optional_<name> { ... }` carries the comment of its one field.
                    doc = comment(locations.get((4, index, 8, descriptor_field.oneof_index)))
                raw_fields.append((message, descriptor_field, doc, oneof))
    messages.sort(key=lambda m: m.name)
    for message, raw, doc, oneof in raw_fields:
        field = _field(message, raw, doc, enums, swift_names, oneof)
        message.fields.append(field)
        if oneof:
            oneof.members.append(field)
    for message in messages:
        message.fields.sort(key=lambda f: f.number)
        for oneof in message.oneofs:
            oneof.members.sort(key=lambda f: f.number)
            oneof.hand_written = _hand_written_oneof(oneof)
        message.oneofs.sort(key=lambda o: o.number)
    _check_overrides(every_file, enums)
    package_enums = sorted((e for e in enums.values() if e.full_name.rsplit(".", 1)[0] == package),
                           key=lambda e: e.name)
    columns = _compact_columns(messages) if package == PACKAGE else ([], None)
    return Schema(package, messages, package_enums, *columns)


def _enum(file, index, enum, locations):
    prefix = upper_snake(enum.name) + "_"
    full_name = f"{file.package}.{enum.name}"
    values = []
    for value_index, value in enumerate(enum.value):
        if not value.name.startswith(prefix):
            raise SchemaError(f"{enum.name}.{value.name} does not start with {prefix}")
        swift_name = overrides.SWIFT_NAMES.get(f"{full_name}.{value.name}", lower_camel(value.name[len(prefix):]))
        values.append(EnumValue(value.name, value.number, swift_name,
                                comment(locations.get((5, index, 2, value_index)))))
    if not values or values[0].number != 0:
        raise SchemaError(f"{enum.name}: the first value must be the 0 value, *_UNSPECIFIED")
    return Enum(enum.name, full_name, "proto/" + file.name, comment(locations.get((5, index))), values,
                overrides.SWIFT_NAMES.get(full_name, enum.name))


def _field(message, raw, doc, enums, swift_names, oneof):
    if raw.label == FieldDescriptor.LABEL_REPEATED:
        label = "repeated"
    elif oneof is not None:
        label = "oneof"
    elif raw.HasField("oneof_index"):
        label = "optional"  # oneof optional_<name>: explicit presence
    else:
        label = "singular"
    if raw.type in (FieldDescriptor.TYPE_ENUM, FieldDescriptor.TYPE_MESSAGE):
        kind = "enum" if raw.type == FieldDescriptor.TYPE_ENUM else "message"
        proto_type = raw.type_name.lstrip(".")
        element = swift_names[proto_type]
    elif raw.type in SCALARS:
        kind = "scalar"
        proto_type, element = SCALARS[raw.type]
    else:
        raise SchemaError(f"{message.name}.{raw.name}: type {raw.type} (groups?) is not supported")
    name = lower_camel(raw.name)
    field = Field(message, raw.name, raw.number, proto_type, kind, label, doc, name, name, element, oneof=oneof)
    if kind == "enum":
        field.enum = enums[proto_type]
    override = overrides.FIELDS.get(field.full_name)
    if override:
        field.property_name = override.get("property", field.property_name)
        field.element_type = override.get("swift_type", field.element_type)
        field.doc_note = override.get("doc_note", [])
        field.collection_type = override.get("collection_type")
    return field


def _hand_written_oneof(oneof):
    """The overrides.HAND_WRITTEN_ONEOFS entry of `oneof` (by its full name, else by its name), checked against its
    members; None when its enum is generated."""
    entry = overrides.HAND_WRITTEN_ONEOFS.get(oneof.full_name) or overrides.HAND_WRITTEN_ONEOFS.get(oneof.name)
    if entry is None:
        return None
    members = [(f.name, f.proto_type) for f in oneof.members]
    if members != list(entry["members"].items()):
        raise SchemaError(f"{oneof.full_name}: its members {members} are not those of {entry['swift_type']}, "
                          f"{list(entry['members'].items())} (overrides.HAND_WRITTEN_ONEOFS)")
    return entry


def _check_overrides(files, enums):
    """Every override names something the descriptor set has."""
    messages = {f"{file.package}.{m.name}": m for file in files for m in file.message_type}
    fields = {f"{name}.{f.name}" for name, m in messages.items() for f in m.field}
    oneofs = {f"{name}.{o.name}" for name, m in messages.items() for o in m.oneof_decl}
    values = {f"{name}.{v.name}" for name, e in enums.items() for v in e.values}
    checks = [("FIELDS", overrides.FIELDS, fields), ("HAND_WRITTEN_STRUCTS", overrides.HAND_WRITTEN_STRUCTS, messages),
              ("SWIFT_NAMES", overrides.SWIFT_NAMES, set(messages) | set(enums) | values),
              ("MEMBERWISE_INITS", overrides.MEMBERWISE_INITS, messages),
              ("HAND_WRITTEN_ONEOFS", overrides.HAND_WRITTEN_ONEOFS,
               oneofs | {name.rsplit(".", 1)[-1] for name in oneofs})]
    for table, names, known in checks:
        for name in names:
            if name not in known:
                raise SchemaError(f"overrides.{table} names {name}, which proto/ does not have")


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
