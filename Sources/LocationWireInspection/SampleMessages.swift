import LocationWire

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
    package static func only(_ field: FieldSchema, in schema: MessageSchema) -> [UInt8] {
        fieldBytes(field, in: schema, depth: 0)
    }

    private static func fieldBytes(_ field: FieldSchema, in schema: MessageSchema, depth: Int) -> [UInt8] {
        let elements = field.label == .repeated ? [0, 1] : [0]
        let encoded = elements.map { value(field, in: schema, element: $0, depth: depth) }
        if field.isPacked {
            let payload = encoded.flatMap { $0 }
            return WireBytes.lengthDelimited(field.number, payload)
        }
        return encoded.flatMap { WireBytes.tag(field.number, field.type.wireType.rawValue) + $0 }
    }

    /// One value's encoding (with its length for length-delimited types).
    package static func value(_ field: FieldSchema, in schema: MessageSchema, element: Int, depth: Int) -> [UInt8] {
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

    private static func sampleString(_ fieldName: String, element: Int) -> String {
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
