// The hand-written codec of `locationwire.v1.LifecycleEvent`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/device_state.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension LifecycleEvent {
    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.kind.key: kind = LifecycleEventKind(rawValue: try reader.readInt32())
                case Field.timeMs.key: timeMs = Int64(bitPattern: try reader.readVarint())
                case Field.elapsedRealtimeMs.key: elapsedRealtimeMs = try reader.readVarint()
                case Field.relaunchReason.key:
                    relaunchReason = RelaunchReason(rawValue: try reader.readInt32())
                case Field.bootId.key: bootId = try reader.readFixed64()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
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
