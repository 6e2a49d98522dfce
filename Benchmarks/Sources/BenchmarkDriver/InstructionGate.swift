import ArgumentParser
import Foundation

/// The gate that keeps every gain: callgrind's instruction count of each LocationWire operation on each headline
/// workload, held to the figure committed in `Benchmarks/instruction-gate.txt`. A count more than the tolerance
/// above its figure is a regression; more than the tolerance below it is a gain that must be written down in the
/// same commit, or the next change could take it back unnoticed. Instructions do not move with the machine's load,
/// so the gate can run on a busy CI machine; the timings and the peers' ratios stay with `run.sh`.
struct Gate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count LocationWire's instructions per operation and hold them to Benchmarks/instruction-gate.txt.",
        discussion: """
            Every operation of LocationWire's harness (decode, decode-reuse, decode-read-all, decode-expand, encode,
            encode-reuse, json-print, json-parse, validate) on every headline workload runs under valgrind's
            callgrind, one process per workload, with glibc's CPU-specific routines pinned so that the counts do
            not move with the machine. A count is the instructions of one rotation through the workload's first
            inputs, after a rotation of warm-up, divided by the rotation's length; it repeats exactly from run
            to run.

            Exit status: 0 when every count is within the tolerance of its figure, 1 when one is not (each is
            named with the workload, the operation and both counts), 2 when the gate cannot run (valgrind or strip
            missing, a malformed thresholds file).

            A deliberate rise, or a gain, is a one-line change of the thresholds file in the same commit, with its
            reason: `locwire-bench gate --update --reason "why"` rewrites the lines that moved past the tolerance
            and leaves the others as they are.
            """)

    @OptionGroup var repository: RepositoryOptions

    @Option(help: "The thresholds file (default: Benchmarks/instruction-gate.txt in the checkout).")
    var thresholds: String?

    @Option(help: "Count only this workload (repeatable); the thresholds of the others are not checked.")
    var workload: [String] = []

    @Option(help: "How many callgrind processes run at once.")
    var jobs = 2

    @Option(help: "The largest allowed change, as a fraction of the committed figure, either way.")
    var tolerance = 0.02

    @Flag(help: "Rewrite the thresholds that moved past the tolerance, and add missing ones; needs --reason.")
    var update = false

    @Option(help: "With --update: why the figures changed, written on each line that changes.")
    var reason: String?

    @Flag(help: "Print the result as one JSON object on standard output instead of a table.")
    var json = false

    func validate() throws {
        if update && (reason ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--update needs --reason: a threshold changes only with its reason")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard tolerance >= 0 && tolerance < 1 else { throw ValidationError("--tolerance must be in [0, 1)") }
    }

    func run() throws {
        let start = Date()
        guard InstructionCounts.isAvailable else {
            progress("gate: valgrind or strip is not installed (scripts/install-peers.sh installs them)")
            throw ExitCode(2)
        }
        let file =
            thresholds.map { URL(fileURLWithPath: $0) }
            ?? repository.rootURL.appendingPathComponent("Benchmarks/instruction-gate.txt")
        let committed: GateThresholds
        do {
            committed = try GateThresholds(contentsOf: file)
        } catch {
            progress("gate: \(BenchmarkError.words(error))")
            throw ExitCode(2)
        }
        let known = Set(Workloads.headlineNames)
        if let unknown = workload.first(where: { !known.contains($0) }) {
            throw ValidationError(
                "no headline workload \(unknown); the workloads: \(Workloads.headlineNames.joined(separator: ", "))")
        }
        let counter = try GateCounter(workloads: workload.isEmpty ? Workloads.headlineNames : workload)
        defer { counter.removeFiles() }
        let counts = try counter.count(jobs: jobs) { progress("gate: \($0)", since: start) }
        let verdicts = GateVerdict.judge(counts, against: committed, tolerance: tolerance, workloads: counter.workloads)
        let seconds = Date().timeIntervalSince(start)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let data = try encoder.encode(GateReport(seconds: seconds, tolerance: tolerance, verdicts: verdicts))
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(GateVerdict.table(verdicts))
        }
        let failures = verdicts.filter { !$0.passes }
        if update {
            let (rewritten, changed) = committed.updated(with: verdicts, reason: reason!)
            try rewritten.text().write(to: file, atomically: true, encoding: .utf8)
            progress("gate: \(changed) line(s) of \(file.path) rewritten in \(Int(seconds)) s")
            return
        }
        for failure in failures { progress("gate: FAIL \(failure.sentence)") }
        progress(
            "gate: \(verdicts.count - failures.count) of \(verdicts.count) counts within \(tolerance * 100)% of "
                + "their figures, in \(Int(seconds)) s")
        if !failures.isEmpty { throw ExitCode(1) }
    }
}

/// The child the gate runs under callgrind: prepares each operation on one workload and runs it inside
/// ``gateCountedRotation()``, which callgrind counts and dumps on its own. Prints the operations in the order
/// their dumps are written.
struct GateCount: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate-count", abstract: "One workload's counted runs, for `gate` (run under callgrind).",
        shouldDisplay: false)

    @Option var workloads: String
    @Option var workload: String

    func run() throws {
        let files = try WorkloadFiles(directory: URL(fileURLWithPath: workloads), name: workload)
        let inputs = files.prefix(GateCounter.rotation(fixesPerInput: files.fixesPerInput))
        let harness = LocationWireHarness(version: "gate")
        for operation in harness.operations {
            guard let prepared = try harness.prepare(operation, on: inputs) else { continue }
            var cursor = 0
            // One rotation of warm-up: kept arrays reach their capacity and every lazily built table exists.
            _ = prepared.loop(inputs.inputs.count, &cursor)
            gateCountedBody = { _ = prepared.loop(inputs.inputs.count, &cursor) }
            gateCountedRotation()
            print(operation, inputs.inputs.count)
        }
    }
}

/// The only code callgrind counts (`--toggle-collect`), and after each call it writes a dump of its own
/// (`--dump-after`, which takes an exact symbol: ``GateCounter`` finds it with `nm`). Never inlined, or there would
/// be no call to find, and not optimized, or each caller would get a specialized copy under another name.
@inline(never) @_optimize(none)
func gateCountedRotation() {
    gateCountedBody()
}

/// What ``gateCountedRotation()`` runs: a global rather than an argument, so that no caller can specialize it.
nonisolated(unsafe) var gateCountedBody: () -> Void = {}

/// Runs the callgrind processes and reads their dumps.
struct GateCounter {
    let workloads: [String]
    private let directory: URL
    private let stripped: String
    /// ``gateCountedRotation()``'s symbol in the executable.
    private let countedSymbol: String

    /// Inputs per counted rotation: 64 (every input) for messages and batches of up to 100 fixes, 8 for the
    /// 1000-fix batches, whose JSON parse alone is tens of millions of instructions an operation.
    static func rotation(fixesPerInput: Int) -> Int { fixesPerInput >= 1000 ? 8 : 64 }

    /// glibc chooses memcpy, memmove, memset and strlen by the CPU's features (and valgrind passes most of the
    /// host's through), so the same binary counts differently from one machine to the next. With these masked,
    /// glibc takes its baseline SSE2 routines everywhere.
    static let pinnedGlibc =
        "glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX_VNNI,-ERMS,-FSRM,-BMI1,-BMI2,"
        + "-LZCNT,-MOVBE,-POPCNT,-SSE3,-SSSE3,-SSE4_1,-SSE4_2,-RTM,-Prefer_ERMS,-Prefer_FSRM,-Fast_Unaligned_Copy,"
        + "-Fast_Rep_String,-AVX_Fast_Unaligned_Load"

    init(workloads: [String]) throws {
        self.workloads = workloads
        // A directory of its own (mkdtemp), never one another gate might be writing: a directory named by the
        // process id alone was once shared with another run's, whose binary was then counted.
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("locwire-gate-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchmarkError("gate: cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        directory = URL(fileURLWithPath: String(cString: made))
        let selected = Set(workloads)
        try Workloads.write(Workloads.headline().filter { selected.contains($0.name) }, to: directory)
        // valgrind 3.19 gives up on the debug information Swift 6.3 writes.
        stripped = directory.appendingPathComponent("locwire-bench").path
        try FileManager.default.copyItem(
            atPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), toPath: stripped)
        guard Environment.run("strip", ["-g", stripped]) != nil else {
            throw BenchmarkError("strip -g failed on \(stripped)")
        }
        let symbols = (Environment.run("nm", [stripped]) ?? "").split(separator: "\n").compactMap { line in
            line.split(separator: " ").last.map(String.init).flatMap { $0.contains("gateCountedRotation") ? $0 : nil }
        }
        guard symbols.count == 1 else {
            throw BenchmarkError("gate: expected one symbol for gateCountedRotation in \(stripped), found \(symbols)")
        }
        countedSymbol = symbols[0]
    }

    func removeFiles() { try? FileManager.default.removeItem(at: directory) }

    /// Every workload's counts, `jobs` callgrind processes at a time.
    func count(jobs: Int, progress: @escaping @Sendable (String) -> Void) throws -> [GateCountResult] {
        let results = GateResults(count: workloads.count)
        let queue = DispatchQueue(label: "gate", attributes: .concurrent)
        let slots = DispatchSemaphore(value: jobs)
        let group = DispatchGroup()
        for (index, name) in workloads.enumerated() {
            slots.wait()
            group.enter()
            queue.async {
                defer {
                    slots.signal()
                    group.leave()
                }
                let started = Date()
                results.set(index, Result { try self.countOne(name) })
                progress(String(format: "%@ counted in %.0f s", name, Date().timeIntervalSince(started)))
            }
        }
        group.wait()
        return try results.all().flatMap { try $0.get() }
    }

    private func countOne(_ workload: String) throws -> [GateCountResult] {
        let output = directory.appendingPathComponent("\(workload).callgrind").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=\(output)", "--collect-atstart=no",
            "--toggle-collect=\(countedSymbol)", "--dump-after=\(countedSymbol)", "--dump-instr=no",
            "--compress-strings=no", stripped, "gate-count", "--workloads", directory.path, "--workload", workload,
        ]
        // Swift's dictionaries hash with a random seed per process; a fixed one makes the counts repeat exactly.
        process.environment = ProcessInfo.processInfo.environment.merging([
            "SWIFT_DETERMINISTIC_HASHING": "1", "GLIBC_TUNABLES": Self.pinnedGlibc,
        ]) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // The log can outgrow a pipe's buffer; read it on its own thread while the answers are read here.
        let log = LockedData()
        let logReader = Thread { log.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        logReader.start()
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        while !log.isSet { usleep(1000) }
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(
                "gate: callgrind failed on \(workload):\n\(String(decoding: log.data.suffix(2000), as: UTF8.self))")
        }
        var counts: [GateCountResult] = []
        for (index, line) in text.split(separator: "\n").enumerated() {
            let words = line.split(separator: " ")
            guard words.count == 2, let operations = Int(words[1]) else {
                throw BenchmarkError("gate: \(workload): unexpected line from gate-count: \(line)")
            }
            let dump = "\(output).\(index + 1)"
            let instructions = try Self.totalInstructions(dump)
            counts.append(
                GateCountResult(
                    workload: workload, operation: String(words[0]), operationsCounted: operations,
                    instructions: Int((Double(instructions) / Double(operations)).rounded())))
        }
        return counts
    }

    /// The "totals:" (or "summary:") line of a callgrind dump: the instructions it counted.
    static func totalInstructions(_ path: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let value = line.split(separator: " ").last.flatMap({ Int($0) }) { return value }
        }
        throw BenchmarkError("gate: \(path) has no totals line")
    }
}

/// Results written by several threads, one slot each.
private final class GateResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<[GateCountResult], any Error>?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result<[GateCountResult], any Error>) { lock.withLock { slots[index] = result } }
    func all() -> [Result<[GateCountResult], any Error>] { lock.withLock { slots.map { $0! } } }
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?
    func set(_ data: Data) { lock.withLock { stored = data } }
    var isSet: Bool { lock.withLock { stored != nil } }
    var data: Data { lock.withLock { stored ?? Data() } }
}

/// One operation's count: instructions per operation, averaged over one rotation.
struct GateCountResult: Codable {
    let workload: String
    let operation: String
    let operationsCounted: Int
    let instructions: Int
}

/// A count held to its committed figure.
struct GateVerdict: Codable {
    enum Outcome: String, Codable {
        case within, regression, unrecordedGain = "unrecorded-gain", noThreshold = "no-threshold"
        case notMeasured = "not-measured"
    }
    let workload: String
    let operation: String
    let threshold: Int?
    let measured: Int?
    let outcome: Outcome

    var passes: Bool { outcome == .within }

    /// The change against the figure, as a fraction (+0.031 is 3.1 % more instructions).
    var change: Double? {
        guard let threshold, let measured, threshold > 0 else { return nil }
        return Double(measured - threshold) / Double(threshold)
    }

    var sentence: String {
        let key = "\(workload) \(operation)"
        switch outcome {
        case .within: return "\(key): \(measured!) instructions, figure \(threshold!)"
        case .regression:
            return "\(key): \(measured!) instructions per operation against the gate's \(threshold!) "
                + "(\(Self.percent(change!))): a regression, or a deliberate rise to record with its reason"
        case .unrecordedGain:
            return "\(key): \(measured!) instructions per operation against the gate's \(threshold!) "
                + "(\(Self.percent(change!))): a gain to keep; set its line to \(measured!) in the same commit"
        case .noThreshold: return "\(key): \(measured!) instructions per operation and no line in the thresholds"
        case .notMeasured:
            return "\(key): a threshold of \(threshold!), but the operation was not measured (gone, or not applicable)"
        }
    }

    static func percent(_ fraction: Double) -> String { String(format: "%+.1f%%", fraction * 100) }

    static func judge(
        _ counts: [GateCountResult], against thresholds: GateThresholds, tolerance: Double, workloads: [String]
    ) -> [GateVerdict] {
        var verdicts: [GateVerdict] = counts.map { count in
            guard let threshold = thresholds.figure(count.workload, count.operation) else {
                return GateVerdict(
                    workload: count.workload, operation: count.operation, threshold: nil, measured: count.instructions,
                    outcome: .noThreshold)
            }
            let change = Double(count.instructions - threshold) / Double(max(threshold, 1))
            let outcome: Outcome = change > tolerance ? .regression : change < -tolerance ? .unrecordedGain : .within
            return GateVerdict(
                workload: count.workload, operation: count.operation, threshold: threshold,
                measured: count.instructions, outcome: outcome)
        }
        let measured = Set(counts.map { "\($0.workload) \($0.operation)" })
        let selected = Set(workloads)
        for line in thresholds.lines where selected.contains(line.workload) {
            if !measured.contains("\(line.workload) \(line.operation)") {
                verdicts.append(
                    GateVerdict(
                        workload: line.workload, operation: line.operation, threshold: line.instructions, measured: nil,
                        outcome: .notMeasured))
            }
        }
        return verdicts
    }

    static func table(_ verdicts: [GateVerdict]) -> String {
        var rows = ["| Workload | Operation | Gate | Measured | Change | |", "|---|---|--:|--:|--:|---|"]
        for verdict in verdicts {
            rows.append(
                "| \(verdict.workload) | \(verdict.operation) | \(verdict.threshold.map(Format.count) ?? "") | "
                    + "\(verdict.measured.map(Format.count) ?? "") | \(verdict.change.map(percent) ?? "") | "
                    + "\(verdict.passes ? "" : "**\(verdict.outcome.rawValue)**") |")
        }
        return rows.joined(separator: "\n")
    }
}

private struct GateReport: Encodable {
    let seconds: Double
    let tolerance: Double
    let verdicts: [GateVerdict]
}

/// `Benchmarks/instruction-gate.txt`: comment lines (`#`) and one line per count,
/// `WORKLOAD OPERATION INSTRUCTIONS REASON...`, the reason being free text to the end of the line.
struct GateThresholds {
    struct Line {
        let workload: String
        let operation: String
        let instructions: Int
        let reason: String
    }
    /// The file's lines in order; comments keep their text, counts are parsed.
    private var entries: [Either]
    private enum Either {
        case comment(String)
        case count(Line)
    }

    var lines: [Line] {
        entries.compactMap { if case .count(let line) = $0 { line } else { nil } }
    }

    func figure(_ workload: String, _ operation: String) -> Int? {
        lines.first { $0.workload == workload && $0.operation == operation }?.instructions
    }

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        entries = []
        var seen = Set<String>()
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") {
                entries.append(.comment(String(raw)))
                continue
            }
            let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard words.count == 4, let instructions = Int(words[2]), instructions >= 0 else {
                throw BenchmarkError(
                    "\(url.path):\(number + 1): expected WORKLOAD OPERATION INSTRUCTIONS REASON, found: \(line)")
            }
            let key = "\(words[0]) \(words[1])"
            guard seen.insert(key).inserted else {
                throw BenchmarkError("\(url.path):\(number + 1): a second line for \(key)")
            }
            entries.append(
                .count(
                    Line(
                        workload: String(words[0]), operation: String(words[1]), instructions: instructions,
                        reason: words[3].trimmingCharacters(in: .whitespaces))))
        }
        while case .comment(let text) = entries.last, text.isEmpty { entries.removeLast() }
    }

    /// The file with every line whose count moved past the tolerance, or is missing, set to the measured count and
    /// `reason`; lines within the tolerance and those of workloads not measured stay as they are.
    func updated(with verdicts: [GateVerdict], reason: String) -> (thresholds: GateThresholds, changed: Int) {
        var copy = self
        var changed = 0
        for verdict in verdicts where !verdict.passes {
            let key = (verdict.workload, verdict.operation)
            let index = copy.entries.firstIndex {
                if case .count(let line) = $0 { (line.workload, line.operation) == key } else { false }
            }
            guard let measured = verdict.measured else {
                // Not measured any more: the line goes.
                if let index { copy.entries.remove(at: index) }
                changed += 1
                continue
            }
            let line = Line(workload: key.0, operation: key.1, instructions: measured, reason: reason)
            if let index { copy.entries[index] = .count(line) } else { copy.entries.append(.count(line)) }
            changed += 1
        }
        return (copy, changed)
    }

    /// Writes the file with the count columns aligned.
    func text() -> String {
        let counts = lines
        let workloadWidth = counts.map(\.workload.count).max() ?? 0
        let operationWidth = counts.map(\.operation.count).max() ?? 0
        let figureWidth = counts.map { String($0.instructions).count }.max() ?? 0
        func pad(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        return entries.map { entry in
            switch entry {
            case .comment(let text): return text
            case .count(let line):
                let figure = String(line.instructions)
                return pad(line.workload, workloadWidth) + "  " + pad(line.operation, operationWidth) + "  "
                    + String(repeating: " ", count: figureWidth - figure.count) + figure + "  " + line.reason
            }
        }.joined(separator: "\n") + "\n"
    }
}
