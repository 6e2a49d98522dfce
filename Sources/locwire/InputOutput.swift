import ArgumentParser
import Foundation
import LocationWire
import LocationWireConformance
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

/// Writes `text` to the file at `path`, or to standard output when there is none. A file that cannot be written
/// is a usage error (exit status 2).
func writeText(_ text: String, toFile path: String?) throws {
    guard let path else {
        print(text, terminator: "")
        return
    }
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
        throw UsageFailure(message: "cannot write \(path): \(error.localizedDescription)")
    }
}

/// Writes `bytes` to the file at `path`, or to standard output when there is none. A file that cannot be written
/// is a usage error (exit status 2).
func writeBytes(_ bytes: [UInt8], toFile path: String?) throws {
    guard let path else {
        writeToStandardOutput(bytes)
        return
    }
    do {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
        throw UsageFailure(message: "cannot write \(path): \(error.localizedDescription)")
    }
}

/// A list of expected failures (`conformance run`) or known differences (`fuzz`): the file the user named, which
/// must exist; else the implementation's default file when it exists; else an empty list that says why.
func loadFailureList(named path: String?, default defaultPath: String, what: String) throws -> FailureList {
    let chosen = path ?? defaultPath
    guard FileManager.default.fileExists(atPath: chosen) else {
        if path != nil { throw UsageFailure(message: "no \(what) at \(chosen)") }
        return FailureList(source: "none (\(chosen) does not exist)")
    }
    do {
        return try FailureList.load(URL(fileURLWithPath: chosen))
    } catch {
        throw UsageFailure(message: "\(error)")
    }
}

/// Starts the testee that `command` runs and returns it with the implementation name its hello gave; a testee
/// that does not start or answer is a usage error (exit status 2).
func startTestee(_ command: String) throws -> (TesteeProcess, implementation: String) {
    let process = TesteeProcess(command: command)
    do {
        return (process, try process.start().implementation)
    } catch {
        throw UsageFailure(message: "\(error)")
    }
}
