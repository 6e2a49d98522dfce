/// The schema as `protoc` compiles it, read from a serialized `FileDescriptorSet` by a protobuf reader written
/// here. The tests that judge the codec against `proto/` must not rely on the codec's own reader or schema
/// tables, which are what they judge.
package struct DescriptorSet {
    package struct Field {
        package var name = ""
        package var number: UInt32 = 0
        /// FieldDescriptorProto.Label: 1 optional, 2 required, 3 repeated.
        package var label = 0
        /// FieldDescriptorProto.Type: 1 double ... 18 sint64.
        package var type = 0
        /// For messages and enums, the full name with a leading dot.
        package var typeName = ""
        package var oneofIndex: Int?
        package var jsonName = ""

        package var isRepeated: Bool { label == 3 }
        package var isMessage: Bool { type == 11 }
        /// protoc's spelling of the type: a scalar's keyword, or an enum's or message's full name.
        package var protoTypeName: String {
            type == 11 || type == 14 ? String(typeName.drop { $0 == "." }) : Self.scalarNames[type, default: "?"]
        }
        /// The wire type of one element as protobuf writes it (repeated numeric scalars packed, as proto3 does).
        package var wireType: UInt8 {
            let unpacked = Self.wireTypes[type, default: 2]
            return isRepeated && unpacked != 2 ? 2 : unpacked
        }

        package static let scalarNames = [
            1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32", 8: "bool",
            9: "string", 12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64",
        ]
        package static let wireTypes: [Int: UInt8] = [
            1: 1, 2: 5, 3: 0, 4: 0, 5: 0, 6: 1, 7: 5, 8: 0, 9: 2, 10: 3, 11: 2, 12: 2, 13: 0, 14: 0, 15: 5, 16: 1,
            17: 0, 18: 0,
        ]
    }

    package struct Message {
        package var fullName = ""
        package var fields: [Field] = []
        package var oneofNames: [String] = []
        /// `reserved` numbers (both ends included) and names.
        package var reservedNumbers: [ClosedRange<Int64>] = []
        package var reservedNames: [String] = []

        package func field(number: UInt32) -> Field? { fields.first { $0.number == number } }
    }

    package struct Enum {
        package var fullName = ""
        package var values: [(name: String, number: Int32)] = []
        /// `reserved` numbers (both ends included) and names.
        package var reservedNumbers: [ClosedRange<Int64>] = []
        package var reservedNames: [String] = []
    }

    /// Every message type, nested ones included, in the order of the descriptor set.
    package private(set) var messages: [Message] = []
    package private(set) var enums: [Enum] = []

    package func message(named fullName: String) -> Message? { messages.first { $0.fullName == fullName } }

    /// Reads FileDescriptorSet.file (1) -> FileDescriptorProto: package (2), message_type (4), enum_type (5).
    package init(serialized: [UInt8]) throws {
        for file in try WireFields.parse(serialized[...]) where file.number == 1 {
            let fields = try WireFields.parse(file.bytes())
            let package = WireFields.string(2, in: fields)
            for field in fields {
                switch field.number {
                case 4: try addMessage(field.bytes(), scope: package)
                case 5: try addEnum(field.bytes(), scope: package)
                default: break
                }
            }
        }
    }

    /// DescriptorProto: name (1), field (2), nested_type (3), enum_type (4), oneof_decl (8, OneofDescriptorProto
    /// with its name in 1), reserved_range (9: start 1, end 2 excluded), reserved_name (10).
    private mutating func addMessage(_ bytes: ArraySlice<UInt8>, scope: String) throws {
        let parts = try WireFields.parse(bytes)
        var message = Message()
        message.fullName = Self.join(scope, WireFields.string(1, in: parts))
        for part in parts {
            switch part.number {
            case 2: message.fields.append(try Self.field(part.bytes()))
            case 3: try addMessage(part.bytes(), scope: message.fullName)
            case 4: try addEnum(part.bytes(), scope: message.fullName)
            case 8: message.oneofNames.append(WireFields.string(1, in: try WireFields.parse(part.bytes())))
            case 9: message.reservedNumbers.append(try Self.range(part.bytes(), endIncluded: false))
            case 10: message.reservedNames.append(part.string())
            default: break
            }
        }
        messages.append(message)
    }

    /// FieldDescriptorProto: name (1), number (3), label (4), type (5), type_name (6), oneof_index (9),
    /// json_name (10).
    private static func field(_ bytes: ArraySlice<UInt8>) throws -> Field {
        var field = Field()
        for part in try WireFields.parse(bytes) {
            switch part.number {
            case 1: field.name = part.string()
            case 3: field.number = UInt32(truncatingIfNeeded: part.varint)
            case 4: field.label = Int(part.varint)
            case 5: field.type = Int(part.varint)
            case 6: field.typeName = part.string()
            case 9: field.oneofIndex = Int(part.varint)
            case 10: field.jsonName = part.string()
            default: break
            }
        }
        return field
    }

    /// EnumDescriptorProto: name (1), value (2, EnumValueDescriptorProto: name 1, number 2), reserved_range (4:
    /// start 1, end 2 included), reserved_name (5).
    private mutating func addEnum(_ bytes: ArraySlice<UInt8>, scope: String) throws {
        var value = Enum()
        for part in try WireFields.parse(bytes) {
            switch part.number {
            case 1: value.fullName = Self.join(scope, part.string())
            case 2:
                let entry = try WireFields.parse(part.bytes())
                let number = Int32(truncatingIfNeeded: entry.last(where: { $0.number == 2 })?.varint ?? 0)
                value.values.append((WireFields.string(1, in: entry), number))
            case 4: value.reservedNumbers.append(try Self.range(part.bytes(), endIncluded: true))
            case 5: value.reservedNames.append(part.string())
            default: break
            }
        }
        enums.append(value)
    }

    private static func join(_ scope: String, _ name: String) -> String { scope.isEmpty ? name : "\(scope).\(name)" }

    /// A reserved range (start 1, end 2; int32 varints, so negative enum numbers arrive sign-extended).
    private static func range(_ bytes: ArraySlice<UInt8>, endIncluded: Bool) throws -> ClosedRange<Int64> {
        let parts = try WireFields.parse(bytes)
        func bound(_ number: UInt32) -> Int64 {
            Int64(Int32(truncatingIfNeeded: parts.last(where: { $0.number == number })?.varint ?? 0))
        }
        let start = bound(1)
        let end = endIncluded ? bound(2) : bound(2) - 1
        return start...max(start, end)
    }
}

/// The top-level fields of protobuf binary, as the wire has them; enough for descriptors and the goldens (no
/// groups: neither uses them).
package enum WireFields {
    package struct Field {
        package let number: UInt32
        package let wireType: UInt8
        /// The value of a varint field, or the bits of a fixed-width one.
        package let varint: UInt64
        /// The whole field as encoded (tag included), for comparisons.
        package let encoded: ArraySlice<UInt8>
        /// The payload of a length-delimited field.
        package let payload: ArraySlice<UInt8>

        package func bytes() -> ArraySlice<UInt8> { payload }
        package func string() -> String { String(decoding: payload, as: UTF8.self) }
    }

    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The last occurrence of a string field (protobuf's rule for a repeated singular field), "" when absent.
    package static func string(_ number: UInt32, in fields: [Field]) -> String {
        fields.last(where: { $0.number == number })?.string() ?? ""
    }

    package static func parse(_ bytes: ArraySlice<UInt8>) throws -> [Field] {
        var fields: [Field] = []
        var position = bytes.startIndex
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: UInt64(0), to: 64, by: 7) {
                guard position < bytes.endIndex else { throw Malformed(description: "truncated varint") }
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
            }
            throw Malformed(description: "varint longer than 10 bytes")
        }
        func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, bytes.endIndex - position >= count else {
                throw Malformed(description: "length \(count) beyond the end of the message")
            }
            defer { position += count }
            return bytes[position..<position + count]
        }
        func littleEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
            slice.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        while position < bytes.endIndex {
            let start = position
            let key = try varint()
            let wireType = UInt8(key & 7)
            var value: UInt64 = 0
            var payload = bytes[position..<position]
            switch wireType {
            case 0: value = try varint()
            case 1: value = littleEndian(try take(8))
            case 5: value = littleEndian(try take(4))
            case 2: payload = try take(Int(exactly: try varint()) ?? -1)
            default: throw Malformed(description: "wire type \(wireType) at byte \(start - bytes.startIndex)")
            }
            fields.append(
                Field(
                    number: UInt32(truncatingIfNeeded: key >> 3), wireType: wireType, varint: value,
                    encoded: bytes[start..<position], payload: payload))
        }
        return fields
    }
}
