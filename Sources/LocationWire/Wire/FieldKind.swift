/// A `.proto` field type together with the Swift type that holds one of its values, and how such a value is read
/// and written: what a ``FieldTable`` row names as the field's kind, such as `.uint64`, `.string` or `.message`.
///
/// The static members are constrained by the Swift type, so a row whose kind does not fit its property does not
/// compile: `.fixed64` needs a `UInt64`, `.sfixed32` an `Int32`, `.enumeration` a ``LocationWireEnum``,
/// `.message` a ``LocationWireMessage``.
///
/// How values travel is written three times below, once for numbers (in any of their three wire forms), once for
/// strings and bytes, once for messages: a number's zero (for implicit presence) is the value whose encoding is all
/// zero bits, so `-0.0` is not zero, as in C++ and upb; repeated numbers are written packed and read in either
/// form; repeated strings, bytes and messages name the element's index in errors.
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

// MARK: - The wire forms

/// How the numbers of one wire form travel: as varints, or as four or eight little-endian bytes. A numeric
/// ``FieldKind`` converts its values to and from these bits.
struct NumericWireForm<Bits: FixedWidthInteger & Sendable>: Sendable {
    /// `.varint`, `.fixed32` or `.fixed64`.
    let wireType: WireType
    /// Reads one number.
    let read: @Sendable (inout WireReader) throws(DecodingError) -> Bits
    /// Writes one number, without a key.
    let write: @Sendable (Bits, inout WireWriter) -> Void
    /// The bytes every number takes in a fixed-width form (a packed run is a multiple of it); nil for varints.
    let fixedSize: Int?

    /// The bytes `bits` take.
    func size(of bits: Bits) -> Int { fixedSize ?? Varint.encodedSize(of: UInt64(bits)) }
}

extension NumericWireForm where Bits == UInt64 {
    static var varint: Self {
        Self(
            wireType: .varint, read: { reader throws(DecodingError) in try reader.readVarint() },
            write: { bits, writer in writer.writeVarint(bits) }, fixedSize: nil)
    }
    static var eightBytes: Self {
        Self(
            wireType: .fixed64, read: { reader throws(DecodingError) in try reader.readFixed64() },
            write: { bits, writer in writer.writeLittleEndian(bits) }, fixedSize: 8)
    }
}

extension NumericWireForm where Bits == UInt32 {
    static var fourBytes: Self {
        Self(
            wireType: .fixed32, read: { reader throws(DecodingError) in try reader.readFixed32() },
            write: { bits, writer in writer.writeLittleEndian(bits) }, fixedSize: 4)
    }
}

extension FieldKind {
    /// A numeric type (integers, bool, enums, floats): `decode` and `encode` convert between a value and the bits
    /// of its wire form (sign-extended for int32 and enums, zigzag for sint32 and sint64, the bit pattern for
    /// floats). Repeated values are written packed, and read packed or one by one.
    static func numeric<Bits>(
        _ type: DeclaredFieldType, _ form: NumericWireForm<Bits>, decode: @escaping @Sendable (Bits) -> Value,
        encode: @escaping @Sendable (Value) -> Bits
    ) -> FieldKind {
        precondition(type.wireType == form.wireType, "\(type) does not travel as \(form.wireType.name)")
        return FieldKind(
            type: type, zero: decode(0), isZero: { encode($0) == 0 },
            read: { value, reader throws(DecodingError) in value = decode(try form.read(&reader)) },
            write: { value, key, writer in
                writer.writeKey(key)
                form.write(encode(value), &writer)
            },
            readElements: { values, key, reader throws(DecodingError) in
                if key.wireTypeBits == WireType.lengthDelimited.rawValue {
                    try reader.readPacked(appendingTo: &values, form, decode)
                } else {
                    try reader.checkCanAppend(to: values)
                    values.append(decode(try form.read(&reader)))
                }
            },
            writeElements: { values, key, writer in
                guard !values.isEmpty else { return }
                let bits = values.map(encode)
                writer.writeKey(key)
                writer.writeVarint(UInt64(bits.reduce(0) { $0 + form.size(of: $1) }))
                for number in bits { form.write(number, &writer) }
            })
    }

    /// A length-delimited scalar (string, bytes): `read` reads one value, `write` writes one field. Zero is empty.
    static func lengthDelimited(
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
        .numeric(.int32, .varint, decode: { Int32(truncatingIfNeeded: $0) }, encode: { UInt64(bitPattern: Int64($0)) })
    }
    public static var sint32: FieldKind {
        .numeric(
            .sint32, .varint, decode: { ZigZag.decode(UInt32(truncatingIfNeeded: $0)) },
            encode: { UInt64(ZigZag.encode($0)) })
    }
    public static var sfixed32: FieldKind {
        .numeric(.sfixed32, .fourBytes, decode: { Int32(bitPattern: $0) }, encode: { UInt32(bitPattern: $0) })
    }
}

extension FieldKind where Value == Int64 {
    public static var int64: FieldKind {
        .numeric(.int64, .varint, decode: { Int64(bitPattern: $0) }, encode: { UInt64(bitPattern: $0) })
    }
    public static var sint64: FieldKind {
        .numeric(.sint64, .varint, decode: { ZigZag.decode($0) }, encode: { ZigZag.encode($0) })
    }
    public static var sfixed64: FieldKind {
        .numeric(.sfixed64, .eightBytes, decode: { Int64(bitPattern: $0) }, encode: { UInt64(bitPattern: $0) })
    }
}

extension FieldKind where Value == UInt32 {
    public static var uint32: FieldKind {
        .numeric(.uint32, .varint, decode: { UInt32(truncatingIfNeeded: $0) }, encode: { UInt64($0) })
    }
    public static var fixed32: FieldKind { .numeric(.fixed32, .fourBytes, decode: { $0 }, encode: { $0 }) }
}

extension FieldKind where Value == UInt64 {
    public static var uint64: FieldKind { .numeric(.uint64, .varint, decode: { $0 }, encode: { $0 }) }
    public static var fixed64: FieldKind { .numeric(.fixed64, .eightBytes, decode: { $0 }, encode: { $0 }) }
}

extension FieldKind where Value == Bool {
    /// `bool`: any non-zero varint reads as true.
    public static var bool: FieldKind { .numeric(.bool, .varint, decode: { $0 != 0 }, encode: { $0 ? 1 : 0 }) }
}

extension FieldKind where Value == Float {
    public static var float: FieldKind {
        .numeric(.float, .fourBytes, decode: { Float(bitPattern: $0) }, encode: \.bitPattern)
    }
}

extension FieldKind where Value == Double {
    public static var double: FieldKind {
        .numeric(.double, .eightBytes, decode: { Double(bitPattern: $0) }, encode: \.bitPattern)
    }
}

extension FieldKind where Value == String {
    /// `string`: invalid UTF-8 is rejected, as proto3 requires.
    public static var string: FieldKind {
        .lengthDelimited(
            .string, zero: "", isEmpty: \.isEmpty, read: { reader throws(DecodingError) in try reader.readString() },
            write: { value, key, writer in writer.writeStringField(key, value) })
    }
}

extension FieldKind where Value == [UInt8] {
    public static var bytes: FieldKind {
        .lengthDelimited(
            .bytes, zero: [], isEmpty: \.isEmpty, read: { reader throws(DecodingError) in try reader.readBytes() },
            write: { value, key, writer in writer.writeBytesField(key, value) })
    }
}

extension FieldKind where Value: LocationWireEnum {
    /// An enum: open, so a number the schema does not name is kept; sign-extended like `int32`.
    public static var enumeration: FieldKind {
        .numeric(
            .enumeration(Value.self), .varint, decode: { Value(rawValue: Int32(truncatingIfNeeded: $0)) },
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

// MARK: - Packed runs

extension WireReader {
    /// Reads a packed run of numbers of one wire form and appends each, converted by `convert`: one way for every
    /// form (the hand-written decoders have faster ones for the forms they use).
    mutating func readPacked<Bits, Element>(
        appendingTo array: inout [Element], _ form: NumericWireForm<Bits>, _ convert: (Bits) -> Element
    ) throws(DecodingError) {
        let lengthStart = cursor
        let length = try readLength()
        if let size = form.fixedSize, length % size != 0 {
            throw error(
                .invalidPackedLength, at: lengthStart,
                "packed \(size)-byte values take \(length) bytes, not a multiple of \(size)")
        }
        let outerEnd = pushLimit(length)
        while !isAtEnd {
            try checkCanAppend(to: array)
            array.append(convert(try form.read(&self)))
        }
        popLimit(outerEnd)
    }
}
