import ArgumentParser
import Foundation
import LocationWire
import LocationWireJSON

/// How a LocationBatch file is written, for the commands that read one batch (compact, expand, stats).
enum BatchFormatOption: String, ExpressibleByArgument, CaseIterable {
    /// JSON when the first byte that is not white space is `{`, binary otherwise.
    case auto
    case binpb
    case json
}

/// The batch a command reads: a file or standard input, binary or proto3 JSON.
struct BatchInputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The LocationBatch file; standard input when absent or '-'.", valueName: "file"))
    var file: String?

    @Option(help: "Input format: auto (JSON when it starts with '{'), binpb or json.")
    var from: BatchFormatOption = .auto

    /// The name to use in messages.
    var inputName: String { file.flatMap { $0 == "-" ? nil : $0 } ?? "standard input" }

    /// The batch and the format it was written in. Bytes that are not a LocationBatch are a rejection (exit 1);
    /// a file that cannot be read is a usage error (exit 2).
    func readBatch() throws -> (LocationBatch, format: WireFormatOption) {
        let data = Data(try readFileOrStandardInput(file))
        let format: WireFormatOption
        switch from {
        case .binpb: format = .binpb
        case .json: format = .json
        case .auto:
            format = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{") ? .json : .binpb
        }
        do {
            let batch: LocationBatch = try BehaviorInput.message(inputName, data, format)
            return (batch, format)
        } catch let rejection as InputRejected {
            // The likeliest mistake: a track in another format, which import turns into a batch.
            throw InputRejected(
                message: rejection.message + "\n(a GPX, GeoJSON, OwnTracks, Overland or CSV track is read by "
                    + "`locwire import FILE --device-id ID` first)")
        }
    }
}

/// Where a command that writes one batch writes it.
struct BatchOutputOptions: ParsableArguments {
    @Option(help: "Output format: binpb or json (default: the input's).")
    var to: WireFormatOption?

    @Flag(help: "Indent JSON output.")
    var pretty = false

    @Option(help: ArgumentHelp("Write the batch here instead of standard output.", valueName: "file"))
    var output: String?

    func write(_ batch: LocationBatch, inputFormat: WireFormatOption) throws {
        switch to ?? inputFormat {
        case .binpb: try writeOutput(batch.serializedBytes(), toFile: output)
        case .json: try writeText(batch.jsonString(options: JSONPrintOptions(pretty: pretty)) + "\n", toFile: output)
        }
    }
}
