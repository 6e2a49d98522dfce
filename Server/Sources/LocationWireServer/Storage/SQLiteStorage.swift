import Foundation
import GRDB
import LocationWire
import LocationWireSession

/// The reference server's state in one SQLite file, through GRDB: the default backend, embedded, no setup.
///
/// - Durability: WAL journal with `synchronous=FULL` by default, so a committed batch survives a power cut as
///   well as a killed process; ``Durability/normal`` keeps only the second (SQLite's documented WAL trade-off)
///   for a faster ingest.
/// - Concurrency: a `DatabasePool`: one writer at a time (SQLite's rule), readers beside it. The ledger record of
///   an installation is read inside the same write transaction that updates it, so two requests for one
///   installation cannot both see the old record. Concurrent batches share transactions (group commit, see
///   ``commit(_:)``): one WAL sync for all the batches that arrived during the previous commit.
/// - `install_id` and sequence numbers are UInt64 on the wire and stored as the same 64 bits in SQLite's Int64
///   (`Int64(bitPattern:)`): equality and keys stay exact; only SQL ordering above 2^63 differs.
public final class SQLiteStorage: ServerStorage, BearerTokenAuthenticator {
    /// What a commit promises.
    public enum Durability: String, Sendable, CaseIterable {
        /// Survives power loss: the WAL is synced at every commit.
        case full
        /// Survives a crash of the process, not of the machine.
        case normal
    }

    let database: any DatabaseWriter
    /// The batches waiting for the next transaction.
    let groupCommit = GroupCommit()

    /// Opens (creating when absent) the database file at `path` and brings its schema up to date.
    public init(path: String, durability: Durability = .full) throws {
        let configuration = Self.configuration(durability: durability)
        let pool = try DatabasePool(path: path, configuration: configuration)
        database = pool
        try Self.migrator.migrate(database)
        // What a migration removed (v2: tokens in clear) leaves the database file now, not at the next
        // checkpoint: the pages it zeroed are still only in the WAL. Best effort: another process's readers
        // (a second serve on the file) make it busy, and then the checkpointer's passes do it.
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        Self.startCheckpointing(path: path, writer: pool)
    }

    /// The connections' settings for `durability`; public so that the floor server (LocationWireFloor) pays the
    /// same cost per commit.
    public static func configuration(durability: Durability) -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
            // Checkpoints are the checkpointer's job (below), beside the writer; a commit checkpoints only when
            // the WAL has grown past 10,000 pages (40 MB) anyway, a bound should the checkpointer fall behind.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
            // Deleted rows are overwritten with zeros, not left in free pages: what retention, erasure and the
            // token migration remove is gone from the file, not only from the tables.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        // A writer waits for another process's lock (a second `serve` on the same file) instead of failing.
        configuration.busyMode = .timeout(5)
        return configuration
    }

    /// How often the checkpointer copies the WAL back into the database file.
    static let checkpointInterval = Duration.milliseconds(100)

    /// Checkpoints the WAL from a connection of its own every ``checkpointInterval`` while the store lives.
    ///
    /// Why: SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages, so one batch in
    /// several hundred waits while megabytes are written back and the database file synced: the tail of the
    /// batch latency. A passive checkpoint takes no write lock, so here it runs beside the writer instead. It
    /// stops when the store is gone (it holds the pool weakly).
    public static func startCheckpointing(path: String, writer: DatabasePool) {
        guard let checkpointer = try? DatabaseQueue(path: path) else { return }
        Task.detached { [weak writer] in
            while writer != nil {
                try? await Task.sleep(for: checkpointInterval)
                _ = try? await checkpointer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            }
        }
    }

    /// A private in-memory database, for tests; it vanishes with the store.
    public init() throws {
        database = try DatabaseQueue()
        try Self.migrator.migrate(database)
    }

    /// The schema, one migration per change; a migration once released is never edited.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: SQLiteSchema.create)
        }
        migrator.registerMigration("v2-token-digests-only") { db in
            try db.execute(sql: SQLiteSchema.tokenDigestsOnly)
        }
        migrator.registerMigration("v3-operator-tokens") { db in
            try db.execute(sql: SQLiteSchema.operatorTokens)
        }
        return migrator
    }

    // MARK: Tokens

    /// Looks the token up by its digest (``StoredRows/tokenDigest(_:)``), never in clear: how long the lookup
    /// takes depends on the digest, not on how much of a real token a guess got right.
    public func deviceId(forToken token: String) async throws -> String? {
        try await database.read { db in
            try String.fetchOne(
                db, sql: "SELECT device_id FROM device_token WHERE token_sha256 = ?",
                arguments: [StoredRows.tokenDigest(token)])
        }
    }

    public func issueFirstToken(forDevice deviceId: String, nowMs: Int64) async throws -> String? {
        try await issueFirstTokens(forDevices: [deviceId], nowMs: nowMs)[0]
    }

    /// One transaction for all of them, so that `serve --extra-devices 1000` starts without a thousand syncs.
    public func issueFirstTokens(forDevices deviceIds: [String], nowMs: Int64) async throws -> [String?] {
        try await database.write { db in
            try deviceIds.map { deviceId in
                let token = newBearerToken(forDevice: deviceId)
                try db.execute(
                    sql: """
                        INSERT INTO device_token (token_sha256, device_id, first_of_device, created_at_ms)
                        VALUES (?, ?, 1, ?) ON CONFLICT (device_id) WHERE first_of_device DO NOTHING
                        """,
                    arguments: [StoredRows.tokenDigest(token), deviceId, nowMs])
                return db.changesCount == 1 ? token : nil
            }
        }
    }

    public func issueToken(forDevice deviceId: String, nowMs: Int64) async throws -> String {
        let token = newBearerToken(forDevice: deviceId)
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO device_token (token_sha256, device_id, created_at_ms) VALUES (?, ?, ?)",
                arguments: [StoredRows.tokenDigest(token), deviceId, nowMs])
        }
        return token
    }

    public func issueOperatorToken(nowMs: Int64) async throws -> String {
        let token = newBearerToken(forDevice: nil)
        try await addOperatorToken(token, nowMs: nowMs)
        return token
    }

    public func addOperatorToken(_ token: String, nowMs: Int64) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO operator_token (token_sha256, created_at_ms) VALUES (?, ?)",
                arguments: [StoredRows.tokenDigest(token), nowMs])
        }
    }

    public func isOperatorToken(_ token: String) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM operator_token WHERE token_sha256 = ?",
                arguments: [StoredRows.tokenDigest(token)]) ?? false
        }
    }

    // MARK: Erasure and retention

    public func erase(deviceId: String, nowMs: Int64) async throws -> RemovedRows {
        let removed = try await database.write { db in
            var removed = RemovedRows()
            for item in SQLiteSchema.itemTables {
                try db.execute(sql: "DELETE FROM \(item.table) WHERE device_id = ?", arguments: [deviceId])
                removed[keyPath: item.count] = db.changesCount
            }
            removed.assignments = try Self.emptyAssignments(
                db, selected: SQLiteSchema.selectDeviceAssignment, arguments: [deviceId], nowMs: nowMs)
            let records = try Row.fetchAll(
                db, sql: "SELECT install_id, record FROM installation WHERE device_id = ?", arguments: [deviceId])
            for row in records {
                let record = try InstallationRecord(serializedBytes: [UInt8](row["record"] as Data))
                try db.execute(
                    sql: "UPDATE installation SET record = ?, updated_at_ms = ? WHERE device_id = ? AND install_id = ?",
                    arguments: [
                        Data(StoredRows.erased(record).serializedBytes()), nowMs, deviceId, row["install_id"] as Int64,
                    ])
            }
            return removed
        }
        // secure_delete zeroed the rows' pages, but only in the WAL: the database file keeps the old pages until
        // a checkpoint, and the WAL the frames that first wrote them until it is reset. A truncating checkpoint
        // ends both now (it waits for readers, which an erasure, rare, can afford). Should readers outlast the
        // busy time-out, the erasure still stands (committed); the checkpointer's next passes clean the file.
        _ = try? await database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        return removed
    }

    /// Empties the assignments `selected` finds (``StoredRows/erasedAssignment(_:)``), keeping their versions;
    /// returns how many had more than a version to remove.
    static func emptyAssignments(
        _ db: Database, selected sql: String, arguments: StatementArguments, nowMs: Int64
    )
        throws -> Int
    {
        var removed = 0
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            let (kept, removedSomething) = StoredRows.erasedAssignment([UInt8](row["body"] as Data))
            try db.execute(
                sql: SQLiteSchema.updateAssignment, arguments: [Data(kept), nowMs, row["device_id"] as String])
            if removedSomething { removed += 1 }
        }
        return removed
    }

    /// Makes the indexes retention finds old rows by (``SQLiteSchema/retentionIndexes``); `serve --retain-days`
    /// calls it once at start. On a large database this takes a while, once.
    public func prepareRetention(nowMs: Int64) async throws {
        try await database.write { db in try db.execute(sql: SQLiteSchema.retentionIndexes) }
    }

    public func removeReceived(
        before receivedBeforeMs: Int64, nowMs: Int64, rowLimit: Int
    ) async throws
        -> RemovedRows
    {
        var removed = RemovedRows()
        // A transaction per table, each of at most rowLimit rows: batches wait for one short delete at a time.
        for item in SQLiteSchema.itemTables {
            let sql = """
                DELETE FROM \(item.table) WHERE (\(item.key)) IN (
                    SELECT \(item.key) FROM \(item.table) WHERE \(item.received) < ? LIMIT ?)
                """
            removed[keyPath: item.count] = try await database.write { db in
                try db.execute(
                    sql: sql,
                    arguments: [receivedBeforeMs, rowLimit])
                return db.changesCount
            }
        }
        removed.assignments = try await database.write { db in
            try Self.emptyAssignments(
                db, selected: SQLiteSchema.selectOldAssignments, arguments: [receivedBeforeMs, rowLimit], nowMs: nowMs)
        }
        return removed
    }

    // MARK: Ingest

    public func ingest(
        _ batch: LocationBatch, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy
    )
        async throws -> BatchAck
    {
        try await groupCommit.ingest(batch, encodedSize: encodedSize, nowMs: nowMs, policy: policy) { group in
            await self.commit(group)
        }
    }

    /// Commits one group of batches in one transaction.
    ///
    /// Why groups: with `synchronous=FULL` every commit syncs the WAL, and one sync per batch caps the ingest
    /// at the disk's syncs per second however small the batches. The batches that arrive while one transaction
    /// commits go together in the next, each in a savepoint of its own, so one batch's failure rolls back only
    /// that batch. No ack leaves before the transaction that stored its items has committed
    /// (`§server-durable`); when the commit fails, every batch of the group gets the error (503, keep
    /// everything).
    func commit(_ group: [GroupCommit.Waiting]) async -> [Result<BatchAck, any Error>] {
        do {
            return try await database.write { db in
                group.map { waiting in
                    Result {
                        var ack = BatchAck()
                        try db.inSavepoint {
                            ack = try Self.ingest(
                                waiting.batch, encodedSize: waiting.encodedSize, nowMs: waiting.nowMs,
                                policy: waiting.policy, in: db)
                            return .commit
                        }
                        return ack
                    }
                }
            }
        } catch {
            return group.map { _ in .failure(error) }
        }
    }

    /// One batch through its installation's ledger, with its rows, inside the caller's transaction.
    static func ingest(
        _ batch: LocationBatch, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy, in db: Database
    ) throws -> BatchAck {
        let deviceId = batch.deviceId
        let installId = Int64(bitPattern: batch.installId)
        // Cached statements: preparing these three again for every batch was a large part of a small batch's CPU
        // (Server/RESULTS.md, "Where serve's CPU per request goes beyond floor (b)").
        let previous = try Data.fetchOne(
            db.cachedStatement(sql: "SELECT record FROM installation WHERE device_id = ? AND install_id = ?"),
            arguments: [deviceId, installId]
        ).map { try InstallationRecord(serializedBytes: [UInt8]($0)) }
        let step = LedgerStep(
            batch: batch, previous: previous, encodedSize: encodedSize, nowMs: nowMs, policy: policy)
        guard let record = step.record else { return step.result.ack }
        try db.cachedStatement(sql: SQLiteSchema.upsertInstallation).execute(
            arguments: [deviceId, installId, Data(record.serializedBytes()), nowMs])
        // Plain INSERTs: the ledger said these keys are new, so a conflict means the ledger and the tables
        // disagree. That throws, rolls the batch's savepoint back and answers 503 rather than acking a guess.
        let insertFix = try db.cachedStatement(sql: SQLiteSchema.insertFix)
        for fix in step.result.storedFixes.lazy.map(StoredRows.Fix.init) {
            try insertFix.execute(arguments: [
                deviceId, installId, fix.sequence, fix.timeMs, fix.latitudeE7, fix.longitudeE7, Data(fix.body),
                nowMs,
            ])
        }
        let insertEvent = try db.cachedStatement(sql: SQLiteSchema.insertFenceEvent)
        for event in step.result.storedEvents.lazy.map(StoredRows.FenceEvent.init) {
            try insertEvent.execute(arguments: [
                deviceId, installId, event.eventSequence, event.regionId, event.kind, Data(event.body), nowMs,
            ])
        }
        let insertLifecycle = try db.cachedStatement(sql: SQLiteSchema.insertLifecycleEvent)
        for event in step.result.storedLifecycleEvents.lazy.map(StoredRows.LifecycleEvent.init) {
            try insertLifecycle.execute(arguments: [
                deviceId, installId, event.kind, event.timeMs, Data(event.body), nowMs,
            ])
        }
        if let status = StoredRows.DeviceStatus(batch) {
            try db.cachedStatement(sql: SQLiteSchema.upsertDeviceStatus).execute(
                arguments: [deviceId, installId, status.sentAtMs, Data(status.body), nowMs])
        }
        return step.result.ack
    }

    // MARK: Read-back and assignments

    public func fixes(deviceId: String, fromMs: Int64, toMs: Int64, limit: Int) async throws -> [StoredFix] {
        try await database.read { db in
            try Row.fetchAll(db, sql: SQLiteSchema.selectFixes, arguments: [deviceId, fromMs, toMs, limit]).map {
                row in
                let body: Data = row["body"]
                return StoredFix(
                    installId: UInt64(bitPattern: row["install_id"]),
                    fix: try LocationFix(serializedBytes: [UInt8](body)), receivedAtMs: row["received_at_ms"])
            }
        }
    }

    public func installations(deviceId: String) async throws -> [InstallationRecord] {
        try await database.read { db in
            try Data.fetchAll(db, sql: "SELECT record FROM installation WHERE device_id = ?", arguments: [deviceId])
                .map { try InstallationRecord(serializedBytes: [UInt8]($0)) }
        }
    }

    public func lastAssignment(deviceId: String) async throws -> RegionAssignment? {
        try await database.read { db in
            try Data.fetchOne(db, sql: "SELECT body FROM assignment WHERE device_id = ?", arguments: [deviceId]).map {
                try RegionAssignment(serializedBytes: [UInt8]($0))
            }
        }
    }

    public func saveAssignment(_ assignment: RegionAssignment, deviceId: String, nowMs: Int64) async throws {
        try await database.write { db in
            try db.execute(
                sql: SQLiteSchema.upsertAssignment,
                arguments: [deviceId, Data(assignment.serializedBytes()), nowMs])
        }
    }

    // MARK: Inspection

    /// How many fixes are stored for an installation (tests).
    public func storedFixCount(deviceId: String, installId: UInt64) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM fix WHERE device_id = ? AND install_id = ?",
                arguments: [deviceId, Int64(bitPattern: installId)]) ?? 0
        }
    }

    /// How many fence events and lifecycle events are stored for an installation (tests).
    public func storedEventCounts(deviceId: String, installId: UInt64) async throws -> StoredEventCounts {
        try await database.read { db in
            let arguments: StatementArguments = [deviceId, Int64(bitPattern: installId)]
            return StoredEventCounts(
                fenceEvents: try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM fence_event WHERE device_id = ? AND install_id = ?",
                    arguments: arguments) ?? 0,
                lifecycleEvents: try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM lifecycle_event WHERE device_id = ? AND install_id = ?",
                    arguments: arguments) ?? 0)
        }
    }

    /// The device status kept for an installation, with the `sent_at_ms` of its batch (tests).
    public func storedDeviceStatus(deviceId: String, installId: UInt64) async throws -> StoredDeviceStatus? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT sent_at_ms, body FROM device_status WHERE device_id = ? AND install_id = ?",
                arguments: [deviceId, Int64(bitPattern: installId)]
            ).map { row in
                let body: Data = row["body"]
                return StoredDeviceStatus(
                    sentAtMs: row["sent_at_ms"], status: try DeviceStatus(serializedBytes: [UInt8](body)))
            }
        }
    }
}
