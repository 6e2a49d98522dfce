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

    private var bootId: UInt64?
    /// U: the last upload time, or the boot's start.
    private var lastUploadMs: UInt64 = 0
    /// The pending fixes, oldest first, from `pendingStart` on: their places in the recording order and their
    /// record times. Batches take from both ends (the newest as the live fix), so the middle stays.
    private var pending: [(recorded: Int, timeMs: UInt64)] = []
    private var pendingStart = 0
    /// How many fixes were recorded in all: the recording-order index of the next one.
    private var recordedCount = 0
    private var failuresInARow = 0
    private var retryAtMs: UInt64?
    /// A new boot with something pending: an upload is due at this time.
    private var bootDueMs: UInt64?
    public private(set) var attempts: [Attempt] = []
    /// False in a device that runs for months: `attempts` then stays empty (the rules do not read it).
    package var keepsAttempts = true
    /// Attempts made so far; what `results` is called with.
    private var attemptCount = 0

    public init(policy: TrackingPolicy) {
        intervalMs = UInt64(policy.effectiveUploadIntervalMs)
        maxBatchSize = max(1, Int(policy.effectiveMaxBatchSize))
        maxAgeMs = UInt64(policy.effectiveMaxBatchAgeMs)
    }

    public var pendingCount: Int { pending.count - pendingStart }

    /// Time moves to `elapsedMs` of `bootId` (a delivered fix that passed the clock checks): uploads due before it
    /// happen first; a new boot restarts the timer.
    public mutating func advance(bootId: UInt64, to elapsedMs: UInt64, results: (Int) -> AttemptResult) {
        if bootId != self.bootId {
            // `§upload-boot`: the old boot's clock means nothing now; pending fixes go at once.
            let firstBoot = self.bootId == nil
            self.bootId = bootId
            lastUploadMs = elapsedMs
            retryAtMs = nil
            for index in pendingStart..<pending.count { pending[index].timeMs = elapsedMs }
            bootDueMs = firstBoot ? nil : elapsedMs
            return
        }
        runDue(before: elapsedMs, inclusive: false, results: results)
    }

    /// A fix was recorded at `elapsedMs` of the current boot.
    public mutating func recorded(at elapsedMs: UInt64) {
        pending.append((recordedCount, elapsedMs))
        recordedCount += 1
    }

    /// Uploads due at or before `elapsedMs` happen (after the fixes recorded at that time).
    public mutating func settle(at elapsedMs: UInt64, results: (Int) -> AttemptResult) {
        runDue(before: elapsedMs, inclusive: true, results: results)
        // `§upload-boot`: the upload due at once is due at the boot's first fix, when something is pending then;
        // with nothing pending, the ordinary triggers take over (an upload never carries a later fix).
        if bootDueMs == elapsedMs { bootDueMs = nil }
    }

    /// The next upload time, if anything is pending.
    public var dueMs: UInt64? {
        guard pendingCount > 0 else { return nil }
        if let retryAtMs { return retryAtMs }
        let oldest = pending[pendingStart].timeMs
        var due = max(lastUploadMs.addingClamped(intervalMs), oldest)
        if pendingCount >= maxBatchSize { due = min(due, pending[pendingStart + maxBatchSize - 1].timeMs) }
        due = min(due, oldest.addingClamped(maxAgeMs))
        if let bootDueMs { due = min(due, bootDueMs) }
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
        lastUploadMs = due
        bootDueMs = nil
        retryAtMs = nil
        while pendingCount > 0 {
            let backlog = min(maxBatchSize, pendingCount) - 1
            let result = results(attemptCount)
            let carried =
                pending[pendingStart..<pendingStart + backlog].map(\.recorded) + [pending[pending.count - 1].recorded]
            attemptCount += 1
            if keepsAttempts {
                attempts.append(
                    Attempt(bootId: bootId ?? 0, elapsedMs: due, recorded: carried, succeeded: result == .succeeded))
            }
            switch result {
            case .succeeded:
                pending.removeLast()
                pendingStart += backlog
                failuresInARow = 0
            case .transportFailed:
                failuresInARow += 1
                retryAtMs = due.addingClamped(Self.backOffMs(failuresInARow: failuresInARow))
                return
            case .held(let retryAfterMs):
                retryAtMs = due.addingClamped(UInt64(retryAfterMs))
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
