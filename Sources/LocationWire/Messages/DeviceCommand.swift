/// One request from the server to the device, carried by a BatchAck (`locationwire.v1.DeviceCommand`,
/// `proto/locationwire/v1/batch_ack.proto`). A device executes each `commandId` at most once, because acks can
/// arrive twice, and ignores kinds it does not know.
public struct DeviceCommand: LocationWireMessage {
    /// Unique per device, chosen by the server; at least 1.
    public var commandId: UInt64 = 0
    /// What to do.
    public var kind: DeviceCommandKind = .unspecified
    /// Ignored after this time, UTC ms (device clock); 0 = no expiry.
    public var expiresAtMs: Int64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public init(commandId: UInt64, kind: DeviceCommandKind, expiresAtMs: Int64 = 0) {
        self.commandId = commandId
        self.kind = kind
        self.expiresAtMs = expiresAtMs
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.commandId.key: commandId = try reader.readVarint()
                case Field.kind.key: kind = DeviceCommandKind(rawValue: try reader.readInt32())
                case Field.expiresAtMs.key: expiresAtMs = Int64(bitPattern: try reader.readVarint())
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if commandId != 0 { writer.writeVarintField(Field.commandId.key, commandId) }
        if kind.rawValue != 0 { writer.writeInt32Field(Field.kind.key, kind.rawValue) }
        if expiresAtMs != 0 { writer.writeVarintField(Field.expiresAtMs.key, UInt64(bitPattern: expiresAtMs)) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.DeviceCommand`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case commandId, kind, expiresAtMs

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .commandId: FieldDeclaration(1, "command_id", .uint64)
            case .kind: FieldDeclaration(2, "kind", .enumeration(DeviceCommandKind.self))
            case .expiresAtMs: FieldDeclaration(3, "expires_at_ms", .int64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.DeviceCommand", fields: Field.self)
}
