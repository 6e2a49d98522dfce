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
    /// HTML), and the invisible formatting code points C++ escapes; everything else is copied as UTF-8, in runs.
    static func appendString(_ value: String, to output: inout JSONOutput) {
        var value = value
        value.withUTF8 { appendString(validUTF8: $0, to: &output) }
    }

    /// Appends `bytes` as a JSON string literal, as ``appendString(_:to:)`` does, when they are valid UTF-8;
    /// returns false (appending nothing) when they are not. ASCII, the common case, is escaped straight from the
    /// bytes, without making a String.
    static func appendString(utf8 bytes: UnsafeRawBufferPointer, to output: inout JSONOutput) -> Bool {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        if !utf8.contains(where: { $0 >= 0x80 }) {
            appendString(validUTF8: utf8, to: &output)
            return true
        }
        guard let string = String(validating: utf8, as: UTF8.self) else { return false }
        appendString(string, to: &output)
        return true
    }

    private static func appendString(validUTF8 utf8: UnsafeBufferPointer<UInt8>, to output: inout JSONOutput) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        func flush(upTo end: Int) {
            if end > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<end])) }
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C, byte != 0x3C, byte != 0x3E {
                index += 1
                continue
            }
            // Decode the scalar starting here (the string is valid UTF-8).
            var scalar = UInt32(byte)
            var length = 1
            if byte >= 0xF0 {
                scalar =
                    UInt32(byte & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
                    | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
                length = 4
            } else if byte >= 0xE0 {
                scalar =
                    UInt32(byte & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6
                    | UInt32(utf8[index + 2] & 0x3F)
                length = 3
            } else if byte >= 0xC0 {
                scalar = UInt32(byte & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
                length = 2
            }
            let escape: StaticString?
            switch scalar {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x08: escape = "\\b"
            case 0x09: escape = "\\t"
            case 0x0A: escape = "\\n"
            case 0x0C: escape = "\\f"
            case 0x0D: escape = "\\r"
            default: escape = nil
            }
            if let escape {
                flush(upTo: index)
                output.append(contentsOf: escape)
                runStart = index + length
            } else if needsUnicodeEscape(scalar) {
                flush(upTo: index)
                appendUnicodeEscape(scalar, to: &output)
                runStart = index + length
            }
            index += length
        }
        flush(upTo: utf8.count)
        output.append(UInt8(ascii: "\""))
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

    private static func appendUnicodeEscape(_ value: UInt32, to output: inout JSONOutput) {
        if value > 0xFFFF {
            let offset = value - 0x10000
            appendUnicodeEscape(0xD800 + (offset >> 10), to: &output)
            appendUnicodeEscape(0xDC00 + (offset & 0x3FF), to: &output)
            return
        }
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        output.append(contentsOf: "\\u")
        for shift in [12, 8, 4, 0] { output.append(digits[Int(value >> UInt32(shift) & 0xF)]) }
    }

    /// A float as C++ prints it: "NaN", "Infinity" and "-Infinity" as strings; otherwise C's `%.6g`, or `%.9g`
    /// when six significant digits do not read back as the same float (protobuf's SimpleFtoa). Checked against
    /// SimpleFtoa itself on millions of bit patterns (Tests/peers/float_format_check.cc).
    static func appendFloat(_ value: Float, to output: inout JSONOutput) {
        // C++ reads the short form back with strtof, which reports ERANGE for every subnormal (its decimal form is
        // never exact), and then falls back to the long form.
        appendFloatingPoint(Double(value), digits: (6, 9), to: &output) { text in
            value.isNormal || value == 0 ? strtof(text, nil) == value : false
        }
    }

    /// A double as C++ prints it: as ``appendFloat(_:to:)`` with 15 and 17 significant digits.
    static func appendDouble(_ value: Double, to output: inout JSONOutput) {
        appendFloatingPoint(value, digits: (15, 17), to: &output) { text in
            value.isNormal || value == 0 ? strtod(text, nil) == value : false
        }
    }

    /// NaN and the infinities as strings; otherwise `value` with `digits.short` significant digits when
    /// `readsBack` accepts that text, and with `digits.long` when it does not. (A float widened to a double
    /// keeps its NaN, sign and infinity, so floats come here as doubles.)
    private static func appendFloatingPoint(
        _ value: Double, digits: (short: Int32, long: Int32), to output: inout JSONOutput,
        readsBack: (UnsafePointer<CChar>) -> Bool
    ) {
        if value.isNaN {
            output.append(contentsOf: "\"NaN\"")
        } else if value.isInfinite {
            output.append(contentsOf: value < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        } else if !appendFormatG(value, precision: digits.short, to: &output, accept: readsBack) {
            _ = appendFormatG(value, precision: digits.long, to: &output) { _ in true }
        }
    }

    /// Formats `value` with C's `%.<precision>g` in a stack buffer and appends it when `accept` approves the
    /// NUL-terminated text. Returns whether it did.
    private static func appendFormatG(
        _ value: Double, precision: Int32, to output: inout JSONOutput, accept: (UnsafePointer<CChar>) -> Bool
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer in
            let length = withVaList([precision, value]) { arguments in
                vsnprintf(buffer.baseAddress, 48, "%.*g", arguments)
            }
            guard accept(buffer.baseAddress!) else { return false }
            buffer.withMemoryRebound(to: UInt8.self) {
                output.append(contentsOf: UnsafeBufferPointer(start: $0.baseAddress, count: Int(length)))
            }
            return true
        }
    }

    /// Appends the decimal digits of `value`, as `String(value)` spells them, without making a String.
    static func appendDecimal<Value: BinaryInteger>(_ value: Value, to output: inout JSONOutput) {
        var magnitude = UInt64(value.magnitude)
        if value < 0 { output.append(UInt8(ascii: "-")) }
        guard magnitude >= 10 else {
            output.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
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
    static func decodeBase64(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var sextets: [UInt8] = []
        var padding = 0
        for byte in text {
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
