// The hand-written codec of `locationwire.v1.AckRange`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/batch_ack.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension AckRange {
    public init(
        first: UInt64, last: UInt64, result: AckResult, rejectReason: RejectReason = .unspecified
    ) {
        self.firstSequence = first
        self.lastSequence = last
        self.result = result
        self.rejectReason = rejectReason
    }

    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.firstSequence.key: firstSequence = try reader.readVarint()
        case Field.lastSequence.key: lastSequence = try reader.readVarint()
        case Field.result.key: result = AckResult(rawValue: try reader.readInt32())
        case Field.rejectReason.key: rejectReason = RejectReason(rawValue: try reader.readInt32())
        case Field.detail.key: detail = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if firstSequence != 0 { writer.writeVarintField(Field.firstSequence.key, firstSequence) }
        if lastSequence != 0 { writer.writeVarintField(Field.lastSequence.key, lastSequence) }
        if result.rawValue != 0 { writer.writeInt32Field(Field.result.key, result.rawValue) }
        if rejectReason.rawValue != 0 {
            writer.writeInt32Field(Field.rejectReason.key, rejectReason.rawValue)
        }
        if !detail.isEmpty { writer.writeStringField(Field.detail.key, detail) }
        writer.writeUnknownFields(unknownFields)
    }
}
