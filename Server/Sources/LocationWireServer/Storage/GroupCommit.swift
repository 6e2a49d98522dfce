import LocationWire
import LocationWireSession
import Synchronization

/// The queue of batches waiting for a backend's next transaction (group commit), shared by ``SQLiteStorage``
/// and ``PostgresStorage``.
///
/// The batches that arrive while a transaction commits go together into the next one, so that one commit (one
/// WAL flush, one set of round trips) serves many requests. Groups are taken oldest first; a backend runs at
/// most ``maxConcurrentGroups`` of them at once.
final class GroupCommit: Sendable {
    /// One `ingest` call waiting for its ack.
    struct Waiting: Sendable {
        var batch: LocationBatch
        var encodedSize: Int
        var nowMs: Int64
        var policy: IngestLedger.Policy
        var continuation: CheckedContinuation<BatchAck, any Error>

        var installation: IngestLedger.InstallationKey {
            IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)
        }
    }

    /// The most batches in one transaction: bounds the work one commit holds back (and the latency of its
    /// first batch) when thousands wait.
    let maxGroupSize: Int
    /// The most groups committing at once. SQLite has one writer, so 1; PostgreSQL overlaps one group's commit
    /// (its WAL flush) with the next group's statements.
    let maxConcurrentGroups: Int
    /// Whether a group holds at most one batch of an installation, and an installation's batches wait while a
    /// group holding one of them commits. PostgreSQL needs it: a group writes each table in one statement, and one
    /// statement cannot update a row twice. SQLite's single writer runs a group's batches one after another.
    let oneBatchPerInstallation: Bool

    private struct State {
        var waiting: [Waiting] = []
        /// Groups being committed.
        var committing = 0
        /// The installations of the groups being committed (with ``oneBatchPerInstallation``).
        var inFlight: Set<IngestLedger.InstallationKey> = []
    }

    private let state = Mutex(State())

    init(maxGroupSize: Int = 256, maxConcurrentGroups: Int = 1, oneBatchPerInstallation: Bool = false) {
        precondition(maxGroupSize >= 1 && maxConcurrentGroups >= 1)
        self.maxGroupSize = maxGroupSize
        self.maxConcurrentGroups = maxConcurrentGroups
        self.oneBatchPerInstallation = oneBatchPerInstallation
    }

    /// Queues one batch and returns its result once the group that held it has committed (or failed), starting
    /// a committer task when fewer than ``maxConcurrentGroups`` run. `commit` stores one group in one
    /// transaction and returns a result per batch, in the group's order; no result may be an ack for anything
    /// not yet committed.
    func ingest(
        _ batch: LocationBatch, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy,
        commit: @escaping @Sendable ([Waiting]) async -> [Result<BatchAck, any Error>]
    ) async throws -> BatchAck {
        try await withCheckedThrowingContinuation { continuation in
            let waiting = Waiting(
                batch: batch, encodedSize: encodedSize, nowMs: nowMs, policy: policy, continuation: continuation)
            if enqueue(waiting) {
                Task { await self.commitGroups(commit) }
            }
        }
    }

    /// One committer: commits groups until none can be taken, answering each group's callers after its commit.
    private func commitGroups(_ commit: ([Waiting]) async -> [Result<BatchAck, any Error>]) async {
        var finished: [Waiting] = []
        while let group = takeGroup(after: finished) {
            let results = await commit(group)
            for (waiting, result) in zip(group, results) { waiting.continuation.resume(with: result) }
            finished = group
        }
    }

    /// Adds a batch; true when the caller must start a committer (fewer than ``maxConcurrentGroups`` run). A
    /// committer started this way counts as running until its ``takeGroup(after:)`` returns nil.
    func enqueue(_ waiting: Waiting) -> Bool {
        state.withLock { state in
            state.waiting.append(waiting)
            guard state.committing < maxConcurrentGroups else { return false }
            state.committing += 1
            return true
        }
    }

    /// Ends `finished` (the committer's previous group, whose acks it has sent) and takes the committer's next
    /// group, oldest first, or nil when none can be taken, in which case the committer stops (atomically with the
    /// check, so a batch enqueued after it starts a new committer).
    ///
    /// With ``oneBatchPerInstallation``, a batch whose installation is in this group or in another group being
    /// committed stays in the queue, in its place, for a later group: so an installation's batches are stored in
    /// the order they arrived, and never in two transactions at once.
    func takeGroup(after finished: [Waiting] = []) -> [Waiting]? {
        state.withLock { state in
            if oneBatchPerInstallation {
                for waiting in finished { state.inFlight.remove(waiting.installation) }
            }
            var group: [Waiting] = []
            if oneBatchPerInstallation {
                var held = state.inFlight
                var kept: [Waiting] = []
                for waiting in state.waiting {
                    if group.count < maxGroupSize, held.insert(waiting.installation).inserted {
                        group.append(waiting)
                    } else {
                        kept.append(waiting)
                    }
                }
                state.waiting = kept
                for waiting in group { state.inFlight.insert(waiting.installation) }
            } else {
                let count = min(state.waiting.count, maxGroupSize)
                group = Array(state.waiting.prefix(count))
                state.waiting.removeFirst(count)
            }
            guard !group.isEmpty else {
                state.committing -= 1
                return nil
            }
            return group
        }
    }
}
