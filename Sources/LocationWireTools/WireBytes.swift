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

    /// The fields of a canonical encoding: (field number, the field's bytes), in order.
    package static func fields(of bytes: [UInt8]) -> [(number: UInt32, bytes: [UInt8])] {
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
