import LocationWire
import LocationWireBehavior
import LocationWireHTTPBinding
import LocationWireSession

/// The device's uploads: one batch at a time from the queue, sent over the HTTP binding, and the answer applied
/// as proto/HTTP.md says (`§http-device-answers`), with what an applied ack asks carried out (deletions, hints,
/// commands, a newer policy). Items are durable before they are sent (the store commits first), and so is the
/// batch's record, so that a relaunch knows what is in flight and a late ack still applies.
final class DeviceUploads {
    private let state: DeviceState
    private let regions: DeviceRegions
    private let transport: any DeviceTransport
    private var random = SystemRandomNumberGenerator()
    /// A store failure inside an upload, which the timer's callback cannot throw.
    private var storeError: (any Error)?
    /// An ack carried a newer policy, which the engines take once the timer's uploads return (``afterUploads()``).
    private var policyAdoptionOwed = false

    init(state: DeviceState, regions: DeviceRegions, transport: any DeviceTransport) {
        self.state = state
        self.regions = regions
        self.transport = transport
    }

    /// A 401 or 403 refused the credentials the transport has now (`§http-credentials`).
    var credentialsRefused: Bool {
        !state.record.refusedToken.isEmpty && state.record.refusedToken == transport.credentialFingerprint
    }

    /// One attempt of the timer, for its callback: a store failure is kept for ``afterUploads()`` to throw.
    func attempt() -> UploadScheduler.AttemptResult {
        do {
            return try attemptOnce()
        } catch {
            // Nothing was sent that is not durable, and nothing was deleted that is.
            storeError = error
            return .transportFailed
        }
    }

    /// What the uploads the timer just made leave to do once it has returned: throw the store's error, if one
    /// came, and take a new policy an ack carried. The engines are replaced only here, never from inside the
    /// timer's callback, which runs while the scheduler it would replace is being advanced.
    func afterUploads() throws {
        if policyAdoptionOwed {
            policyAdoptionOwed = false
            state.adoptPolicy()
        }
        guard let error = storeError else { return }
        storeError = nil
        throw error
    }

    /// Forgets what an attempt left for ``afterUploads()``: the store rolled back to before it.
    func rolledBack() {
        storeError = nil
    }

    private func attemptOnce() throws -> UploadScheduler.AttemptResult {
        if credentialsRefused { return .transportFailed }
        let nowMs = state.wallMs()
        guard state.queue.maySend(nowMs: nowMs) else {
            // A hold or back-off in force (the only reason here: one batch at a time, each answered or given up).
            let (waitMs, overflow) = max(state.queue.holdUntilMs, nowMs).subtractingReportingOverflow(nowMs)
            return .held(retryAfterMs: overflow ? .max : UInt32(clamping: waitMs))
        }
        var batchId: UInt64 = 0
        while batchId == 0 { batchId = random.next() }
        guard
            let batch = try state.queue.nextBatch(
                batchId: batchId, bootId: state.clock?.bootId ?? 0, nowMs: nowMs,
                sentElapsedRealtimeMs: state.clock?.elapsedMs)
        else { return .succeeded }
        try state.saveQueue()
        try state.commit()
        let body = batch.serializedBytes()
        state.record.uploadAttempts += 1
        state.record.bytesSent += UInt64(body.count)
        let answer: UploadAnswer
        switch transport.post(path: Binding.batchesPath, messageName: "LocationBatch", body: body) {
        case .failure(let failure): answer = .transportFailure(failure.description)
        case .success(let http):
            answer = UploadAnswer(
                status: http.status, contentType: http.headers["content-type"], retryAfter: http.headers["retry-after"],
                body: http.body, bodyIsWhole: true, batchId: batchId, nowMs: nowMs)
        }
        let policyBefore = state.queue.policy
        let (application, followUp) = try state.queue.apply(
            answer, toBatch: batchId, sentBytes: body.count, nowMs: nowMs)
        if case .applied(let effect) = application { take(effect) }
        if state.queue.policy != policyBefore { policyAdoptionOwed = true }
        if case .stop = followUp { state.record.refusedToken = transport.credentialFingerprint }
        try state.saveQueue()
        try state.saveRecord()
        try state.commit()
        // The queue holds the wait every failure asks for (`§back-off`); an answer that deleted something, or a
        // 413 (sent again at once, smaller), lets the timer go on.
        let waitMs = max(state.queue.holdUntilMs, nowMs) - nowMs
        if case .applied(let effect) = application, effect.outcome == .processed, state.queue.consecutiveFailures == 0 {
            return .succeeded
        }
        return .held(retryAfterMs: UInt32(clamping: waitMs))
    }

    /// Carries out what an applied ack asks beyond the deletions the queue made: counts, hints and commands.
    private func take(_ effect: AckEffect) {
        state.record.acksApplied += 1
        state.noteDiscarded(effect.discardedFixes)
        state.record.fixesAcknowledged += UInt64(effect.storedFixes.count + effect.rejectedFixes.count)
        if effect.requestRegions { regions.owe(.serverHint) }
        for command in effect.commands {
            switch command.kind {
            case .recordFix: state.record.recordFixOwed = true
            case .requestRegions: regions.owe(.serverHint)
            case .uploadNow: state.record.uploadNowOwed = true
            default: break
            }
        }
    }

    /// Sends what is pending, whatever the timer says, waiting out holds, `Retry-After` and the back-off on the
    /// device clock (calling `wait` with each wait in ms), for at most `maxAttempts` attempts or until the
    /// credentials are refused. Returns whether the queue drained.
    func drain(maxAttempts: Int, wait: (UInt64) -> Void) throws -> Bool {
        var attempts = 0
        while !state.queue.isDrained, attempts < maxAttempts, !credentialsRefused {
            attempts += 1
            state.record.drainAttempts += 1
            let result = attempt()
            try afterUploads()
            switch result {
            case .succeeded: continue
            case .held(let retryAfterMs): pass(UInt64(retryAfterMs), wait: wait)
            case .transportFailed:
                pass(UInt64(max(state.queue.holdUntilMs, state.wallMs()) - state.wallMs()), wait: wait)
            }
        }
        try state.commit()
        return state.queue.isDrained
    }

    /// Lets `ms` pass on the device clock.
    private func pass(_ ms: UInt64, wait: (UInt64) -> Void) {
        guard ms > 0 else { return }
        wait(ms)
        state.clock = state.clock?.passing(ms)
    }
}
