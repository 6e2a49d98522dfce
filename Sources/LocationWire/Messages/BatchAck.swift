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
                case 0x09: batchId = try reader.readFixed64()
                case 0x12: try reader.readMessage(appendingTo: &fixResults)
                case 0x1A: try reader.readMessage(appendingTo: &fenceEventResults)
                case 0x20: retryAfterMs = try reader.readUInt32()
                case 0x28: serverTimeMs = Int64(bitPattern: try reader.readVarint())
                case 0x30: latestAssignmentVersion = try reader.readVarint()
                case 0x3A:
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
        if batchId != 0 { writer.writeFixed64Field(0x09, batchId) }
        writer.writeRepeatedMessageField(0x12, fixResults)
        writer.writeRepeatedMessageField(0x1A, fenceEventResults)
        if let retryAfterMs { writer.writeVarintField(0x20, UInt64(retryAfterMs)) }
        if serverTimeMs != 0 { writer.writeVarintField(0x28, UInt64(bitPattern: serverTimeMs)) }
        if latestAssignmentVersion != 0 { writer.writeVarintField(0x30, latestAssignmentVersion) }
        if let trackingPolicy { writer.writeMessageField(0x3A, trackingPolicy) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.BatchAck",
        fields: [
            FieldSchema(1, "batch_id", .fixed64),
            FieldSchema(2, "fix_results", .message(AckRange.schema), .repeated),
            FieldSchema(3, "fence_event_results", .message(AckRange.schema), .repeated),
            FieldSchema(4, "retry_after_ms", .uint32, .optional),
            FieldSchema(5, "server_time_ms", .int64),
            FieldSchema(6, "latest_assignment_version", .uint64),
            FieldSchema(7, "tracking_policy", .message(TrackingPolicy.schema)),
        ])
}
