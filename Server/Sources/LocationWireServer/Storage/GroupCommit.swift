import LocationWire
import LocationWireSession
import Synchronization

/// The queue of batches waiting for ``SQLiteStorage``'s next transaction (group commit).
final class GroupCommit: Sendable {
    /// One `ingest` call waiting for its ack.
    struct Waiting: Sendable {
        var batch: LocationBatch
        var encodedSize: Int
        var nowMs: Int64
        var policy: IngestLedger.Policy
        var continuation: CheckedContinuation<BatchAck, any Error>
    }

    /// The most batches in one transaction: bounds the work one commit holds back (and the latency of its
    /// first batch) when thousands wait.
    static let maxGroupSize = 256

    private struct State {
        var waiting: [Waiting] = []
        /// A committer task is running; it takes what is added before it stops.
        var committing = false
    }

    private let state = Mutex(State())

    /// Adds a batch; true when no committer runs, so the caller must start one.
    func enqueue(_ waiting: Waiting) -> Bool {
        state.withLock { state in
            state.waiting.append(waiting)
            guard !state.committing else { return false }
            state.committing = true
            return true
        }
    }

    /// The next group, oldest first, or nil when none waits, in which case the committer stops (atomically
    /// with the check, so a batch enqueued after it starts a new committer).
    func takeGroup() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.committing = false
                return nil
            }
            let count = min(state.waiting.count, Self.maxGroupSize)
            let group = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(count)
            return group
        }
    }
}
