import ArgumentParser
import Foundation
import LocationWire
import LocationWireInspection
import LocationWireJSON
import LocationWireSimulation
import LocationWireValidation

struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Generate realistic upload fixtures, or validate a folder of fixtures.",
        subcommands: [FixturesGenerateCommand.self, FixturesValidateCommand.self]
    )
}

extension TraceSimulator.Scenario: ExpressibleByArgument {}

struct FixturesGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write deterministic LocationBatch fixtures for a scenario, binary and canonical JSON side by side.",
        discussion: """
            A simulated 1 Hz trace (GPS noise, accuracy changes, stops; accuracy spikes in the urban canyon, an \
            hour's clock jump in clock-jump, no network for half an hour in offline-backlog) is put through the \
            TrackingPolicy reporting rules (by time above 3 m/s, by distance below, nothing while stationary) and \
            batched every 30 s. Files: DIR/<scenario>-<seed>-NNN.binpb and .json. The same scenario and seed \
            always give the same bytes.
            """)

    @Option(help: "The movement to simulate.")
    var scenario: TraceSimulator.Scenario

    @Option(help: "The random seed.")
    var seed: UInt64

    @Option(help: "How many batches.")
    var count = 5

    @Option(help: ArgumentHelp("The output directory (created if needed).", valueName: "directory"))
    var out: String

    func validate() throws {
        guard (1...10_000).contains(count) else { throw ValidationError("--count must be 1 ... 10000") }
    }

    func run() throws {
        let batches = FixtureGenerator(scenario: scenario, seed: seed).batches(count: count)
        try createOutputDirectory(out)
        for (index, batch) in batches.enumerated() {
            let stem = (out as NSString).appendingPathComponent(
                String(format: "%@-%llu-%03d", scenario.rawValue, seed, index + 1))
            try writeFile(batch.serializedBytes(), to: stem + ".binpb")
            try writeText(batch.jsonString(options: JSONPrintOptions(pretty: true)) + "\n", toFile: stem + ".json")
        }
        let fixes = batches.reduce(0) { $0 + $1.fixes.count + ($1.liveFix == nil ? 0 : 1) }
        let bytes = batches.reduce(0) { $0 + $1.serializedSize }
        printToStandardError(
            "wrote \(batches.count) batches (\(fixes) fixes, \(bytes) bytes of binary) to \(out)"
                + (batches.count < count ? "; the scenario's trace ended after \(batches.count)" : ""))
    }
}

struct FixturesValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Decode and validate every fixture in a folder and report per file, with a summary.",
        discussion: """
            Files ending in .binpb, .bin or .pb are read as protobuf binary, .json as proto3 JSON. When a binary \
            file and a JSON file share a name, they must hold the same message. A file whose violations are all \
            warnings is valid, and its warnings are printed. Exit status 0 when every file is valid, 1 otherwise.
            """)

    @Argument(help: ArgumentHelp("The folder of fixtures.", valueName: "directory"))
    var directory: String

    @Option(help: "The message type of the fixtures.")
    var type = "LocationBatch"

    @Flag(help: "Print only problems and the summary.")
    var quiet = false

    func run() throws {
        guard let codec = AnyMessageCodec(typeName: type) else {
            throw ValidationError("unknown message type '\(type)'")
        }
        let names = try listDirectory(directory)
        var decodedByStem: [String: [UInt8]] = [:]
        var checked = 0
        var invalid = 0
        var violationsTotal = 0
        for name in names {
            let ext = (name as NSString).pathExtension.lowercased()
            guard ["binpb", "bin", "pb", "json"].contains(ext) else { continue }
            checked += 1
            let path = (directory as NSString).appendingPathComponent(name)
            let bytes = try readFile(path)
            let message: any LocationWireMessage
            do {
                message = ext == "json" ? try codec.decodeJSON(bytes) : try codec.decodeBinary(bytes)
            } catch {
                invalid += 1
                print("\(name): does not decode: \(error)")
                continue
            }
            let violations = AnyMessageCodec.validate(message)
            violationsTotal += violations.count
            // Warnings are printed but do not make a fixture invalid: the message still conforms.
            var problems = violations.filter { $0.severity == .error }.map(\.textLine)
            let warnings = violations.filter { $0.severity == .warning }.map(\.textLine)
            let stem = (name as NSString).deletingPathExtension
            let canonical = AnyMessageCodec.encodeBinary(message)
            if let twin = decodedByStem[stem], twin != canonical {
                problems.append("differs from the other file named \(stem)")
            }
            decodedByStem[stem] = canonical
            if problems.isEmpty {
                if !quiet || !warnings.isEmpty {
                    print(
                        "\(name): valid"
                            + (warnings.isEmpty ? "" : ", \(ValidateCommand.count(warnings.count, "warning"))"))
                }
                for warning in warnings { print("  \(warning)") }
            } else {
                invalid += 1
                print("\(name): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
                for problem in problems + warnings { print("  \(problem)") }
            }
        }
        print("\(checked) files, \(checked - invalid) valid, \(invalid) invalid, \(violationsTotal) violations")
        if checked == 0 { throw UsageFailure(message: "no fixture files (.binpb, .bin, .pb, .json) in \(directory)") }
        if invalid > 0 { throw InputRejected(message: "\(invalid) of \(checked) fixtures are invalid") }
    }
}
