"""The hand-written codec lines a field needs, as the codec writes them: the careful decoder's case, LocationFix's
fast-path case, and the encode line. The codec itself stays hand-written; these lines are what the forgotten-field
test (Tests/LocationWireTests/EveryFieldTests.swift) tells a contributor to add, so they follow the conventions of
Sources/LocationWire/Messages/ exactly (`--verify` checks that every line appears in its file)."""

# The message whose fixes are decoded by a fast path as well, and encoded through a pointer (`fix.pointee`) into
# a bounded writer (`out`), because a batch holds thousands of them.
FAST_MESSAGE = "locationwire.v1.LocationFix"

# Careful decoder: the expression that reads one value of a scalar, by .proto type and Swift storage type.
_READ = {
    ("uint64", "UInt64"): "try reader.readVarint()",
    ("int64", "Int64"): "Int64(bitPattern: try reader.readVarint())",
    ("uint32", "UInt32"): "try reader.readUInt32()",
    ("int32", "Int32"): "try reader.readInt32()",
    ("sint32", "Int32"): "try reader.readSInt32()",
    ("sint64", "Int64"): "try reader.readSInt64()",
    ("bool", "Bool"): "try reader.readBool()",
    ("fixed32", "UInt32"): "try reader.readFixed32()",
    ("sfixed32", "Int32"): "Int32(bitPattern: try reader.readFixed32())",
    ("float", "Float"): "Float(bitPattern: try reader.readFixed32())",
    ("float", "UInt32"): "try reader.readFixed32()",  # the bit pattern (overrides.py)
    ("fixed64", "UInt64"): "try reader.readFixed64()",
    ("sfixed64", "Int64"): "Int64(bitPattern: try reader.readFixed64())",
    ("double", "Double"): "Double(bitPattern: try reader.readFixed64())",
    ("string", "String"): "try reader.readString()",
    ("bytes", "[UInt8]"): "try reader.readBytes()",
}

# A varint's conversion from the UInt64 the packed reader and the fast path hand over (`$0` / `value`).
_FROM_VARINT = {
    "uint64": "{v}", "int64": "Int64(bitPattern: {v})", "uint32": "UInt32(truncatingIfNeeded: {v})",
    "int32": "Int32(truncatingIfNeeded: {v})", "sint32": "ZigZag.decode(UInt32(truncatingIfNeeded: {v}))",
    "sint64": "ZigZag.decode({v})", "bool": "{v} != 0",
}
# A fixed-width value's conversion from the UInt32 or UInt64 loaded.
_FROM_FIXED = {
    ("fixed32", "UInt32"): "{v}", ("sfixed32", "Int32"): "Int32(bitPattern: {v})",
    ("float", "Float"): "Float(bitPattern: {v})", ("float", "UInt32"): "{v}",
    ("fixed64", "UInt64"): "{v}", ("sfixed64", "Int64"): "Int64(bitPattern: {v})",
    ("double", "Double"): "Double(bitPattern: {v})",
}
_FIXED32 = {"fixed32", "sfixed32", "float"}
_FIXED64 = {"fixed64", "sfixed64", "double"}


def decode_case(field):
    """The careful decoder's case, one or more lines (the first at the indentation of `case`)."""
    key, p = f"Field.{field.case_name}.key", field.property_name
    if field.label == "repeated":
        if field.kind == "message":
            return [f"case {key}: try reader.readMessage(appendingTo: &{p})"]
        if field.proto_type == "string":
            return [f"case {key}: try reader.readString(appendingTo: &{p})"]
        if field.proto_type == "bytes":
            return [f"case {key}: {p}.append(try reader.readBytes())"]
        unpacked = f"Field.{field.case_name}.unpackedKey"
        if field.collection_type == "CoordinateList":
            return [f"case {key}: try reader.readPackedCoordinates(appendingTo: &{p})",
                    f"case {unpacked}: try reader.readCoordinate(appendingTo: &{p})"]
        if field.proto_type in _FIXED32 and field.kind == "scalar":
            packed = f"try reader.readPackedFixed32(appendingTo: &{p}) {{ {_from_fixed(field, '$0')} }}"
        elif field.proto_type in _FIXED64 and field.kind == "scalar":
            packed = None  # no packed fixed64 reader yet: write one in WireReader first
        else:
            packed = f"try reader.readPackedVarints(appendingTo: &{p}) {{ {_varint_to(field, '$0')} }}"
        lines = [f"case {key}:", f"    {packed}"] if packed else []
        return lines + [f"case {unpacked}:", f"    try reader.checkCanAppend(to: {p})",
                        f"    {p}.append({_read(field)})"]
    if field.kind == "message":
        return [f"case {key}:", f"    if {p} == nil {{ {p} = {field.type_name}() }}",
                f"    try reader.readMessage(into: &{p}!)"]
    return [f"case {key}: {p} = {_read(field)}"]


def fast_decode_case(field):
    """LocationFix's fast-path case: fixed-width values load in one go; a varint longer than the fast path reads
    hands over to the careful decoder."""
    key, p = f"Field.{field.case_name}.key", field.property_name
    if field.proto_type in _FIXED32 and field.kind == "scalar":
        return [f"case {key}: {p} = {_from_fixed(field, 'scanner.fixed32()')}"]
    if field.proto_type in _FIXED64 and field.kind == "scalar":
        return [f"case {key}: {p} = {_from_fixed(field, 'scanner.fixed64()')}"]
    return [f"case {key}:", "    guard let value = scanner.varint() else { return false }",
            f"    {p} = {_varint_to(field, 'value')}"]


def encode_line(field):
    """The encode line: the field written when set (explicit presence) or not zero (implicit presence)."""
    key, p = f"Field.{field.case_name}.key", field.property_name
    fast = field.message.full_name == FAST_MESSAGE
    writer = "out" if fast else "writer"
    value = f"fix.pointee.{p}" if fast else p
    if field.label == "repeated":
        if field.kind == "message":
            return f"{writer}.writeRepeatedMessageField({key}, {value})"
        if field.proto_type in ("string", "bytes"):
            method = "writeStringField" if field.proto_type == "string" else "writeBytesField"
            element = "id" if field.name.endswith("_ids") else "element"
            return f"for {element} in {value} {{ {writer}.{method}({key}, {element}) }}"
        if field.proto_type == "sfixed32":
            return f"{writer}.writePackedFixed32({key}, {value})"
        return f"{writer}.writePackedVarints({key}, {value}) {{ {_to_varint(field, '$0')} }}"
    if field.kind == "message":
        return f"if let {p}{' = ' + value if fast else ''} {{ {writer}.writeMessageField({key}, {p}) }}"
    if field.has_presence:
        write = _write(field, writer, key, p)
        return f"if let {p}{' = ' + value if fast else ''} {{ {write} }}"
    if field.kind == "enum":
        return f"if {value}.rawValue != 0 {{ {writer}.writeInt32Field({key}, {value}.rawValue) }}"
    if field.proto_type == "bool":
        return f"if {value} {{ {writer}.writeBoolField({key}, true) }}"
    if field.proto_type in ("string", "bytes"):
        return f"if !{value}.isEmpty {{ {_write(field, writer, key, value)} }}"
    return f"if {value} != 0 {{ {_write(field, writer, key, value)} }}"


def _read(field):
    if field.kind == "enum":
        return f"{field.type_name}(rawValue: try reader.readInt32())"
    return _READ[(field.proto_type, field.element_type)]


def _from_fixed(field, v):
    return _FROM_FIXED[(field.proto_type, field.element_type)].format(v=v)


def _varint_to(field, v):
    if field.kind == "enum":
        return f"{field.type_name}(rawValue: Int32(truncatingIfNeeded: {v}))"
    return _FROM_VARINT[field.proto_type].format(v=v)


def _to_varint(field, v):
    """A repeated varint element as the UInt64 the packed writer takes."""
    if field.kind == "enum":
        return f"UInt64(bitPattern: Int64({v}.rawValue))"
    return {"uint64": v, "int64": f"UInt64(bitPattern: {v})", "uint32": f"UInt64({v})",
            "int32": f"UInt64(bitPattern: Int64({v}))", "sint32": f"UInt64(ZigZag.encode({v}))",
            "sint64": f"ZigZag.encode({v})", "bool": f"{v} ? 1 : 0"}[field.proto_type]


def _write(field, writer, key, v):
    """The write call for a present scalar or enum value `v`."""
    if field.kind == "enum":
        return f"{writer}.writeInt32Field({key}, {v}.rawValue)"
    t, storage = field.proto_type, field.element_type
    if t in ("uint64",):
        return f"{writer}.writeVarintField({key}, {v})"
    if t == "int64":
        return f"{writer}.writeVarintField({key}, UInt64(bitPattern: {v}))"
    if t == "uint32":
        return f"{writer}.writeVarintField({key}, UInt64({v}))"
    if t == "int32":
        return f"{writer}.writeInt32Field({key}, {v})"
    if t == "sint32":
        return f"{writer}.writeSInt32Field({key}, {v})"
    if t == "sint64":
        return f"{writer}.writeSInt64Field({key}, {v})"
    if t == "bool":
        return f"{writer}.writeBoolField({key}, {v})"
    if t == "fixed32" or (t == "float" and storage == "UInt32"):
        return f"{writer}.writeFixed32Field({key}, {v})"
    if t == "sfixed32":
        return f"{writer}.writeFixed32Field({key}, UInt32(bitPattern: {v}))"
    if t == "float":
        return f"{writer}.writeFixed32Field({key}, {v}.bitPattern)"
    if t == "fixed64":
        return f"{writer}.writeFixed64Field({key}, {v})"
    if t == "sfixed64":
        return f"{writer}.writeFixed64Field({key}, UInt64(bitPattern: {v}))"
    if t == "double":
        return f"{writer}.writeFixed64Field({key}, {v}.bitPattern)"
    if t == "string":
        return f"{writer}.writeStringField({key}, {v})"
    if t == "bytes":
        return f"{writer}.writeBytesField({key}, {v})"
    raise AssertionError(t)
