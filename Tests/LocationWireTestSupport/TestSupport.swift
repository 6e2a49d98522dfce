import LocationWire
import LocationWireRandom
import Testing

/// Bytes from a hex string; spaces are ignored.
package func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd number of hex digits")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

package func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// The error decoding `input` as `Message` throws, or nil when it decodes.
package func decodingError<Message: LocationWireMessage>(
    _ type: Message.Type, _ input: [UInt8], limits: DecodingLimits = .default
)
    -> DecodingError?
{
    do {
        _ = try Message(serializedBytes: input, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// A seed of its own for every name, the same on every run and machine: 64-bit FNV-1a over the UTF-8 bytes. Not
/// `hashValue`, which Swift randomizes per process (a failure could not be replayed), and not the name's length,
/// which gave Region and Circle the same random stream.
package func stableSeed(_ name: String) -> UInt64 {
    name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
}

/// Random messages built from the schema tables alone, as canonical protobuf binary: fields in number order,
/// repeated scalars packed, implicit-presence zeros left out. Decoding such bytes and re-encoding them must give
/// the same bytes back, which checks every hand-written decoder and encoder against the schema.
package struct RandomCanonicalMessages {
    package var generator: SeededRandom

    package init(seed: UInt64) {
        generator = SeededRandom(seed: seed)
    }

    package mutating func message(_ schema: MessageSchema, depth: Int = 0) -> [UInt8] {
        var output: [UInt8] = []
        for field in schema.fields where Bool.random(using: &generator) {
            switch field.label {
            case .repeated:
                let count = Int.random(in: 0...4, using: &generator)
                if count == 0 { continue }
                if field.isPacked {
                    var payload: [UInt8] = []
                    for _ in 0..<count { payload += value(field.type, depth: depth, allowZero: true) }
                    appendVarint(UInt64(field.number) << 3 | 2, to: &output)
                    appendVarint(UInt64(payload.count), to: &output)
                    output += payload
                } else {
                    for _ in 0..<count {
                        appendVarint(UInt64(field.canonicalKey), to: &output)
                        output += value(field.type, depth: depth, allowZero: true)
                    }
                }
            case .optional, .singular:
                let allowZero = field.hasPresence
                if case .message = field.type, depth > 3 { continue }
                appendVarint(UInt64(field.canonicalKey), to: &output)
                output += value(field.type, depth: depth, allowZero: allowZero)
            }
        }
        return output
    }

    /// The encoding of one value (for length-delimited types: length and payload).
    private mutating func value(_ type: FieldType, depth: Int, allowZero: Bool) -> [UInt8] {
        var output: [UInt8] = []
        func nonZero(_ make: () -> UInt64) -> UInt64 {
            var value = make()
            while value == 0 && !allowZero { value = make() }
            return value
        }
        switch type {
        case .int32, .enumeration:
            let value = Int32(truncatingIfNeeded: nonZero { interestingInteger(bits: 32) })
            appendVarint(UInt64(bitPattern: Int64(value)), to: &output)
        case .uint32: appendVarint(nonZero { interestingInteger(bits: 32) } & 0xFFFF_FFFF, to: &output)
        case .sint32:
            let value = Int32(truncatingIfNeeded: nonZero { interestingInteger(bits: 32) })
            appendVarint(UInt64(ZigZag.encode(value)), to: &output)
        case .int64, .uint64: appendVarint(nonZero { interestingInteger(bits: 64) }, to: &output)
        case .sint64:
            appendVarint(ZigZag.encode(Int64(bitPattern: nonZero { interestingInteger(bits: 64) })), to: &output)
        case .bool: output.append(allowZero ? UInt8.random(in: 0...1, using: &generator) : 1)
        case .fixed32, .sfixed32, .float:
            var bits = UInt32(truncatingIfNeeded: nonZero { interestingInteger(bits: 32) })
            if case .float = type, Bool.random(using: &generator) {
                bits =
                    [Float.nan, -0.0, .infinity, -.infinity, 1013.25, .leastNonzeroMagnitude].randomElement(
                        using: &generator)!.bitPattern
            }
            withUnsafeBytes(of: bits.littleEndian) { output += $0 }
        case .fixed64, .sfixed64, .double:
            withUnsafeBytes(of: nonZero { interestingInteger(bits: 64) }.littleEndian) { output += $0 }
        case .string:
            let pool = [
                "", "a", "shop:1234", "é", "😀", "<>&\"\\", "\u{2028}", "朝阳区", String(repeating: "x", count: 200),
            ]
            var text = pool.randomElement(using: &generator)!
            while text.isEmpty && !allowZero { text = pool.randomElement(using: &generator)! }
            appendVarint(UInt64(text.utf8.count), to: &output)
            output += Array(text.utf8)
        case .bytes:
            let count = Int.random(in: allowZero ? 0...5 : 1...5, using: &generator)
            appendVarint(UInt64(count), to: &output)
            for _ in 0..<count { output.append(UInt8.random(in: 0...255, using: &generator)) }
        case .message(let schema):
            let payload = message(schema, depth: depth + 1)
            appendVarint(UInt64(payload.count), to: &output)
            output += payload
        }
        return output
    }

    private mutating func interestingInteger(bits: Int) -> UInt64 {
        let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return 0
        case 1: return 1
        case 2: return mask  // -1 or the maximum
        case 3: return 1 << UInt64(bits - 1)  // the minimum of the signed type
        case 4: return UInt64.random(in: 0...300, using: &generator)
        default: return UInt64.random(in: 0...UInt64.max, using: &generator) & mask
        }
    }
}

package func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
        output.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
    }
    output.append(UInt8(value))
}

/// Decodes `bytes` as the type named by `schema` and re-encodes it.
package func roundTrip(_ schema: MessageSchema, _ bytes: [UInt8]) throws -> [UInt8] {
    let type = MessageRegistry.type(named: schema.fullName)!
    return try reencode(type, bytes)
}

private func reencode<Message: LocationWireMessage>(_ type: Message.Type, _ bytes: [UInt8]) throws -> [UInt8] {
    try Message(serializedBytes: bytes).serializedBytes()
}
