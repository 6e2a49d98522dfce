import LocationWire

/// `locationwire.conformance.v1.HelloResponse`: the testee introduces itself and declares its features.
public struct HelloResponse: ProtocolMessage {
    public var protocolVersion: UInt32 = 0
    public var implementation: String = ""
    public var version: String = ""
    public var features: [TesteeFeature] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case 0x08: protocolVersion = try reader.readUInt32()
        case 0x12: implementation = try reader.readString()
        case 0x1A: version = try reader.readString()
        case 0x22, 0x20: try reader.readEnums(key, appendingTo: &features)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if protocolVersion != 0 { writer.writeVarintField(0x08, UInt64(protocolVersion)) }
        if !implementation.isEmpty { writer.writeStringField(0x12, implementation) }
        if !version.isEmpty { writer.writeStringField(0x1A, version) }
        writer.writePackedEnums(0x22, features)
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.HelloResponse",
        fields: [
            FieldSchema(1, "protocol_version", .uint32), FieldSchema(2, "implementation", .string),
            FieldSchema(3, "version", .string),
            FieldSchema(4, "features", .enumeration(TesteeFeature.schema), .repeated),
        ])
}
