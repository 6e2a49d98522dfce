/// The server's item-by-item answer to a LocationBatch (`locationwire.v1.BatchAck`,
/// `proto/locationwire/v1/batch_ack.proto`).
public struct BatchAck: LocationWireMessage {
    /// The batch answered.
    public var batchId: UInt64 = 0
    /// Results for fixes by sequence number: sorted, not overlapping.
    public var fixResults: [AckRange] = []
    /// Results for fence events by event sequence number: sorted, not overlapping.
    public var fenceEventResults: [AckRange] = []
    /// Do not upload again for this many ms.
    public var retryAfterMs: UInt32?
    /// Server clock when the ack was built, UTC ms.
    public var serverTimeMs: Int64 = 0
    /// Newest assignment version the server holds for the device; 0 = not said.
    public var latestAssignmentVersion: UInt64 = 0
    /// A new tracking policy, when it changed.
    public var trackingPolicy: TrackingPolicy?
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
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
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
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
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.BatchAck`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case batchId, fixResults, fenceEventResults, retryAfterMs, serverTimeMs,
            latestAssignmentVersion, trackingPolicy

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .batchId: FieldDeclaration(1, "batch_id", .fixed64)
            case .fixResults: FieldDeclaration(2, "fix_results", .message(AckRange.self), .repeated)
            case .fenceEventResults:
                FieldDeclaration(3, "fence_event_results", .message(AckRange.self), .repeated)
            case .retryAfterMs: FieldDeclaration(4, "retry_after_ms", .uint32, .optional)
            case .serverTimeMs: FieldDeclaration(5, "server_time_ms", .int64)
            case .latestAssignmentVersion: FieldDeclaration(6, "latest_assignment_version", .uint64)
            case .trackingPolicy: FieldDeclaration(7, "tracking_policy", .message(TrackingPolicy.self))
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.BatchAck", fields: Field.self)
}
