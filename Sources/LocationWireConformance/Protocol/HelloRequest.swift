import LocationWire

/// `locationwire.conformance.v1.HelloRequest`: the runner introduces itself.
public struct HelloRequest: ProtocolMessage {
    public var protocolVersion: UInt32 = 0
    public var runner: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.protocolVersion.key: protocolVersion = try reader.readUInt32()
        case Field.runner.key: runner = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if protocolVersion != 0 { writer.writeVarintField(Field.protocolVersion.key, UInt64(protocolVersion)) }
        if !runner.isEmpty { writer.writeStringField(Field.runner.key, runner) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.HelloRequest`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case protocolVersion, runner

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .protocolVersion: FieldDeclaration(1, "protocol_version", .uint32)
            case .runner: FieldDeclaration(2, "runner", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.HelloRequest", fields: Field.self)
}
