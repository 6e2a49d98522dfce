import LocationWire

/// Why JSON input was rejected, where (byte offset into the UTF-8 text), and in which field.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not well-formed JSON (RFC 8259): bad token, trailing comma, comment, unpaired surrogate, invalid
        /// UTF-8, trailing characters.
        public static let syntax = Code("json-syntax")
        /// Nesting deeper than the parser's limit.
        public static let depthLimitExceeded = Code("json-depth-limit-exceeded")
        /// The top-level value is not an object.
        public static let notAnObject = Code("json-not-an-object")
        /// A name the message type does not have.
        public static let unknownField = Code("json-unknown-field")
        /// The same field twice, under the same name or under its JSON and `.proto` names.
        public static let duplicateField = Code("json-duplicate-field")
        /// A value of the wrong JSON type for the field (a string for a bool, an object for a number, null in
        /// an array).
        public static let typeMismatch = Code("json-type-mismatch")
        /// A number outside the field's range, or not an integer for an integer field.
        public static let outOfRange = Code("json-out-of-range")
        /// A string that is not a valid value: unknown enum name, malformed number, invalid base64.
        public static let invalidValue = Code("json-invalid-value")

        public static let all: [Code] = [
            .syntax, .depthLimitExceeded, .notAnObject, .unknownField, .duplicateField, .typeMismatch,
            .outOfRange, .invalidValue,
        ]

        /// True for the codes that mean "not JSON at all", as opposed to "JSON that does not fit the message".
        public var isSyntaxError: Bool { self == .syntax || self == .depthLimitExceeded }
    }

    public let code: Code
    /// Byte offset into the UTF-8 input: for a syntax error the first byte that cannot continue a well-formed
    /// text (the input's length when it ends early), otherwise where the offending value or member name starts.
    public let offset: Int
    /// The field the offending value was meant for, e.g. `LocationBatch.fixes[3].latitude_e7`.
    public internal(set) var fieldPath: FieldPath
    public let message: String

    public init(code: Code, offset: Int, fieldPath: FieldPath = FieldPath(), message: String) {
        self.code = code
        self.offset = offset
        self.fieldPath = fieldPath
        self.message = message
    }

    public var description: String {
        let path = fieldPath.isEmpty ? "" : " in \(fieldPath)"
        return "\(code) at byte \(offset)\(path): \(message)"
    }
}
