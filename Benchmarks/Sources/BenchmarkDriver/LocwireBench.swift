import ArgumentParser
import Foundation
import LocationWire
import LocationWireInspection
import LocationWireJSON
import LocationWireSwiftProtobuf
import SwiftProtobuf

@main
struct LocwireBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locwire-bench",
        abstract:
            "Benchmarks LocationWire's codec against C++ protobuf, native upb, protobuf-go, protobuf-java, protobuf-c, swift-protobuf and Python protobuf.",
        discussion: """
            `Benchmarks/run.sh` builds the peers and this tool and runs `locwire-bench run`, which writes
            Benchmarks/RESULTS.md and Benchmarks/results.json.
            """,
        subcommands: [
            Run.self, Harness.self, Sizes.self, WriteWorkloads.self, Profile.self, DecodeProfile.self, Planner.self,
            Engines.self, Device.self, Gate.self, GateCount.self,
        ],
        defaultSubcommand: Run.self)
}

/// Options shared by the commands that need the repository.
struct RepositoryOptions: ParsableArguments {
    @Option(
        help: "The LocationWire checkout (default: the current directory, or its parent when run from Benchmarks/).")
    var root: String?

    var rootURL: URL {
        if let root { return URL(fileURLWithPath: root) }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if FileManager.default.fileExists(atPath: current.appendingPathComponent("proto").path) { return current }
        return current.deletingLastPathComponent()
    }

    @Option(help: "The GPX track for the size comparison (default: conformance/data/korita-zbevnica.gpx).")
    var gpx: String?

    var gpxURL: URL {
        gpx.map { URL(fileURLWithPath: $0) }
            ?? rootURL.appendingPathComponent("conformance/data/korita-zbevnica.gpx")
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure every implementation on every workload and write RESULTS.md and results.json.",
        discussion: """
            Starts every harness that is built (LocationWire and swift-protobuf are this program's own `harness`
            command; the peers come from Benchmarks/peers' build scripts) and drives them through one protocol
            (Benchmarks/peers/PROTOCOL.md): warm-up, then rounds in which every sample of every implementation is
            interleaved with the others', then allocation and memory runs and the instruction counts. Progress goes
            to stderr; the targets' verdicts to stdout. Exit status 0 when everything was measured and every
            cross-check passed (a missed target is a result, not an error), 1 when a harness failed or disagreed,
            2 on a bad command line.

            A slice (--only, --workload) measures what it selects; targets it has no figures for say "not measured
            in this run", and its report goes to Benchmarks/.build/slice/RESULTS.md unless --output says where.
            """)

    @OptionGroup var repository: RepositoryOptions

    @Option(help: "Rounds; at least 10 for figures.")
    var rounds = 10
    @Option(help: "Samples of each operation per workload in a round.")
    var samplesPerRound = 3
    @Option(help: "The length a sample aims at, in milliseconds.")
    var sampleMs = 10.0
    @Option(help: "The least warm-up per operation, in milliseconds.")
    var warmupMs = 200.0
    @Flag(
        help:
            "A fast, rough run (2 rounds of 1 sample of 2 ms, 20 ms warm-up, at most 200 ms for a JIT) to check that everything works; not for figures."
    )
    var quick = false
    @Option(help: "Measure only these implementations (repeatable; e.g. swift-locationwire, cpp-libprotobuf, upb).")
    var only: [String] = []
    @Option(help: "Measure only these workloads (repeatable; `locwire-bench workloads` lists them).")
    var workload: [String] = []
    @Flag(help: "Fail (exit 1) when a peer's harness is not built, instead of leaving it out of the report (CI).")
    var requireAllHarnesses = false
    @Flag(help: "Skip the instruction counts (valgrind's callgrind; several minutes; always skipped with --quick).")
    var noInstructionCounts = false
    @Option(help: "Where to write the report (default: Benchmarks/RESULTS.md of the checkout).")
    var output: String?
    @Option(help: "Where to write every sample as JSON (default: results.json beside the report).")
    var json: String?

    func validate() throws {
        let known = HarnessCommand.all(root: repository.rootURL).map(\.implementation)
        let unknown = only.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw ValidationError(
                "unknown implementations: \(unknown.joined(separator: ", ")) (known: \(known.joined(separator: ", ")))")
        }
        let names = Workloads.all().map(\.name)
        let unknownWorkloads = workload.filter { !names.contains($0) }
        guard unknownWorkloads.isEmpty else {
            throw ValidationError(
                "unknown workloads: \(unknownWorkloads.joined(separator: ", ")) (`locwire-bench workloads DIR` lists them)"
            )
        }
    }

    /// A slice (`--only`, `--workload`) reports what it measured, and by default not over the full report.
    var isSlice: Bool { !only.isEmpty || !workload.isEmpty }

    func run() throws {
        do {
            try measure()
        } catch let error as BenchmarkError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            throw BenchmarkError(BenchmarkError.words(error))
        }
    }

    private func measure() throws {
        let root = repository.rootURL
        let startedAt = Date()
        let loadAverage = Environment.loadAverage
        Environment.describe(root: root)
        var method = Method(
            rounds: rounds, samplesPerRound: samplesPerRound, sampleMilliseconds: sampleMs, warmupMilliseconds: warmupMs
        )
        if quick {
            method = Method(
                rounds: 2, samplesPerRound: 1, sampleMilliseconds: 2, warmupMilliseconds: 20, memoryIterations: 10)
        }
        guard method.rounds >= 1, method.samplesPerRound >= 1, method.sampleMilliseconds > 0 else {
            throw ValidationError("rounds, samples and the sample length must be positive")
        }

        var workloads = Workloads.all()
        if !workload.isEmpty { workloads = workloads.filter { workload.contains($0.name) } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locwire-bench-workloads-\(getpid())")
        progress("writing \(workloads.count) workloads to \(directory.path)")
        try Workloads.write(workloads, to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }

        var omissions: [String] = []
        var started: [(HarnessCommand, HarnessClient)] = []
        defer { for (_, client) in started { client.close() } }
        for harness in HarnessCommand.all(root: root) where only.isEmpty || only.contains(harness.implementation) {
            guard harness.isAvailable else {
                if requireAllHarnesses {
                    throw BenchmarkError("\(harness.implementation): its harness is not built (run \(harness.build))")
                }
                omissions.append("\(harness.implementation): its harness is not built (run \(harness.build))")
                progress("warning: \(harness.implementation) harness not built; run \(harness.build)")
                continue
            }
            let client = try HarnessClient(command: harness.command, workloads: directory)
            guard client.implementation == harness.implementation else {
                throw BenchmarkError(
                    "\(harness.command[0]) says it is \(client.implementation), not \(harness.implementation)")
            }
            started.append((harness, client))
        }
        if !only.isEmpty { omissions.append("implementations other than \(only.joined(separator: ", ")) (`--only`)") }
        if !workload.isEmpty {
            omissions.append("workloads other than \(workload.joined(separator: ", ")) (`--workload`)")
        }

        var coordinator = Coordinator(
            method: method, workloads: workloads, directory: directory,
            clients: started.map { ($0.1, scales: $0.0.scales) })
        let clock = Date()
        progress("measuring: \(started.map(\.1.implementation).joined(separator: ", "))", since: clock)
        try coordinator.run { progress($0, since: clock) }

        var instructionCounts: [InstructionCount] = []
        if quick || noInstructionCounts {
            omissions.append("instruction counts (\(quick ? "`--quick`" : "`--no-instruction-counts`"))")
        } else if !InstructionCounts.isAvailable {
            omissions.append(
                "instruction counts: valgrind or strip is not installed (scripts/install-peers.sh installs them)")
        } else {
            instructionCounts = try InstructionCounts.measure(harnesses: started, workloads: directory) {
                progress($0, since: clock)
            }
        }

        progress("sizes", since: clock)
        var inputs = SizeComparison.scenarioInputs()
        do {
            inputs.append(try SizeComparison.gpxInput(repository.gpxURL))
        } catch {
            omissions.append("the GPX track (\(error))")
            progress("warning: \(error)")
        }
        let sizes = try SizeComparison.measure(inputs)

        // A slice's report goes beside the build, not over the committed full report.
        let reportURL =
            output.map { URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent(isSlice ? "Benchmarks/.build/slice/RESULTS.md" : "Benchmarks/RESULTS.md")
        try FileManager.default.createDirectory(
            at: reportURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let jsonURL =
            json.map { URL(fileURLWithPath: $0) }
            ?? reportURL.deletingLastPathComponent().appendingPathComponent("results.json")
        var command =
            "\(method.rounds) rounds of \(method.samplesPerRound) samples of \(Int(method.sampleMilliseconds)) ms"
        if quick { command = "`--quick`: " + command + "; rough figures" }
        let report = Report(
            results: coordinator.results, workloads: workloads, method: method, crossChecks: coordinator.crossChecks,
            notApplicable: coordinator.notApplicable, sizes: sizes, instructionCounts: instructionCounts,
            sizeInputs: inputs.map { ($0.name, $0.description) }, omissions: omissions, command: command,
            startedAt: startedAt, finishedAt: Date(), loadAverage: loadAverage,
            notes: try? String(contentsOf: root.appendingPathComponent("Benchmarks/NOTES.md"), encoding: .utf8))
        try report.render().write(to: reportURL, atomically: true, encoding: .utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        struct Archive: Encodable {
            let checkout: String
            let machine: String
            let method: Method
            let results: Results
            let crossChecks: [CrossCheck]
            let sizes: [SizeComparison.Entry]
            let instructionCounts: [InstructionCount]
        }
        try encoder.encode(
            Archive(
                checkout: Environment.checkout, machine: Environment.machine, method: method,
                results: coordinator.results, crossChecks: coordinator.crossChecks, sizes: sizes,
                instructionCounts: instructionCounts)
        )
        .write(to: jsonURL)
        progress("wrote \(reportURL.path) and \(jsonURL.path)", since: clock)

        for target in Targets.evaluate(coordinator.results, headline: workloads.filter(\.isHeadline).map(\.name)) {
            let verdict = target.met.map { $0 ? "met    " : "MISSED " } ?? "n/a    "
            print("\(verdict) \(target.name)\n        \(target.measured)")
        }
        let failed = coordinator.crossChecks.filter { !$0.passed }
        for check in failed { progress("cross-check FAILED: \(check.workload): \(check.description)") }
        if !failed.isEmpty { throw ExitCode(1) }
    }
}

/// LocationWire's and swift-protobuf's side of Benchmarks/peers/PROTOCOL.md: the coordinator starts this program
/// as their harness.
struct Harness: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Serve the harness protocol (Benchmarks/peers/PROTOCOL.md) for a Swift implementation on stdin/stdout.")

    enum Implementation: String, ExpressibleByArgument, CaseIterable {
        case locationWire = "swift-locationwire"
        case swiftProtobuf = "swift-protobuf"
    }

    @Argument(help: "swift-locationwire or swift-protobuf.")
    var implementation: Implementation
    @Option(help: "The workload directory (`locwire-bench workloads DIR`).")
    var workloads: String

    func run() throws {
        let harness: any SwiftHarness =
            switch implementation {
            case .locationWire: LocationWireHarness(version: Environment.checkoutOfExecutable)
            case .swiftProtobuf: SwiftProtobufHarness()
            }
        try HarnessServer(harness: harness, directory: URL(fileURLWithPath: workloads)).serve()
    }
}

struct Sizes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the size comparison (bytes per fix) only.")

    @OptionGroup var repository: RepositoryOptions

    func run() throws {
        var inputs = SizeComparison.scenarioInputs()
        inputs.append(try SizeComparison.gpxInput(repository.gpxURL))
        print(
            "input".padding(toLength: 24, withPad: " ", startingAt: 0),
            "encoding".padding(toLength: 40, withPad: " ", startingAt: 0), "raw B/fix", "gzip B/fix")
        for entry in try SizeComparison.measure(inputs) {
            print(
                entry.input.padding(toLength: 24, withPad: " ", startingAt: 0),
                entry.encoding.padding(toLength: 40, withPad: " ", startingAt: 0),
                Format.significant(entry.rawPerFix), Format.significant(entry.gzipPerFix))
        }
    }
}

struct WriteWorkloads: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workloads",
        abstract: "Write the workloads in the format of Benchmarks/peers/PROTOCOL.md into a directory.")

    @Argument(help: "The directory to write into.")
    var directory: String

    func run() throws {
        let workloads = Workloads.all()
        try Workloads.write(workloads, to: URL(fileURLWithPath: directory))
        for workload in workloads {
            print(workload.name, workload.typeName, workload.inputs.count, "inputs", workload.inputBytes, "bytes")
        }
    }
}

struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run one operation on a walking batch (1000 fixes unless --fixes), a FenceEvent or a RegionAssignment in a loop, for a profiler.",
        discussion: """
            For example: valgrind --tool=callgrind .build/release/locwire-bench profile decode --iterations 50
            (callgrind counts instructions, which do not move with the machine's load).
            """)

    enum Operation: String, ExpressibleByArgument, CaseIterable {
        case decode, encode, validate, decodeCompact = "decode-compact", expand, jsonPrint = "json-print", jsonParse =
            "json-parse"
        case fenceDecode = "fence-decode", assignmentDecode = "assignment-decode", assignmentValidate =
            "assignment-validate"
        case fenceEncode = "fence-encode", assignmentEncode = "assignment-encode", compactEncode = "compact-encode"
        case compactBuild = "compact-build", encodeReuse = "encode-reuse", fenceEncodeReuse = "fence-encode-reuse"
    }

    @Argument(
        help:
            "One of: \(Operation.allCases.map(\.rawValue).joined(separator: ", ")); decode-compact decodes the batch's fixes in compact form, expand also rebuilds their rows; the fence- and assignment- operations use the benchmarks' FenceEvent and 20-region RegionAssignment; compact-encode encodes the batch in compact form, compact-build builds its columns from the rows."
    )
    var operation: Operation
    @Option(help: "How many times.")
    var iterations = 200
    @Option(help: "Fixes in the walking batch.")
    var fixes = 1000
    @Option(
        help:
            "For json-print and json-parse: a file of one binary message (of --type) to use instead of the walking batch."
    )
    var input: String?
    @Option(help: "The full message type name of --input, e.g. locationwire.v1.FenceEvent.")
    var type = LocationBatch.fullMessageName
    @Flag(help: "For json-print and json-parse: run swift-protobuf's generated code instead of LocationWire.")
    var swiftProtobuf = false

    func run() throws {
        if operation == .jsonPrint || operation == .jsonParse, input != nil || swiftProtobuf {
            let bytes =
                try input.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
                ?? Workloads.batch(.walk, fixes: fixes, seed: 1).serializedBytes()
            try profileJSON(bytes)
            return
        }
        var batch = Workloads.batch(.walk, fixes: fixes, seed: 1)
        let rows = batch.serializedBytes()
        let compact = Workloads.compact(batch).serializedBytes()
        let json = batch.jsonString()
        let fence = Workloads.fenceEvent(seed: 1).serializedBytes()
        let assignment = Workloads.assignment(regions: 20, seed: 1)
        let assignmentBytes = assignment.serializedBytes()
        // The encode operations change a field each time (same size, new bytes): on a constant message the
        // optimizer may hoist the whole encoding out of the loop.
        var fenceMessage = Workloads.fenceEvent(seed: 1)
        var assignmentMessage = assignment
        var compactBatch = Workloads.compact(batch)
        var reused: [UInt8] = []
        precondition(
            fenceMessage.eventSequence > 1 && compactBatch.batchId != 0 && assignmentMessage.assignmentVersion > 1)
        for iteration in 0..<iterations {
            let flip = UInt64(iteration & 1)
            switch operation {
            case .decode: consume(try LocationBatch(serializedBytes: rows).fixes.count)
            case .encode: consume(batch.serializedBytes().count)
            case .validate: consume(batch.validate().count)
            case .decodeCompact: consume(Int(try LocationBatch(serializedBytes: compact).compactFixes!.count))
            case .expand: consume(try LocationBatch(serializedBytes: compact).compactFixes!.fixes().count)
            case .jsonPrint: consume(batch.jsonString().utf8.count)
            case .jsonParse: consume(try LocationBatch(jsonString: json).fixes.count)
            case .fenceDecode: consume(try FenceEvent(serializedBytes: fence).regionId.utf8.count)
            case .assignmentDecode: consume(try RegionAssignment(serializedBytes: assignmentBytes).regions.count)
            case .assignmentValidate: consume(assignment.validate().count)
            case .fenceEncode:
                fenceMessage.eventSequence ^= flip
                consume(fenceMessage.serializedBytes().count)
            case .assignmentEncode:
                assignmentMessage.assignmentVersion ^= flip
                consume(assignmentMessage.serializedBytes().count)
            case .compactEncode:
                compactBatch.batchId ^= flip
                consume(compactBatch.serializedBytes().count)
            case .encodeReuse:
                batch.batchId ^= flip
                batch.serialize(into: &reused)
                consume(reused.count)
            case .fenceEncodeReuse:
                fenceMessage.eventSequence ^= flip
                fenceMessage.serialize(into: &reused)
                consume(reused.count)
            case .compactBuild: consume(Int(try CompactFixes(fixes: batch.fixes).count))
            }
        }
    }
}

extension Profile {
    /// json-print or json-parse of the message `bytes` encode, by LocationWire or swift-protobuf.
    private func profileJSON(_ bytes: [UInt8]) throws {
        let print = operation == .jsonPrint
        if swiftProtobuf {
            func loop<Peer: SwiftProtobuf.Message>(_: Peer.Type) throws {
                let message = try Peer(serializedBytes: bytes)
                let json = try message.jsonString()
                for _ in 0..<iterations {
                    consume(
                        print
                            ? try message.jsonString().utf8.count : try Peer(jsonString: json).unknownFields.data.count)
                }
            }
            guard let peer = locationWireV1MessageTypes.first(where: { $0.protoMessageName == type }) else {
                throw ValidationError("swift-protobuf has no message \(type)")
            }
            try loop(peer)
        } else {
            func loop<Message: LocationWireMessage>(_: Message.Type) throws {
                let message = try Message(serializedBytes: bytes)
                let json = message.jsonString()
                for _ in 0..<iterations {
                    consume(
                        print
                            ? message.jsonString().utf8.count : try Message(jsonString: json).unknownFields.bytes.count)
                }
            }
            guard let codec = AnyMessageCodec(typeName: type) else { throw ValidationError("no message \(type)") }
            try loop(codec.messageType)
        }
    }
}

/// A progress line on stderr, with the time since `start` when given.
func progress(_ message: String, since start: Date? = nil) {
    let elapsed = start.map { String(format: "[%4.0fs] ", Date().timeIntervalSince($0)) } ?? ""
    FileHandle.standardError.write(Data("locwire-bench: \(elapsed)\(message)\n".utf8))
}
