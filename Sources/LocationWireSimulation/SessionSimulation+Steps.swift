import LocationWire
import LocationWireBehavior
import LocationWireRandom
import LocationWireSession

extension SessionSimulation {
    /// Runs the schedule, checking the invariants after every action, then heals and checks the end state.
    mutating func execute(_ schedule: [SessionAction]) -> SessionReport {
        queue.injectedFaults = injectedFaults
        for (index, action) in schedule.enumerated() {
            perform(action)
            checkSafety(step: index)
            if !report.violations.isEmpty { return report }
        }
        heal(step: schedule.count)
        return report
    }

    mutating func perform(_ action: SessionAction) {
        nowMs += 500 + Int64(random.index(2500))
        switch action {
        case .record(let count):
            for _ in 0..<count { recordFromTrace() }
        case .recordDefective:
            var fix = trace.nextFix()
            fix.latitudeE7 = 950_000_000  // beyond the pole: a permanent defect of the item
            recordFix(fix, defective: true)
        case .recordEvent:
            var event = FenceEvent()
            event.regionId = "site:\(1 + random.index(3))"
            event.kind = random.index(2) == 0 ? .enter : .exit
            event.source = .osRegionMonitor
            event.osEventTimeMs = nowMs - 1000
            event.detectedAtMs = nowMs
            event.bootId = bootId
            event.detectedElapsedRealtimeMs = UInt64(nowMs - bootStartMs)
            recordedEvents.append(FixKey(installId: queue.installId, sequence: queue.record(event)))
        case .recordLifecycle:
            var event = LifecycleEvent()
            event.kind = .enteredBackground
            event.timeMs = nowMs
            event.bootId = bootId
            queue.record(event)
        case .send: send()
        case .deliverRequest(let pick): if let request = take(&requests, pick) { serve(request) }
        case .deliverResponse(let pick): if let response = take(&responses, pick) { receive(response) }
        case .loseRequest(let pick): _ = take(&requests, pick)
        case .loseResponse(let pick): _ = take(&responses, pick)
        case .duplicateRequest(let pick): if let request = peek(requests, pick) { requests.append(request) }
        case .duplicateResponse(let pick): if let response = peek(responses, pick) { responses.append(response) }
        case .timeout:
            if let batch = queue.batches.first(where: { !$0.givenUp }) {
                queue.giveUp(batchId: batch.batchId, nowMs: nowMs)
            }
        case .advance(let ms): nowMs += Int64(ms)
        case .killApp: restartApp()
        case .reboot:
            restartApp()
            bootId = random.next() | 1
            bootStartMs = nowMs
        case .restartServer:
            var restored = (try? IngestLedger(serializedBytes: persistedLedger)) ?? IngestLedger()
            restored.policy = ledger.policy
            ledger = restored
        case .reinstall:
            // Storage is gone: whatever the queue held is lost with it, with no ack ever to come.
            for fix in queue.fixes { lost.insert(FixKey(installId: queue.installId, sequence: fix.sequence)) }
            for event in queue.fenceEvents {
                lostEvents.insert(FixKey(installId: queue.installId, sequence: event.eventSequence))
            }
            responses.removeAll()
            queue = UploadQueue(deviceId: Self.deviceId, installId: random.next() | 1)
            queue.injectedFaults = injectedFaults
        case .changePolicy(let variant):
            var policy = TrackingPolicy()
            policyVersion += 1
            policy.policyVersion = policyVersion
            policy.maxBatchSize = [1, 2, 3, 7, 50, 500][variant % 6]
            policy.maxBatchesInFlight = UInt32(1 + (variant / 6) % 3)
            policy.compactFixesAccepted = (variant / 18) % 2 == 1
            policy.maxBatchBytes = variant >= 36 ? 16_384 : nil
            ledger.policy.trackingPolicy = policy
        case .holdServer(let variant):
            ledger.policy.holdEverything = [HoldReason.serverBusy, .deviceUnknown, .quotaExceeded][variant % 3]
            ledger.policy.retryAfterMs = variant % 2 == 0 ? 30_000 : nil
        case .releaseServer:
            ledger.policy.holdEverything = nil
        case .limitServerBytes:
            ledger.policy.maxBatchBytes = UploadQueue.minimumBatchBytes
        case .storageFull(let count):
            for sequence in queue.discardOldestFixes(count) {
                lost.insert(FixKey(installId: queue.installId, sequence: sequence))
            }
        }
    }

    /// The message `pick` chooses: any one when the network reorders, else the oldest.
    func index(in messages: [[UInt8]], _ pick: Int) -> Int? {
        guard !messages.isEmpty else { return nil }
        return faults.contains(.reordering) ? pick % messages.count : 0
    }

    func peek(_ messages: [[UInt8]], _ pick: Int) -> [UInt8]? {
        index(in: messages, pick).map { messages[$0] }
    }

    func take(_ messages: inout [[UInt8]], _ pick: Int) -> [UInt8]? {
        index(in: messages, pick).map { messages.remove(at: $0) }
    }

    mutating func recordFromTrace() {
        let fix = trace.nextFix()
        var log = RecordingLog()
        recorder.deliver(fix, index: recorderIndex, to: &log)
        recorderIndex += 1
        // Without a window the engine decides on each fix at once, so a recorded decision is this fix's.
        for case .recorded(_, let reason) in log.decisions {
            var kept = fix
            kept.reason = reason
            recordFix(kept, defective: false)
        }
    }

    mutating func recordFix(_ fix: LocationFix, defective isDefective: Bool) {
        var fix = fix
        fix.bootId = bootId
        fix.elapsedRealtimeMs = UInt64(max(0, nowMs - bootStartMs))
        let sequence = queue.record(fix)
        let key = FixKey(installId: queue.installId, sequence: sequence)
        recorded.append(key)
        if isDefective { defective.insert(key) }
        report.counts.recordedFixes += 1
    }

    mutating func send() {
        guard
            let batch = queue.nextBatch(
                batchId: random.next() | 1, bootId: bootId, nowMs: nowMs,
                sentElapsedRealtimeMs: UInt64(max(0, nowMs - bootStartMs)))
        else { return }
        requests.append(batch.serializedBytes())
        report.counts.batchesSent += 1
    }

    /// The server reads a request, stores what it says, persists, and only then answers (`§server-durable`).
    mutating func serve(_ request: [UInt8]) {
        guard let batch = try? LocationBatch(serializedBytes: request) else { return }
        let result = ledger.ingest(batch, encodedSize: request.count, nowMs: nowMs)
        for fix in result.storedFixes {
            let key = FixKey(installId: batch.installId, sequence: fix.sequence)
            if !stored.insert(key).inserted {
                fail(.storedTwice, "install \(key.installId) sequence \(key.sequence) stored again")
            }
        }
        for event in result.storedEvents {
            let key = FixKey(installId: batch.installId, sequence: event.eventSequence)
            if !storedEvents.insert(key).inserted { fail(.storedTwice, "event \(key.sequence) stored again") }
        }
        for (sequence, reason) in zip(result.rejectedFixes, result.rejectReasons) {
            let key = FixKey(installId: batch.installId, sequence: sequence)
            refused.insert(key)
            if !defective.contains(key) { fail(.refusedWithoutDefect, "sequence \(sequence) refused (\(reason))") }
        }
        persistedLedger = ledger.serializedBytes()
        responses.append(result.ack.serializedBytes())
    }

    mutating func receive(_ response: [UInt8]) {
        let application = queue.apply(ackBytes: response, nowMs: nowMs)
        if application.ignoreReason != nil { report.counts.acksIgnored += 1 }
    }

    /// The app restarts from its persisted state: in-memory state and responses on their way to it are gone.
    mutating func restartApp() {
        let persisted = queue.serializedBytes()
        guard var restored = try? UploadQueue(serializedBytes: persisted) else {
            fail(.deletedBeforeStored, "the persisted queue does not decode")
            return
        }
        restored.injectedFaults = injectedFaults
        queue = restored
        responses.removeAll()
    }

    mutating func fail(_ invariant: InvariantViolation.Invariant, _ detail: String, step: Int = -1) {
        report.violations.append(InvariantViolation(invariant: invariant, step: step, detail: detail))
    }
}
