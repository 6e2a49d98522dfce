// The hand-written codec of `locationwire.v1.LifecycleEvent`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/device_state.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension LifecycleEvent {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.kind.key: kind = LifecycleEventKind(rawValue: try reader.readInt32())
        case Field.timeMs.key: timeMs = Int64(bitPattern: try reader.readVarint())
        case Field.elapsedRealtimeMs.key: elapsedRealtimeMs = try reader.readVarint()
        case Field.relaunchReason.key:
            relaunchReason = RelaunchReason(rawValue: try reader.readInt32())
        case Field.bootId.key: bootId = try reader.readFixed64()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if kind.rawValue != 0 { writer.writeInt32Field(Field.kind.key, kind.rawValue) }
        if timeMs != 0 { writer.writeVarintField(Field.timeMs.key, UInt64(bitPattern: timeMs)) }
        if let elapsedRealtimeMs {
            writer.writeVarintField(Field.elapsedRealtimeMs.key, elapsedRealtimeMs)
        }
        if relaunchReason.rawValue != 0 {
            writer.writeInt32Field(Field.relaunchReason.key, relaunchReason.rawValue)
        }
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        writer.writeUnknownFields(unknownFields)
    }
}
