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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.maxBatchBytes.key: maxBatchBytes = try reader.readUInt32()
        case Field.knownDevices.key:
            try reader.checkCanAppend(to: knownDevices)
            knownDevices.append(try reader.readString())
        case Field.fixQuotaPerInstallation.key: fixQuotaPerInstallation = try reader.readVarint()
        case Field.holdEverything.key: holdEverything = HoldReason(rawValue: try reader.readInt32())
        case Field.retryAfterMs.key: retryAfterMs = try reader.readUInt32()
        case Field.rejectsMockFixes.key: rejectsMockFixes = try reader.readBool()
        case Field.oldestAcceptedTimeMs.key: oldestAcceptedTimeMs = Int64(bitPattern: try reader.readVarint())
        case Field.nowMs.key: nowMs = Int64(bitPattern: try reader.readVarint())
        case Field.batches.key: try reader.readMessage(appendingTo: &batches)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if maxBatchBytes != 0 { writer.writeVarintField(Field.maxBatchBytes.key, UInt64(maxBatchBytes)) }
        for device in knownDevices { writer.writeStringField(Field.knownDevices.key, device) }
        if fixQuotaPerInstallation != 0 {
            writer.writeVarintField(Field.fixQuotaPerInstallation.key, fixQuotaPerInstallation)
        }
        if holdEverything.rawValue != 0 { writer.writeInt32Field(Field.holdEverything.key, holdEverything.rawValue) }
        if let retryAfterMs { writer.writeVarintField(Field.retryAfterMs.key, UInt64(retryAfterMs)) }
        if rejectsMockFixes { writer.writeBoolField(Field.rejectsMockFixes.key, true) }
        if oldestAcceptedTimeMs != 0 {
            writer.writeVarintField(Field.oldestAcceptedTimeMs.key, UInt64(bitPattern: oldestAcceptedTimeMs))
        }
        if nowMs != 0 { writer.writeVarintField(Field.nowMs.key, UInt64(bitPattern: nowMs)) }
        writer.writeRepeatedMessageField(Field.batches.key, batches)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.LedgerRequest`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case vectorId, maxBatchBytes, knownDevices, fixQuotaPerInstallation, holdEverything, retryAfterMs,
            rejectsMockFixes, oldestAcceptedTimeMs, nowMs, batches

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .maxBatchBytes: FieldDeclaration(2, "max_batch_bytes", .uint32)
            case .knownDevices: FieldDeclaration(3, "known_devices", .string, .repeated)
            case .fixQuotaPerInstallation: FieldDeclaration(4, "fix_quota_per_installation", .uint64)
            case .holdEverything: FieldDeclaration(5, "hold_everything", .enumeration(HoldReason.self))
            case .retryAfterMs: FieldDeclaration(6, "retry_after_ms", .uint32, .optional)
            case .rejectsMockFixes: FieldDeclaration(7, "rejects_mock_fixes", .bool)
            case .oldestAcceptedTimeMs: FieldDeclaration(8, "oldest_accepted_time_ms", .int64)
            case .nowMs: FieldDeclaration(9, "now_ms", .int64)
            case .batches: FieldDeclaration(10, "batches", .message(LedgerBatch.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.LedgerRequest", fields: Field.self)
}

/// `locationwire.conformance.v1.LedgerBatch`: one batch as it arrives, as a message or as bytes.
public struct LedgerBatch: ProtocolMessage {
    /// The batch (a oneof on the wire).
    public enum Form: Hashable, Sendable {
        case batch(LocationBatch)
        case encoded([UInt8])

        var batch: LocationBatch? { if case .batch(let batch) = self { batch } else { nil } }
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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.batch.key: form = .batch(try reader.readMessage(merging: form?.batch))
        case Field.encoded.key: form = .encoded(try reader.readBytes())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        switch form {
        case .batch(let batch): writer.writeMessageField(Field.batch.key, batch)
        case .encoded(let bytes): writer.writeBytesField(Field.encoded.key, bytes)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.LedgerBatch`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case batch, encoded

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .batch: FieldDeclaration(1, "batch", .message(LocationBatch.self))
            case .encoded: FieldDeclaration(2, "encoded", .bytes, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.LedgerBatch", fields: Field.self)
}
