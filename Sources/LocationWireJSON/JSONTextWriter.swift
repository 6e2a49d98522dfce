#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Formatting of JSON output text, matching Google's C++ implementation character for character.
enum JSONTextWriter {
    /// Appends `value` as a JSON string literal. Escapes what protobuf's C++ JSON printer escapes: `"` and `\`,
    /// control characters (`\b \t \n \f \r` by name, the rest as `\u00XX`), `<` and `>` (so JSON embeds safely in
    /// HTML), and the invisible formatting code points C++ escapes; everything else is written as UTF-8.
    static func appendString(_ value: String, to output: inout String) {
        output.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: output.append("\\\"")
            case 0x5C: output.append("\\\\")
            case 0x08: output.append("\\b")
            case 0x09: output.append("\\t")
            case 0x0A: output.append("\\n")
            case 0x0C: output.append("\\f")
            case 0x0D: output.append("\\r")
            default:
                if needsUnicodeEscape(scalar.value) {
                    appendUnicodeEscape(scalar.value, to: &output)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }

    /// The code points protobuf 3.21's C++ printer writes as `\u` escapes, measured by printing every code
    /// point through it: C0 and C1 controls, DEL, `<`, `>`, and Unicode format characters (soft hyphen,
    /// Arabic and Syriac marks, zero-width and bidirectional controls, BOM, interlinear annotation, musical
    /// formatting, language tags).
    private static func needsUnicodeEscape(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x3C, 0x3E, 0x7F...0x9F, 0xAD, 0x600...0x603, 0x6DD, 0x70F, 0x17B4...0x17B5,
            0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x206A...0x206F, 0xFEFF, 0xFFF9...0xFFFB,
            0x1D173...0x1D17A, 0xE0001, 0xE0020...0xE007F:
            return true
        default:
            return false
        }
    }

    private static func appendUnicodeEscape(_ value: UInt32, to output: inout String) {
        if value > 0xFFFF {
            let offset = value - 0x10000
            appendUnicodeEscape(0xD800 + (offset >> 10), to: &output)
            appendUnicodeEscape(0xDC00 + (offset & 0x3FF), to: &output)
            return
        }
        let hex = String(value, radix: 16)
        output.append("\\u")
        output.append(String(repeating: "0", count: 4 - hex.count))
        output.append(hex)
    }

    /// A float as C++ prints it: "NaN", "Infinity" and "-Infinity" as strings; otherwise C's `%.6g`, or `%.9g`
    /// when six significant digits do not read back as the same float (protobuf's SimpleFtoa). Checked against
    /// SimpleFtoa itself on millions of bit patterns (Tests/peers/float_format_check.cc).
    static func appendFloat(_ value: Float, to output: inout String) {
        if value.isNaN {
            output.append("\"NaN\"")
        } else if value.isInfinite {
            output.append(value < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        } else {
            // C++ reads the short form back with strtof, which reports ERANGE for every subnormal (its decimal
            // form is never exact), and then falls back to the long form.
            let short = formatG(Double(value), precision: 6)
            let roundTrips = value.isNormal || value == 0 ? Float(short) == value : false
            output.append(roundTrips ? short : formatG(Double(value), precision: 9))
        }
    }

    /// A double as C++ prints it: as ``appendFloat(_:to:)`` with 15 and 17 significant digits.
    static func appendDouble(_ value: Double, to output: inout String) {
        if value.isNaN {
            output.append("\"NaN\"")
        } else if value.isInfinite {
            output.append(value < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        } else {
            let short = formatG(value, precision: 15)
            let roundTrips = value.isNormal || value == 0 ? Double(short) == value : false
            output.append(roundTrips ? short : formatG(value, precision: 17))
        }
    }

    /// C's `%.<precision>g`.
    private static func formatG(_ value: Double, precision: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 48)
        let length = withVaList([precision, value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 48, "%.*g", arguments) }
        }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 with padding, as proto3 JSON prints `bytes`.
    static func base64(_ bytes: [UInt8]) -> String {
        var result: [UInt8] = []
        result.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { result.append(base64Alphabet[Int(chunk >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var chunk = UInt32(bytes[index]) << 16
            if rest == 2 { chunk |= UInt32(bytes[index + 1]) << 8 }
            result.append(base64Alphabet[Int(chunk >> 18 & 63)])
            result.append(base64Alphabet[Int(chunk >> 12 & 63)])
            result.append(rest == 2 ? base64Alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            result.append(UInt8(ascii: "="))
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Decodes base64 in the standard or the URL-safe alphabet, with or without padding, as C++ and upb
    /// accept it. Returns nil for any other character, misplaced padding or an impossible length.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var sextets: [UInt8] = []
        var padding = 0
        for byte in text.utf8 {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            default: return nil
            }
            guard padding == 0 else { return nil }  // data after padding
            sextets.append(value)
        }
        if padding > 0 {
            guard padding <= 2, (sextets.count + padding) % 4 == 0 else { return nil }
        }
        guard sextets.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sextets.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for sextet in sextets {
            accumulator = accumulator << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return bytes
    }
}
