// The hand-written codec of `locationwire.v1.FenceEvent`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/fence_event.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension FenceEvent {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.eventSequence.key: eventSequence = try reader.readVarint()
        case Field.regionId.key: regionId = try reader.readString()
        case Field.regionVersion.key: regionVersion = try reader.readVarint()
        case Field.assignmentVersion.key: assignmentVersion = try reader.readVarint()
        case Field.kind.key: kind = FenceEventKind(rawValue: try reader.readInt32())
        case Field.osEventTimeMs.key: osEventTimeMs = Int64(bitPattern: try reader.readVarint())
        case Field.detectedAtMs.key: detectedAtMs = Int64(bitPattern: try reader.readVarint())
        case Field.triggerFix.key:
            if triggerFix == nil { triggerFix = LocationFix() }
            try reader.readMessage(into: &triggerFix!)
        case Field.source.key: source = FenceEventSource(rawValue: try reader.readInt32())
        case Field.detectedElapsedRealtimeMs.key:
            detectedElapsedRealtimeMs = try reader.readVarint()
        case Field.dwellMs.key: dwellMs = try reader.readUInt32()
        case Field.bootId.key: bootId = try reader.readFixed64()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if eventSequence != 0 { writer.writeVarintField(Field.eventSequence.key, eventSequence) }
        if !regionId.isEmpty { writer.writeStringField(Field.regionId.key, regionId) }
        if regionVersion != 0 { writer.writeVarintField(Field.regionVersion.key, regionVersion) }
        if assignmentVersion != 0 {
            writer.writeVarintField(Field.assignmentVersion.key, assignmentVersion)
        }
        if kind.rawValue != 0 { writer.writeInt32Field(Field.kind.key, kind.rawValue) }
        if osEventTimeMs != 0 {
            writer.writeVarintField(Field.osEventTimeMs.key, UInt64(bitPattern: osEventTimeMs))
        }
        if detectedAtMs != 0 {
            writer.writeVarintField(Field.detectedAtMs.key, UInt64(bitPattern: detectedAtMs))
        }
        if let triggerFix { writer.writeMessageField(Field.triggerFix.key, triggerFix) }
        if source.rawValue != 0 { writer.writeInt32Field(Field.source.key, source.rawValue) }
        if let detectedElapsedRealtimeMs {
            writer.writeVarintField(Field.detectedElapsedRealtimeMs.key, detectedElapsedRealtimeMs)
        }
        if let dwellMs { writer.writeVarintField(Field.dwellMs.key, UInt64(dwellMs)) }
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        writer.writeUnknownFields(unknownFields)
    }
}
