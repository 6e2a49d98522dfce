/// A parsed JSON value that keeps what the proto3 JSON mapping needs and a generic JSON library loses: the
/// exact text of numbers (so 64-bit integers and exponents are judged exactly), the order of object members,
/// and the byte offset of every value (for error messages).
struct JSONValue: Sendable {
    enum Kind: Sendable {
        case null
        case bool(Bool)
        /// The number exactly as written, already checked against RFC 8259's grammar.
        case number(String)
        case string(String)
        case array([JSONValue])
        /// Members in input order; duplicate names are kept so the mapping can reject them.
        case object([(name: String, nameOffset: Int, value: JSONValue)])
    }

    var kind: Kind
    /// Byte offset of the value's first character in the input.
    var offset: Int

    var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
