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
    /// What the server did with the batch as a whole; unspecified or unknown makes the ack malformed.
    public var outcome: BatchOutcome = .unspecified
    /// Why the batch is held, with outcome `hold`.
    public var holdReason: HoldReason = .unspecified
    /// With outcome `tooLarge`: the largest batch the server takes, bytes.
    public var maxBatchBytes: UInt32?
    /// The specification revision the server follows.
    public var protocolRevision: UInt32 = 0
    /// Requests to the device, each executed at most once per command id.
    public var commands: [DeviceCommand] = []
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
                case Field.outcome.key: outcome = BatchOutcome(rawValue: try reader.readInt32())
                case Field.holdReason.key: holdReason = HoldReason(rawValue: try reader.readInt32())
                case Field.maxBatchBytes.key: maxBatchBytes = try reader.readUInt32()
                case Field.protocolRevision.key: protocolRevision = try reader.readUInt32()
                case Field.commands.key: try reader.readMessage(appendingTo: &commands)
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
        if outcome.rawValue != 0 { writer.writeInt32Field(Field.outcome.key, outcome.rawValue) }
        if holdReason.rawValue != 0 { writer.writeInt32Field(Field.holdReason.key, holdReason.rawValue) }
        if let maxBatchBytes { writer.writeVarintField(Field.maxBatchBytes.key, UInt64(maxBatchBytes)) }
        if protocolRevision != 0 { writer.writeVarintField(Field.protocolRevision.key, UInt64(protocolRevision)) }
        writer.writeRepeatedMessageField(Field.commands.key, commands)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.BatchAck`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case batchId, fixResults, fenceEventResults, retryAfterMs, serverTimeMs,
            latestAssignmentVersion, trackingPolicy, outcome, holdReason, maxBatchBytes, protocolRevision, commands

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
            case .outcome: FieldDeclaration(8, "outcome", .enumeration(BatchOutcome.self))
            case .holdReason: FieldDeclaration(9, "hold_reason", .enumeration(HoldReason.self))
            case .maxBatchBytes: FieldDeclaration(10, "max_batch_bytes", .uint32, .optional)
            case .protocolRevision: FieldDeclaration(11, "protocol_revision", .uint32)
            case .commands: FieldDeclaration(12, "commands", .message(DeviceCommand.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.BatchAck", fields: Field.self)
}
