import LocationWire

/// `locationwire.conformance.v1.Violation`: one broken rule as a testee reports it.
public struct ReportedViolation: ProtocolMessage {
    public var code: String = ""
    public var path: String = ""
    public var message: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public init(code: String, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case 0x0A: code = try reader.readString()
        case 0x12: path = try reader.readString()
        case 0x1A: message = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !code.isEmpty { writer.writeStringField(0x0A, code) }
        if !path.isEmpty { writer.writeStringField(0x12, path) }
        if !message.isEmpty { writer.writeStringField(0x1A, message) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.Violation",
        fields: [FieldSchema(1, "code", .string), FieldSchema(2, "path", .string), FieldSchema(3, "message", .string)])
}
