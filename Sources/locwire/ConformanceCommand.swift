import ArgumentParser
import Foundation
import LocationWireConformance
import LocationWireFiles
import LocationWireRender
import LocationWireSuiteSource

struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the conformance suite, serve as a testee, generate vectors, or write the results matrix.",
        subcommands: [
            ConformanceRunCommand.self, ConformanceTesteeCommand.self, ConformanceGenerateCommand.self,
            ConformanceMatrixCommand.self,
        ],
        defaultSubcommand: ConformanceRunCommand.self
    )
}

struct ConformanceRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the conformance vectors against an implementation (the built-in one by default).",
        discussion: """
            The testee is started once as a subprocess and spoken to over its stdin and stdout with the testee \
            protocol (proto/locationwire/conformance/v1/testee.proto, conformance/README.md). A crash or a timeout \
            costs one vector and the testee is restarted.

            --format html writes one self-contained page: the matrix, each failure's diff, and pictures of the \
            failed fences and recording vectors (or of a few passing ones), drawn as `locwire render --vector` \
            draws them; the testee is asked once more for each picture.

            Each vector passes, fails (with a diff), crashes or times out. Vectors listed in the failure list are \
            expected to fail; a listed vector that passes, and an entry that matches no vector, are errors. \
            Exit status 0 when nothing unexpected happened, 1 otherwise, 2 when the suite cannot run.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The command that starts the implementation under test; the built-in testee when absent.",
            valueName: "command"))
    var testee: String?

    @Option(
        help: ArgumentHelp(
            "Expected-failure list; default conformance/failures/<implementation>.txt if it exists.", valueName: "file")
    )
    var failures: String?

    @Option(help: "Report format.")
    var format: ReportFormatOption = .text

    @Option(help: ArgumentHelp("Write the report here instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("The directory of vector files.", valueName: "directory"))
    var vectors = "conformance/vectors"

    @Option(help: ArgumentHelp("Seconds a testee may take for one vector.", valueName: "seconds"))
    var timeout = 10.0

    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp("Run only vectors with this id or id prefix (repeatable).", valueName: "prefix"))
    var filters: [String] = []

    @Flag(help: "No progress on standard error.")
    var quiet = false

    enum ReportFormatOption: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, html
    }

    func run() throws {
        try checkOutputFile(output)
        let files: [VectorFile]
        do {
            files = try ConformanceRunner.loadVectors(from: URL(fileURLWithPath: vectors))
        } catch let error as FileAccessError where error.path == URL(fileURLWithPath: vectors).path {
            throw UsageFailure(message: "\(error) (run from the repository root, or pass --vectors)")
        } catch let error as FileAccessError {
            throw UsageFailure(message: error.description)
        } catch {
            throw UsageFailure(
                message: "cannot load vectors: \(error) (run from the repository root, or pass --vectors)")
        }
        let command = testee ?? Self.builtinTesteeCommand()
        let (process, hello) = try startTestee(command)
        let failureList = try loadFailureList(
            named: failures, default: "conformance/failures/\(hello).txt", what: "failure list")
        let total = files.reduce(0) { $0 + $1.vectors.count }
        var progress = Progress(enabled: !quiet, total: total)
        let runner = ConformanceRunner(timeoutMilliseconds: Int(timeout * 1000), filters: filters)
        let report = try runner.run(files, testee: process, failureList: failureList) { done, selected, result in
            progress.update(done: done, of: selected, result: result)
        }
        progress.finish()
        try writeText(try render(report, files, testee: testee), toFile: output)
        if output != nil && !quiet { printToStandardError(ReportFormat.text.summaryLine(report)) }
        if !report.passed {
            throw InputRejected(message: "conformance failed for \(report.implementation)")
        }
    }

    /// The report in the chosen format. The HTML page asks the implementation again for the vectors it draws:
    /// the built-in engines in this process, or a fresh start of the testee.
    func render(_ report: RunReport, _ files: [VectorFile], testee: String?) throws -> String {
        switch format {
        case .text: return try ReportFormat.text.render(report)
        case .json: return try ReportFormat.json.render(report)
        case .junit: return try ReportFormat.junit.render(report)
        case .html:
            let vectors = files.flatMap(\.vectors)
            guard let testee else {
                return ConformanceHTMLReport(report: report, vectors: vectors, answerer: .builtin).render()
            }
            let (process, _) = try startTestee(testee)
            defer { process.stop() }
            let answerer = ScenarioPicture.Answerer.testee(process, timeoutMilliseconds: Int(timeout * 1000))
            return ConformanceHTMLReport(report: report, vectors: vectors, answerer: answerer).render()
        }
    }

    /// This executable, as a testee.
    static func builtinTesteeCommand() -> String {
        let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
        return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "' conformance testee"
    }

}

/// Progress on standard error: a rewritten line on a terminal, a line per tenth otherwise.
struct Progress {
    let enabled: Bool
    let total: Int
    let terminal = isatty(2) != 0
    var lastTenth = -1
    var problems = 0

    init(enabled: Bool, total: Int) {
        self.enabled = enabled
        self.total = total
    }

    mutating func update(done: Int, of selected: Int, result: VectorResult) {
        guard enabled else { return }
        if result.status.isUnexpected { problems += 1 }
        if terminal {
            if done % 25 == 0 || done == selected {
                FileHandle.standardError.write(
                    Data("\r[\(done)/\(selected)] \(problems) unexpected  \(result.id.prefix(60))\u{1B}[K".utf8))
            }
        } else {
            let tenth = done * 10 / max(selected, 1)
            if tenth != lastTenth {
                lastTenth = tenth
                printToStandardError("[\(done)/\(selected)] \(problems) unexpected so far")
            }
        }
    }

    func finish() {
        if enabled && terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

extension ReportFormat {
    func summaryLine(_ report: RunReport) -> String {
        let rendered = (try? ReportFormat.text.render(report)) ?? ""
        return rendered.split(separator: "\n").last.map(String.init) ?? ""
    }
}

struct ConformanceTesteeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testee",
        abstract: "Serve the testee protocol on stdin and stdout with the built-in implementation.",
        discussion:
            "The runner, the differential fuzzer and anyone's tools drive the built-in implementation through this command, exactly as they drive any other implementation."
    )

    @Option(
        help: ArgumentHelp(
            "Exit with status 3 when asked for this vector id (for testing runners).", visibility: .hidden))
    var crashOn: String?

    @Option(
        help: ArgumentHelp("Stop answering when asked for this vector id (for testing runners).", visibility: .hidden))
    var hangOn: String?

    func run() throws {
        var misbehaviour = TesteeServer.Misbehaviour()
        misbehaviour.crashOn = crashOn
        misbehaviour.hangOn = hangOn
        let status = TesteeServer.serve(misbehaviour: misbehaviour)
        if status != 0 { throw ExitCode(status) }
    }
}

struct ConformanceGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the conformance vectors (deterministic), or check that the committed ones are current.")

    @Option(help: ArgumentHelp("The directory to write into.", valueName: "directory"))
    var output = "conformance/vectors"

    @Option(
        help: ArgumentHelp(
            "The folder of the generator's inputs: data/ (real traces) and regressions/ (regression vectors).",
            valueName: "directory"))
    var inputs = "conformance"

    @Flag(help: "Compare with the files in the directory instead of writing; exit 1 if they differ.")
    var check = false

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        let files: [VectorFile]
        do {
            files = VectorGenerator.generate(try VectorInputs.load(from: URL(fileURLWithPath: inputs)))
        } catch {
            // A missing or unreadable input (VectorInputError, a regression vector) is a setup problem: exit 2.
            throw UsageFailure(message: "cannot generate the vectors: \(error)")
        }
        let differences: [VectorGenerator.Difference]
        do {
            differences = try VectorGenerator.write(files, to: directory, check: check)
        } catch let error as FileAccessError {
            throw UsageFailure(message: error.description)
        } catch {
            throw UsageFailure(message: "cannot write vectors to \(output): \(error)")
        }
        let count = files.reduce(0) { $0 + $1.vectors.count }
        if check {
            guard differences.isEmpty else {
                for difference in differences {
                    printToStandardError("stale: \(difference.file): \(difference.reason)")
                }
                throw InputRejected(
                    message: "the committed vectors are not current; run `locwire conformance generate`")
            }
            printToStandardError("vectors are current: \(count) vectors in \(files.count) files")
        } else {
            for file in files { printToStandardError("\(output)/\(file.family).json: \(file.vectors.count) vectors") }
            printToStandardError("\(count) vectors")
        }
    }
}

struct ConformanceMatrixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Write the results matrix (conformance/RESULTS.md) from JSON run reports.",
        discussion: "Each argument is a report written by `locwire conformance run --format json --output FILE`.")

    @Argument(help: ArgumentHelp("JSON run reports, one per implementation.", valueName: "report"))
    var reports: [String]

    @Option(help: ArgumentHelp("Write the matrix here instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if reports.isEmpty { throw ValidationError("give at least one JSON report") }
    }

    func run() throws {
        let decoded: [RunReport] = try reports.map { path in
            let data = Data(try readFile(path))
            do {
                return try JSONDecoder().decode(RunReport.self, from: data)
            } catch {
                throw UsageFailure(message: "\(path) is not a JSON run report: \(error)")
            }
        }
        try writeText(ResultsMatrix(reports: decoded).markdown(), toFile: output)
    }
}
