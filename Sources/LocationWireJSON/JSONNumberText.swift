/// Exact reading of JSON number text for the proto3 JSON mapping, straight from the input bytes.
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
    static func isValid(_ text: UnsafeBufferPointer<UInt8>, allowPlus: Bool = false) -> Bool {
        var index = 0
        func at(_ index: Int) -> UInt8? { index < text.count ? text[index] : nil }
        func digits() -> Int {
            let start = index
            while let byte = at(index), byte >= 0x30, byte <= 0x39 { index += 1 }
            return index - start
        }
        if at(0) == UInt8(ascii: "-") || (allowPlus && at(0) == UInt8(ascii: "+")) { index = 1 }
        let first = at(index)
        let integerDigits = digits()
        guard integerDigits > 0, !(first == UInt8(ascii: "0") && integerDigits > 1) else { return false }
        if at(index) == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if at(index) == UInt8(ascii: "e") || at(index) == UInt8(ascii: "E") {
            index += 1
            if at(index) == UInt8(ascii: "+") || at(index) == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == text.count
    }

    /// The parts of valid number text (with an optional leading "+"): its sign, where its decimal digits are
    /// (integer part, then fraction), how many of them follow the point, and its exponent, saturated at ±10^6
    /// (any exponent beyond that already decides every outcome).
    private struct Parts {
        var negative = false
        var digitsStart = 0
        var integerDigits = 0
        var fractionDigits = 0
        var exponent = 0

        init(_ text: UnsafeBufferPointer<UInt8>) {
            var index = 0
            if text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") {
                negative = text[0] == UInt8(ascii: "-")
                index = 1
            }
            digitsStart = index
            while index < text.count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
            integerDigits = index - digitsStart
            if index < text.count, text[index] == UInt8(ascii: ".") {
                index += 1
                while index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
                    index += 1
                    fractionDigits += 1
                }
            }
            guard index < text.count else { return }
            index += 1  // e or E
            var exponentNegative = false
            if text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < text.count {
                exponent = min(exponent * 10 + Int(text[index] - 0x30), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        /// The `index`th decimal digit, counting the integer part's and then the fraction's.
        func digit(_ index: Int, in text: UnsafeBufferPointer<UInt8>) -> UInt8 {
            text[digitsStart + index + (index < integerDigits ? 0 : 1)] - 0x30
        }

        var digitCount: Int { integerDigits + fractionDigits }
    }

    /// The exact integer value of valid number text, which may start with "+".
    static func integerValue(_ text: UnsafeBufferPointer<UInt8>) -> IntegerValue {
        // Most integers are plain digits (no fraction, no exponent); up to 18 of them always fit, so read them
        // directly.
        let signLength = text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") ? 1 : 0
        if text.count - signLength <= 18 {
            var magnitude: UInt64 = 0
            var index = signLength
            while index < text.count {
                let digit = text[index] &- 0x30
                guard digit <= 9 else { break }
                magnitude = magnitude * 10 + UInt64(digit)
                index += 1
            }
            if index == text.count { return .integer(negative: text[0] == UInt8(ascii: "-"), magnitude: magnitude) }
        }
        let parts = Parts(text)
        // The significant digits: leading zeros dropped, trailing zeros moved into the scale.
        var first = 0
        while first < parts.digitCount, parts.digit(first, in: text) == 0 { first += 1 }
        if first == parts.digitCount { return .integer(negative: parts.negative, magnitude: 0) }
        var end = parts.digitCount
        while parts.digit(end - 1, in: text) == 0 { end -= 1 }
        let scale = parts.exponent - parts.fractionDigits + (parts.digitCount - end)
        if scale < 0 { return .notAnInteger }
        if end - first + scale > 20 { return .tooLarge }
        var magnitude: UInt64 = 0
        for index in 0..<(end - first + scale) {
            let digit = first + index < end ? UInt64(parts.digit(first + index, in: text)) : 0
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return .tooLarge }
            magnitude = sum
        }
        return .integer(negative: parts.negative, magnitude: magnitude)
    }

    /// Powers of ten that a double holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The double nearest to valid number text (which may start with "+"), as `Double(String)` reads it; a value
    /// beyond the range of a double is infinite, the token -0 is -0.0.
    ///
    /// Most numbers take the exact path (Clinger's): when the significant digits form an integer below 2^53 and
    /// the decimal exponent is within ±22, both the integer and the power of ten are exact doubles, so one
    /// multiplication or division, correctly rounded by IEEE 754, gives the nearest double. Anything else goes to
    /// the standard library's complete conversion.
    static func doubleValue(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        let parts = Parts(text)
        var first = 0
        while first < parts.digitCount, parts.digit(first, in: text) == 0 { first += 1 }
        if first == parts.digitCount { return parts.negative ? -0.0 : 0.0 }
        var end = parts.digitCount
        while parts.digit(end - 1, in: text) == 0 { end -= 1 }
        let scale = parts.exponent - parts.fractionDigits + (parts.digitCount - end)
        if end - first <= 15, scale >= -22, scale <= 22 {
            var significand: UInt64 = 0  // below 10^15 < 2^53: exact as a double
            for index in first..<end { significand = significand * 10 + UInt64(parts.digit(index, in: text)) }
            let magnitude =
                scale >= 0
                ? Double(significand) * exactPowersOfTen[scale] : Double(significand) / exactPowersOfTen[-scale]
            return parts.negative ? -magnitude : magnitude
        }
        return Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }
}
