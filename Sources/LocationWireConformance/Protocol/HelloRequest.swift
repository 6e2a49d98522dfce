import LocationWire

/// `locationwire.conformance.v1.HelloRequest`: the runner introduces itself.
public struct HelloRequest: LocationWireMessage {
    public var protocolVersion: UInt32 = 0
    public var runner: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: protocolVersion = try reader.readUInt32()
                case 0x12: runner = try reader.readString()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
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
