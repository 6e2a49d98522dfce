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

    public init(
        first: UInt64, last: UInt64, result: AckResult, rejectReason: RejectReason = .unspecified
    ) {
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
                case Field.firstSequence.key: firstSequence = try reader.readVarint()
                case Field.lastSequence.key: lastSequence = try reader.readVarint()
                case Field.result.key: result = AckResult(rawValue: try reader.readInt32())
                case Field.rejectReason.key: rejectReason = RejectReason(rawValue: try reader.readInt32())
                case Field.detail.key: detail = try reader.readString()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
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

    /// The fields of `locationwire.v1.AckRange`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case firstSequence, lastSequence, result, rejectReason, detail

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .firstSequence: FieldDeclaration(1, "first_sequence", .uint64)
            case .lastSequence: FieldDeclaration(2, "last_sequence", .uint64)
            case .result: FieldDeclaration(3, "result", .enumeration(AckResult.self))
            case .rejectReason: FieldDeclaration(4, "reject_reason", .enumeration(RejectReason.self))
            case .detail: FieldDeclaration(5, "detail", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.AckRange", fields: Field.self)
}
