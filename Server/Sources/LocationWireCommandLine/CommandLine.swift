import ArgumentParser
import Foundation
import LocationWireServer

extension AsyncParsableCommand {
    /// Parses the arguments, runs the command and exits with the Server package's statuses, which are `locwire`'s:
    /// 2 for a usage error (ArgumentParser's own is 64); an `ExitCode` a command throws (the probe's 1 for a failed
    /// check) passes through; 0 after `--help` and `--version`.
    public static func mainWithLocationWireStatuses() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                // --help and --version end up here.
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            printToStandardError(fullMessage(for: error))
            Foundation.exit(2)
        }
    }
}

/// Writes a line to standard error.
public func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// `--durability full|normal`, as `serve` and the storage floor take it.
extension SQLiteStorage.Durability: ExpressibleByArgument {}

extension PostgresStorage.Options {
    /// The options of a PostgreSQL URL given on the command line as `option`: PGPASSWORD's password when the URL
    /// has none (which keeps it out of the process list).
    ///
    /// - Throws: a `ValidationError` naming `option`, without the password.
    public init(commandLine url: String, option: String) throws {
        do {
            self = try PostgresStorage.Options(url: url)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
        if password == nil { password = ProcessInfo.processInfo.environment["PGPASSWORD"] }
    }

    /// The database's URL without its password, to print.
    public var shownURL: String { "postgres://\(username)@\(host):\(port)/\(database ?? "")" }
}
