import LocationWire

/// Builders for raw, possibly non-canonical or invalid, protobuf bytes: what vectors are made of.
enum WireBytes {
    /// A varint, optionally padded to `length` bytes with continuation groups of zero (a valid, overlong form).
    static func varint(_ value: UInt64, length: Int? = nil) -> [UInt8] {
        var output: [UInt8] = []
        var rest = value
        repeat {
            output.append(UInt8(truncatingIfNeeded: rest & 0x7F))
            rest >>= 7
        } while rest != 0
        while let length, output.count < length { output.append(0) }
        for index in 0..<(output.count - 1) { output[index] |= 0x80 }
        return output
    }

    static func tag(_ number: UInt32, _ wireType: UInt8, length: Int? = nil) -> [UInt8] {
        varint(UInt64(number) << 3 | UInt64(wireType), length: length)
    }

    static func fixed32(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    static func fixed64(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A length-delimited field: tag, length, payload.
    static func lengthDelimited(_ number: UInt32, _ payload: [UInt8], lengthPadding: Int? = nil) -> [UInt8] {
        tag(number, 2) + varint(UInt64(payload.count), length: lengthPadding) + payload
    }

    static func varintField(_ number: UInt32, _ value: UInt64, length: Int? = nil) -> [UInt8] {
        tag(number, 0) + varint(value, length: length)
    }

    /// The fields of a canonical encoding: (field number, the field's bytes), in order.
    static func fields(of bytes: [UInt8]) -> [(number: UInt32, bytes: [UInt8])] {
        var fields: [(UInt32, [UInt8])] = []
        var index = 0
        while index < bytes.count {
            let start = index
            var key: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[index]
                index += 1
                key |= UInt64(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            switch key & 7 {
            case 0:
                while bytes[index] >= 0x80 { index += 1 }
                index += 1
            case 1: index += 8
            case 5: index += 4
            case 2:
                var length: UInt64 = 0
                var lengthShift: UInt64 = 0
                while true {
                    let byte = bytes[index]
                    index += 1
                    length |= UInt64(byte & 0x7F) << lengthShift
                    lengthShift += 7
                    if byte < 0x80 { break }
                }
                index += Int(length)
            default:
                preconditionFailure("groups do not occur in canonical encodings")
            }
            fields.append((UInt32(key >> 3), Array(bytes[start..<index])))
        }
        return fields
    }
}

/// Deterministic sample messages built from the schema: every field set to a distinctive value, so that a
/// vector built on a sample touches every field. Values respect field types, not the spec's rules (the wire
/// families test encoding, the semantic family tests rules).
package enum SampleMessages {
    /// Canonical bytes of a message of `schema` with every field set; repeated fields hold two elements.
    package static func full(_ schema: MessageSchema, depth: Int = 0) -> [UInt8] {
        var output: [UInt8] = []
        for field in schema.fields {
            output += fieldBytes(field, in: schema, depth: depth)
        }
        return output
    }

    /// Canonical bytes of a message with only `field` set.
    static func only(_ field: FieldSchema, in schema: MessageSchema) -> [UInt8] {
        fieldBytes(field, in: schema, depth: 0)
    }

    static func fieldBytes(_ field: FieldSchema, in schema: MessageSchema, depth: Int) -> [UInt8] {
        let elements = field.label == .repeated ? [0, 1] : [0]
        let encoded = elements.map { value(field, in: schema, element: $0, depth: depth) }
        if field.isPacked {
            let payload = encoded.flatMap { $0 }
            return WireBytes.lengthDelimited(field.number, payload)
        }
        return encoded.flatMap { WireBytes.tag(field.number, field.type.wireType.rawValue) + $0 }
    }

    /// One value's encoding (with its length for length-delimited types).
    static func value(_ field: FieldSchema, in schema: MessageSchema, element: Int, depth: Int) -> [UInt8] {
        let seed = UInt64(field.number) * 7 + UInt64(element)
        switch field.type {
        case .int64:
            let value: Int64 = field.name.hasSuffix("_ms") ? 1_767_261_600_123 + Int64(seed) : -(Int64(seed) + 1)
            return WireBytes.varint(UInt64(bitPattern: value))
        case .uint64: return WireBytes.varint(seed + 41)
        case .int32: return WireBytes.varint(UInt64(bitPattern: Int64(-Int32(seed) - 5)))
        case .sint32: return WireBytes.varint(UInt64(ZigZag.encode(-1234 - Int32(seed))))
        case .sint64: return WireBytes.varint(ZigZag.encode(-1_700_000_000_000 - Int64(seed)))
        case .uint32: return WireBytes.varint(470 + seed)
        case .fixed32: return WireBytes.fixed32(0xDEAD_0000 + UInt32(seed))
        case .fixed64: return WireBytes.fixed64(0x0123_4567_89AB_CDEF &+ seed)
        case .sfixed32: return WireBytes.fixed32(UInt32(bitPattern: -337_000_000 + Int32(seed) * 1000))
        case .sfixed64: return WireBytes.fixed64(UInt64(bitPattern: -5 - Int64(seed)))
        case .bool: return [1]
        case .float: return WireBytes.fixed32((1013.25 + Float(element)).bitPattern)
        case .double: return WireBytes.fixed64((2.5 + Double(element)).bitPattern)
        case .enumeration(let enumSchema):
            let named = enumSchema.values.filter { $0.number != 0 }
            let number = named[Int(seed) % max(named.count, 1)].number
            return WireBytes.varint(UInt64(bitPattern: Int64(number)))
        case .string:
            let text = sampleString(field.name, element: element)
            return WireBytes.varint(UInt64(text.utf8.count)) + Array(text.utf8)
        case .bytes:
            let bytes: [UInt8] = [0x01, 0xFF, UInt8(truncatingIfNeeded: seed)]
            return WireBytes.varint(UInt64(bytes.count)) + bytes
        case .message(let nested):
            let payload = depth >= 3 ? [] : full(nested, depth: depth + 1)
            return WireBytes.varint(UInt64(payload.count)) + payload
        }
    }

    static func sampleString(_ fieldName: String, element: Int) -> String {
        if fieldName.contains("region_id") || fieldName == "id" || fieldName == "parent_id" {
            return ["shop:1234", "city:paris"][element % 2]
        }
        switch fieldName {
        case "device_id": return "ios-7F3A"
        case "os_version": return "17.4.1"
        case "app_version": return "2.3"
        case "name": return "Café <Ljubljana> & 朝阳区"
        default: return ["sample \(fieldName)", "é😀"][element % 2]
        }
    }
}
