import LocationWire

/// `locationwire.conformance.v1.Violation`: one broken rule as a testee reports it.
public struct ReportedViolation: ProtocolMessage {
    public var code: String = ""
    public var path: String = ""
    public var message: String = ""
    /// "error" or "warning".
    public var severity: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public init(code: String, path: String, message: String, severity: String) {
        self.code = code
        self.path = path
        self.message = message
        self.severity = severity
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.code.key: code = try reader.readString()
        case Field.path.key: path = try reader.readString()
        case Field.message.key: message = try reader.readString()
        case Field.severity.key: severity = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !code.isEmpty { writer.writeStringField(Field.code.key, code) }
        if !path.isEmpty { writer.writeStringField(Field.path.key, path) }
        if !message.isEmpty { writer.writeStringField(Field.message.key, message) }
        if !severity.isEmpty { writer.writeStringField(Field.severity.key, severity) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.Violation`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case code, path, message, severity

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .code: FieldDeclaration(1, "code", .string)
            case .path: FieldDeclaration(2, "path", .string)
            case .message: FieldDeclaration(3, "message", .string)
            case .severity: FieldDeclaration(4, "severity", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.Violation", fields: Field.self)
}
