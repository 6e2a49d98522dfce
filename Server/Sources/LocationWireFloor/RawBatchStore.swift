import Foundation
import GRDB
import LocationWireServer
import Synchronization

/// Floor (b)'s storage: each request body as it arrived, one row per request, in one SQLite file, committed
/// as `serve`'s ``SQLiteStorage`` commits: a `DatabasePool` in WAL mode with the same PRAGMAs, group commit
/// (the bodies that arrive while one transaction commits go together into the next, each in a savepoint of its
/// own, at most 256 per transaction) and a passive checkpoint every 100 ms from a connection of its own.
///
/// The group commit and checkpointer are a minimal copy of SQLiteStorage's and GroupCommit's, not a reuse: those
/// are internal to LocationWireServer and GroupCommit's queue holds `LocationBatch`es and `BatchAck`
/// continuations. Should they change, this should follow, or the floor stops being a floor of the same commit.
public final class RawBatchStore: Sendable {
    /// The table: `raw_batch(id INTEGER PRIMARY KEY, body BLOB, received_at_ms INTEGER)`.
    static let schema = """
        CREATE TABLE IF NOT EXISTS raw_batch (
            id INTEGER PRIMARY KEY,
            body BLOB NOT NULL,
            received_at_ms INTEGER NOT NULL
        )
        """

    /// The most bodies in one transaction, as ``SQLiteStorage``'s group commit.
    static let maxGroupSize = 256

    /// One `insert` waiting for its commit.
    struct Waiting: Sendable {
        var body: Data
        /// UTC ms.
        var receivedAtMs: Int64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Queue {
        var waiting: [Waiting] = []
        /// A committer task is running; it takes what is added before it stops.
        var committing = false
    }

    let database: any DatabaseWriter
    private let queue = Mutex(Queue())

    /// Opens (creating when absent) the database file at `path` with `serve`'s PRAGMAs for `durability`.
    public init(path: String, durability: SQLiteStorage.Durability = .full) throws {
        let pool = try DatabasePool(path: path, configuration: SQLiteStorage.configuration(durability: durability))
        database = pool
        try pool.write { db in try db.execute(sql: Self.schema) }
        SQLiteStorage.startCheckpointing(path: path, writer: pool)
    }

    /// A private in-memory database, for tests; it vanishes with the store.
    public init() throws {
        database = try DatabaseQueue()
        try database.write { db in try db.execute(sql: Self.schema) }
    }

    /// Stores `body` as one row; returns once the transaction holding it has committed.
    ///
    /// - Parameter receivedAtMs: UTC ms.
    public func insert(body: Data, receivedAtMs: Int64) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let waiting = Waiting(body: body, receivedAtMs: receivedAtMs, continuation: continuation)
            let startCommitter = queue.withLock { queue in
                queue.waiting.append(waiting)
                guard !queue.committing else { return false }
                queue.committing = true
                return true
            }
            if startCommitter {
                Task { await self.commitWaitingBodies() }
            }
        }
    }

    /// The next group, oldest first, or nil when none waits, in which case the committer stops (atomically with
    /// the check, so a body enqueued after it starts a new committer).
    private func takeGroup() -> [Waiting]? {
        queue.withLock { queue in
            guard !queue.waiting.isEmpty else {
                queue.committing = false
                return nil
            }
            let count = min(queue.waiting.count, Self.maxGroupSize)
            let group = Array(queue.waiting.prefix(count))
            queue.waiting.removeFirst(count)
            return group
        }
    }

    /// Commits the waiting bodies, a group per transaction, until none is left; only one runs at a time.
    private func commitWaitingBodies() async {
        while let group = takeGroup() {
            let results: [Result<Void, any Error>]
            do {
                results = try await database.write { db in
                    let insert = try db.cachedStatement(
                        sql: "INSERT INTO raw_batch (body, received_at_ms) VALUES (?, ?)")
                    return group.map { waiting in
                        Result {
                            try db.inSavepoint {
                                try insert.execute(arguments: [waiting.body, waiting.receivedAtMs])
                                return .commit
                            }
                        }
                    }
                }
            } catch {
                results = group.map { _ in .failure(error) }
            }
            for (waiting, result) in zip(group, results) { waiting.continuation.resume(with: result) }
        }
    }

    /// The rows stored (tests, and the floors script's check).
    public func rowCount() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM raw_batch") ?? 0 }
    }
}

extension RawBatchStore {
    /// The stored bodies, oldest first (tests).
    public func storedBodies() async throws -> [Data] {
        try await database.read { db in try Data.fetchAll(db, sql: "SELECT body FROM raw_batch ORDER BY id") }
    }
}
