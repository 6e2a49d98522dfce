import LocationWire

/// A batch read by the server: the ack to send and the items to store first (`§server-durable`).
public struct IngestResult: Hashable, Sendable {
    public var ack = BatchAck()
    /// Fixes stored now, for the first time, in the order of the batch.
    public var storedFixes: [LocationFix] = []
    /// Sequence numbers of the batch's fixes refused for good, with the reason each got.
    public var rejectedFixes: [UInt64] = []
    public var rejectReasons: [RejectReason] = []
    /// Fence events stored now.
    public var storedEvents: [FenceEvent] = []
    /// Lifecycle events stored now.
    public var storedLifecycleEvents: [LifecycleEvent] = []

    public init() {}
}

extension IngestLedger {
    /// The revision of the specification this engine follows.
    public static let protocolRevision = UploadQueue.protocolRevision
    /// Compact column numbers no revision has assigned yet: meeting one means fixes cannot be rebuilt whole
    /// (``CompactFixes/futureColumns``, from compact_fixes.proto).
    public static let futureCompactColumns = CompactFixes.futureColumns

    /// Reads one batch: decides the batch outcome, then each item's result, records what it stored, and returns
    /// the ack with the items to store. `encodedSize` is the batch's size on the wire, bytes.
    public mutating func ingest(_ batch: LocationBatch, encodedSize: Int, nowMs: Int64) -> IngestResult {
        var result = IngestResult()
        result.ack.batchId = batch.batchId
        result.ack.serverTimeMs = nowMs
        result.ack.protocolRevision = Self.protocolRevision

        if encodedSize > max(policy.maxBatchBytes, UploadQueue.minimumBatchBytes) {
            result.ack.outcome = .tooLarge
            result.ack.maxBatchBytes = UInt32(clamping: max(policy.maxBatchBytes, UploadQueue.minimumBatchBytes))
            return result
        }
        let key = InstallationKey(deviceId: batch.deviceId, installId: batch.installId)
        var backlog = batch.fixes
        if let reason = holdReason(for: batch, backlog: &backlog) {
            result.ack.outcome = .hold
            result.ack.holdReason = reason
            result.ack.retryAfterMs = policy.retryAfterMs
            return result
        }
        var record = installations[key] ?? InstallationRecord()
        record.deviceId = key.deviceId
        record.installId = key.installId
        if let quota = policy.fixQuotaPerInstallation {
            // The fixes the batch would newly store: not stored yet, and without a defect (§item-defects).
            let candidates = (backlog + (batch.liveFix.map { [$0] } ?? [])).filter { defect(of: $0) == nil }
            let new = Set(candidates.map(\.sequence)).filter {
                $0 != 0 && !record.storedFixes.contains($0) && !record.rejectedFixes.contains($0)
            }
            if record.storedFixes.count + UInt64(new.count) > quota {
                result.ack.outcome = .hold
                result.ack.holdReason = .quotaExceeded
                result.ack.retryAfterMs = policy.retryAfterMs
                return result
            }
        }

        result.ack.outcome = .processed
        var fixResults = ResultList()
        for fix in backlog + (batch.liveFix.map { [$0] } ?? []) where fix.sequence != 0 {
            guard !fixResults.has(fix.sequence) else { continue }  // a number twice in one batch: first wins
            if record.storedFixes.contains(fix.sequence) {
                fixResults.add(fix.sequence, .duplicate)
            } else if record.rejectedFixes.contains(fix.sequence) {
                // Refused once, refused for good (§refused-stays-refused): a resend whose content has no defect
                // reuses the key with other content, which §sequence-consecutive forbids.
                let reason = defect(of: fix) ?? .invalid
                result.rejectedFixes.append(fix.sequence)
                result.rejectReasons.append(reason)
                fixResults.add(fix.sequence, .rejected, reason)
            } else if let reason = defect(of: fix) {
                record.rejectedFixes.insert(fix.sequence)
                result.rejectedFixes.append(fix.sequence)
                result.rejectReasons.append(reason)
                fixResults.add(fix.sequence, .rejected, reason)
            } else {
                record.storedFixes.insert(fix.sequence)
                result.storedFixes.append(fix)
                fixResults.add(fix.sequence, .accepted)
            }
        }
        var eventResults = ResultList()
        for event in batch.fenceEvents where event.eventSequence != 0 {
            guard !eventResults.has(event.eventSequence) else { continue }
            if record.storedEvents.contains(event.eventSequence) {
                eventResults.add(event.eventSequence, .duplicate)
            } else if record.rejectedEvents.contains(event.eventSequence) || event.regionId.isEmpty
                || event.kind == .unspecified
            {
                record.rejectedEvents.insert(event.eventSequence)
                eventResults.add(event.eventSequence, .rejected, .invalid)
            } else {
                record.storedEvents.insert(event.eventSequence)
                result.storedEvents.append(event)
                eventResults.add(event.eventSequence, .accepted)
            }
        }
        for event in batch.lifecycleEvents {
            let seen = zip(record.lifecycleKinds, record.lifecycleTimes).contains {
                $0.0 == event.kind.rawValue && $0.1 == event.timeMs
            }
            guard !seen else { continue }
            record.lifecycleKinds.append(event.kind.rawValue)
            record.lifecycleTimes.append(event.timeMs)
            result.storedLifecycleEvents.append(event)
        }
        record.fixFloor = max(record.fixFloor, batch.fixSequenceFloor)
        record.eventFloor = max(record.eventFloor, batch.eventSequenceFloor)
        installations[key] = record

        result.ack.fixResults = fixResults.ranges
        result.ack.fenceEventResults = eventResults.ranges
        // The policy goes to a device that states an older one (§policy-in-acks), so no record of what each
        // device holds is needed.
        if let trackingPolicy = policy.trackingPolicy, batch.policyVersion < trackingPolicy.policyVersion {
            result.ack.trackingPolicy = trackingPolicy
        }
        return result
    }

    /// A passing or batch-wide reason to store nothing (`§hold-keeps`, `§revision`, `§no-silent-drop`); also
    /// rebuilds a compact backlog into `backlog`.
    private func holdReason(for batch: LocationBatch, backlog: inout [LocationFix]) -> HoldReason? {
        if let reason = policy.holdEverything { return reason }
        if batch.protocolRevision < Self.protocolRevision || batch.installId == 0 { return .unsupportedRevision }
        if batch.deviceId.isEmpty { return .deviceUnknown }
        if let known = policy.knownDevices, !known.contains(batch.deviceId) { return .deviceUnknown }
        if !batch.datum.isKnown { return .unknownDatum }
        if let compact = batch.compactFixes {
            let unknown = compact.unknownFields.fieldNumbers
            if unknown.contains(where: Self.futureCompactColumns.contains) { return .unknownCompactColumn }
            // A known field with an unexpected wire type is kept as unknown; read as absent it would store every
            // fix without that column (§compact-column-wire-type).
            let knownFieldAsUnknown =
                unknown.contains { CompactFixes.schema.field(number: UInt32($0)) != nil }
                || compact.columns.contains { column in
                    guard let column else { return false }
                    return column.unknownFields.fieldNumbers.contains {
                        FixColumn.schema.field(number: UInt32($0)) != nil
                    }
                }
            if knownFieldAsUnknown { return .batchMalformed }
            guard backlog.isEmpty, let rows = try? compact.fixes() else { return .batchMalformed }
            backlog = rows
        }
        return nil
    }

    /// A permanent defect of the fix itself, which sending it again cannot cure (`§ack-table`), or nil.
    private func defect(of fix: LocationFix) -> RejectReason? {
        guard let latitude = fix.latitudeE7, let longitude = fix.longitudeE7,
            (-900_000_000...900_000_000).contains(latitude), (-1_800_000_000...1_800_000_000).contains(longitude),
            latitude != 0 || longitude != 0
        else { return .invalidCoordinates }
        guard Self.validTimes.contains(fix.timeMs) else { return .timestampOutOfRange }
        if let oldest = policy.oldestAcceptedTimeMs, fix.timeMs < oldest { return .tooOld }
        if fix.isMock, !policy.acceptsMockFixes { return .mockLocation }
        return nil
    }
}

/// Item results collected in sequence order and coalesced into as few ranges as possible: neighbouring items of
/// the batch with one result share a range even when numbers the batch did not contain lie between them, as the
/// spec allows (`§ack-scope`). So the ack stays short however the device split its backlog, and a device that
/// applied a range to items outside the batch would lose data here, where the simulator sees it.
struct ResultList {
    private var results: [UInt64: (AckResult, RejectReason)] = [:]

    func has(_ sequence: UInt64) -> Bool { results[sequence] != nil }

    mutating func add(_ sequence: UInt64, _ result: AckResult, _ reason: RejectReason = .unspecified) {
        results[sequence] = (result, reason)
    }

    var ranges: [AckRange] {
        var ranges: [AckRange] = []
        for sequence in results.keys.sorted() {
            let (result, reason) = results[sequence]!
            if var last = ranges.last, last.result == result, last.rejectReason == reason {
                last.lastSequence = sequence
                ranges[ranges.count - 1] = last
            } else {
                var range = AckRange()
                range.firstSequence = sequence
                range.lastSequence = sequence
                range.result = result
                range.rejectReason = reason
                ranges.append(range)
            }
        }
        return ranges
    }
}
