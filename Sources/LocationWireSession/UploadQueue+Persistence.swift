import LocationWire

// The queue persists as `locationwire.session.v1.UploadQueue` (proto/locationwire/session/v1/upload_queue.proto,
// the format's specification), written and read by the same codec as the wire messages: the recorded items keep
// their wire encoding, unknown fields included. The format is the reference engine's, not part of the protocol.

extension UploadQueue: TableCodedMessage {
    public static let fieldTable = FieldTable<UploadQueue>(
        "locationwire.session.v1.UploadQueue",
        [
            .singular(1, "device_id", .string, \.deviceId),
            .singular(2, "install_id", .fixed64, \.installId),
            .singular(3, "datum", .enumeration, \.datum),
            .repeated(4, "fixes", .message, \.fixes),
            .repeated(5, "fence_events", .message, \.fenceEvents),
            .repeated(6, "lifecycle_events", .message, \.lifecycleEvents),
            .repeated(7, "lifecycle_ids", .uint64, \.lifecycleIds),
            .optional(8, "device_status", .message, \.deviceStatus),
            .singular(9, "device_status_reported", .bool, \.deviceStatusReported),
            .optional(10, "armed_regions", .message, \.armedRegions),
            .singular(11, "armed_regions_reported", .bool, \.armedRegionsReported),
            .alwaysWritten(12, "next_fix_sequence", .uint64, \.nextFixSequence),
            .alwaysWritten(13, "next_event_sequence", .uint64, \.nextEventSequence),
            .alwaysWritten(14, "next_lifecycle_id", .uint64, \.nextLifecycleId),
            .singular(15, "discarded_fix_count", .uint64, \.discardedFixCount),
            .singular(16, "policy", .message, \.policy),
            .repeated(17, "batches", .message, \.batches),
            .optional(18, "hold_until_ms", .int64, \.persistedHoldUntilMs),
            .singular(19, "consecutive_failures", .uint32, \.persistedConsecutiveFailures),
            .singular(20, "learnt_batch_bytes", .uint32, \.learntBatchBytes),
            .singular(21, "rows_only", .bool, \.rowsOnly),
            .singular(22, "server_revision", .uint32, \.serverRevision),
            .singular(23, "hinted_assignment_version", .uint64, \.hintedAssignmentVersion),
            .singular(24, "highest_executed_command_id", .uint64, \.highestExecutedCommandId),
        ])

    /// ``holdUntilMs`` as stored: nil for no hold (`Int64.min`, the initial value), which is left out.
    var persistedHoldUntilMs: Int64? {
        get { holdUntilMs == .min ? nil : holdUntilMs }
        set { holdUntilMs = newValue ?? .min }
    }

    /// ``consecutiveFailures`` as stored, a uint32 (it counts failures in a row, far below 2^32).
    var persistedConsecutiveFailures: UInt32 {
        get { UInt32(truncatingIfNeeded: consecutiveFailures) }
        set { consecutiveFailures = Int(newValue) }
    }
}

extension BatchRecord: TableCodedMessage {
    public static let fieldTable = FieldTable<BatchRecord>(
        "locationwire.session.v1.BatchRecord",
        [
            .alwaysWritten(1, "batch_id", .fixed64, \.batchId),
            .repeated(2, "fix_sequences", .uint64, \.fixSequences),
            .repeated(3, "event_sequences", .uint64, \.eventSequences),
            .repeated(4, "lifecycle_ids", .uint64, \.lifecycleIds),
            .optional(5, "device_status", .message, \.deviceStatus),
            .optional(6, "armed_regions", .message, \.armedRegions),
            .singular(7, "encoded_size", .uint32, \.encodedSize),
            .singular(8, "sent_at_ms", .int64, \.sentAtMs),
            .singular(9, "given_up", .bool, \.givenUp),
        ])
}
