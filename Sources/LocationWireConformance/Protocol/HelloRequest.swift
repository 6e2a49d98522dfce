import LocationWire

/// `locationwire.conformance.v1.HelloRequest`: the runner introduces itself.
public struct HelloRequest: ProtocolMessage {
    public var protocolVersion: UInt32 = 0
    public var runner: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case 0x08: protocolVersion = try reader.readUInt32()
        case 0x12: runner = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if protocolVersion != 0 { writer.writeVarintField(0x08, UInt64(protocolVersion)) }
        if !runner.isEmpty { writer.writeStringField(0x12, runner) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.HelloRequest",
        fields: [FieldSchema(1, "protocol_version", .uint32), FieldSchema(2, "runner", .string)])
}
