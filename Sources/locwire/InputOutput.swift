import ArgumentParser
import Foundation
import LocationWire
import LocationWireConformance
import LocationWireFiles
import LocationWireInspection
import LocationWireJSON

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
        try readFileOrStandardInput(file)
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

// Every file a command reads or writes goes through the functions below, so each I/O failure reads the same way:
// "cannot read PATH: is a directory, not a file", exit status 2 (UsageFailure). FileAccess (LocationWireFiles)
// turns errno into the words; these wrap it for the command line.

/// The whole file at `path`, at most `FileAccess.maxReadBytes` (256 MiB). A file that cannot be read is a usage
/// error (exit status 2) that says why in plain words.
func readFile(_ path: String) throws -> [UInt8] {
    do {
        return try FileAccess.read(path)
    } catch {
        throw UsageFailure(message: error.description)
    }
}

/// The file at `path`, or standard input when `path` is nil or "-".
func readFileOrStandardInput(_ path: String?) throws -> [UInt8] {
    guard let path, path != "-" else {
        do {
            return try FileAccess.readStandardInput()
        } catch {
            throw UsageFailure(message: error.description)
        }
    }
    return try readFile(path)
}

/// Writes `bytes` to the file at `path`, replacing it. A file that cannot be written is a usage error (exit
/// status 2): the directory does not exist, the path is a directory, permission denied, the disk is full.
func writeFile(_ bytes: [UInt8], to path: String) throws {
    do {
        try FileAccess.write(bytes, to: path)
    } catch {
        throw UsageFailure(message: error.description)
    }
}

/// Writes `bytes` to the file at `path`, or to standard output when there is none or it is `-`. Bytes that are
/// not text (protobuf binary) are not written to a terminal, where they would only garble it: that is a usage
/// error naming the way out, as gzip does.
func writeOutput(_ bytes: [UInt8], toFile path: String?) throws {
    guard let path, path != "-" else {
        if isatty(STDOUT_FILENO) != 0, String(validating: bytes, as: UTF8.self) == nil || bytes.contains(0) {
            throw UsageFailure(
                message: "not writing binary output to a terminal: give --output FILE, pipe it on, or ask for JSON")
        }
        return writeToStandardOutput(bytes)
    }
    try writeFile(bytes, to: path)
}

/// Writes `text` to the file at `path`, or to standard output when there is none.
func writeText(_ text: String, toFile path: String?) throws {
    // print, not FileHandle: the commands print their other lines with print, whose buffer must stay in order.
    guard let path else { return print(text, terminator: "") }
    try writeFile(Array(text.utf8), to: path)
}

/// Checks before a long run that the output file `path` (when there is one) can be written, so the run stops
/// now rather than losing its result at the end.
func checkOutputFile(_ path: String?) throws {
    guard let path else { return }
    do {
        try FileAccess.checkWritable(path)
    } catch {
        throw UsageFailure(message: error.description)
    }
}

/// Creates the directory at `path` with its parents; one already there is fine.
func createOutputDirectory(_ path: String) throws {
    do {
        try FileAccess.createDirectory(path)
    } catch {
        throw UsageFailure(message: error.description)
    }
}

/// The names in the directory at `path`, sorted.
func listDirectory(_ path: String) throws -> [String] {
    do {
        return try FileAccess.contentsOfDirectory(path)
    } catch {
        throw UsageFailure(message: error.description)
    }
}

func writeToStandardOutput(_ bytes: [UInt8]) {
    FileHandle.standardOutput.write(Data(bytes))
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
