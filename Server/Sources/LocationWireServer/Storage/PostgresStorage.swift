import Foundation
import LocationWire
import LocationWireSession
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The reference server's state in PostgreSQL, through postgres-nio: the backend for several stateless server
/// processes behind a load balancer, sharing one database. Same tables and semantics as ``SQLiteStorage``
/// (``PostgresSchema``).
///
/// - Lifecycle: a `PostgresClient` (a connection pool, at most ``Options/maximumConnections`` connections)
///   whose `run()` must be running while the store is used; ``withStorage(_:logger:_:)`` runs it, brings the
///   schema up to date, and shuts the pool down when its body ends.
/// - Concurrency: batches are committed in groups (``commit(_:)``): the batches that arrive while a group
///   commits go together into the next transaction, which locks their installations' rows (`SELECT ... FOR
///   UPDATE`, in key order), runs each ledger step, and writes every row of the group in one statement. So
///   batches of one installation are serialised across all processes, and within a process an installation's
///   batches are never in two groups at once (``GroupCommit``).
/// - Durability: what PostgreSQL's COMMIT promises with the server's settings (fsync and synchronous_commit on
///   by default: survives power loss); the ack is returned only after COMMIT.
/// - `install_id` and sequence numbers are UInt64 on the wire and stored as the same 64 bits in BIGINT
///   (`Int64(bitPattern:)`), as in SQLite.
public final class PostgresStorage: ServerStorage, BearerTokenAuthenticator {
    /// Where the database is and how many connections one process may hold.
    public struct Options: Sendable {
        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String?
        /// The pool's size: the most transactions this process runs at once. A PostgreSQL server admits
        /// `max_connections` (100 by default) across all processes.
        public var maximumConnections: Int
        /// The PostgreSQL schema the tables live in, created when absent; nil keeps them where the role's
        /// `search_path` puts them (`public`). Lets several deployments, or test runs, share one database.
        /// Lowercase letters, digits and `_`, not starting with a digit.
        public var schema: String?
        /// How long one storage operation may wait for a connection, when all are busy or the database is
        /// unreachable, before it fails (and the request gets 503 with `Retry-After`) rather than hanging. Once
        /// an operation has a connection, this no longer applies: its answer is what the database did.
        public var connectionWait: Duration = .seconds(10)
        /// How long one statement may run, or wait for a lock, on the pool's connections (PostgreSQL's
        /// `statement_timeout` and `lock_timeout`): the database cancels it then, and its transaction rolls back,
        /// so a batch held up in the database gets a 503 that stored nothing, never a 503 for a commit.
        public var statementTimeout: Duration = .seconds(10)
        /// The most groups of batches this process commits at once (group commit, ``PostgresStorage/commit(_:)``),
        /// each on one of the pool's connections: two lets one group's statements run while the other's COMMIT
        /// waits for its WAL flush. More groups at once make each smaller, and a request's cost larger.
        public var concurrentGroups = defaultConcurrentGroups
        public static let defaultConcurrentGroups = 2

        public init(
            host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
            maximumConnections: Int = 20, schema: String? = nil
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.maximumConnections = maximumConnections
            self.schema = schema
        }

        /// Whether `name` can be a schema here: a plain identifier, so that it needs no quoting in SQL.
        static func isPlainIdentifier(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name.utf8.count <= 63 else {
                return false
            }
            return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }

        /// Reads `postgres://user:password@host:port/database` (or `postgresql://`); the port defaults to 5432,
        /// user and password are percent-decoded. TLS is not supported yet, so the connection is in clear:
        /// loopback or a private network only; `sslmode=disable` is accepted, any other `sslmode` refused.
        public init(url: String) throws(PostgresURLError) {
            guard let components = URLComponents(string: url),
                components.scheme == "postgres" || components.scheme == "postgresql"
            else { throw PostgresURLError("not a postgres:// URL") }
            guard let host = components.host, !host.isEmpty else { throw PostgresURLError("no host") }
            guard let user = components.user, !user.isEmpty else { throw PostgresURLError("no user name") }
            let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            for item in components.queryItems ?? [] {
                guard item.name == "sslmode", item.value == "disable" else {
                    throw PostgresURLError(
                        "unsupported parameter \(item.name)=\(item.value ?? ""): only sslmode=disable")
                }
            }
            self.init(
                host: host, port: components.port ?? 5432, username: user.removingPercentEncoding ?? user,
                password: components.password.map { $0.removingPercentEncoding ?? $0 },
                database: path.isEmpty ? nil : (path.removingPercentEncoding ?? path))
        }
    }

    /// A `--postgres` URL that cannot be used; the message never contains the password.
    public struct PostgresURLError: Error, CustomStringConvertible {
        public var description: String
        init(_ reason: String) {
            description = "PostgreSQL URL: \(reason) (expected postgres://user:password@host:port/database)"
        }
    }

    let client: PostgresClient
    /// How one connection outside the pool is made: the migration's, whose errors (refused, wrong password, no
    /// such database) are reported at once, where the pool would retry them in the background.
    let connectionConfiguration: PostgresConnection.Configuration
    let logger: Logger
    /// ``Options/schema``, checked to be a plain identifier.
    let schema: String?
    /// ``Options/connectionWait``.
    let connectionWait: Duration
    /// How long an operation that has its connection may go unanswered before ``bounded(_:)`` answers for it:
    /// the statement time-out and two seconds. The database cancels a statement at its time-out, and of a
    /// transaction's statements only the one that locks installations waits long (for another transaction's
    /// lock), so a database that answers at all has answered by then.
    let startedOperationLimit: Duration
    /// The batches waiting for a transaction: up to ``Options/concurrentGroups`` groups commit at once, each on
    /// a connection of its own, and an installation's batches are never in two of them at once.
    let groupCommit: GroupCommit

    /// A store over a pool that is not running yet: use ``withStorage(_:logger:_:)``, which runs it.
    init(options: Options, logger: Logger) throws(PostgresURLError) {
        var configuration = PostgresClient.Configuration(
            host: options.host, port: options.port, username: options.username, password: options.password,
            database: options.database, tls: .disable)
        var connectionConfiguration = PostgresConnection.Configuration(
            host: options.host, port: options.port, username: options.username, password: options.password,
            database: options.database, tls: .disable)
        configuration.options.maximumConnections = options.maximumConnections
        if let schema = options.schema {
            guard Options.isPlainIdentifier(schema) else {
                throw PostgresURLError("schema \(schema) is not a plain identifier ([a-z_][a-z0-9_]*)")
            }
            // Every connection resolves the tables' names in this schema alone.
            configuration.options.additionalStartupParameters = [("search_path", schema)]
            connectionConfiguration.options.additionalStartupParameters = [("search_path", schema)]
        }
        // The database bounds every statement of the pool's connections (not the migration's, which may be long).
        let timeoutMs = String(
            max(
                1,
                options.statementTimeout.components.seconds * 1000
                    + options.statementTimeout.components.attoseconds / 1_000_000_000_000_000))
        configuration.options.additionalStartupParameters += [
            ("statement_timeout", timeoutMs), ("lock_timeout", timeoutMs),
        ]
        schema = options.schema
        connectionWait = options.connectionWait
        startedOperationLimit = options.statementTimeout + .seconds(2)
        groupCommit = GroupCommit(
            maxConcurrentGroups: max(1, min(options.concurrentGroups, options.maximumConnections)),
            oneBatchPerInstallation: true)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.connectionConfiguration = connectionConfiguration
        self.logger = logger
    }

    /// Warnings and errors only: at info level postgres-nio also reports each connection attempt the pool
    /// abandons when it shuts down, which is normal.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "locwire-server.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `body` with a store over the database of `options`: starts the connection pool, brings the schema up
    /// to date (safe when several processes start at once), calls `body`, then closes the pool.
    ///
    /// - Parameter migratingLater: when connecting or migrating fails, log it and call `body` all the same, with
    ///   the migration tried again every ``migrationRetryInterval`` in the background: a shard that is down when
    ///   a sharded server starts then stops only its own devices, whose operations fail until it is back.
    /// - Throws: ``PostgresStorageError/cannotOpen(target:reason:)`` when connecting or migrating failed (an
    ///   unreachable server, wrong credentials, no such database) and not `migratingLater`, or what `body` threw.
    public static func withStorage<Result: Sendable>(
        _ options: Options, logger: Logger = PostgresStorage.defaultLogger, migratingLater: Bool = false,
        _ body: (PostgresStorage) async throws -> Result
    ) async throws -> Result {
        let storage = try PostgresStorage(options: options, logger: logger)
        let target = "\(options.username)@\(options.host):\(options.port)/\(options.database ?? "")"
        var migrated = true
        do {
            try await storage.migrate()
        } catch {
            let failure = PostgresStorageError.cannotOpen(target: target, reason: PostgresStorageError.reason(error))
            guard migratingLater else { throw failure }
            logger.error("\(failure); migrating again every \(migrationRetryInterval) meanwhile")
            migrated = false
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            // Queries wait for run() to start anyway; waiting for its task to begin keeps postgres-nio from
            // warning that a lease came before run().
            let (started, signal) = AsyncStream.makeStream(of: Void.self)
            group.addTask {
                signal.finish()
                await storage.client.run()
            }
            if !migrated {
                group.addTask { await storage.migrateUntilDone(target: target) }
            }
            for await _ in started {}
            defer { group.cancelAll() }
            return try await body(storage)
        }
    }

    /// Applies the migrations not yet recorded in `schema_migration`, on a connection of its own holding an
    /// advisory lock, so that of several processes starting at once one migrates and the others then find it
    /// done. PostgreSQL's DDL is transactional: a migration is applied whole or not at all. Closing the
    /// connection releases the lock, whatever happened.
    func migrate() async throws {
        let connection = try await PostgresConnection.connect(
            configuration: connectionConfiguration, id: 0, logger: logger)
        do {
            try await connection.run(
                "SELECT pg_advisory_lock($1)", binds(PostgresSchema.migrationLockKey), logger: logger)
            if let schema {
                try await connection.run("CREATE SCHEMA IF NOT EXISTS \(schema)", PostgresBindings(), logger: logger)
            }
            try await connection.run(PostgresSchema.createMigrationTable, PostgresBindings(), logger: logger)
            var applied: Set<String> = []
            for try await version in try await connection.rows(
                "SELECT version FROM schema_migration", PostgresBindings(), logger: logger
            ).decode(String.self) {
                applied.insert(version)
            }
            for migration in PostgresSchema.migrations where !applied.contains(migration.version) {
                try await connection.withTransaction(logger: logger) { connection in
                    for statement in migration.statements {
                        try await connection.run(statement, PostgresBindings(), logger: logger)
                    }
                    try await connection.run(
                        "INSERT INTO schema_migration (version, applied_at_ms) VALUES ($1, $2)",
                        binds(migration.version, currentTimeMs()), logger: logger)
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// How often ``withStorage(_:logger:migratingLater:_:)`` tries a failed migration again.
    static let migrationRetryInterval: Duration = .seconds(5)

    /// Tries ``migrate()`` every ``migrationRetryInterval`` until it succeeds or the task is cancelled.
    private func migrateUntilDone(target: String) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.migrationRetryInterval)
            guard !Task.isCancelled, (try? await migrate()) != nil else { continue }
            logger.notice("PostgreSQL \(target) reached and migrated")
            return
        }
    }

    /// Drops ``Options/schema`` with every table in it: tests clean up the schema they made.
    func dropSchema() async throws {
        guard let schema else { return }
        try await execute("DROP SCHEMA IF EXISTS \(schema) CASCADE", PostgresBindings())
    }

    // MARK: Tokens

    /// Looks the token up by its digest (``StoredRows/tokenDigest(_:)``), never in clear: how long the lookup
    /// takes depends on the digest, not on how much of a real token a guess got right.
    public func deviceId(forToken token: String) async throws -> String? {
        try await firstRow(
            String.self, PostgresSchema.selectDeviceForToken, binds(StoredRows.tokenDigest(token)))
    }

    public func issueFirstToken(forDevice deviceId: String, nowMs: Int64) async throws -> String? {
        let token = newBearerToken(forDevice: deviceId)
        let inserted = try await firstRow(
            String.self, PostgresSchema.insertFirstToken, binds(StoredRows.tokenDigest(token), deviceId, nowMs))
        return inserted == nil ? nil : token
    }

    public func issueToken(forDevice deviceId: String, nowMs: Int64) async throws -> String {
        let token = newBearerToken(forDevice: deviceId)
        try await execute(PostgresSchema.insertToken, binds(StoredRows.tokenDigest(token), deviceId, nowMs))
        return token
    }

    public func issueOperatorToken(nowMs: Int64) async throws -> String {
        let token = newBearerToken(forDevice: nil)
        try await addOperatorToken(token, nowMs: nowMs)
        return token
    }

    public func addOperatorToken(_ token: String, nowMs: Int64) async throws {
        try await execute(PostgresSchema.insertOperatorToken, binds(StoredRows.tokenDigest(token), nowMs))
    }

    public func isOperatorToken(_ token: String) async throws -> Bool {
        try await firstRow(Int64.self, PostgresSchema.selectOperatorToken, binds(StoredRows.tokenDigest(token))) != nil
    }

    // MARK: Erasure and retention

    public func erase(deviceId: String, nowMs: Int64) async throws -> RemovedRows {
        try await bounded { [client, logger, connectionWait] admission in
            try await client.withTransaction(logger: logger) { connection in
                guard admission.start() else { throw PostgresStorageError.connectionWaitExceeded(connectionWait) }
                var records: [(Int64, ByteBuffer?)] = []
                for try await row in try await connection.rows(
                    PostgresSchema.lockDeviceInstallations, binds(deviceId), logger: logger
                ).decode((Int64, ByteBuffer?).self) {
                    records.append(row)
                }
                var removed = RemovedRows()
                for item in PostgresSchema.itemTables {
                    for try await count in try await connection.rows(
                        PostgresSchema.deleteDeviceRows(item.table), binds(deviceId), logger: logger
                    ).decode(Int64.self) {
                        removed[keyPath: item.count] = Int(count)
                    }
                }
                removed.assignments = try await Self.emptyAssignments(
                    connection, selected: PostgresSchema.selectDeviceAssignment, binds(deviceId), nowMs: nowMs,
                    logger: logger)
                for case (let installId, let bytes?) in records {
                    let record = try InstallationRecord(serializedBytes: Array(bytes.readableBytesView))
                    try await connection.run(
                        PostgresSchema.updateInstallation,
                        binds(
                            deviceId, installId, ByteBuffer(bytes: StoredRows.erased(record).serializedBytes()),
                            nowMs),
                        logger: logger)
                }
                return removed
            }
        }
    }

    /// Makes the day partitions of fixes and fence events for the day of `nowMs` and the two after it, so that
    /// rows land in days (dropped whole by retention) rather than in the default partition. A day whose rows
    /// are in the default partition already cannot get its partition (PostgreSQL refuses); its rows stay there
    /// and retention deletes them row by row. Returns the partitions made.
    @discardableResult
    public func preparePartitions(nowMs: Int64) async throws -> [String] {
        let today = Self.floorDivide(nowMs, PostgresSchema.millisecondsPerDay)
        var made: [String] = []
        for table in PostgresSchema.itemTables where table.partitioned {
            for day in today...(today + 2) {
                let name = PostgresSchema.dayPartitionName(table.table, day: day)
                if try await firstRow(Bool.self, "SELECT to_regclass($1) IS NOT NULL", binds(name)) == true { continue }
                do {
                    try await execute(
                        """
                        CREATE TABLE IF NOT EXISTS \(name) PARTITION OF \(table.table)
                        FOR VALUES FROM (\(day * PostgresSchema.millisecondsPerDay)) \
                        TO (\((day + 1) * PostgresSchema.millisecondsPerDay))
                        """, PostgresBindings())
                    made.append(name)
                } catch {
                    logger.info(
                        "partition not made; its day's rows stay in the default partition",
                        metadata: ["partition": "\(name)", "reason": "\(PostgresStorageError.reason(error))"])
                }
            }
        }
        return made
    }

    public func prepareRetention(nowMs: Int64) async throws {
        try await preparePartitions(nowMs: nowMs)
    }

    public func removeReceived(
        before receivedBeforeMs: Int64, nowMs: Int64, rowLimit: Int
    ) async throws
        -> RemovedRows
    {
        try await preparePartitions(nowMs: nowMs)
        var removed = RemovedRows()
        let limit = Int64(rowLimit)
        for item in PostgresSchema.itemTables {
            var tables = [item.table]
            if item.partitioned {
                tables = [item.table + "_default"]
                var partitions: [String] = []
                for try await name in try await client.query(
                    PostgresQuery(unsafeSQL: PostgresSchema.selectPartitions, binds: binds(item.table)), logger: logger
                ).decode(String.self) {
                    partitions.append(name)
                }
                for name in partitions {
                    guard let day = PostgresSchema.day(ofPartition: name, table: item.table) else { continue }
                    // A day goes whole once all of it is past the cutoff; until then its rows wait (at most a day).
                    guard (day + 1) * PostgresSchema.millisecondsPerDay <= receivedBeforeMs else { continue }
                    if let rows = try await dropPartition(name) {
                        removed[keyPath: item.count] += rows
                        removed.partitionsDropped += 1
                    }
                }
            }
            for table in tables {
                let count = try await firstRow(
                    Int64.self, PostgresSchema.deleteOldRows(table, received: item.received),
                    binds(receivedBeforeMs, limit))
                removed[keyPath: item.count] += Int(count ?? 0)
            }
        }
        removed.assignments = try await bounded { [client, logger, connectionWait] admission in
            try await client.withTransaction(logger: logger) { connection in
                guard admission.start() else { throw PostgresStorageError.connectionWaitExceeded(connectionWait) }
                return try await Self.emptyAssignments(
                    connection, selected: PostgresSchema.selectOldAssignments, binds(receivedBeforeMs, limit),
                    nowMs: nowMs, logger: logger)
            }
        }
        return removed
    }

    /// Empties the assignments `selected` finds (``StoredRows/erasedAssignment(_:)``), keeping their versions;
    /// returns how many had more than a version to remove.
    static func emptyAssignments(
        _ connection: PostgresConnection, selected sql: String, _ selectBinds: PostgresBindings, nowMs: Int64,
        logger: Logger
    ) async throws -> Int {
        var rows: [(String, ByteBuffer)] = []
        for try await row in try await connection.rows(sql, selectBinds, logger: logger).decode(
            (String, ByteBuffer).self)
        {
            rows.append(row)
        }
        var removed = 0
        for (deviceId, body) in rows {
            let (kept, removedSomething) = StoredRows.erasedAssignment(Array(body.readableBytesView))
            try await connection.run(
                PostgresSchema.updateAssignment, binds(deviceId, ByteBuffer(bytes: kept), nowMs), logger: logger)
            if removedSomething { removed += 1 }
        }
        return removed
    }

    /// Drops one day partition and returns how many rows it held, or nil when its lock did not come at once.
    ///
    /// Dropping a partition locks the parent table, and batches queue behind a waiting lock: the short
    /// `lock_timeout` bounds that stall to 200 ms, and a day not dropped now is dropped on the next pass.
    private func dropPartition(_ name: String) async throws -> Int? {
        try await bounded { [client, logger, connectionWait] admission in
            do {
                return try await client.withTransaction(logger: logger) { connection in
                    guard admission.start() else {
                        throw PostgresStorageError.connectionWaitExceeded(connectionWait)
                    }
                    try await connection.run("SET LOCAL lock_timeout = '200ms'", PostgresBindings(), logger: logger)
                    var rows = 0
                    for try await count in try await connection.rows(
                        "SELECT COUNT(*) FROM \(name)", PostgresBindings(), logger: logger
                    ).decode(Int64.self) {
                        rows = Int(count)
                    }
                    try await connection.run("DROP TABLE \(name)", PostgresBindings(), logger: logger)
                    return rows
                }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
                return nil  // lock_not_available
            }
        }
    }

    /// `value / divisor` rounded down (toward negative infinity), as days before 1970 need.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
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

    /// Commits one group of batches (at most one per installation) in one transaction of four round trips
    /// whatever its size: the installations' placeholders, their locks with their records, every row of the
    /// group, COMMIT (and BEGIN). The ledger steps run between the locks and the writes. No ack leaves before
    /// COMMIT returned (`§server-durable`); when anything fails, every batch of the group gets the error (503,
    /// the device keeps everything and sends again).
    ///
    /// One failing batch fails only itself: when the group's writes fail on a batch's data (a data exception or
    /// a broken constraint, SQLSTATE classes 22 and 23: the ledger and the tables disagree), nothing of the
    /// group was committed, and the group is done again in a new transaction with each batch's writes under a
    /// savepoint of its own, so that the others are stored and only that batch gets the error. Failures that do
    /// not depend on one batch (a lock or statement time-out, a lost connection) are not retried: the group's
    /// devices send again, as they would have for a batch of their own.
    func commit(_ group: [GroupCommit.Waiting]) async -> [Result<BatchAck, any Error>] {
        do {
            return try await bounded { admission in
                try await self.commitInTransaction(group, admission: admission, savepointPerBatch: false)
            }
        } catch let error as PostgresTransactionError where error.closureError is GroupWriteRefused {
            do {
                return try await bounded { admission in
                    try await self.commitInTransaction(group, admission: admission, savepointPerBatch: true)
                }
            } catch {
                return group.map { _ in .failure(error) }
            }
        } catch {
            return group.map { _ in .failure(error) }
        }
    }

    /// The group's writes failed on the data of one of its batches, whichever: the group is done again, each
    /// batch under a savepoint of its own.
    struct GroupWriteRefused: Error {
        var refusal: PSQLError
    }

    /// Whether `error` is one a batch's own rows can cause: SQLSTATE class 22 (data exception) or 23 (integrity
    /// constraint violation).
    static func isCausedByOneBatch(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23")
    }

    private func commitInTransaction(
        _ group: [GroupCommit.Waiting], admission: Admission, savepointPerBatch: Bool
    ) async throws -> [Result<BatchAck, any Error>] {
        let logger = logger
        let keys = PostgresBindings.installationKeys(group.map(\.batch))
        return try await client.withTransaction(logger: logger) { connection in
            // Given up while waiting for this connection: roll back, nothing sent.
            guard admission.start() else { throw PostgresStorageError.connectionWaitExceeded(self.connectionWait) }
            var placeholders = keys
            placeholders.append(group.map(\.nowMs).max() ?? 0)
            try await connection.run(PostgresSchema.insertInstallationPlaceholders, placeholders, logger: logger)
            var records: [InstallationRowKey: ByteBuffer] = [:]
            for try await (deviceId, installId, record) in try await connection.rows(
                PostgresSchema.lockInstallations, keys, logger: logger
            ).decode((String, Int64, ByteBuffer?).self) {
                if let record { records[InstallationRowKey(deviceId: deviceId, installId: installId)] = record }
            }
            // The ledger's answers, from the records just locked; a record that does not decode fails its batch.
            var results: [Result<BatchAck, any Error>] = []
            var steps: [(index: Int, step: LedgerStep)] = []
            for (index, waiting) in group.enumerated() {
                let key = InstallationRowKey(
                    deviceId: waiting.batch.deviceId, installId: Int64(bitPattern: waiting.batch.installId))
                do {
                    let previous = try records[key].map {
                        try InstallationRecord(serializedBytes: Array($0.readableBytesView))
                    }
                    let step = LedgerStep(
                        batch: waiting.batch, previous: previous, encodedSize: waiting.encodedSize,
                        nowMs: waiting.nowMs, policy: waiting.policy)
                    results.append(.success(step.result.ack))
                    // HOLD and TOO_LARGE store nothing; a placeholder this group made stays NULL ("no record yet").
                    if step.record != nil { steps.append((index, step)) }
                } catch {
                    results.append(.failure(error))
                }
            }
            if !savepointPerBatch {
                var rows = PostgresGroupRows()
                for (index, step) in steps { rows.append(step, of: group[index]) }
                do {
                    try await Self.write(rows, on: connection, logger: logger)
                } catch let error as PSQLError where Self.isCausedByOneBatch(error) {
                    throw GroupWriteRefused(refusal: error)
                }
                return results
            }
            for (index, step) in steps {
                var rows = PostgresGroupRows()
                rows.append(step, of: group[index])
                try await connection.run("SAVEPOINT batch", PostgresBindings(), logger: logger)
                do {
                    try await Self.write(rows, on: connection, logger: logger)
                    try await connection.run("RELEASE SAVEPOINT batch", PostgresBindings(), logger: logger)
                } catch let error as PSQLError where Self.isCausedByOneBatch(error) {
                    try await connection.run("ROLLBACK TO SAVEPOINT batch", PostgresBindings(), logger: logger)
                    results[index] = .failure(error)
                }
            }
            return results
        }
    }

    /// Runs ``PostgresSchema/writeGroup`` with `rows` and checks that it stored what it was sent.
    private static func write(
        _ rows: PostgresGroupRows, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var counts: (installations: Int64, fixes: Int64)?
        let written = try await connection.rows(PostgresSchema.writeGroup, rows.bindings(), logger: logger)
        for try await row in written.decode((Int64, Int64).self) { counts = row }
        guard let counts, counts.installations == rows.installationCount, counts.fixes == rows.fixCount else {
            let sent = "\(rows.installationCount) records and \(rows.fixCount) fixes"
            throw PostgresStorageError.tablesDisagree("\(sent) sent, \(String(describing: counts)) written")
        }
    }

    // MARK: Read-back and assignments

    public func fixes(deviceId: String, fromMs: Int64, toMs: Int64, limit: Int) async throws -> [StoredFix] {
        try await bounded { _ in
            try await self.fixesNow(deviceId: deviceId, fromMs: fromMs, toMs: toMs, limit: limit)
        }
    }

    private func fixesNow(deviceId: String, fromMs: Int64, toMs: Int64, limit: Int) async throws -> [StoredFix] {
        var fixes: [StoredFix] = []
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: PostgresSchema.selectFixes, binds: binds(deviceId, fromMs, toMs, Int64(limit))),
            logger: logger)
        for try await (installId, body, receivedAtMs) in rows.decode((Int64, ByteBuffer, Int64).self) {
            fixes.append(
                StoredFix(
                    installId: UInt64(bitPattern: installId),
                    fix: try LocationFix(serializedBytes: Array(body.readableBytesView)), receivedAtMs: receivedAtMs))
        }
        return fixes
    }

    public func installations(deviceId: String) async throws -> [InstallationRecord] {
        var records: [InstallationRecord] = []
        for try await bytes in try await client.query(
            PostgresQuery(unsafeSQL: PostgresSchema.selectInstallationRecords, binds: binds(deviceId)), logger: logger
        ).decode(ByteBuffer?.self) {
            if let bytes { records.append(try InstallationRecord(serializedBytes: Array(bytes.readableBytesView))) }
        }
        return records
    }

    public func lastAssignment(deviceId: String) async throws -> RegionAssignment? {
        try await firstRow(ByteBuffer.self, PostgresSchema.selectAssignment, binds(deviceId)).map {
            try RegionAssignment(serializedBytes: Array($0.readableBytesView))
        }
    }

    public func saveAssignment(_ assignment: RegionAssignment, deviceId: String, nowMs: Int64) async throws {
        try await execute(
            PostgresSchema.upsertAssignment, binds(deviceId, ByteBuffer(bytes: assignment.serializedBytes()), nowMs))
    }

    // MARK: Inspection

    /// How many fixes are stored for an installation (tests).
    public func storedFixCount(deviceId: String, installId: UInt64) async throws -> Int {
        Int(
            try await firstRow(Int64.self, PostgresSchema.countFixes, binds(deviceId, Int64(bitPattern: installId)))
                ?? 0)
    }

    /// How many fence events and lifecycle events are stored for an installation (tests).
    public func storedEventCounts(deviceId: String, installId: UInt64) async throws -> StoredEventCounts {
        let key = try binds(deviceId, Int64(bitPattern: installId))
        return StoredEventCounts(
            fenceEvents: Int(try await firstRow(Int64.self, PostgresSchema.countFenceEvents, key) ?? 0),
            lifecycleEvents: Int(try await firstRow(Int64.self, PostgresSchema.countLifecycleEvents, key) ?? 0))
    }

    /// The device status kept for an installation, with the `sent_at_ms` of its batch (tests).
    public func storedDeviceStatus(deviceId: String, installId: UInt64) async throws -> StoredDeviceStatus? {
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: PostgresSchema.selectDeviceStatus, binds: binds(deviceId, Int64(bitPattern: installId))),
            logger: logger)
        var found: StoredDeviceStatus?
        for try await (sentAtMs, body) in rows.decode((Int64, ByteBuffer).self) {
            found = StoredDeviceStatus(
                sentAtMs: sentAtMs, status: try DeviceStatus(serializedBytes: Array(body.readableBytesView)))
        }
        return found
    }

    // MARK: Queries

    /// Runs `operation`, or throws ``PostgresStorageError/connectionWaitExceeded`` when it has waited
    /// ``Options/connectionWait`` for a connection. An operation that writes calls ``Admission/start()`` once it
    /// has its connection, before it sends anything: from then on its own outcome is the answer (the database's
    /// `statement_timeout` and `lock_timeout` bound it), until ``startedOperationLimit`` more has passed, when it
    /// is answered ``PostgresStorageError/noAnswer(_:)``.
    ///
    /// Why that last bound: when PostgreSQL goes away mid-transaction (`pg_ctl stop -m immediate`), a query or
    /// COMMIT of postgres-nio can stay unanswered for ever, and so would every batch behind it (a group holds its
    /// installations until it ends). The operation runs in a task of its own, so that the caller is answered on
    /// time whatever it does; a given-up operation that later gets its connection sends nothing.
    private func bounded<Value: Sendable>(
        _ operation: @escaping @Sendable (Admission) async throws -> Value
    )
        async throws -> Value
    {
        let wait = connectionWait
        let limit = startedOperationLimit
        let admission = Admission()
        let race = FirstAnswer<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.await(continuation)
                race.start(
                    work: Task {
                        do {
                            race.answer(.success(try await operation(admission)))
                        } catch {
                            race.answer(.failure(error))
                        }
                    },
                    timer: Task {
                        guard (try? await Task.sleep(for: wait)) != nil else { return }
                        if admission.giveUp() {
                            race.answer(.failure(PostgresStorageError.connectionWaitExceeded(wait)))
                            return
                        }
                        guard (try? await Task.sleep(for: limit)) != nil else { return }
                        race.answer(.failure(PostgresStorageError.noAnswer(wait + limit)))
                    })
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// Runs a statement that writes, on a connection of the pool, under ``bounded(_:)``'s admission.
    private func execute(_ sql: String, _ binds: PostgresBindings) async throws {
        try await bounded { [client, logger, connectionWait] admission in
            try await client.withConnection { connection in
                guard admission.start() else { throw PostgresStorageError.connectionWaitExceeded(connectionWait) }
                try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).drain()
            }
        }
    }

    /// The first column of the first row, or nil when there is no row.
    private func firstRow<Column: PostgresDecodable & Sendable>(
        _ type: Column.Type, _ sql: String, _ binds: PostgresBindings
    ) async throws -> Column? {
        try await bounded { _ in try await self.firstRowNow(type, sql, binds) }
    }

    private func firstRowNow<Column: PostgresDecodable & Sendable>(
        _ type: Column.Type, _ sql: String, _ binds: PostgresBindings
    ) async throws -> Column? {
        var first: Column?
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            .decode(Column.self)
        where first == nil {
            first = value
        }
        return first
    }
}

/// What went wrong with the database, said so that a person can act on it.
public enum PostgresStorageError: Error, CustomStringConvertible {
    /// Connecting or creating the schema failed: `target` is `user@host:port/database` (no password).
    case cannotOpen(target: String, reason: String)
    /// No connection came within ``PostgresStorage/Options/connectionWait``: the database is down or every
    /// connection of the pool is busy.
    case connectionWaitExceeded(Duration)
    /// An operation that had its connection got no answer from the database within the time given (its
    /// connection died with the server, say); whether its transaction committed is not known.
    case noAnswer(Duration)
    /// A group's writes stored other than what the ledger said to store; the transaction rolled back.
    case tablesDisagree(String)

    public var description: String {
        switch self {
        case .cannotOpen(let target, let reason): "cannot open PostgreSQL \(target): \(reason)"
        case .connectionWaitExceeded(let wait): "no PostgreSQL connection within \(wait)"
        case .noAnswer(let limit): "no answer from PostgreSQL within \(limit)"
        case .tablesDisagree(let what): "the ledger and the tables disagree: \(what)"
        }
    }

    /// The server's own message (with its SQLSTATE) or the connection's error. postgres-nio's description of
    /// its errors is deliberately generic, lest it leak data; these parts carry no password.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
        }
        return [error.code.description, error.underlying.map { "\($0)" }].compactMap { $0 }.joined(separator: ": ")
    }
}

/// An installation's key as its rows hold it: `install_id` as the same 64 bits in a BIGINT.
struct InstallationRowKey: Hashable {
    var deviceId: String
    var installId: Int64
}

/// The values of a statement's `$1`, `$2`, ... in order.
private func binds(_ values: any PostgresThrowingDynamicTypeEncodable...) throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: values.count)
    for value in values { try bindings.append(value) }
    return bindings
}

extension PostgresConnection {
    /// Runs one statement and reads its result to the end, so that its errors are thrown here.
    func run(_ sql: String, _ binds: PostgresBindings, logger: Logger) async throws {
        try await query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).drain()
    }

    /// Runs one statement, for its rows.
    func rows(_ sql: String, _ binds: PostgresBindings, logger: Logger) async throws -> PostgresRowSequence {
        try await query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }
}

private func currentTimeMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

extension PostgresRowSequence {
    /// Reads every row and drops it: a statement's errors arrive only as its rows are consumed.
    func drain() async throws {
        for try await _ in self {}
    }
}

/// The first of an operation's answer and its timer's, given to the caller once; the loser is cancelled.
/// ``await(_:)`` comes before ``start(work:timer:)``, so no answer can come before the caller waits for it.
final class FirstAnswer<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var answered = false
        var cancelled = false
    }
    private let state = Mutex(State())

    /// Where the answer goes.
    func await(_ continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// The two tasks racing. The timer is cancelled at once when the operation has answered already, the
    /// operation when the caller is cancelled already.
    func start(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let (answered, cancelled) = state.withLock { state in
            state.work = work
            state.timer = timer
            return (state.answered, state.cancelled)
        }
        if answered { timer.cancel() }
        if cancelled { work.cancel() }
    }

    /// Gives `result` to the caller unless an answer was given already; cancels both tasks' remainder.
    func answer(_ result: Result<Value, any Error>) {
        let (continuation, tasks): (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) = state.withLock {
            state in
            guard !state.answered else { return (nil, []) }
            state.answered = true
            defer { state.continuation = nil }
            return (state.continuation, [state.work, state.timer].compactMap { $0 })
        }
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }

    /// The caller is cancelled: so is the operation (a wait for a pooled connection ends at once), whose error
    /// is then the answer.
    func cancel() {
        let work = state.withLock { state in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }
}

/// Whether an operation ``PostgresStorage`` bounds has reached the database, or was given up before it did: the
/// two cannot both happen.
final class Admission: Sendable {
    private enum State { case waiting, started, givenUp }
    private let state = Mutex(State.waiting)

    /// Marks the operation as reaching the database; false when it was already given up.
    func start() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return state == .started }
            state = .started
            return true
        }
    }

    /// Gives the operation up; false when it has already reached the database.
    func giveUp() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return state == .givenUp }
            state = .givenUp
            return true
        }
    }
}
