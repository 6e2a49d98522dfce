import LocationWire

extension UploadQueueEngine {
    /// Whether a batch may go out now: no hold or back-off in force and fewer than `max_batches_in_flight`
    /// batches in flight (`§in-flight`, `§retry-after`).
    public func maySend(nowMs: Int64) -> Bool {
        nowMs >= state.holdUntilMs && activeBatchCount < maxBatchesInFlight
    }

    /// Builds the next batch from the items in no batch in flight, records what it carries, and returns it; nil
    /// when sending is not allowed now or there is nothing to send.
    ///
    /// - The backlog is the oldest free fixes, oldest first; the newest free fix is the live fix. Both count
    ///   against `max_batch_size`.
    /// - The batch keeps within ``maxBatchBytes`` (`§batch-size`): the item lists are halved until it fits.
    /// - The backlog goes compact only when the policy accepts compact fixes, the server's revision knows every
    ///   column, no HOLD for an unknown column came (`§no-silent-drop`) and no fix has unknown fields.
    /// - An item's `boot_id` is cleared where it equals the batch's (`§item-boot`).
    ///
    /// - Parameters:
    ///   - batchId: a fresh random non-zero id (`§batch-id`).
    ///   - bootId: the current boot's id.
    ///   - nowMs: the device clock, UTC ms (`sent_at_ms`).
    public mutating func nextBatch(
        batchId: UInt64, bootId: UInt64, nowMs: Int64, sentElapsedRealtimeMs: UInt64? = nil
    ) throws(Items.Failure) -> LocationBatch? {
        guard maySend(nowMs: nowMs), !state.batches.contains(where: { $0.batchId == batchId }) else { return nil }
        let busyFixes = sequencesInActiveBatches(\.fixSequences)
        // One more than a batch takes tells whether the newest free fix must be fetched as the live fix.
        var freeFixes = try items.fixes.oldest(maxBatchSize + 1, excluding: busyFixes)
        if freeFixes.count > maxBatchSize, let newest = try items.fixes.newest(excluding: busyFixes) {
            // The oldest as backlog, the newest as the live fix.
            freeFixes = Array(freeFixes.prefix(maxBatchSize - 1)) + [newest]
        }
        var freeEvents = try items.fenceEvents.oldest(
            maxBatchSize, excluding: sequencesInActiveBatches(\.eventSequences))
        var freeLifecycle = try items.lifecycleEvents.oldest(
            maxBatchSize, excluding: sequencesInActiveBatches(\.lifecycleIds))
        // A snapshot already on its way in an active batch is not sent twice.
        let batches = state.batches
        var status =
            state.deviceStatusReported || batches.contains { !$0.givenUp && $0.deviceStatus == state.deviceStatus }
            ? nil : state.deviceStatus
        var armed =
            state.armedRegionsReported || batches.contains { !$0.givenUp && $0.armedRegions == state.armedRegions }
            ? nil : state.armedRegions
        guard !freeFixes.isEmpty || !freeEvents.isEmpty || !freeLifecycle.isEmpty || status != nil || armed != nil
        else { return nil }
        let floors = try sequenceFloors()

        func build() -> LocationBatch {
            var batch = assemble(
                fixes: freeFixes, events: freeEvents, lifecycle: freeLifecycle.map(\.event), status: status,
                armed: armed, batchId: batchId, bootId: bootId, nowMs: nowMs,
                sentElapsedRealtimeMs: sentElapsedRealtimeMs)
            batch.fixSequenceFloor = floors.fix
            batch.eventSequenceFloor = floors.event
            return batch
        }
        var batch = build()
        while true {
            let largest = max(freeFixes.count, freeEvents.count, freeLifecycle.count)
            guard batch.serializedSize > maxBatchBytes, largest > 1 else { break }
            // Halve the longest lists; the live fix stays the newest of what is left.
            if freeFixes.count > 1 { freeFixes = Array(freeFixes.prefix((freeFixes.count + 1) / 2)) }
            if freeEvents.count > 1 { freeEvents = Array(freeEvents.prefix((freeEvents.count + 1) / 2)) }
            if freeLifecycle.count > 1 { freeLifecycle = Array(freeLifecycle.prefix((freeLifecycle.count + 1) / 2)) }
            batch = build()
        }
        let itemCount = freeFixes.count + freeEvents.count + freeLifecycle.count
        if batch.serializedSize > maxBatchBytes, itemCount > 0 {
            // The state reports ride only where they fit; when not even one item fits, the oldest goes alone:
            // a fix, else a fence event, else a lifecycle event (proto/HTTP.md `§http-shrink-alone`).
            status = nil
            armed = nil
            batch = build()
            if batch.serializedSize > maxBatchBytes, itemCount > 1 {
                if !freeFixes.isEmpty {
                    freeEvents = []
                    freeLifecycle = []
                } else if !freeEvents.isEmpty {
                    freeLifecycle = []
                }
                batch = build()
            }
        }

        var record = BatchRecord()
        record.batchId = batchId
        record.fixSequences = freeFixes.map(\.sequence)
        record.eventSequences = freeEvents.map(\.eventSequence)
        record.lifecycleIds = freeLifecycle.map(\.id)
        record.deviceStatus = status
        record.armedRegions = armed
        record.encodedSize = UInt32(clamping: batch.serializedSize)
        record.sentAtMs = nowMs
        state.batches.append(record)
        return batch
    }

    private func assemble(
        fixes chosen: [LocationFix], events: [FenceEvent], lifecycle: [LifecycleEvent], status: DeviceStatus?,
        armed: ArmedRegions?, batchId: UInt64, bootId: UInt64, nowMs: Int64, sentElapsedRealtimeMs: UInt64?
    ) -> LocationBatch {
        var batch = LocationBatch()
        batch.deviceId = state.deviceId
        batch.installId = state.installId
        batch.batchId = batchId
        batch.bootId = bootId
        batch.sentAtMs = nowMs
        batch.sentElapsedRealtimeMs = sentElapsedRealtimeMs
        batch.datum = state.datum
        batch.protocolRevision = Self.protocolRevision
        batch.policyVersion = state.policy.policyVersion
        func sameBootCleared(_ fix: LocationFix) -> LocationFix {
            var fix = fix
            if fix.bootId == bootId { fix.bootId = 0 }
            return fix
        }
        let rows = chosen.map(sameBootCleared)
        if let live = rows.last {
            batch.liveFix = live
            let backlog = Array(rows.dropLast())
            if !backlog.isEmpty {
                if sendsCompact(backlog), let compact = try? CompactFixes(fixes: backlog) {
                    batch.compactFixes = compact
                } else {
                    batch.fixes = backlog
                }
            }
        }
        batch.fenceEvents = events.map { event in
            var event = event
            if event.bootId == bootId { event.bootId = 0 }
            return event
        }
        batch.lifecycleEvents = lifecycle.map { event in
            var event = event
            if event.bootId == bootId { event.bootId = 0 }
            return event
        }
        batch.deviceStatus = status
        batch.armedRegions = armed
        return batch
    }

    /// Compact only where nothing can be dropped (`§no-silent-drop`, `§revision`).
    private func sendsCompact(_ backlog: [LocationFix]) -> Bool {
        state.policy.compactFixesAccepted && !state.rowsOnly && state.serverRevision >= Self.protocolRevision
            && backlog.count > 1
            && backlog.allSatisfy { $0.unknownFields.isEmpty }
    }

    /// The transport failed, or no ack came in time (`§no-ack`): every item of the batch is kept and may go out
    /// again; the record stays, so that a late ack still applies. A failure (`§back-off`): the next batch waits
    /// `waitMs` when the answer stated a wait (`Retry-After`), else the back-off.
    /// `countingFailure` is false when the failure was counted already (an ack ignored for the batch).
    public mutating func giveUp(batchId: UInt64, nowMs: Int64, waitMs: Int64? = nil, countingFailure: Bool = true) {
        guard let index = state.batches.firstIndex(where: { $0.batchId == batchId && !$0.givenUp }) else { return }
        state.batches[index].givenUp = true
        guard countingFailure else {
            forgetOldGivenUpBatches()
            return
        }
        state.consecutiveFailures += 1
        let wait = waitMs ?? Self.backOffMs(consecutiveFailures: state.consecutiveFailures)
        state.holdUntilMs = max(state.holdUntilMs, nowMs + max(wait, 0))
        forgetOldGivenUpBatches()
    }

    /// Keeps at most ``rememberedGivenUpBatches`` given-up records (`§no-ack`: forgetting is safe).
    mutating func forgetOldGivenUpBatches() {
        var givenUp = state.batches.count { $0.givenUp }
        while givenUp > Self.rememberedGivenUpBatches, let oldest = state.batches.firstIndex(where: { $0.givenUp }) {
            state.batches.remove(at: oldest)
            givenUp -= 1
        }
    }
}
