import ArgumentParser
import Foundation
import LocationWire
import LocationWireJSON

@main
struct LocwireBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locwire-bench",
        abstract: "Benchmarks LocationWire's codec against C++ protobuf, upb, protobuf-c and swift-protobuf.",
        discussion: """
            `Benchmarks/run.sh` builds the peers and this tool and runs `locwire-bench run`, which writes
            Benchmarks/RESULTS.md and Benchmarks/results.json.
            """,
        subcommands: [Run.self, Sizes.self, WriteWorkloads.self, Profile.self, Planner.self, Engines.self],
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

    @Option(
        help: "The GPX track for the size comparison (default: ../shared/data/korita-zbevnica.gpx beside the checkout)."
    )
    var gpx: String?

    var gpxURL: URL {
        gpx.map { URL(fileURLWithPath: $0) }
            ?? rootURL.deletingLastPathComponent().appendingPathComponent("shared/data/korita-zbevnica.gpx")
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure everything and write RESULTS.md and results.json.",
        discussion: """
            Each round measures LocationWire and swift-protobuf in this process, then runs the peer harnesses of
            Benchmarks/peers/build/ (build them with Benchmarks/peers/build.sh) on the same workload bytes. Progress
            goes to stderr; the targets' verdicts to stdout. Exit status 0 when everything was measured (a missed
            target is a result, not an error), 1 when a harness failed, 2 on a bad command line.
            """)

    @OptionGroup var repository: RepositoryOptions

    @Option(help: "Rounds; ratios are taken within a round and their median reported.")
    var rounds = 3
    @Option(help: "Samples per operation.")
    var samples = 7
    @Option(help: "Minimum length of one sample, in milliseconds.")
    var minSampleMs = 50.0
    @Option(help: "Warm-up per operation, in milliseconds.")
    var warmupMs = 200.0
    @Flag(help: "A fast, rough run (1 round, 3 samples of 5 ms) to check that everything works; not for figures.")
    var quick = false
    @Flag(help: "Measure the Swift implementations only.")
    var noPeers = false
    @Flag(help: "Skip the instruction counts (valgrind's callgrind; about 5 minutes; always skipped with --quick).")
    var noInstructionCounts = false
    @Option(help: "Where to write the report (default: Benchmarks/RESULTS.md of the checkout).")
    var output: String?
    @Option(help: "Where to write every measurement as JSON (default: results.json beside the report).")
    var json: String?

    func run() throws {
        let root = repository.rootURL
        let startedAt = Date()
        let loadAverage = Environment.loadAverage
        Environment.describe(root: root)
        var method = Method(samples: samples, minSampleMilliseconds: minSampleMs, warmupMilliseconds: warmupMs)
        var rounds = self.rounds
        if quick {
            method = Method(samples: 3, minSampleMilliseconds: 5, warmupMilliseconds: 5)
            rounds = 1
        }
        guard rounds >= 1, method.samples >= 1 else { throw ValidationError("rounds and samples must be at least 1") }

        let workloads = Workloads.all()
        let mainWorkloads = workloads.filter { !$0.name.hasPrefix("scale-") }.map(\.name)
        let scalingWorkloads = workloads.filter { $0.name.hasPrefix("scale-") }.map(\.name)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locwire-bench-workloads-\(getpid())")
        try Workloads.write(workloads, to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }

        var omissions: [String] = []
        var peers: [PeerHarness] = []
        if noPeers {
            omissions.append("the C++, C and Python peers (`--no-peers`)")
        } else {
            for peer in PeerHarness.all(peersDirectory: root.appendingPathComponent("Benchmarks/peers")) {
                if peer.isAvailable {
                    peers.append(peer)
                } else {
                    omissions.append("\(peer.implementation): its harness is not built (run Benchmarks/peers/build.sh)")
                    progress("warning: \(peer.implementation) harness not built; run Benchmarks/peers/build.sh")
                }
            }
        }

        var results = Results(measurements: [], rounds: rounds)
        let clock = Date()
        for round in 1...rounds {
            for (index, workload) in workloads.enumerated() {
                progress(
                    "round \(round)/\(rounds): Swift, \(workload.name) (\(index + 1)/\(workloads.count))", since: clock)
                let operations: Set<String>? =
                    workload.name.hasPrefix("scale-") ? ["decode", "encode", "validate"] : nil
                results.measurements += SwiftOperations.measure(
                    workload, method: method, round: round, operations: operations)
            }
            for peer in peers {
                progress("round \(round)/\(rounds): \(peer.implementation)", since: clock)
                results.measurements += try peer.run(
                    directory: directory, workloads: mainWorkloads, operations: [], method: method, round: round)
                if !peer.scalingOperations.isEmpty {
                    results.measurements += try peer.run(
                        directory: directory, workloads: scalingWorkloads, operations: peer.scalingOperations,
                        method: method, round: round)
                }
            }
        }

        var instructionCounts: [InstructionCount] = []
        if quick || noInstructionCounts {
            omissions.append("instruction counts (\(quick ? "`--quick`" : "`--no-instruction-counts`"))")
        } else if !InstructionCounts.isAvailable {
            omissions.append(
                "instruction counts: valgrind or strip is not installed (scripts/install-peers.sh installs them)")
        } else {
            let cpp = peers.first { $0.implementation == "cpp-libprotobuf" }?.executable
            instructionCounts = try InstructionCounts.measure(cppHarness: cpp, workloads: directory)
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

        let reportURL = output.map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent("Benchmarks/RESULTS.md")
        let jsonURL =
            json.map { URL(fileURLWithPath: $0) }
            ?? reportURL.deletingLastPathComponent().appendingPathComponent("results.json")
        var command = "rounds \(rounds), samples \(method.samples), min sample \(Int(method.minSampleMilliseconds)) ms"
        if quick { command = "`--quick`: " + command + "; rough figures" }
        let report = Report(
            results: results, workloads: workloads, sizes: sizes, instructionCounts: instructionCounts,
            sizeInputs: inputs.map { ($0.name, $0.description) }, omissions: omissions, method: method,
            command: command, startedAt: startedAt, loadAverage: loadAverage,
            notes: try? String(contentsOf: root.appendingPathComponent("Benchmarks/NOTES.md"), encoding: .utf8))
        try report.render().write(to: reportURL, atomically: true, encoding: .utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        struct Archive: Encodable {
            let checkout: String
            let machine: String
            let results: Results
            let sizes: [SizeComparison.Entry]
            let instructionCounts: [InstructionCount]
        }
        try encoder.encode(
            Archive(
                checkout: Environment.checkout, machine: Environment.machine, results: results, sizes: sizes,
                instructionCounts: instructionCounts)
        )
        .write(to: jsonURL)
        progress("wrote \(reportURL.path) and \(jsonURL.path)", since: clock)

        for target in Targets.evaluate(results) {
            let verdict = target.met.map { $0 ? "met    " : "MISSED " } ?? "n/a    "
            print("\(verdict) \(target.name)\n        \(target.measured)")
        }
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
        abstract: "Write the workloads as the peer harnesses read them (NAME.binpb and NAME.json) into a directory.")

    @Argument(help: "The directory to write into.")
    var directory: String

    func run() throws {
        let workloads = Workloads.all()
        try Workloads.write(workloads, to: URL(fileURLWithPath: directory))
        for workload in workloads { print(workload.name, workload.typeName, workload.bytes.count, "bytes") }
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

    func run() throws {
        var batch = Workloads.batch(.walk, fixes: fixes)
        let rows = batch.serializedBytes()
        let compact = Workloads.compact(batch).serializedBytes()
        let json = batch.jsonString()
        let fence = Workloads.fenceEvent().serializedBytes()
        let assignment = Workloads.assignment(regions: 20)
        let assignmentBytes = assignment.serializedBytes()
        // The encode operations change a field each time (same size, new bytes): on a constant message the
        // optimizer may hoist the whole encoding out of the loop.
        var fenceMessage = Workloads.fenceEvent()
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

/// A progress line on stderr, with the time since `start` when given.
func progress(_ message: String, since start: Date? = nil) {
    let elapsed = start.map { String(format: "[%4.0fs] ", Date().timeIntervalSince($0)) } ?? ""
    FileHandle.standardError.write(Data("locwire-bench: \(elapsed)\(message)\n".utf8))
}
