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
        case 0x0A: vectorId = try reader.readString()
        case 0x12: messageType = try reader.readString()
        case 0x1A: input = .binary(try reader.readBytes())
        case 0x22: input = .json(try reader.readString())
        case 0x2A, 0x28: try reader.readEnums(key, appendingTo: &checks)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(0x0A, vectorId) }
        if !messageType.isEmpty { writer.writeStringField(0x12, messageType) }
        switch input {
        case .binary(let bytes): writer.writeBytesField(0x1A, bytes)
        case .json(let text): writer.writeStringField(0x22, text)
        case nil: break
        }
        writer.writePackedEnums(0x2A, checks)
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.VectorRequest",
        fields: [
            FieldSchema(1, "vector_id", .string), FieldSchema(2, "message_type", .string),
            FieldSchema(3, "binary_input", .bytes, .optional), FieldSchema(4, "json_input", .string, .optional),
            FieldSchema(5, "checks", .enumeration(TesteeCheck.schema), .repeated),
        ])
}
