/// Exact reading of JSON number text for the proto3 JSON mapping.
///
/// Integer fields must accept `1e3`, `100.0` and `9223372036854775807` exactly and reject `1.5`, so integer
/// values are computed from the decimal digits, never through a `Double`.
enum JSONNumberText {
    enum IntegerValue: Equatable {
        case integer(negative: Bool, magnitude: UInt64)
        /// A fractional value such as 1.5.
        case notAnInteger
        /// An integer whose magnitude does not fit 64 bits.
        case tooLarge
    }

    /// True when `text` follows RFC 8259's number grammar (used for numbers inside JSON strings), optionally
    /// with a leading "+", which C++ and upb accept inside strings.
    static func isValid(_ text: String, allowPlus: Bool = false) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") || (allowPlus && bytes.first == UInt8(ascii: "+")) {
            bytes = bytes.dropFirst()
        }
        func digits(_ slice: inout ArraySlice<UInt8>) -> Int {
            var count = 0
            while let byte = slice.first, byte >= 0x30, byte <= 0x39 {
                slice = slice.dropFirst()
                count += 1
            }
            return count
        }
        let first = bytes.first
        let integerDigits = digits(&bytes)
        guard integerDigits > 0, !(first == UInt8(ascii: "0") && integerDigits > 1) else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits(&bytes) > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits(&bytes) > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// The exact integer value of valid number text.
    static func integerValue(_ text: String) -> IntegerValue {
        var negative = false
        var significand: [UInt8] = []  // decimal digits, integer part then fraction
        var fractionDigits = 0
        var exponent = 0
        var exponentNegative = false
        var state = 0  // 0 integer part, 1 fraction, 2 exponent
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-") where state == 0: negative = true
            case UInt8(ascii: "-"): exponentNegative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): state = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): state = 2
            default:
                let digit = Int(byte) - 0x30
                if state == 2 {
                    // Saturate: any exponent beyond 10^6 already decides the outcome.
                    exponent = min(exponent * 10 + digit, 1_000_000)
                } else {
                    significand.append(UInt8(digit))
                    if state == 1 { fractionDigits += 1 }
                }
            }
        }
        var scale = (exponentNegative ? -exponent : exponent) - fractionDigits
        // Strip leading zeros, then trailing zeros into the scale.
        while significand.first == 0 { significand.removeFirst() }
        if significand.isEmpty { return .integer(negative: negative, magnitude: 0) }
        while significand.last == 0 {
            significand.removeLast()
            scale += 1
        }
        if scale < 0 { return .notAnInteger }
        if significand.count + scale > 20 { return .tooLarge }
        var magnitude: UInt64 = 0
        for digit in significand + Array(repeating: 0, count: scale) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return .tooLarge }
            magnitude = sum
        }
        return .integer(negative: negative, magnitude: magnitude)
    }
}
