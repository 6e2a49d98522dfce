// The hand-written codec of `locationwire.v1.DeviceCommand`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/batch_ack.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension DeviceCommand {
    public init(commandId: UInt64, kind: DeviceCommandKind, expiresAtMs: Int64 = 0) {
        self.commandId = commandId
        self.kind = kind
        self.expiresAtMs = expiresAtMs
    }

    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.commandId.key: commandId = try reader.readVarint()
        case Field.kind.key: kind = DeviceCommandKind(rawValue: try reader.readInt32())
        case Field.expiresAtMs.key: expiresAtMs = Int64(bitPattern: try reader.readVarint())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if commandId != 0 { writer.writeVarintField(Field.commandId.key, commandId) }
        if kind.rawValue != 0 { writer.writeInt32Field(Field.kind.key, kind.rawValue) }
        if expiresAtMs != 0 { writer.writeVarintField(Field.expiresAtMs.key, UInt64(bitPattern: expiresAtMs)) }
        writer.writeUnknownFields(unknownFields)
    }
}
