import LocationWire

// The queue persists as `locationwire.session.v1.UploadQueue` (proto/locationwire/session/v1/upload_queue.proto,
// the format's specification), written and read by the same codec as the wire messages: the recorded items keep
// their wire encoding, unknown fields included. The format is the reference engine's, not part of the protocol.

// A conditional conformance names each inherited protocol itself.
extension UploadQueue: MessageSchemaProvider {}
extension UploadQueue: LocationWireMessage {}
extension UploadQueue: TableCodedMessage {
    // A generic type's extension cannot hold a stored static: the table is a global, made once.
    public static var fieldTable: FieldTable<UploadQueue> { uploadQueueFieldTable }

    /// Fields of a newer engine's persisted state, kept so that a downgrade loses nothing.
    public var unknownFields: UnknownFields {
        get { state.unknownFields }
        set { state.unknownFields = newValue }
    }
}

private let uploadQueueFieldTable = FieldTable<UploadQueue>(
    "locationwire.session.v1.UploadQueue",
    [
        .singular(1, "device_id", .string, \.state.deviceId),
        .singular(2, "install_id", .fixed64, \.state.installId),
        .singular(3, "datum", .enumeration, \.state.datum),
        .repeated(4, "fixes", .message, \.items.fixes.elements),
        .repeated(5, "fence_events", .message, \.items.fenceEvents.elements),
        .repeated(6, "lifecycle_events", .message, \.items.lifecycleEvents.events),
        .repeated(7, "lifecycle_ids", .uint64, \.items.lifecycleEvents.ids),
        .optional(8, "device_status", .message, \.state.deviceStatus),
        .singular(9, "device_status_reported", .bool, \.state.deviceStatusReported),
        .optional(10, "armed_regions", .message, \.state.armedRegions),
        .singular(11, "armed_regions_reported", .bool, \.state.armedRegionsReported),
        .alwaysWritten(12, "next_fix_sequence", .uint64, \.state.nextFixSequence),
        .alwaysWritten(13, "next_event_sequence", .uint64, \.state.nextEventSequence),
        .alwaysWritten(14, "next_lifecycle_id", .uint64, \.state.nextLifecycleId),
        .singular(15, "discarded_fix_count", .uint64, \.state.discardedFixCount),
        .singular(16, "policy", .message, \.state.policy),
        .repeated(17, "batches", .message, \.state.batches),
        .optional(18, "hold_until_ms", .int64, \.state.persistedHoldUntilMs),
        .singular(19, "consecutive_failures", .uint32, \.state.persistedConsecutiveFailures),
        .singular(20, "learnt_batch_bytes", .uint32, \.state.learntBatchBytes),
        .singular(21, "rows_only", .bool, \.state.rowsOnly),
        .singular(22, "server_revision", .uint32, \.state.serverRevision),
        .singular(23, "hinted_assignment_version", .uint64, \.state.hintedAssignmentVersion),
        .singular(24, "highest_executed_command_id", .uint64, \.state.highestExecutedCommandId),
    ])

extension UploadQueueState {
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
