/// Any JSON value, read by the same strict RFC 8259 reader as the messages (`JSONReader`), for JSON that no
/// message describes: the interchange formats (GeoJSON, OwnTracks, Overland, Google Takeout) that `locwire import`
/// reads. A typed tree, so that reading a member is a switch rather than Foundation's bridging of `Any` (which was
/// most of a GeoJSON import's time on Linux).
///
/// Numbers are doubles (the nearest one to the text, as `Double(String)` gives; every integer up to 2^53 is
/// exact); a number beyond the range of a double is an error, not infinity. An object keeps its members in the
/// order written; when a key is written twice, the later member is the one found, as JSONSerialization and
/// JavaScript's `JSON.parse` do; two objects are equal when they have the same keys with equal values, in any
/// order.
///
/// Also how a conformance vector file embeds a request in proto3 JSON as readable JSON (`Codable`: an object is
/// encoded with its keys, and decoded with its keys sorted, since a decoder does not keep their order).
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The default nesting limit of ``parse(_:maxDepth:)-(Collection<UInt8>,_)`` and its overloads: deep enough for
    /// any GeoJSON geometry, shallow enough that hostile input cannot exhaust the stack.
    public static let defaultMaxDepth = 256

    /// Parses `bytes` as one JSON text (any value at the top level, with white space around it).
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth
    ) throws(JSONError)
        -> JSONValue
    {
        var reader = JSONReader(bytes, options: JSONParseOptions(maxDepth: maxDepth))
        do {
            return try reader.readDocument()
        } catch {
            // A number beyond a double's range is no syntax error: one later in the text is reported first, as a
            // message reader reports it before a mismatch with the message.
            guard error.code == .outOfRange else { throw error }
            throw JSONReader.firstSyntaxError(in: bytes, maxDepth: maxDepth) ?? error
        }
    }

    /// Parses JSON text.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        try parse(text.utf8, maxDepth: maxDepth)
    }

    /// Parses the UTF-8 bytes of `bytes` (a `Data`, an array, a slice).
    public static func parse(
        _ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth
    ) throws(JSONError)
        -> JSONValue
    {
        let parsed: Result<JSONValue, JSONError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONError) in try parse(buffer, maxDepth: maxDepth) }
        }
        if let parsed { return try parsed.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer throws(JSONError) in
            try parse(buffer, maxDepth: maxDepth)
        }
    }

    public var isNull: Bool { self == .null }

    /// The value, or nil when it is `null`.
    public var nonNull: JSONValue? { self == .null ? nil : self }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    public var object: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// An object's member named `key` (nil when there is none, or when this is not an object).
    public subscript(key: String) -> JSONValue? { object?[key] }

    /// What the value is, for messages: the text of a string (up to 40 characters) or a number, otherwise its
    /// kind ("an object").
    public var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): "a boolean (\(value))"
        case .number(let number):
            number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let text): "\"\(text.prefix(40))\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object's members, in the order written.
public struct JSONObject: Hashable, Sendable {
    /// Same keys, equal values, whatever the order (and a key written twice counts by its later value).
    public static func == (left: JSONObject, right: JSONObject) -> Bool {
        let keys = left.keys
        return keys.count == right.keys.count && keys.allSatisfy { left[$0] == right[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        for key in keys.sorted() {
            hasher.combine(key)
            hasher.combine(self[key])
        }
    }

    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every member as written, a key written twice included.
    public var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// The last member named `key`. A linear search: the objects of location files have a handful of members,
    /// for which it beats hashing every key on the way in.
    public subscript(key: String) -> JSONValue? {
        get { members.last { $0.key == key }?.value }
        set {
            members.removeAll { $0.key == key }
            if let newValue { members.append(Member(key: key, value: newValue)) }
        }
    }

    /// The keys, each once, in the order first written.
    public var keys: [String] {
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    public var isEmpty: Bool { members.isEmpty }
}

extension JSONValue {
    /// A member name as a coding key, for encoding and decoding objects.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let object = try decoder.container(keyedBy: Key.self)
            var members: [JSONObject.Member] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append(
                    JSONObject.Member(key: key.stringValue, value: try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var container = encoder.container(keyedBy: Key.self)
            for key in object.keys { try container.encode(object[key], forKey: Key(stringValue: key)) }
            return
        default: break
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Integers as integers (proto3 JSON prints 32-bit ones as numbers), so a file reads as it was printed.
            if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object: break
        }
    }
}
