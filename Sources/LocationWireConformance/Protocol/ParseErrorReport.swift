import LocationWire

/// `locationwire.conformance.v1.ParseError`: the testee rejected the input.
public struct ParseErrorReport: ProtocolMessage {
    public var category: ErrorCategory = .unspecified
    public var code: String = ""
    public var message: String = ""
    public var fieldPath: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public init(category: ErrorCategory, code: String, message: String, fieldPath: String) {
        self.category = category
        self.code = code
        self.message = message
        self.fieldPath = fieldPath
    }

    public static let fieldTable = FieldTable<ParseErrorReport>(
        "locationwire.conformance.v1.ParseError",
        [
            .singular(1, "category", .enumeration, \.category),
            .singular(2, "code", .string, \.code),
            .singular(3, "message", .string, \.message),
            .singular(4, "field_path", .string, \.fieldPath),
        ])
}
