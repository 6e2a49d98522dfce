import LocationWire

/// The device's upload timer, exactly as proto/BEHAVIOR.md "Upload scheduling" states it (`§upload-schedule`,
/// `§upload-drain`, `§upload-boot`): when a batch goes out, from `upload_interval_ms`, `max_batch_size`,
/// `max_batch_age_ms`, the back-off and `retry_after_ms`. Times are the monotonic clock of the current boot, in
/// ms; every answer to an attempt is immediate.
public struct UploadScheduler: Sendable {
    /// How one attempt ends.
    public enum AttemptResult: Equatable, Sendable {
        case succeeded
        /// A transport failure: back off (`§back-off`).
        case transportFailed
        /// A `HOLD` with this `retry_after_ms`.
        case held(retryAfterMs: UInt32)
    }

    /// One attempt: when, and which recorded fixes (by their place in the recording order) it carried: the
    /// backlog, oldest first, then the live fix (`§batch-composition`).
    public struct Attempt: Equatable, Sendable {
        public var bootId: UInt64
        public var elapsedMs: UInt64
        public var recorded: [Int]
        public var succeeded: Bool
    }

    let intervalMs: UInt64
    let maxBatchSize: Int
    let maxAgeMs: UInt64

    /// The timer's scalars (``State``): what an app stores to continue after a kill and relaunch
    /// (`§upload-relaunch`), with the pending fixes' record times, which it stores with the fixes.
    private var state = State()
    /// The pending fixes, oldest first, from `pendingStart` on: their places in the recording order and their
    /// record times. Batches take from both ends (the newest as the live fix), so the middle stays.
    private var pending: [(recorded: Int, timeMs: UInt64)] = []
    private var pendingStart = 0
    /// The attempts made and not yet taken (``takeAttempts()``), oldest first.
    public private(set) var attempts: [Attempt] = []

    public init(policy: TrackingPolicy) {
        intervalMs = UInt64(policy.effectiveUploadIntervalMs)
        maxBatchSize = max(1, Int(policy.effectiveMaxBatchSize))
        maxAgeMs = UInt64(policy.effectiveMaxBatchAgeMs)
    }

    /// A timer that continues from `state`, the ``persistedState`` of a timer under the same policy, with its
    /// pending fixes given back as ``pendingFixes`` listed them (in any order): given the same fixes and answers
    /// from then on, it makes exactly the attempts that timer would have made (`§upload-relaunch`).
    public init(policy: TrackingPolicy, restoring state: State, pending: [PendingFix]) {
        self.init(policy: policy)
        self.state = state
        // A fix recorded in an earlier boot counts as recorded at this boot's start (`§upload-boot`).
        self.pending = pending.sorted { $0.recorded < $1.recorded }.map { fix in
            (fix.recorded, fix.bootId == state.bootId ? fix.recordedAtMs : state.bootStartMs)
        }
    }

    /// The timer's scalars now, O(1) in size whatever is pending: store them (``State/serializedBytes()``) once
    /// the attempts of a fix are stored.
    public var persistedState: State { state }

    /// A pending fix as the app stores it beside the fix, to give back on restore: its place in the recording
    /// order, and the boot and time it was recorded at (the times ``recorded(at:)`` was given).
    public struct PendingFix: Equatable, Sendable {
        public var recorded: Int
        public var bootId: UInt64
        /// ms on the monotonic clock of `bootId`.
        public var recordedAtMs: UInt64

        public init(recorded: Int, bootId: UInt64, recordedAtMs: UInt64) {
            self.recorded = recorded
            self.bootId = bootId
            self.recordedAtMs = recordedAtMs
        }
    }

    /// The pending fixes, oldest first (O(n): for tests and for an app that stores them all at once).
    public var pendingFixes: [PendingFix] {
        pending[pendingStart...].map {
            PendingFix(recorded: $0.recorded, bootId: state.bootId ?? 0, recordedAtMs: $0.timeMs)
        }
    }

    public var pendingCount: Int { pending.count - pendingStart }

    /// The attempts made since the last call, oldest first; ``attempts`` is empty afterwards. A long-running app
    /// calls it after each fix so memory stays bounded; what it takes changes no later decision.
    public mutating func takeAttempts() -> [Attempt] {
        defer { attempts = [] }
        return attempts
    }

    /// Time moves to `elapsedMs` of `bootId` (a delivered fix that passed the clock checks): uploads due before it
    /// happen first; a new boot restarts the timer. `results(n)` answers the nth attempt of the timer's life, 0 the
    /// first (a restored timer counts on from its state).
    public mutating func advance(bootId: UInt64, to elapsedMs: UInt64, results: (Int) -> AttemptResult) {
        if bootId != state.bootId {
            // `§upload-boot`: the old boot's clock means nothing now; pending fixes go at once.
            let firstBoot = state.bootId == nil
            state.bootId = bootId
            state.bootStartMs = elapsedMs
            state.lastUploadMs = elapsedMs
            state.retryAtMs = nil
            for index in pendingStart..<pending.count { pending[index].timeMs = elapsedMs }
            state.bootDueMs = firstBoot ? nil : elapsedMs
            return
        }
        runDue(before: elapsedMs, inclusive: false, results: results)
    }

    /// A fix was recorded at `elapsedMs` of the current boot.
    public mutating func recorded(at elapsedMs: UInt64) {
        pending.append((state.recordedCount, elapsedMs))
        state.recordedCount &+= 1
    }

    /// Uploads due at or before `elapsedMs` happen (after the fixes recorded at that time).
    public mutating func settle(at elapsedMs: UInt64, results: (Int) -> AttemptResult) {
        runDue(before: elapsedMs, inclusive: true, results: results)
        // `§upload-boot`: the upload due at once is due at the boot's first fix, when something is pending then;
        // with nothing pending, the ordinary triggers take over (an upload never carries a later fix).
        if state.bootDueMs == elapsedMs { state.bootDueMs = nil }
    }

    /// The next upload time, if anything is pending.
    public var dueMs: UInt64? {
        guard pendingCount > 0 else { return nil }
        if let retryAtMs = state.retryAtMs { return retryAtMs }
        let oldest = pending[pendingStart].timeMs
        var due = max(state.lastUploadMs.addingClamped(intervalMs), oldest)
        if pendingCount >= maxBatchSize { due = min(due, pending[pendingStart + maxBatchSize - 1].timeMs) }
        due = min(due, oldest.addingClamped(maxAgeMs))
        if let bootDueMs = state.bootDueMs { due = min(due, bootDueMs) }
        return due
    }

    private mutating func runDue(before limit: UInt64, inclusive: Bool, results: (Int) -> AttemptResult) {
        while let due = dueMs, due < limit || (inclusive && due == limit) {
            drain(at: due, results: results)
        }
    }

    /// `§upload-drain`: batches one after another until nothing is pending or an attempt fails; each carries the
    /// newest pending fix as its live fix and the oldest others as its backlog, up to `max_batch_size` in all.
    private mutating func drain(at due: UInt64, results: (Int) -> AttemptResult) {
        state.lastUploadMs = due
        state.bootDueMs = nil
        state.retryAtMs = nil
        while pendingCount > 0 {
            let backlog = min(maxBatchSize, pendingCount) - 1
            let result = results(state.attemptCount)
            state.attemptCount &+= 1
            let carried =
                pending[pendingStart..<pendingStart + backlog].map(\.recorded) + [pending[pending.count - 1].recorded]
            attempts.append(
                Attempt(bootId: state.bootId ?? 0, elapsedMs: due, recorded: carried, succeeded: result == .succeeded))
            switch result {
            case .succeeded:
                pending.removeLast()
                pendingStart += backlog
                state.failuresInARow = 0
            case .transportFailed:
                state.failuresInARow &+= 1
                state.retryAtMs = due.addingClamped(Self.backOffMs(failuresInARow: state.failuresInARow))
                return
            case .held(let retryAfterMs):
                state.retryAtMs = due.addingClamped(UInt64(retryAfterMs))
                return
            }
        }
        // The pending list is empty: drop what was sent so memory stays bounded on long traces.
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
    }

    /// `§back-off`: 1 s after the first failure in a row, doubling, at most 300 s.
    public static func backOffMs(failuresInARow: Int) -> UInt64 {
        let doublings = min(max(failuresInARow - 1, 0), 9)
        return min(1_000 << UInt64(doublings), 300_000)
    }
}

extension UInt64 {
    /// Addition that stops at the maximum: times from hostile input must not trap.
    @inlinable func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
