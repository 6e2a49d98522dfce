import Foundation
import LocationWire
import LocationWireJSON
import LocationWireTestSupport
import Testing

/// Where a JSON syntax error is (proto/README.md `§json-error-offset`): the first byte that cannot continue a
/// well-formed text, or the text's length when it ends early; and that it is reported before any mismatch with the
/// message (`§json-errors`). The expected offsets were worked out from that rule, and
/// scripts/judges/json_error_offset_judge.py, a reading of the rule apart from the reader, agrees with every one
/// (`python3 scripts/judges/json_error_offset_judge.py --self-test`).
@Suite struct JSONErrorOffsetTests {
    /// `("TEXT", OFFSET)`, OFFSET -1 for a well-formed text. TEXT is JSON written with only the escapes \" and \\,
    /// so that the line reads the same in Swift and Python; %XX stands for the byte 0xXX. The list MUST stay equal,
    /// line for line, to CASES in scripts/judges/json_error_offset_judge.py (`casesAreTheJudgesCases` compares them).
    static let cases: [(String, Int)] = [
        // BEGIN CASES
        // Literals
        ("{\"x\":1, \"deviceId\": tru}", 23),
        ("tru", 3),
        ("[truex]", 5),
        ("[nulL]", 4),
        ("fals", 4),
        ("True", 0),
        ("NaN", 0),
        ("[nan]", 2),
        // Structure
        ("", 0),
        ("   ", 3),
        ("{", 1),
        ("{\"a\":1", 6),
        ("{\"a\":1,}", 7),
        ("[1,]", 3),
        ("{\"a\" 1}", 5),
        ("{\"a\":}", 5),
        ("{\"a\"::1}", 5),
        ("{,}", 1),
        ("[,]", 1),
        ("[1,,2]", 3),
        ("[1 2]", 3),
        ("{\"a\":1 \"b\":2}", 7),
        ("{1:2}", 1),
        ("{'a':1}", 1),
        ("{a:1}", 1),
        ("{/*c*/}", 1),
        ("[1] x", 4),
        ("{} {}", 3),
        ("1 2", 2),
        ("[[1,[2]]", 8),
        ("%EF%BB%BF{}", 0),
        ("{}%C3%A9", 2),
        // Numbers
        ("[01]", 2),
        ("01", 1),
        ("[-01]", 3),
        ("[00]", 2),
        ("-", 1),
        ("[-x]", 2),
        ("[--1]", 2),
        ("[+1]", 1),
        ("[.5]", 1),
        ("[1.]", 3),
        ("[1.e5]", 3),
        ("1.", 2),
        ("[1e]", 3),
        ("[1e+]", 4),
        ("1e+", 3),
        ("[1e+x]", 4),
        ("[1.5.]", 4),
        ("[1e5.0]", 4),
        ("[0x10]", 2),
        ("{\"sentAtMs\":01}", 13),
        ("[1e400, tru]", 11),
        // Strings and escapes
        ("\"ab", 3),
        ("\"a\\x\"", 3),
        ("\"\\q%FF\"", 2),
        ("\"\\U0041\"", 2),
        ("\"\\'\"", 2),
        ("\"a\\", 3),
        ("\"a%01\"", 2),
        ("\"a%09b\"", 2),
        ("\"%0A\"", 1),
        ("{\"%00\":1}", 2),
        ("{\"a\\", 4),
        // \u escapes and surrogates
        ("\"\\u12G4\"", 5),
        ("\"\\u\"", 3),
        ("\"\\u00\"", 5),
        ("\"\\u12", 5),
        ("\"\\uDX00\"", 4),
        ("\"\\ud800\"", 7),
        ("\"\\ud800", 7),
        ("\"\\ud800\\", 8),
        ("\"\\ud800\\n\"", 8),
        ("\"\\ud800 \"", 7),
        ("\"\\ud800\\u0041\"", 9),
        ("\"\\ud800\\ue000\"", 9),
        ("\"\\ud800\\ud800\"", 10),
        ("\"\\ud800\\udbff\"", 10),
        ("\"\\ud800\\ud", 10),
        ("\"\\uDBFF\\uDC0\"", 12),
        ("\"\\udc00\"", 4),
        ("\"\\uDC", 4),
        ("\"\\uDFFF\\uD800\"", 4),
        ("\"\\ud800%C3%A9\"", 7),
        ("\"\\uD8\"", 5),
        // UTF-8
        ("\"a%C3(\"", 3),
        ("\"%80\"", 1),
        ("\"%C0%80\"", 1),
        ("\"%C1%BF\"", 1),
        ("\"%ED%A0%80\"", 2),
        ("\"%E0%9F%BF\"", 2),
        ("\"%F0%8F%BF%BF\"", 2),
        ("\"%F4%90%80%80\"", 2),
        ("\"%F5%80%80%80\"", 1),
        ("\"%FF\"", 1),
        ("\"%C3\"", 2),
        ("\"%E2%82\"", 3),
        ("\"%E2%82", 3),
        ("\"%F0%9F%98", 4),
        ("\"%FF%01\"", 1),
        ("\"%C3\\u00e9\"", 2),
        ("\"%FF\\q\"", 1),
        ("\"%C3%A9%E2%82%AC%F0%9F%98%80%80\"", 10),
        ("\"%E2%28%A1\"", 2),
        ("\"ok\" %C3", 5),
        // In a message, syntax before the schema
        ("{\"deviceId\":\"a%C3(\"}", 15),
        ("{\"foo\":1,\"deviceId\":\"\\q\"}", 22),
        ("{\"fixes\":[{\"latitudeE7\":1,}]}", 26),
        ("{\"deviceId\":\"a\"} x", 17),
        // Well-formed
        ("\"\\ud83d\\ude00\"", -1),
        ("\"\\uDBFF\\uDFFF\"", -1),
        ("\"\\ud7ff\\ue000\\u0000\\/\"", -1),
        ("\"%F0%9F%98%80%C3%A9\"", -1),
        ("\"%EF%BF%BF%F4%8F%BF%BF%ED%9F%BF\"", -1),
        (" {\"a\" : [1, -0.5e+3, true, false, null, {}]} ", -1),
        ("0", -1),
        // END CASES
    ]

    /// The bytes a case's text stands for.
    static func bytes(_ text: String) -> [UInt8] {
        var result: [UInt8] = []
        var rest = Substring(text)
        while let character = rest.first {
            if character == "%", let byte = UInt8(rest.dropFirst().prefix(2), radix: 16) {
                result.append(byte)
                rest = rest.dropFirst(3)
            } else {
                result.append(contentsOf: character.utf8)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    @Test(arguments: cases)
    func jsonValueReportsTheRulesOffset(text: String, offset: Int) {
        let input = Self.bytes(text)
        do {
            _ = try JSONValue.parse(input)
            #expect(offset == -1, "accepted \(text)")
        } catch {
            #expect(error.code == .syntax && error.offset == offset, "\(text): \(error)")
        }
    }

    /// A message is read in one pass against its schema, and the syntax of the whole text checked on any error:
    /// the same offsets, and no schema error before a syntax error.
    @Test(arguments: cases.filter { $0.1 >= 0 })
    func messagesReportTheRulesOffset(text: String, offset: Int) {
        #expect {
            try LocationBatch(jsonUTF8: Self.bytes(text))
        } throws: { error in
            guard let error = error as? JSONError else { return false }
            return error.code == .syntax && error.offset == offset && error.fieldPath.description == "LocationBatch"
        }
    }

    @Test func casesAreTheJudgesCases() throws {
        func caseLines(_ file: URL, comment: String) throws -> [String] {
            let text = try String(contentsOf: file, encoding: .utf8)
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let begin = try #require(lines.firstIndex(of: "\(comment) BEGIN CASES"))
            let end = try #require(lines.firstIndex(of: "\(comment) END CASES"))
            return lines[begin..<end].filter { $0.hasPrefix("(") }
        }
        let judge = RepositoryData.repository.appendingPathComponent("scripts/judges/json_error_offset_judge.py")
        let here = try caseLines(URL(fileURLWithPath: #filePath), comment: "//")
        #expect(here.count == Self.cases.count)
        #expect(here == (try caseLines(judge, comment: "#")))
    }

    /// `json-depth-limit-exceeded` is at the bracket that opens level 101 (the top-level object is level 1), even
    /// when the text also ends early.
    @Test func theDepthLimitIsAtTheBracketOfLevel101() {
        let prefix = #"{"fixes":"#  // the first [ is at 9 and opens level 2
        for suffix in [String(repeating: "[", count: 200), String(repeating: "[", count: 100) + "x"] {
            #expect {
                try LocationBatch(jsonString: prefix + suffix)
            } throws: { error in
                (error as? JSONError).map { $0.code == .depthLimitExceeded && $0.offset == 9 + 99 } == true
            }
        }
        // One level less is within the limit, and the text's syntax error is reported where it is.
        #expect {
            try LocationBatch(jsonString: prefix + String(repeating: "[", count: 99) + "x")
        } throws: { error in
            (error as? JSONError).map { $0.code == .syntax && $0.offset == 9 + 99 } == true
        }
    }
}
