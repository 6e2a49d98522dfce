import Foundation
import LocationWireJSON
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// ``JSONValue``: any JSON, read by the messages' strict reader, judged against Foundation's JSONSerialization on
/// the real interchange files and on generated documents.
@Suite struct JSONValueTests {
    /// The type JSONSerialization gives `true` and `false` (a boolean NSNumber; `as? Bool` would take 1 too).
    static let booleanType: Any.Type = {
        let parsed = try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any]
        return parsed.map { type(of: $0[0]) } ?? Bool.self
    }()

    /// Foundation's reading as a ``JSONValue``: the peer's tree, for comparison.
    static func tree(_ value: Any) -> JSONValue {
        if type(of: value) == booleanType, let number = value as? NSNumber { return .bool(number.boolValue) }
        switch value {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let array as [Any]: return .array(array.map(tree))
        case let object as [String: Any]:
            return .object(JSONObject(object.map { JSONObject.Member(key: $0.key, value: tree($0.value)) }))
        case let number as NSNumber: return .number(number.doubleValue)
        default: return .string("unexpected \(type(of: value))")
        }
    }

    /// Where two trees first differ, and how.
    static func difference(_ left: JSONValue, _ right: JSONValue, at path: String = "") -> String? {
        switch (left, right) {
        case (.array(let a), .array(let b)) where a.count == b.count:
            return zip(a, b).enumerated().lazy.compactMap { difference($1.0, $1.1, at: "\(path)[\($0)]") }.first
        case (.object(let a), .object(let b)) where Set(a.keys) == Set(b.keys):
            return a.keys.lazy.compactMap { difference(a[$0]!, b[$0]!, at: "\(path).\($0)") }.first
        case (.number(let a), .number(let b)) where abs(a - b) <= 1e-15 * abs(a):
            // Foundation's reader on Linux misrounds some decimals by a few ulps (24.26 reads as 24.259999999999998);
            // the nearest double is checked against Double(String) in numbersAreTheNearestDouble.
            return nil
        default: return left == right ? nil : "\(path): \(left) against \(right)"
        }
    }

    static func foundation(_ data: Data) throws -> JSONValue {
        tree(try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
    }

    @Test func theInterchangeFilesReadAsFoundationReadsThem() throws {
        let folder = RepositoryData.repository.appendingPathComponent("conformance/data/interchange")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 7)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            guard let expected = try? Self.foundation(data) else { continue }
            let ours = try JSONValue.parse(data)
            let difference = Self.difference(ours, expected)
            #expect(difference == nil, "\(file): first difference at \(difference ?? "")")
        }
    }

    @Test func generatedDocumentsReadAsFoundationReadsThem() throws {
        var random = SeededRandom(seed: 26)
        func value(_ depth: Int) -> String {
            switch random.next() % (depth > 3 ? 4 : 6) {
            case 0: return ["null", "true", "false"][Int(random.next() % 3)]
            case 1:
                let digits = String(random.next() % 100_000_000)
                return ["", "-"][Int(random.next() % 2)] + digits
                    + ["", ".25", "e-3", "E+2", ".5e1"][Int(random.next() % 5)]
            case 2, 3:
                let pieces = ["a", "é", "\\n", "\\u00e9", "\\ud83d\\ude00", " ", "\\\"", "\\\\", "\\/", "日本"]
                return "\"" + (0..<Int(random.next() % 5)).map { _ in pieces[Int(random.next() % 10)] }.joined() + "\""
            case 4:
                return "[" + (0..<Int(random.next() % 4)).map { _ in value(depth + 1) }.joined(separator: " ,") + "]"
            default:
                return "{"
                    + (0..<Int(random.next() % 4)).map { index in "\"k\(index)\" : \(value(depth + 1))" }
                    .joined(separator: ",\n") + "}"
            }
        }
        for _ in 0..<2000 {
            let text = value(0)
            let difference = Self.difference(try JSONValue.parse(text), try Self.foundation(Data(text.utf8)))
            #expect(difference == nil, "\(text): \(difference ?? "")")
        }
    }

    @Test func numbersAreTheNearestDouble() throws {
        var random = SeededRandom(seed: 2026)
        for _ in 0..<20_000 {
            let digits = String(random.next() % 10_000_000_000_000_000_000)
            let point = Int(random.next() % UInt64(digits.count + 1))
            let exponent = Int(random.next() % 40) - 20
            let text =
                "-" + digits.prefix(point) + (point == 0 ? "0" : "") + "." + digits.dropFirst(point) + "1e\(exponent)"
            #expect(try JSONValue.parse(text).number == Double(text), "\(text)")
        }
        #expect(try JSONValue.parse("24.26").number == 24.26)
    }

    @Test func objectsKeepTheirOrderAndFindTheLaterOfTwoKeys() throws {
        let value = try JSONValue.parse(#"{"b": 1, "a": [true, null], "b": "two"}"#)
        #expect(value.object?.members.map(\.key) == ["b", "a", "b"])
        #expect(value["b"] == .string("two"))
        #expect(value.object?.keys == ["b", "a"])
        #expect(value["a"]?.array == [.bool(true), .null])
        #expect(value["missing"] == nil && JSONValue.null.nonNull == nil)
        // Equal whatever the order, and hashed alike.
        let reordered = try JSONValue.parse(#"{"a": [true, null], "b": "two"}"#)
        #expect(value == reordered && value.hashValue == reordered.hashValue)
        #expect(try JSONValue.parse(#"{"a": 1}"#) != JSONValue.parse(#"{"a": 1, "b": 1}"#))
    }

    @Test(
        "What is not JSON is refused with the reason and the byte offset",
        arguments: [
            ("[1,]", "json-syntax", 3), ("{\"a\" 1}", "json-syntax", 5), ("01", "json-syntax", 1),
            ("[1] x", "json-syntax", 4), ("\"\\ud800\"", "json-syntax", 7), ("1e400", "json-out-of-range", 0),
            ("NaN", "json-syntax", 0), ("", "json-syntax", 0), ("\"a\u{01}\"", "json-syntax", 2),
        ])
    func refusals(text: String, code: String, offset: Int) {
        #expect {
            try JSONValue.parse(text)
        } throws: { error in
            guard let error = error as? JSONError else { return false }
            return error.code.rawValue == code && error.offset == offset
        }
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONError.self) { try JSONValue.parse(deep) }
        #expect(try JSONValue.parse(deep, maxDepth: 400).array?.count == 1)
    }

    @Test func vectorFilesEncodeAndDecodeTheirRequestsUnchanged() throws {
        let value = try JSONValue.parse(#"{"z": [1, 2.5, "x"], "a": {"n": null, "t": true}, "big": 9007199254740993}"#)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"a":{"n":null,"t":true},"big":9007199254740992,"z":[1,2.5,"x"]}"#)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value)
    }
}
