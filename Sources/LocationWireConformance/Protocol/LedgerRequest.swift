import LocationWire

/// `locationwire.conformance.v1.LedgerRequest`: batches for a server to read, with the server's configuration
/// (`FEATURE_LEDGER`).
public struct LedgerRequest: ProtocolMessage {
    public var vectorId: String = ""
    /// 0: the default, 1048576 bytes.
    public var maxBatchBytes: UInt32 = 0
    /// Empty: every device id is allowed.
    public var knownDevices: [String] = []
    /// 0: no quota.
    public var fixQuotaPerInstallation: UInt64 = 0
    /// UNSPECIFIED: batches are not held for the server's sake.
    public var holdEverything: HoldReason = .unspecified
    public var retryAfterMs: UInt32?
    public var rejectsMockFixes = false
    /// 0: no fix is too old.
    public var oldestAcceptedTimeMs: Int64 = 0
    public var nowMs: Int64 = 0
    /// The batches, in arrival order.
    public var batches: [LedgerBatch] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<LedgerRequest>(
        "locationwire.conformance.v1.LedgerRequest",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .singular(2, "max_batch_bytes", .uint32, \.maxBatchBytes),
            .repeated(3, "known_devices", .string, \.knownDevices),
            .singular(4, "fix_quota_per_installation", .uint64, \.fixQuotaPerInstallation),
            .singular(5, "hold_everything", .enumeration, \.holdEverything),
            .optional(6, "retry_after_ms", .uint32, \.retryAfterMs),
            .singular(7, "rejects_mock_fixes", .bool, \.rejectsMockFixes),
            .singular(8, "oldest_accepted_time_ms", .int64, \.oldestAcceptedTimeMs),
            .singular(9, "now_ms", .int64, \.nowMs),
            .repeated(10, "batches", .message, \.batches),
        ])
}

/// `locationwire.conformance.v1.LedgerBatch`: one batch as it arrives, as a message or as bytes.
public struct LedgerBatch: ProtocolMessage {
    /// The batch (the oneof `form`).
    public enum Form: Hashable, Sendable {
        case batch(LocationBatch)
        case encoded([UInt8])

        var batch: LocationBatch? { if case .batch(let batch) = self { batch } else { nil } }
        var encoded: [UInt8]? { if case .encoded(let bytes) = self { bytes } else { nil } }
    }

    public var form: Form?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ form: Form) {
        self.form = form
    }

    /// The bytes as they arrive.
    public var bytes: [UInt8] {
        switch form {
        case .batch(let batch): batch.serializedBytes()
        case .encoded(let bytes): bytes
        case nil: []
        }
    }

    public static let fieldTable = FieldTable<LedgerBatch>(
        "locationwire.conformance.v1.LedgerBatch",
        [
            .oneofMember(1, "batch", .message, in: \.form, Form.batch, \.batch),
            .oneofMember(2, "encoded", .bytes, in: \.form, Form.encoded, \.encoded),
        ])
}
