import LocationWire
import LocationWireInspection
import LocationWireRandom

/// Mutations that know the wire format: they parse an input into fields (using the schema to find sub-messages,
/// packed fields and strings) and change it in the ways protobuf implementations most often get wrong, then fall
/// back to blind byte edits. Deterministic for a given generator state.
package struct WireMutator {
    /// One field as found in the input: its tag, and either a scalar value's bytes or a payload.
    struct Field {
        var number: UInt32
        var wireType: UInt8
        /// The value's bytes as they were (varint, fixed, or the payload of a length-delimited field).
        var value: [UInt8]
        /// For a known sub-message: its fields, when they parsed.
        var children: [Field]?
        /// The schema of the field, when known and the wire type matches.
        var schema: FieldSchema?
    }

    var random: SeededRandom

    package init(random: SeededRandom) {
        self.random = random
    }

    /// Sub-messages nested deeper than this are kept as opaque payloads (mutations rarely need to reach further).
    static let maxParseDepth = 8

    /// Parses bytes into fields with ``SchemaFieldWalker`` (which decides what is a known field), or nil when
    /// they do not parse, or hold a group: then only byte edits apply. A known sub-message whose payload does
    /// not parse keeps its bytes and gets no children. What parses is what decoders read: a tag or length prefix
    /// longer than 5 bytes does not (the mutator's own parser before the walker took up to 10, so some mutation
    /// streams differ from those of earlier versions from the first such input on).
    static func parse(_ bytes: [UInt8], schema: MessageSchema) -> [Field]? {
        guard !bytes.isEmpty else { return [] }
        return bytes.withUnsafeBytes { buffer in
            var walker = SchemaFieldWalker(buffer)
            return (try? parseFields(&walker, schema: schema, depth: 0)) ?? nil
        }
    }

    /// The fields up to the end of the walker's message; nil when one is a group.
    private static func parseFields(
        _ walker: inout SchemaFieldWalker, schema: MessageSchema, depth: Int
    ) throws(DecodingError) -> [Field]? {
        var fields: [Field] = []
        while let occurrence = try walker.next(in: schema) {
            // Groups are left to byte edits: their fields would need a tree of their own.
            if occurrence.wireType == .startGroup || occurrence.wireType == .endGroup { return nil }
            var field = Field(
                number: occurrence.number, wireType: occurrence.wireType.rawValue,
                value: Array(walker.bytes(of: occurrence)), children: nil, schema: occurrence.field)
            if case .message(let nested)? = occurrence.field?.type, depth < maxParseDepth {
                let level = try walker.enter(occurrence)
                field.children = (try? parseFields(&walker, schema: nested, depth: depth + 1)) ?? nil
                walker.leave(level)
            }
            fields.append(field)
        }
        return fields
    }

    static func encode(_ fields: [Field]) -> [UInt8] {
        var output: [UInt8] = []
        for field in fields {
            output += WireBytes.tag(field.number, field.wireType)
            if field.wireType == WireType.lengthDelimited.rawValue {
                let payload = field.children.map(encode) ?? field.value
                output += WireBytes.varint(UInt64(payload.count))
                output += payload
            } else {
                output += field.value
            }
        }
        return output
    }

    /// A mutated copy of `input`: one to four mutations, structural when the input parses.
    package mutating func mutate(_ input: [UInt8], schema: MessageSchema, donor: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...random.index(4) {
            if random.index(10) < 7, var fields = Self.parse(bytes, schema: schema), !fields.isEmpty {
                structural(&fields, donor: donor, schema: schema)
                bytes = Self.encode(fields)
            } else {
                byteEdit(&bytes)
            }
        }
        return bytes
    }

    private mutating func byteEdit(_ bytes: inout [UInt8]) {
        let position = random.index(bytes.count + 1)
        switch random.index(5) {
        case 0 where position < bytes.count: bytes[position] ^= UInt8(1 << random.index(8))
        case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
        case 2 where position < bytes.count: bytes.remove(at: position)
        case 3: bytes = Array(bytes.prefix(position))  // truncate
        default:
            if position < bytes.count { bytes[position] = [0x00, 0x7F, 0x80, 0xFF][random.index(4)] }
        }
    }

    /// Picks a field, possibly nested, and applies one structural mutation to the list that holds it.
    private mutating func structural(_ fields: inout [Field], donor: [UInt8], schema: MessageSchema) {
        // Descend into a sub-message now and then, so nested fields get mutated too.
        if random.index(3) == 0,
            let nestedIndices = Optional(fields.indices.filter { fields[$0].children?.isEmpty == false }),
            !nestedIndices.isEmpty
        {
            let index = nestedIndices[random.index(nestedIndices.count)]
            var children = fields[index].children!
            if case .message(let nested)? = fields[index].schema?.type {
                structural(&children, donor: donor, schema: nested)
            }
            fields[index].children = children
            return
        }
        let index = random.index(fields.count)
        switch random.index(12) {
        case 0:  // duplicate a field (last value wins, or messages merge)
            fields.insert(fields[index], at: random.index(fields.count + 1))
        case 1:  // reorder
            fields.swapAt(index, random.index(fields.count))
        case 2:  // split a sub-message into two occurrences
            if let children = fields[index].children, children.count > 1 {
                let cut = 1 + random.index(children.count - 1)
                var second = fields[index]
                fields[index].children = Array(children[..<cut])
                second.children = Array(children[cut...])
                fields.insert(second, at: index + 1)
            }
        case 3:  // unpack a packed field into elements
            if let field = fields[index].schema, field.isPacked, fields[index].wireType == 2 {
                fields.replaceSubrange(index...index, with: unpack(fields[index], type: field.type))
            }
        case 4:  // overlong varint value (sometimes beyond 10 bytes)
            if fields[index].wireType == 0 {
                let value = decodeVarint(fields[index].value)
                fields[index].value = WireBytes.varint(value, length: [2, 5, 9, 10, 10, 11][random.index(6)])
            }
        case 5:  // corrupt a length: the payload loses or gains bytes
            if fields[index].wireType == 2 {
                fields[index].children = nil
                if random.index(2) == 0, !fields[index].value.isEmpty {
                    fields[index].value.removeLast(1 + random.index(fields[index].value.count))
                } else {
                    fields[index].value += [UInt8(truncatingIfNeeded: random.next())]
                }
            }
        case 6:  // splice a field from another message
            if let donorFields = Self.parse(donor, schema: schema), !donorFields.isEmpty {
                fields.insert(donorFields[random.index(donorFields.count)], at: random.index(fields.count + 1))
            }
        case 7:  // add an unknown field of any wire type
            fields.insert(unknownField(), at: random.index(fields.count + 1))
        case 8:  // break UTF-8 in a string
            if fields[index].schema?.type == .string {
                let broken: [[UInt8]] = [
                    [0xC3, 0x28], [0xA0], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80],
                ]
                let sequence = broken[random.index(broken.count)]
                fields[index].value.insert(contentsOf: sequence, at: random.index(fields[index].value.count + 1))
            }
        case 9:  // push a value out of its range: 64-bit into 32-bit fields, unknown enums, bool 2
            if fields[index].wireType == 0 {
                let extremes: [UInt64] = [1 << 32, 1 << 63, .max, 2, 0x7FFF_FFFF, 0x8000_0000, 99, 1 << 31 | 5]
                fields[index].value = WireBytes.varint(extremes[random.index(extremes.count)])
            } else if fields[index].wireType == 5 {
                let floats: [UInt32] = [0x7FC0_0001, 0x8000_0000, 0x7F80_0000, 0x0000_0001, 0xFF7F_FFFF]
                fields[index].value = WireBytes.fixed32(floats[random.index(floats.count)])
            }
        case 10:  // send a known field with another wire type
            if fields[index].wireType == 0 {
                fields[index].wireType = 5
                fields[index].value = [1, 2, 3, 4]
            } else {
                fields[index].wireType = 0
                fields[index].children = nil
                fields[index].value = [0x05]
            }
        default:  // drop a field
            fields.remove(at: index)
        }
    }

    private func decodeVarint(_ bytes: [UInt8]) -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() where index < 10 {
            value |= UInt64(byte & 0x7F) &<< UInt64(7 * index)
        }
        return value
    }

    private func unpack(_ field: Field, type: FieldType) -> [Field] {
        var elements: [Field] = []
        var index = 0
        let payload = field.value
        while index < payload.count {
            let start = index
            switch type.wireType {
            case .fixed32: index += 4
            case .fixed64: index += 8
            default:
                while index < payload.count, payload[index] >= 0x80 { index += 1 }
                index += 1
            }
            guard index <= payload.count else { break }
            elements.append(
                Field(
                    number: field.number, wireType: type.wireType.rawValue, value: Array(payload[start..<index]),
                    children: nil, schema: nil))
        }
        return elements
    }

    private mutating func unknownField() -> Field {
        let numbers: [UInt32] = [
            99, 1000, 50_000, 59_999, FieldKey.maxFieldNumber, 24, 100 + UInt32(random.index(100)),
        ]
        let number = numbers[random.index(numbers.count)]
        switch random.index(5) {
        case 0: return Field(number: number, wireType: 0, value: [0x96, 0x01], children: nil, schema: nil)
        case 1: return Field(number: number, wireType: 1, value: [1, 2, 3, 4, 5, 6, 7, 8], children: nil, schema: nil)
        case 2: return Field(number: number, wireType: 5, value: [0xDE, 0xAD, 0xBE, 0xEF], children: nil, schema: nil)
        default: return Field(number: number, wireType: 2, value: [0x08, 0x01, 0xFF], children: nil, schema: nil)
        }
    }
}
