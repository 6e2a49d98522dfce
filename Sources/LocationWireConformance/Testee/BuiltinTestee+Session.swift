import LocationWire
import LocationWireInspection
import LocationWireSession

/// The built-in testee's device and server sides: sessions run on ``UploadQueue``, ledgers on ``IngestLedger``,
/// LocationWire's reference engines.
extension BuiltinTestee {
    /// Runs a device's session, step by step, and reports each step and the queue after it.
    public func run(_ request: SessionRequest, requestHasUnknownFields: Bool = false) -> SessionResponse {
        func failure(_ message: String) -> SessionResponse {
            SessionResponse(vectorId: request.vectorId, failure: .runtimeError(message))
        }
        if requestHasUnknownFields || !request.unknownFields.isEmpty
            || request.steps.contains(where: { !$0.unknownFields.isEmpty })
        {
            return failure("the request has fields this testee does not know; update the testee")
        }
        guard request.installId != 0 else { return failure("install_id 0 is not a usable installation") }
        var queue = UploadQueue(deviceId: request.deviceId, installId: request.installId)
        if let policy = request.policy {
            // The queue takes a policy only from a server; its persisted form is the way to start with one.
            let number = UploadQueue.schema.field(named: "policy")!.number
            let field = WireBytes.lengthDelimited(number, policy.serializedBytes())
            do {
                try queue.merge(serializedBytes: field)
            } catch {
                return failure("cannot install the starting policy: \(error)")
            }
        }
        var response = SessionResponse(vectorId: request.vectorId)
        for (index, step) in request.steps.enumerated() {
            var result = SessionStepResult()
            switch step.action {
            case .recordFix(let fix): result.sequence = queue.record(fix)
            case .recordFenceEvent(let event): result.sequence = queue.record(event)
            case .recordLifecycleEvent(let event): queue.record(event)
            case .updateDeviceStatus(let status): queue.update(status)
            case .updateArmedRegions(let armed): queue.update(armed)
            case .discardOldestFixes(let count): queue.discardOldestFixes(Int(count))
            case .sendBatchId(let batchId):
                result.batch = queue.nextBatch(batchId: batchId, bootId: step.bootId, nowMs: step.nowMs)
            case .ack(let ack): Self.report(queue.apply(ack, nowMs: step.nowMs), in: &result)
            case .ackBytes(let bytes): Self.report(queue.apply(ackBytes: bytes, nowMs: step.nowMs), in: &result)
            case .giveUpBatchId(let batchId): queue.giveUp(batchId: batchId, nowMs: step.nowMs)
            case nil: return failure("step \(index) has no action")
            }
            result.heldFixSequences = queue.fixes.map(\.sequence)
            result.heldEventSequences = queue.fenceEvents.map(\.eventSequence)
            result.heldLifecycleEvents = UInt32(queue.lifecycleEvents.count)
            result.fixSequenceFloor = queue.fixSequenceFloor
            result.eventSequenceFloor = queue.eventSequenceFloor
            response.steps.append(result)
        }
        return response
    }

    /// What the device did with an ack: ignored it (with the code), or applied it (with what it asks of the app).
    static func report(_ application: AckApplication, in result: inout SessionStepResult) {
        switch application {
        case .ignored(let reason):
            result.ackIgnored = reason.code
        case .applied(let effect):
            result.executedCommandIds = effect.commands.map(\.commandId)
            result.requestRegions = effect.requestRegions
        }
    }

    /// Feeds batches to a fresh server ledger and reports the acks and what it keeps.
    public func run(_ request: LedgerRequest, requestHasUnknownFields: Bool = false) -> LedgerResponse {
        if requestHasUnknownFields || !request.unknownFields.isEmpty {
            return LedgerResponse(
                vectorId: request.vectorId,
                failure: .runtimeError("the request has fields this testee does not know; update the testee"))
        }
        var policy = IngestLedger.Policy()
        if request.maxBatchBytes != 0 { policy.maxBatchBytes = Int(request.maxBatchBytes) }
        if !request.knownDevices.isEmpty { policy.knownDevices = Set(request.knownDevices) }
        if request.fixQuotaPerInstallation != 0 { policy.fixQuotaPerInstallation = request.fixQuotaPerInstallation }
        if request.holdEverything != .unspecified { policy.holdEverything = request.holdEverything }
        policy.retryAfterMs = request.retryAfterMs
        policy.acceptsMockFixes = !request.rejectsMockFixes
        if request.oldestAcceptedTimeMs != 0 { policy.oldestAcceptedTimeMs = request.oldestAcceptedTimeMs }
        if request.policyVersion != 0 {
            var trackingPolicy = TrackingPolicy()
            trackingPolicy.policyVersion = request.policyVersion
            policy.trackingPolicy = trackingPolicy
        }
        var ledger = IngestLedger(policy: policy)
        var response = LedgerResponse(vectorId: request.vectorId)
        for ledgerBatch in request.batches {
            let bytes = ledgerBatch.bytes
            guard let batch = try? LocationBatch(serializedBytes: bytes) else {
                // A batch that does not decode: nothing can be stored or answered by item.
                var ack = BatchAck()
                ack.outcome = .hold
                ack.holdReason = .batchMalformed
                ack.serverTimeMs = request.nowMs
                ack.protocolRevision = IngestLedger.protocolRevision
                response.acks.append(ack)
                continue
            }
            response.acks.append(ledger.ingest(batch, encodedSize: bytes.count, nowMs: request.nowMs).ack)
        }
        for key in ledger.installations.keys.sorted() {
            let record = ledger.installations[key]!
            var state = InstallationState()
            state.deviceId = key.deviceId
            state.installId = key.installId
            state.storedFixes = record.storedFixes.ranges.map(SequenceRange.init)
            state.rejectedFixes = record.rejectedFixes.ranges.map(SequenceRange.init)
            state.lostFixes = ledger.lostFixes(of: key).map(SequenceRange.init)
            state.storedEvents = record.storedEvents.ranges.map(SequenceRange.init)
            state.rejectedEvents = record.rejectedEvents.ranges.map(SequenceRange.init)
            state.lostEvents = ledger.lostEvents(of: key).map(SequenceRange.init)
            response.installations.append(state)
        }
        return response
    }
}
