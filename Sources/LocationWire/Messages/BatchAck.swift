// The hand-written codec of `locationwire.v1.BatchAck`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/batch_ack.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension BatchAck {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.batchId.key: batchId = try reader.readFixed64()
        case Field.fixResults.key: try reader.readMessage(appendingTo: &fixResults)
        case Field.fenceEventResults.key: try reader.readMessage(appendingTo: &fenceEventResults)
        case Field.retryAfterMs.key: retryAfterMs = try reader.readUInt32()
        case Field.serverTimeMs.key: serverTimeMs = Int64(bitPattern: try reader.readVarint())
        case Field.latestAssignmentVersion.key: latestAssignmentVersion = try reader.readVarint()
        case Field.trackingPolicy.key:
            if trackingPolicy == nil { trackingPolicy = TrackingPolicy() }
            try reader.readMessage(into: &trackingPolicy!)
        case Field.outcome.key: outcome = BatchOutcome(rawValue: try reader.readInt32())
        case Field.holdReason.key: holdReason = HoldReason(rawValue: try reader.readInt32())
        case Field.maxBatchBytes.key: maxBatchBytes = try reader.readUInt32()
        case Field.protocolRevision.key: protocolRevision = try reader.readUInt32()
        case Field.commands.key: try reader.readMessage(appendingTo: &commands)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if batchId != 0 { writer.writeFixed64Field(Field.batchId.key, batchId) }
        writer.writeRepeatedMessageField(Field.fixResults.key, fixResults)
        writer.writeRepeatedMessageField(Field.fenceEventResults.key, fenceEventResults)
        if let retryAfterMs { writer.writeVarintField(Field.retryAfterMs.key, UInt64(retryAfterMs)) }
        if serverTimeMs != 0 {
            writer.writeVarintField(Field.serverTimeMs.key, UInt64(bitPattern: serverTimeMs))
        }
        if latestAssignmentVersion != 0 {
            writer.writeVarintField(Field.latestAssignmentVersion.key, latestAssignmentVersion)
        }
        if let trackingPolicy { writer.writeMessageField(Field.trackingPolicy.key, trackingPolicy) }
        if outcome.rawValue != 0 { writer.writeInt32Field(Field.outcome.key, outcome.rawValue) }
        if holdReason.rawValue != 0 { writer.writeInt32Field(Field.holdReason.key, holdReason.rawValue) }
        if let maxBatchBytes { writer.writeVarintField(Field.maxBatchBytes.key, UInt64(maxBatchBytes)) }
        if protocolRevision != 0 { writer.writeVarintField(Field.protocolRevision.key, UInt64(protocolRevision)) }
        writer.writeRepeatedMessageField(Field.commands.key, commands)
        writer.writeUnknownFields(unknownFields)
    }
}
