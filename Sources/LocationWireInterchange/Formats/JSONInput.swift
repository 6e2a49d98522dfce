import Foundation

/// Reading JSON with Foundation's JSONSerialization, with the location of each value kept for messages. A value
/// of the wrong type is an error naming it (`locations[3].properties.speed: expected a number, found "fast"`); an
/// absent key or `null` is an absent value.
public struct JSONInput {
    /// Parses a whole document (an object or an array, or a single value: one member of a streamed document). Numbers too large for a Double and nesting deeper than
    /// Foundation's limit are its errors, reported here with the reader's description.
    public static func document(_ data: Data, _ location: String) throws(InterchangeError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey].map { "\($0)" } ?? "\(error)"
            // A document that is one line of a file already has its line.
            let place = location.isEmpty ? lineOf(detail, in: data) ?? location : location
            throw InterchangeError(place, "not valid JSON: \(detail)")
        }
    }

    /// "line L" for Foundation's "... around character N." (a byte offset), so that a syntax error in a document
    /// of many lines says where it is; nil when the message gives no offset.
    private static func lineOf(_ detail: String, in data: Data) -> String? {
        guard let range = detail.range(of: "character ") else { return nil }
        let digits = detail[range.upperBound...].prefix(while: \.isNumber)
        guard let offset = Int(digits), offset <= data.count else { return nil }
        return "line \(data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })"
    }

    /// The type JSONSerialization gives `true` and `false`: a subclass of NSNumber that `as? Double` would
    /// otherwise accept as 1 and 0.
    private static let booleanType: Any.Type = {
        let parsed = try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any]
        return parsed.map { type(of: $0[0]) } ?? Bool.self
    }()

    /// `true` or `false`, or nil for any other value.
    static func boolean(_ value: Any) -> Bool? {
        guard type(of: value) == booleanType else { return nil }
        return (value as? NSNumber)?.boolValue
    }

    static func describe(_ value: Any) -> String {
        if let string = value as? String { return "\"\(string.prefix(40))\"" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        if type(of: value) == booleanType { return "a boolean" }
        return "\(value)".prefix(40).description
    }

    let object: [String: Any]
    let location: String

    init(_ value: Any, _ location: String) throws(InterchangeError) {
        guard let object = value as? [String: Any] else {
            throw InterchangeError(location, "expected an object, found \(Self.describe(value))")
        }
        self.object = object
        self.location = location
    }

    func path(_ key: String) -> String { location.isEmpty ? key : "\(location).\(key)" }

    private func present(_ key: String) -> Any? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        return value
    }

    func number(_ key: String) throws(InterchangeError) -> Double? {
        guard let value = present(key) else { return nil }
        return try Self.number(value, path(key))
    }

    /// A JSON number; with `allowingText`, also a string that holds one ("15.97"), as some tools write
    /// coordinates.
    static func number(_ value: Any, _ location: String, allowingText: Bool = false) throws(InterchangeError) -> Double
    {
        if allowingText, let text = value as? String, let number = Double(text.trimmingCharacters(in: .whitespaces)),
            number.isFinite
        {
            return number
        }
        guard type(of: value) != booleanType, let number = value as? NSNumber else {
            throw InterchangeError(location, "expected a number, found \(describe(value))")
        }
        return number.doubleValue
    }

    func string(_ key: String) throws(InterchangeError) -> String? {
        guard let value = present(key) else { return nil }
        guard let string = value as? String else {
            throw InterchangeError(path(key), "expected a string, found \(Self.describe(value))")
        }
        return string
    }

    func array(_ key: String) throws(InterchangeError) -> [Any]? {
        guard let value = present(key) else { return nil }
        guard let array = value as? [Any] else {
            throw InterchangeError(path(key), "expected an array, found \(Self.describe(value))")
        }
        return array
    }

    /// Sets each of a format's numeric keys that is present on `point`, multiplied into the proto's unit.
    func read(_ keys: NumberKeys, into point: inout TrackPoint) throws(InterchangeError) {
        for (key, value, scale) in keys {
            if let number = try number(key) { point[keyPath: value] = number * scale }
        }
    }

    func object(_ key: String) throws(InterchangeError) -> JSONInput? {
        guard let value = present(key) else { return nil }
        return try JSONInput(value, path(key))
    }
}

/// A format's numeric keys as a table: the key, the ``TrackPoint`` value it sets, and the factor from the
/// format's unit to the proto's (metres to centimetres: 100).
typealias NumberKeys = [(key: String, value: any WritableKeyPath<TrackPoint, Double?> & Sendable, scale: Double)]

extension Array {
    /// The element at `index`, or nil when there is none.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Double {
    /// A value in a proto unit written in the format's unit: `Double(cm) / 100`. Division of an integer by a
    /// power of ten gives the double nearest the decimal, which reads back (× 100, rounded) to the same integer.
    init(_ value: some BinaryInteger, per divisor: Double) {
        self = Double(value) / divisor
    }
}
