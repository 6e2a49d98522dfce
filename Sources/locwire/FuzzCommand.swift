import ArgumentParser
import Foundation
import LocationWireConformance
import LocationWireFuzzing

struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Differential fuzzing: the same mutated inputs to an implementation and to a reference.",
        discussion: """
            Starts from valid messages (fixture batches, a full sample of every type, the conformance vectors), \
            applies wire-aware mutations (duplicated, reordered, split and unpacked fields; overlong varints; \
            corrupted lengths; truncation; splices; unknown fields; broken UTF-8; out-of-range values; foreign wire \
            types) and byte edits, and sends each input to both over the testee protocol. Crashes, hangs and \
            disagreements in verdict or decoded value are findings, classified by a signature. Signatures listed in \
            the known-differences file (conformance/failures/<implementation>.fuzz.txt, the failure-list syntax) \
            are explained; the others are minimized and written as raw inputs, ready-to-add conformance vectors \
            (copy them into conformance/regressions/ and run `locwire conformance generate`) and regression inputs.

            The same seed and options replay the same run. Exit status 0 when every finding is explained, 1 otherwise.
            """)

    @Option(help: ArgumentHelp("The command that starts the implementation under test.", valueName: "command"))
    var testee: String

    @Option(
        help: ArgumentHelp(
            "'builtin' (LocationWire, in process) or the command of another testee.", valueName: "reference"))
    var reference = "builtin"

    @Option(help: "The random seed; the same seed replays the same inputs.")
    var seed: UInt64

    @Option(help: "Stop after this many inputs.")
    var iterations: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var time: Double?

    @Option(help: ArgumentHelp("Seconds an implementation may take for one input.", valueName: "seconds"))
    var timeout = 5.0

    @Option(
        help: ArgumentHelp(
            "Known differences; default conformance/failures/<implementation>.fuzz.txt if it exists.", valueName: "file"
        ))
    var known: String?

    @Option(help: ArgumentHelp("Where findings are written.", valueName: "directory"))
    var out = "fuzz-findings"

    @Option(
        help: ArgumentHelp(
            "Regression folder for findings' inputs (default FuzzTesting/Regressions if it exists).",
            valueName: "directory"))
    var regressions: String?

    @Option(
        help: ArgumentHelp(
            "Conformance vectors used as extra seeds, when the directory exists.", valueName: "directory"))
    var vectors = "conformance/vectors"

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        if (iterations == nil) == (time == nil) { throw ValidationError("give exactly one of --iterations and --time") }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
    }

    func run() throws {
        // Made before fuzzing, so an output directory that cannot be written stops the run now, not after its
        // minutes are spent and the findings are lost.
        try createOutputDirectory(out)
        let (process, implementation) = try startTestee(testee)
        let referenceChoice: DifferentialFuzzer.Reference =
            reference == "builtin" ? .builtin : .process(TesteeProcess(command: reference))
        let knownPath = known ?? "conformance/failures/\(implementation).fuzz.txt"
        let knownList = try loadFailureList(named: known, default: knownPath, what: "known-differences file")
        var options = DifferentialFuzzer.Options(seed: seed)
        options.iterations = iterations
        options.seconds = time
        options.timeoutMilliseconds = Int(timeout * 1000)
        options.findingsDirectory = URL(fileURLWithPath: out)
        let regressionPath = regressions ?? "FuzzTesting/Regressions"
        if regressions != nil || FileManager.default.fileExists(atPath: regressionPath) {
            options.regressionDirectory = URL(fileURLWithPath: regressionPath)
        }
        if FileManager.default.fileExists(atPath: vectors) { options.vectorsDirectory = URL(fileURLWithPath: vectors) }
        let fuzzer = DifferentialFuzzer(testee: process, reference: referenceChoice, known: knownList, options: options)
        let summary: DifferentialFuzzer.Summary
        do {
            summary = try fuzzer.run { summary in
                guard !quiet else { return }
                let rate = Int(Double(summary.inputs) / max(summary.seconds, 0.001))
                printToStandardError(
                    "[\(Int(summary.seconds)) s] \(summary.inputs) inputs (\(rate)/s), \(summary.acceptedByBoth) accepted and "
                        + "\(summary.rejectedByBoth) rejected by both, \(summary.bySignature.values.reduce(0, +)) findings "
                        + "(\(summary.unexplainedCount) unexplained)")
            }
        } catch {
            throw UsageFailure(message: "\(error)")
        }
        print(report(summary, implementation: implementation, knownPath: knownPath))
        if summary.unexplainedCount > 0 {
            throw InputRejected(message: "\(summary.unexplainedCount) unexplained findings against \(implementation)")
        }
    }

    private func report(_ summary: DifferentialFuzzer.Summary, implementation: String, knownPath: String) -> String {
        var lines: [String] = []
        let rate = Int(Double(summary.inputs) / max(summary.seconds, 0.001))
        lines.append(
            "Differential fuzzing of \(implementation) against \(reference == "builtin" ? "the built-in implementation" : reference)"
        )
        lines.append(
            "seed \(seed); \(summary.inputs) inputs in \(String(format: "%.1f", summary.seconds)) s (\(rate)/s); testee started \(summary.testeeStarts) time(s)"
        )
        lines.append(
            "accepted by both: \(summary.acceptedByBoth); rejected by both: \(summary.rejectedByBoth); skipped by the testee: \(summary.skipped)"
        )
        if summary.bySignature.isEmpty {
            lines.append("findings: none")
        } else {
            lines.append("findings by signature:")
            for (signature, count) in summary.bySignature.sorted(by: { $0.key < $1.key }) {
                if let reason = summary.explained[signature] {
                    lines.append("  \(signature): \(count), explained: \(reason)")
                } else {
                    lines.append("  \(signature): \(count), UNEXPLAINED")
                }
            }
        }
        for finding in summary.findings {
            lines.append("")
            lines.append(
                "UNEXPLAINED \(finding.signature) in \(finding.messageType), minimized to \(finding.input.count) bytes: \(Hex.encode(finding.input))"
            )
            lines.append(contentsOf: finding.detail.split(separator: "\n").map { "  " + $0 })
        }
        if !summary.findings.isEmpty { lines.append("\nwritten to \(out)/ (inputs and ready-to-add vectors)") }
        // The same seed and number of inputs replay the run exactly (a time limit would not).
        let referenceOption = reference == "builtin" ? "" : " --reference '\(reference)'"
        lines.append(
            "replay: locwire fuzz --testee '\(testee)'\(referenceOption) --seed \(seed) --iterations \(summary.inputs)")
        lines.append("known differences: \(knownPath)")
        return lines.joined(separator: "\n")
    }
}
