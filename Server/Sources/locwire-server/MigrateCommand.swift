import ArgumentParser
import Foundation
import LocationWireCommandLine
import LocationWireServer

/// `locwire-server migrate`: creates or updates the PostgreSQL schema of `serve --postgres`, and does nothing
/// else: no token is issued, so a database readied for rows copied in (Server/scripts/shard-split.sh) holds
/// none of its own.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or update the PostgreSQL schema of serve --postgres, then exit.",
        discussion: """
            The migrations serve applies at start, alone: for a database that is to receive rows copied from \
            another (Server/scripts/shard-split.sh). Safe beside running servers: the migration holds an advisory \
            lock.
            """
    )

    @Option(help: "postgres://user:password@host:port/database (without a password, PGPASSWORD's is used).")
    var postgres: String

    func run() async throws {
        var options = try PostgresStorage.Options(commandLine: postgres, option: "--postgres")
        options.maximumConnections = 1
        try await PostgresStorage.withStorage(options) { _ in }
        print("schema up to date: \(options.shownURL)")
    }
}
