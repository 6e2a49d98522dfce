import ArgumentParser
import LocationWireCommandLine

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
            ServeCommand.self, MigrateCommand.self, ProbeCommand.self, MockServerCommand.self, LoadCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    static func main() async { await mainWithLocationWireStatuses() }
}
