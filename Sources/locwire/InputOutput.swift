import ArgumentParser
import Foundation
import LocationWire
import LocationWireJSON
import LocationWireTools

/// Input and output formats on the command line.
enum WireFormatOption: String, ExpressibleByArgument, CaseIterable {
    case binpb
    case json
}

enum OutputFormatOption: String, ExpressibleByArgument, CaseIterable {
    case binpb
    case json
    case dump
}

/// Options every command that reads one message shares.
struct MessageInputOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The message type, e.g. LocationBatch or locationwire.v1.LocationBatch.", valueName: "type"))
    var type: String

    @Argument(help: ArgumentHelp("The input file; standard input when absent or '-'.", valueName: "file"))
    var file: String?

    func codec() throws -> AnyMessageCodec {
        guard let codec = AnyMessageCodec(typeName: type) else {
            let names = MessageRegistry.allTypes.map { $0.messageName }.joined(separator: ", ")
            throw ValidationError("unknown message type '\(type)'; known types: \(names)")
        }
        return codec
    }

    func readInput() throws -> [UInt8] {
        do {
            if let file, file != "-" {
                return [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            }
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } catch {
            throw UsageFailure(message: "cannot read \(file ?? "standard input"): \(error.localizedDescription)")
        }
    }

    /// Decodes the input in `format`; a decoding error is a rejection (exit 1).
    func decode(_ bytes: [UInt8], format: WireFormatOption, codec: AnyMessageCodec) throws -> any LocationWireMessage {
        do {
            switch format {
            case .binpb: return try codec.decodeBinary(bytes)
            case .json: return try codec.decodeJSON(bytes)
            }
        } catch let error as DecodingError {
            throw InputRejected(message: "input rejected: \(error)")
        } catch let error as JSONError {
            throw InputRejected(message: "input rejected: \(error)")
        }
    }
}

func writeToStandardOutput(_ bytes: [UInt8]) {
    FileHandle.standardOutput.write(Data(bytes))
}
