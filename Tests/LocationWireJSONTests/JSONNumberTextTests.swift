import Testing

@testable import LocationWireJSON

/// The JSON reader converts number text itself (an exact fast path for short significands and small exponents);
/// it must give the same double as the standard library's complete conversion, bit for bit.
@Suite struct JSONNumberTextTests {
    private func double(_ text: String) -> Double {
        Array(text.utf8).withUnsafeBufferPointer { JSONNumberText.doubleValue($0) }
    }

    @Test(arguments: [
        "0", "-0", "0.0", "-0.0", "1", "-1", "1.5", "1e22", "1e23", "9007199254740993", "123456789012345",
        "1234567890123456", "0.1", "0.30000000000000004", "1e-22", "1e-23", "4.9e-324", "2.2250738585072014e-308",
        "1.7976931348623157e308", "1e400", "-1e400", "1e-400", "+2.5", "3.4028235e+38", "3.40282347e+38",
        "1013.25", "-122.4194123", "100000000000000000000000", "0.000000000000000000000000001",
    ])
    func edgeCasesMatchTheStandardLibrary(text: String) {
        let expected = Double(text)!
        let actual = double(text)
        #expect(actual.bitPattern == expected.bitPattern, "\(text)")
    }

    @Test func randomNumbersMatchTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let digitCount = Int.random(in: 1...20, using: &generator)
            var digits = String(
                (0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            while digits.count > 1, digits.first == "0" { digits.removeFirst() }
            var text = Bool.random(using: &generator) ? "-" : ""
            let point = Int.random(in: 0...digits.count, using: &generator)
            if point > 0, point < digits.count {
                text += digits.prefix(point) + "." + digits.dropFirst(point)
            } else {
                text += digits
            }
            if Bool.random(using: &generator) {
                text += "e\(Int.random(in: -40...40, using: &generator))"
            }
            let expected = Double(text)!
            let actual = double(text)
            if actual.bitPattern != expected.bitPattern {
                Issue.record("\(text): \(actual) != \(expected)")
                return
            }
        }
    }
}
