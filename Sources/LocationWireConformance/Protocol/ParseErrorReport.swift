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
        case 0x08: category = ErrorCategory(rawValue: try reader.readInt32())
        case 0x12: code = try reader.readString()
        case 0x1A: message = try reader.readString()
        case 0x22: fieldPath = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if category.rawValue != 0 { writer.writeInt32Field(0x08, category.rawValue) }
        if !code.isEmpty { writer.writeStringField(0x12, code) }
        if !message.isEmpty { writer.writeStringField(0x1A, message) }
        if !fieldPath.isEmpty { writer.writeStringField(0x22, fieldPath) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.ParseError",
        fields: [
            FieldSchema(1, "category", .enumeration(ErrorCategory.schema)), FieldSchema(2, "code", .string),
            FieldSchema(3, "message", .string), FieldSchema(4, "field_path", .string),
        ])
}
