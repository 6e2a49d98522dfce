import Foundation
import LocationWire
@testable import LocationWireServer
import Logging
import PostgresNIO
import Testing

/// What only the PostgreSQL backend has: its URL, its schema option, and migrations racing between processes.
/// The behaviour it shares with SQLite is checked by ``StorageTests`` against both.
@Suite struct PostgresStorageTests {
    @Test func urlGivesEveryPart() throws {
        let options = try PostgresStorage.Options(url: "postgres://loc%40wire:p%3Ass@db.example:6543/track%2Ding")
        #expect(options.host == "db.example")
        #expect(options.port == 6543)
        #expect(options.username == "loc@wire")
        #expect(options.password == "p:ss")
        #expect(options.database == "track-ing")
        let defaults = try PostgresStorage.Options(url: "postgresql://me@localhost?sslmode=disable")
        #expect(defaults.port == 5432)
        #expect(defaults.password == nil)
        #expect(defaults.database == nil)
    }

    @Test(arguments: [
        "", "http://u@host/db", "postgres://host/db", "postgres://u@/db", "postgres://u@host/db?sslmode=require",
        "postgres://u@host/db?application_name=x", "not a url at all",
    ])
    func badURLsAreRefused(_ url: String) {
        #expect(throws: PostgresStorage.PostgresURLError.self) { try PostgresStorage.Options(url: url) }
    }

    @Test func urlErrorsDoNotShowThePassword() {
        do {
            _ = try PostgresStorage.Options(url: "postgres://u:secret@host/db?sslmode=verify-full")
            Issue.record("sslmode=verify-full was taken")
        } catch {
            #expect(!error.description.contains("secret"))
        }
    }

    @Test(arguments: ["public", "locwire_test_0", "_x"]) func plainSchemaNamesAreTaken(_ name: String) {
        #expect(PostgresStorage.Options.isPlainIdentifier(name))
    }

    @Test(arguments: ["", "0abc", "Upper", "a-b", "a;drop table fix", "\"quoted\"", String(repeating: "a", count: 64)])
    func otherSchemaNamesAreRefused(_ name: String) {
        #expect(!PostgresStorage.Options.isPlainIdentifier(name))
    }

    /// Several processes starting at once on an empty database: the advisory lock lets one create the schema
    /// and the others find it made; none fails on a half-created table.
    @Test(.enabled(if: !StorageBackend.skipsPostgres)) func storesStartingAtOnceMigrateOnce() async throws {
        try await StorageBackend.postgres.withFreshDatabase { database in
            guard case .postgres(let options) = database else { return }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await PostgresStorage.withStorage(options) { store in
                            let batch = StorageTests.batch(UInt64(index + 1)...UInt64(index + 1))
                            return try await StorageTests.ingest(batch, into: store).fixResults.count
                        }
                    }
                }
                var answered = 0
                for try await count in group { answered += count }
                #expect(answered == 4)
            }
            try await database.withStore { (store) async throws -> Void in
                #expect(try await store.storedFixCount(deviceId: StorageTests.deviceId, installId: 7) == 4)
            }
        }
    }

    /// A database from before day partitions (migrations v1 and v2 only) with fixes and an event received on two
    /// days: v3 moves them into a partition per day (so retention can drop those days), none into the default.
    @Test(.enabled(if: !StorageBackend.skipsPostgres)) func olderRowsMoveIntoDayPartitions() async throws {
        try await StorageBackend.postgres.withFreshDatabase { database in
            guard case .postgres(let options) = database, let schema = options.schema else { return }
            let day: Int64 = 86_400_000
            let received = [StorageTests.nowMs, StorageTests.nowMs + day]
            try await database.withPostgresConnection { connection, logger in
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: logger)
                try await connection.query(
                    PostgresQuery(unsafeSQL: PostgresSchema.createMigrationTable), logger: logger)
                for migration in PostgresSchema.migrations.prefix(2) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO schema_migration (version, applied_at_ms) VALUES (\(migration.version), 0)",
                        logger: logger)
                }
                for (index, receivedAtMs) in received.enumerated() {
                    try await connection.query(
                        """
                        INSERT INTO fix (device_id, install_id, sequence, time_ms, body, received_at_ms)
                        VALUES ('old', 1, \(Int64(index + 1)), 0, '\\x'::BYTEA, \(receivedAtMs))
                        """, logger: logger)
                }
                try await connection.query(
                    """
                    INSERT INTO fence_event (device_id, install_id, event_sequence, region_id, kind, body,
                        received_at_ms) VALUES ('old', 1, 1, 'r', 1, '\\x'::BYTEA, \(received[0]))
                    """, logger: logger)
            }
            try await database.withStore { (store) async throws -> Void in
                #expect(try await store.storedFixCount(deviceId: "old", installId: 1) == 2)
            }
            let partitions = try await database.withPostgresConnection { connection, logger in
                var counts: [String: Int64] = [:]
                for table in ["fix", "fence_event"] {
                    let rows = try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                SELECT tableoid::regclass::TEXT, COUNT(*) FROM \(table) GROUP BY tableoid
                                """), logger: logger)
                    for try await (name, count) in rows.decode((String, Int64).self) { counts[name] = count }
                }
                return counts
            }
            let days = received.map { PostgresStorage.floorDivide($0, day) }
            #expect(
                partitions == [
                    PostgresSchema.dayPartitionName("fix", day: days[0]): 1,
                    PostgresSchema.dayPartitionName("fix", day: days[1]): 1,
                    PostgresSchema.dayPartitionName("fence_event", day: days[0]): 1,
                ])
        }
    }

    /// A batch held up by another transaction's lock on its installation (a slow process, a long query) past the
    /// wait for a connection gets the answer of its own transaction: an ack once the lock goes (it was a 503 that
    /// then committed), or, when the lock outlasts the statement time-out, an error that stored nothing.
    @Test(.enabled(if: !StorageBackend.skipsPostgres)) func aBatchHeldByALockIsAnsweredAsItsTransactionEnded()
        async throws
    {
        try await StorageBackend.postgres.withFreshDatabase { database in
            guard case .postgres(var options) = database else { return }
            options.connectionWait = .milliseconds(500)
            options.statementTimeout = .seconds(3)
            try await PostgresStorage.withStorage(options) { store in
                _ = try await StorageTests.ingest(StorageTests.batch(1...1), into: store)
                for (holdMs, released) in [(1_500, true), (5_000, false)] {
                    let next = UInt64(released ? 2 : 3)
                    let held = try await database.withPostgresConnection { connection, logger in
                        try await connection.query("BEGIN", logger: logger)
                        var installation = PostgresBindings()
                        installation.append([StorageTests.deviceId])
                        installation.append([Int64(7)])
                        try await connection.query(
                            PostgresQuery(unsafeSQL: PostgresSchema.lockInstallations, binds: installation),
                            logger: logger
                        ).drain()
                        let held = Task {
                            try await StorageTests.ingest(StorageTests.batch(next...next, batchId: next), into: store)
                        }
                        try await Task.sleep(for: .milliseconds(holdMs))
                        try await connection.query("COMMIT", logger: logger)
                        return held
                    }
                    let answer = await held.result
                    let stored = try await store.storedFixCount(deviceId: StorageTests.deviceId, installId: 7)
                    if released {
                        #expect((try? answer.get())?.fixResults.first?.result == .accepted, "\(answer)")
                        #expect(stored == 2)
                    } else {
                        #expect(throws: (any Error).self) { try answer.get() }
                        #expect(stored == 2, "the transaction the lock time-out ended stored nothing")
                    }
                }
            }
        }
    }

    /// A server that is not there: opening fails at once with the connection's error, where the pool alone
    /// would keep retrying in the background.
    @Test func unreachableServerFailsAndSaysWhere() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let options = PostgresStorage.Options(host: "127.0.0.1", port: 1, username: "nobody", password: "secret")
        let error = await #expect(throws: PostgresStorageError.self) {
            try await PostgresStorage.withStorage(options) { _ in }
        }
        #expect(error?.description.contains("nobody@127.0.0.1:1") == true)
        #expect(error?.description.contains("secret") == false)
    }
}
