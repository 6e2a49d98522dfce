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
        case Field.protocolVersion.key: protocolVersion = try reader.readUInt32()
        case Field.implementation.key: implementation = try reader.readString()
        case Field.version.key: version = try reader.readString()
        case Field.features.key, Field.features.unpackedKey: try reader.readEnums(key, appendingTo: &features)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if protocolVersion != 0 { writer.writeVarintField(Field.protocolVersion.key, UInt64(protocolVersion)) }
        if !implementation.isEmpty { writer.writeStringField(Field.implementation.key, implementation) }
        if !version.isEmpty { writer.writeStringField(Field.version.key, version) }
        writer.writePackedEnums(Field.features.key, features)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.HelloResponse`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case protocolVersion, implementation, version, features

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .protocolVersion: FieldDeclaration(1, "protocol_version", .uint32)
            case .implementation: FieldDeclaration(2, "implementation", .string)
            case .version: FieldDeclaration(3, "version", .string)
            case .features: FieldDeclaration(4, "features", .enumeration(TesteeFeature.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.HelloResponse", fields: Field.self)
}
