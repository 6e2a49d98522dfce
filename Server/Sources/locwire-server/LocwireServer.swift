import ArgumentParser
import Foundation

/// `locwire-server`: LocationWire over HTTP (proto/HTTP.md): the reference server and the tools that check
/// servers and clients against the binding.
///
/// A separate product and package from `locwire`, so that the codec's command line, its tests and
/// `swift run locwire conformance run` never build Hummingbird, GRDB or postgres-nio.
@main
struct LocwireServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locwire-server",
        abstract: "LocationWire over HTTP: the reference server, and tools that check servers and clients.",
        version: "0.1.0",
        subcommands: [
            ServeCommand.self, ProbeCommand.self, MockServerCommand.self, LoadCommand.self, FloorCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// Exit status 2 for a usage error (ArgumentParser's own is 64), as `locwire`'s; an `ExitCode` a command
    /// throws (the probe's 1 for a failed check) passes through.
    static func main() async {
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
func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
