import LocationWire

/// `locationwire.conformance.v1.VectorRequest`: one vector for the testee to run.
public struct VectorRequest: ProtocolMessage {
    /// The input to decode: protobuf binary or proto3 JSON (a oneof on the wire).
    public enum Input: Hashable, Sendable {
        case binary([UInt8])
        case json(String)
    }

    public var vectorId: String = ""
    public var messageType: String = ""
    public var input: Input?
    public var checks: [TesteeCheck] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, messageType: String, input: Input, checks: [TesteeCheck]) {
        self.vectorId = vectorId
        self.messageType = messageType
        self.input = input
        self.checks = checks
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.messageType.key: messageType = try reader.readString()
        case Field.binaryInput.key: input = .binary(try reader.readBytes())
        case Field.jsonInput.key: input = .json(try reader.readString())
        case Field.checks.key, Field.checks.unpackedKey: try reader.readEnums(key, appendingTo: &checks)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if !messageType.isEmpty { writer.writeStringField(Field.messageType.key, messageType) }
        switch input {
        case .binary(let bytes): writer.writeBytesField(Field.binaryInput.key, bytes)
        case .json(let text): writer.writeStringField(Field.jsonInput.key, text)
        case nil: break
        }
        writer.writePackedEnums(Field.checks.key, checks)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.VectorRequest`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case vectorId, messageType, binaryInput, jsonInput, checks

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .messageType: FieldDeclaration(2, "message_type", .string)
            case .binaryInput: FieldDeclaration(3, "binary_input", .bytes, .optional)
            case .jsonInput: FieldDeclaration(4, "json_input", .string, .optional)
            case .checks: FieldDeclaration(5, "checks", .enumeration(TesteeCheck.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.VectorRequest", fields: Field.self)
}
