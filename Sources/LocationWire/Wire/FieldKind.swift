/// A `.proto` field type together with the Swift type that holds one of its values, and how such a value is read
/// and written: what a ``FieldTable`` row names as the field's kind, such as `.uint64`, `.string` or `.message`.
///
/// The static members are constrained by the Swift type, so a row whose kind does not fit its property does not
/// compile: `.fixed64` needs a `UInt64`, `.sfixed32` an `Int32`, `.enumeration` a ``LocationWireEnum``,
/// `.message` a ``LocationWireMessage``.
///
/// Everything follows from the type's wire form, written once per form below: a value's zero (for implicit
/// presence) is the value whose encoding is all zero bits, so `-0.0` is not zero, as in C++ and upb; repeated
/// numeric types are written packed and read in either form; repeated strings, bytes and messages name the
/// element's index in errors.
public struct FieldKind<Value: Sendable>: Sendable {
    /// The type as `.proto` declares it, for the schema.
    public let type: DeclaredFieldType
    /// The value of an absent field: zero, empty, or the empty message (which a message that is new merges into).
    package let zero: Value
    /// True for the value that implicit presence leaves out; nil for messages, which are written whenever they
    /// are present.
    package let isZero: (@Sendable (Value) -> Bool)?
    /// Reads one occurrence into `value`: replaces a scalar, merges into a message.
    package let read: @Sendable (_ value: inout Value, _ reader: inout WireReader) throws(DecodingError) -> Void
    /// Writes one occurrence under `key`.
    package let write: @Sendable (_ value: Value, _ key: FieldKey, _ writer: inout WireWriter) -> Void
    /// Reads the occurrence whose tag, `key`, was just read and appends its elements: a packed run or one element.
    package let readElements:
        @Sendable (_ values: inout [Value], _ key: FieldKey, _ reader: inout WireReader) throws(DecodingError) -> Void
    /// Writes all elements under `key` (the packed key for a numeric type): nothing when there are none.
    package let writeElements: @Sendable (_ values: [Value], _ key: FieldKey, _ writer: inout WireWriter) -> Void
}

// MARK: - The four wire forms

extension FieldKind {
    /// A type whose values travel as varints; `decode` and `encode` convert between the value and the 64-bit
    /// varint (sign-extended for int32 and enums, zigzag for sint32 and sint64).
    static func varintType(
        _ type: DeclaredFieldType, decode: @escaping @Sendable (UInt64) -> Value,
        encode: @escaping @Sendable (Value) -> UInt64
    ) -> FieldKind {
        FieldKind(
            type: type, zero: decode(0), isZero: { encode($0) == 0 },
            read: { value, reader throws(DecodingError) in value = decode(try reader.readVarint()) },
            write: { value, key, writer in writer.writeVarintField(key, encode(value)) },
            readElements: { values, key, reader throws(DecodingError) in
                if key.wireTypeBits == WireType.lengthDelimited.rawValue {
                    try reader.readPackedVarints(appendingTo: &values, decode)
                } else {
                    try reader.checkCanAppend(to: values)
                    values.append(decode(try reader.readVarint()))
                }
            },
            writeElements: { values, key, writer in writer.writePackedVarints(key, values, encode) })
    }

    /// A type whose values travel as four little-endian bytes (fixed32, sfixed32, float by its bit pattern).
    static func fourByteType(
        _ type: DeclaredFieldType, decode: @escaping @Sendable (UInt32) -> Value,
        encode: @escaping @Sendable (Value) -> UInt32
    ) -> FieldKind {
        FieldKind(
            type: type, zero: decode(0), isZero: { encode($0) == 0 },
            read: { value, reader throws(DecodingError) in value = decode(try reader.readFixed32()) },
            write: { value, key, writer in writer.writeFixed32Field(key, encode(value)) },
            readElements: { values, key, reader throws(DecodingError) in
                if key.wireTypeBits == WireType.lengthDelimited.rawValue {
                    try reader.readPackedFixed32(appendingTo: &values, decode)
                } else {
                    try reader.checkCanAppend(to: values)
                    values.append(decode(try reader.readFixed32()))
                }
            },
            writeElements: { values, key, writer in writer.writePackedFixedWidth(key, values, encode) })
    }

    /// A type whose values travel as eight little-endian bytes (fixed64, sfixed64, double by its bit pattern).
    static func eightByteType(
        _ type: DeclaredFieldType, decode: @escaping @Sendable (UInt64) -> Value,
        encode: @escaping @Sendable (Value) -> UInt64
    ) -> FieldKind {
        FieldKind(
            type: type, zero: decode(0), isZero: { encode($0) == 0 },
            read: { value, reader throws(DecodingError) in value = decode(try reader.readFixed64()) },
            write: { value, key, writer in writer.writeFixed64Field(key, encode(value)) },
            readElements: { values, key, reader throws(DecodingError) in
                if key.wireTypeBits == WireType.lengthDelimited.rawValue {
                    try reader.readPackedFixed64(appendingTo: &values, decode)
                } else {
                    try reader.checkCanAppend(to: values)
                    values.append(decode(try reader.readFixed64()))
                }
            },
            writeElements: { values, key, writer in writer.writePackedFixedWidth(key, values, encode) })
    }

    /// A length-delimited scalar (string, bytes): `read` reads one value, `write` writes one field. Zero is empty.
    static func lengthDelimitedType(
        _ type: DeclaredFieldType, zero: Value, isEmpty: @escaping @Sendable (Value) -> Bool,
        read: @escaping @Sendable (inout WireReader) throws(DecodingError) -> Value,
        write: @escaping @Sendable (Value, FieldKey, inout WireWriter) -> Void
    ) -> FieldKind {
        FieldKind(
            type: type, zero: zero, isZero: isEmpty,
            read: { value, reader throws(DecodingError) in value = try read(&reader) },
            write: write,
            readElements: { values, _, reader throws(DecodingError) in
                if values.isEmpty {
                    // Room for every element of the field at once, as readString(appendingTo:) makes.
                    values.reserveCapacity(try reader.countOccurrences().count)
                }
                try reader.checkCanAppend(to: values)
                do throws(DecodingError) {
                    values.append(try read(&reader))
                } catch {
                    throw error.prefixed(with: .index(values.count))
                }
            },
            writeElements: { values, key, writer in
                for value in values { write(value, key, &writer) }
            })
    }
}

// MARK: - The `.proto` types

extension FieldKind where Value == Int32 {
    /// `int32`: negative values are sign-extended to ten bytes, as protobuf requires.
    public static var int32: FieldKind {
        .varintType(.int32, decode: { Int32(truncatingIfNeeded: $0) }, encode: { UInt64(bitPattern: Int64($0)) })
    }
    public static var sint32: FieldKind {
        .varintType(
            .sint32, decode: { ZigZag.decode(UInt32(truncatingIfNeeded: $0)) }, encode: { UInt64(ZigZag.encode($0)) })
    }
    public static var sfixed32: FieldKind {
        .fourByteType(.sfixed32, decode: { Int32(bitPattern: $0) }, encode: { UInt32(bitPattern: $0) })
    }
}

extension FieldKind where Value == Int64 {
    public static var int64: FieldKind {
        .varintType(.int64, decode: { Int64(bitPattern: $0) }, encode: { UInt64(bitPattern: $0) })
    }
    public static var sint64: FieldKind {
        .varintType(.sint64, decode: { ZigZag.decode($0) }, encode: { ZigZag.encode($0) })
    }
    public static var sfixed64: FieldKind {
        .eightByteType(.sfixed64, decode: { Int64(bitPattern: $0) }, encode: { UInt64(bitPattern: $0) })
    }
}

extension FieldKind where Value == UInt32 {
    public static var uint32: FieldKind {
        .varintType(.uint32, decode: { UInt32(truncatingIfNeeded: $0) }, encode: { UInt64($0) })
    }
    public static var fixed32: FieldKind { .fourByteType(.fixed32, decode: { $0 }, encode: { $0 }) }
}

extension FieldKind where Value == UInt64 {
    public static var uint64: FieldKind { .varintType(.uint64, decode: { $0 }, encode: { $0 }) }
    public static var fixed64: FieldKind { .eightByteType(.fixed64, decode: { $0 }, encode: { $0 }) }
}

extension FieldKind where Value == Bool {
    /// `bool`: any non-zero varint reads as true.
    public static var bool: FieldKind { .varintType(.bool, decode: { $0 != 0 }, encode: { $0 ? 1 : 0 }) }
}

extension FieldKind where Value == Float {
    public static var float: FieldKind {
        .fourByteType(.float, decode: { Float(bitPattern: $0) }, encode: \.bitPattern)
    }
}

extension FieldKind where Value == Double {
    public static var double: FieldKind {
        .eightByteType(.double, decode: { Double(bitPattern: $0) }, encode: \.bitPattern)
    }
}

extension FieldKind where Value == String {
    /// `string`: invalid UTF-8 is rejected, as proto3 requires.
    public static var string: FieldKind {
        .lengthDelimitedType(
            .string, zero: "", isEmpty: \.isEmpty, read: { reader throws(DecodingError) in try reader.readString() },
            write: { value, key, writer in writer.writeStringField(key, value) })
    }
}

extension FieldKind where Value == [UInt8] {
    public static var bytes: FieldKind {
        .lengthDelimitedType(
            .bytes, zero: [], isEmpty: \.isEmpty, read: { reader throws(DecodingError) in try reader.readBytes() },
            write: { value, key, writer in writer.writeBytesField(key, value) })
    }
}

extension FieldKind where Value: LocationWireEnum {
    /// An enum: open, so a number the schema does not name is kept; sign-extended like `int32`.
    public static var enumeration: FieldKind {
        .varintType(
            .enumeration(Value.self), decode: { Value(rawValue: Int32(truncatingIfNeeded: $0)) },
            encode: { UInt64(bitPattern: Int64($0.rawValue)) })
    }
}

extension FieldKind where Value: LocationWireMessage {
    /// A message: an occurrence merges into what the field holds, as protobuf requires.
    public static var message: FieldKind {
        FieldKind(
            type: .message(Value.self), zero: Value(), isZero: nil,
            read: { value, reader throws(DecodingError) in try reader.readMessage(into: &value) },
            write: { value, key, writer in writer.writeMessageField(key, value) },
            readElements: { values, _, reader throws(DecodingError) in try reader.readMessage(appendingTo: &values) },
            writeElements: { values, key, writer in writer.writeRepeatedMessageField(key, values) })
    }
}

// MARK: - Packed fixed-width runs

extension WireReader {
    /// Reads a packed run of 8-byte values, as ``readPackedFixed32(appendingTo:_:)`` does 4-byte ones.
    mutating func readPackedFixed64<Element>(
        appendingTo array: inout [Element], _ convert: (UInt64) -> Element
    ) throws(DecodingError) {
        let lengthStart = cursor
        let length = try readLength()
        guard length % 8 == 0 else {
            throw error(
                .invalidPackedLength, at: lengthStart, "packed 8-byte values take \(length) bytes, not a multiple of 8")
        }
        try checkElementCount(array.count + length / 8, at: fieldStart)
        array.reserveCapacity(array.count + length / 8)
        for _ in 0..<length / 8 {
            array.append(convert(try readFixed64()))
        }
    }
}

extension WireWriter {
    /// Writes a packed run of fixed-width values (4 or 8 bytes each, by `convert`'s result); nothing when `values`
    /// is empty.
    mutating func writePackedFixedWidth<Element, Bits: FixedWidthInteger>(
        _ key: FieldKey, _ values: [Element], _ convert: (Element) -> Bits
    ) {
        guard !values.isEmpty else { return }
        writeKey(key)
        writeVarint(UInt64(values.count * MemoryLayout<Bits>.size))
        for value in values { writeLittleEndian(convert(value)) }
    }
}
