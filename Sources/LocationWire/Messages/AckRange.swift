/// The server's result for a range of sequence numbers (`locationwire.v1.AckRange`,
/// `proto/locationwire/v1/batch_ack.proto`).
public struct AckRange: LocationWireMessage {
    /// First sequence number covered, inclusive, at least 1.
    public var firstSequence: UInt64 = 0
    /// Last sequence number covered, inclusive, not less than `firstSequence`.
    public var lastSequence: UInt64 = 0
    /// What the server did with the items.
    public var result: AckResult = .unspecified
    /// Why, for rejected items.
    public var rejectReason: RejectReason = .unspecified
    /// Human-readable detail for logs, at most 256 bytes.
    public var detail: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public init(first: UInt64, last: UInt64, result: AckResult, rejectReason: RejectReason = .unspecified) {
        self.firstSequence = first
        self.lastSequence = last
        self.result = result
        self.rejectReason = rejectReason
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: firstSequence = try reader.readVarint()
                case 0x10: lastSequence = try reader.readVarint()
                case 0x18: result = AckResult(rawValue: try reader.readInt32())
                case 0x20: rejectReason = RejectReason(rawValue: try reader.readInt32())
                case 0x2A: detail = try reader.readString()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if firstSequence != 0 { writer.writeVarintField(0x08, firstSequence) }
        if lastSequence != 0 { writer.writeVarintField(0x10, lastSequence) }
        if result.rawValue != 0 { writer.writeInt32Field(0x18, result.rawValue) }
        if rejectReason.rawValue != 0 { writer.writeInt32Field(0x20, rejectReason.rawValue) }
        if !detail.isEmpty { writer.writeStringField(0x2A, detail) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.AckRange",
        fields: [
            FieldSchema(1, "first_sequence", .uint64),
            FieldSchema(2, "last_sequence", .uint64),
            FieldSchema(3, "result", .enumeration(AckResult.schema)),
            FieldSchema(4, "reject_reason", .enumeration(RejectReason.schema)),
            FieldSchema(5, "detail", .string),
        ])
}
