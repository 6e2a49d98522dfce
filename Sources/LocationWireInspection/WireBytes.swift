import LocationWire

/// Builders for raw, possibly non-canonical or invalid, protobuf bytes: what conformance vectors, sample messages
/// and the fuzzers' mutations are made of. Varints are little-endian base-128 groups; a `length` pads a varint
/// with zero continuation groups to that many bytes (overlong, still valid up to 10 bytes).
package enum WireBytes {
    /// A varint, optionally padded to `length` bytes with continuation groups of zero (a valid, overlong form).
    package static func varint(_ value: UInt64, length: Int? = nil) -> [UInt8] {
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

    package static func tag(_ number: UInt32, _ wireType: UInt8, length: Int? = nil) -> [UInt8] {
        varint(UInt64(number) << 3 | UInt64(wireType), length: length)
    }

    package static func fixed32(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    package static func fixed64(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A length-delimited field: tag, length, payload.
    package static func lengthDelimited(_ number: UInt32, _ payload: [UInt8], lengthPadding: Int? = nil) -> [UInt8] {
        tag(number, 2) + varint(UInt64(payload.count), length: lengthPadding) + payload
    }

    package static func varintField(_ number: UInt32, _ value: UInt64, length: Int? = nil) -> [UInt8] {
        tag(number, 0) + varint(value, length: length)
    }

    /// The fields of a canonical encoding of a `schema` message, in order: each field's schema and its bytes, tag
    /// included. Traps on bytes that do not walk (they come from the codec or the sample messages).
    package static func fields(of bytes: [UInt8], schema: MessageSchema) -> [(field: FieldSchema, bytes: [UInt8])] {
        guard !bytes.isEmpty else { return [] }
        return bytes.withUnsafeBytes { buffer in
            var walker = SchemaFieldWalker(buffer)
            var fields: [(FieldSchema, [UInt8])] = []
            do {
                while let occurrence = try walker.next(in: schema) {
                    guard let field = occurrence.field else {
                        preconditionFailure("unknown field in a canonical sample")
                    }
                    fields.append((field, Array(walker.bytes(from: occurrence.tagStart, to: occurrence.end))))
                }
            } catch {
                preconditionFailure("a canonical encoding does not walk: \(error)")
            }
            return fields
        }
    }
}
