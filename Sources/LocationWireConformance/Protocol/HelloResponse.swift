import LocationWire

/// `locationwire.conformance.v1.HelloResponse`: the testee introduces itself and declares its features.
public struct HelloResponse: LocationWireMessage {
    public var protocolVersion: UInt32 = 0
    public var implementation: String = ""
    public var version: String = ""
    public var features: [TesteeFeature] = []
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
                case 0x12: implementation = try reader.readString()
                case 0x1A: version = try reader.readString()
                case 0x22: try reader.readPackedVarints(appendingTo: &features) { TesteeFeature(rawValue: Int32(truncatingIfNeeded: $0)) }
                case 0x20:
                    try reader.checkCanAppend(to: features)
                    features.append(TesteeFeature(rawValue: try reader.readInt32()))
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if protocolVersion != 0 { writer.writeVarintField(0x08, UInt64(protocolVersion)) }
        if !implementation.isEmpty { writer.writeStringField(0x12, implementation) }
        if !version.isEmpty { writer.writeStringField(0x1A, version) }
        writer.writePackedVarints(0x22, features) { UInt64(bitPattern: Int64($0.rawValue)) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.HelloResponse",
        fields: [
            FieldSchema(1, "protocol_version", .uint32), FieldSchema(2, "implementation", .string),
            FieldSchema(3, "version", .string), FieldSchema(4, "features", .enumeration(TesteeFeature.schema), .repeated),
        ])
}
