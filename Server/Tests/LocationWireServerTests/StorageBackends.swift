import Foundation
import GRDB
import LocationWire
import Logging
import PostgresNIO
@testable import LocationWireServer
import Testing

/// What the shared storage checks read besides ``ServerStorage``: both backends' token lookup and inspection
/// methods.
protocol InspectableStorage: ShardStorage {
    func storedFixCount(deviceId: String, installId: UInt64) async throws -> Int
    func storedEventCounts(deviceId: String, installId: UInt64) async throws -> StoredEventCounts
    func storedDeviceStatus(deviceId: String, installId: UInt64) async throws -> StoredDeviceStatus?
}

extension SQLiteStorage: InspectableStorage {}
extension PostgresStorage: InspectableStorage {}

/// The storage backends the shared checks (``StorageTests``) run against, each from a fresh, empty database.
///
/// PostgreSQL needs a server: its URL comes from `LOCWIRE_TEST_POSTGRES_URL` (CI sets it from
/// `Server/scripts/start-postgres.sh`). Unset, every PostgreSQL case fails with a message saying how to get one, unless
/// `LOCWIRE_SKIP_POSTGRES=1` leaves PostgreSQL out on purpose. The tests do not start a cluster themselves: that
/// may need root and apt-get, and would leave a server running behind a test run; a failure that names the
/// missing server is the honest answer to a missing server.
enum StorageBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let urlVariable = "LOCWIRE_TEST_POSTGRES_URL"
    static let skipVariable = "LOCWIRE_SKIP_POSTGRES"

    /// True when `LOCWIRE_SKIP_POSTGRES=1` asks for SQLite alone.
    static var skipsPostgres: Bool { ProcessInfo.processInfo.environment[skipVariable] == "1" }

    /// The backends to run the shared checks against.
    static var tested: [StorageBackend] { skipsPostgres ? [.sqlite] : allCases }

    var testDescription: String { rawValue }

    /// Runs `body` with a new, empty database of this backend, removed afterwards.
    func withFreshDatabase(_ body: (TestDatabase) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-\(UUID()).sqlite").path
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            try await body(.sqlite(path: path))
        case .postgres:
            // A schema of its own per test: tests run in parallel on one server without seeing each other.
            var options = try Self.postgresOptions()
            options.schema = "locwire_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let database = TestDatabase.postgres(options)
            do {
                try await body(database)
            } catch {
                try? await database.dropPostgresSchema()
                throw error
            }
            try await database.dropPostgresSchema()
        }
    }

    /// The server of `LOCWIRE_TEST_POSTGRES_URL`, or an error that says how to provide one.
    static func postgresOptions() throws -> PostgresStorage.Options {
        guard let url = ProcessInfo.processInfo.environment[urlVariable], !url.isEmpty else {
            throw MissingPostgres()
        }
        return try PostgresStorage.Options(url: url)
    }

    struct MissingPostgres: Error, CustomStringConvertible {
        var description: String {
            """
            \(StorageBackend.urlVariable) is not set, so the PostgreSQL backend cannot be tested. From the \
            repository root: `export \(StorageBackend.urlVariable)=$(Server/scripts/start-postgres.sh)` starts a \
            throwaway cluster on 127.0.0.1:55432 and prints its URL; or set \(StorageBackend.skipVariable)=1 \
            to test SQLite alone.
            """
        }
    }
}

/// One database of a test, over which stores are opened as server processes (or restarts) open them.
enum TestDatabase {
    case sqlite(path: String)
    case postgres(PostgresStorage.Options)

    /// Runs `body` with a store of its own over this database; two nested calls are two processes' stores.
    func withStore<Result: Sendable>(_ body: (any InspectableStorage) async throws -> Result) async throws -> Result {
        switch self {
        case .sqlite(let path):
            return try await body(try SQLiteStorage(path: path))
        case .postgres(let options):
            return try await PostgresStorage.withStorage(options) { storage in try await body(storage) }
        }
    }

    /// Whether `text` is anywhere in the database: in any byte of SQLite's files (a copy of the database is a
    /// copy of them), or in any column of PostgreSQL's rows of `table`.
    func holds(_ text: String, inTable table: String) async throws -> Bool {
        switch self {
        case .sqlite(let path):
            return try ["", "-wal"].contains { suffix in
                guard FileManager.default.fileExists(atPath: path + suffix) else { return false }
                return try Data(contentsOf: URL(fileURLWithPath: path + suffix)).range(of: Data(text.utf8)) != nil
            }
        case .postgres:
            return try await withPostgresConnection { connection, logger in
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT row_to_json(t)::text FROM \(table) t"), logger: logger)
                for try await row in rows.decode(String.self) where row.contains(text) { return true }
                return false
            }
        }
    }

    /// Runs `body` with a connection of its own to this PostgreSQL database (its schema first in the search
    /// path), as another client of the server: to hold locks or read rows beside the stores.
    func withPostgresConnection<Result: Sendable>(
        _ body: (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        guard case .postgres(let options) = self else { throw NotPostgres() }
        var configuration = PostgresConnection.Configuration(
            host: options.host, port: options.port, username: options.username, password: options.password,
            database: options.database, tls: .disable)
        configuration.options.additionalStartupParameters = [("search_path", options.schema ?? "public")]
        let logger = Logger(label: "test-connection")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let result = try await body(connection, logger)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    struct NotPostgres: Error {}

    /// Runs one statement without parameters on this database beside the stores, as another client would: to
    /// put rows in that the ledger does not know of.
    func execute(_ sql: String) async throws {
        switch self {
        case .sqlite(let path):
            try await DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
        case .postgres:
            try await withPostgresConnection { connection, logger in
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).drain()
            }
        }
    }

    func dropPostgresSchema() async throws {
        guard case .postgres(let options) = self else { return }
        try await PostgresStorage.withStorage(options) { storage in try await storage.dropSchema() }
    }
}
