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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.category.key: category = ErrorCategory(rawValue: try reader.readInt32())
        case Field.code.key: code = try reader.readString()
        case Field.message.key: message = try reader.readString()
        case Field.fieldPath.key: fieldPath = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if category.rawValue != 0 { writer.writeInt32Field(Field.category.key, category.rawValue) }
        if !code.isEmpty { writer.writeStringField(Field.code.key, code) }
        if !message.isEmpty { writer.writeStringField(Field.message.key, message) }
        if !fieldPath.isEmpty { writer.writeStringField(Field.fieldPath.key, fieldPath) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.ParseError`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case category, code, message, fieldPath

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .category: FieldDeclaration(1, "category", .enumeration(ErrorCategory.self))
            case .code: FieldDeclaration(2, "code", .string)
            case .message: FieldDeclaration(3, "message", .string)
            case .fieldPath: FieldDeclaration(4, "field_path", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.ParseError", fields: Field.self)
}
