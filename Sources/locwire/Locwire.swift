import ArgumentParser
import Foundation
import LocationWireCatalogues
import LocationWireFiles

/// `locwire`: convert, inspect and validate LocationWire messages.
///
/// Exit status, relied upon by tools outside the package: 0 success, 1 input rejected (it does not decode, or it
/// is invalid), 2 usage or I/O error. Errors go to standard error.
@main
struct Locwire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locwire",
        abstract: "Convert, inspect and validate LocationWire messages (protobuf binary and proto3 JSON).",
        discussion: """
            Message types are named as in proto/locationwire/v1, with or without the package: LocationBatch and \
            locationwire.v1.LocationBatch are the same type. `locwire types` lists them.

            Exit status: 0 success, 1 input rejected (does not decode, or is invalid), 2 usage or I/O error.
            """,
        version: "1.0.0",
        subcommands: [
            ConvertCommand.self, ValidateCommand.self, TypesCommand.self, ConformanceCommand.self, FixturesCommand.self,
            FuzzCommand.self, SimulateCommand.self, PlanCommand.self, ImportCommand.self, ExportCommand.self,
            CompactCommand.self, ExpandCommand.self, StatsCommand.self, RenderCommand.self, DeviceCommand.self,
        ]
    )

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let rejection as InputRejected {
            printToStandardError("locwire: \(rejection.message)")
            Foundation.exit(1)
        } catch let failure as UsageFailure {
            // I/O and argument errors the commands found themselves, prefixed like rejections; ArgumentParser's own
            // parse errors (below) keep its "Error:" and the usage lines.
            printToStandardError("locwire: \(failure.message)")
            Foundation.exit(2)
        } catch let fileError as FileAccessError {
            // A library function that read or wrote a file for the command: an I/O error, in its own words.
            printToStandardError("locwire: \(fileError)")
            Foundation.exit(2)
        } catch let catalogueError as RegionCatalogueError {
            printToStandardError("locwire: \(catalogueError.message)")
            Foundation.exit(catalogueError.kind == .unreadable ? 2 : 1)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                // --help and --version end up here.
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            printToStandardError(fullMessage(for: error))
            Foundation.exit(2)
        }
    }
}

/// The input did not decode or broke the spec's rules: exit status 1.
struct InputRejected: Error {
    let message: String
}

/// A file could not be read or written, or the arguments do not make sense: exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
