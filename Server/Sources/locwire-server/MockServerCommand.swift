import ArgumentParser
import Foundation
import Hummingbird
import LocationWireCommandLine
import LocationWireFiles
import LocationWireMockServer
import LocationWireServer

/// `locwire-server mock-server`: a server that misbehaves on purpose, for client teams, and the report that
/// says whether their client lost or doubled anything through it.
struct MockServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock-server",
        abstract: "A fault-injecting server for testing upload clients, and its loss report.",
        discussion: """
            `mock-server run --faults SPEC` (the default) serves POST /v1/batches with faults and journals every \
            request; `mock-server report --journal FILE --client-log FILE` then says whether the client lost or \
            doubled fixes, and checks each client-side rule of the binding by its tag. See Server/MOCK-SERVER.md.
            """,
        subcommands: [MockServerRunCommand.self, MockServerReportCommand.self],
        defaultSubcommand: MockServerRunCommand.self
    )
}

/// `locwire-server mock-server run`: serves `POST /v1/batches` with faults drawn from a seeded generator.
struct MockServerRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Serve POST /v1/batches with injected faults, journaling every request.",
        discussion: """
            SPEC is FAULT=PROBABILITY[:PARAM=VALUE...], comma-separated, each fault at most once, probabilities \
            adding up to at most 1; faults: \(FaultCatalogue.standard.helpText). \
            Example: drop-after-commit=0.1,status-503=0.05:retry-after=1,partial-ack=0.2,slow=0.1:delay-ms=300. \
            Each request gets at most one fault. Stop it with Ctrl-C (SIGINT) or SIGTERM: it prints a summary, \
            and with --client-log the report (exit status as mock-server report's).
            """
    )

    @Option(help: "The faults and their probabilities (see above); 'none' for a well-behaved server.")
    var faults = "none"

    @Option(help: "The seed of the fault generator: the same seed and order of requests give the same faults.")
    var seed: UInt64 = 1

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port; 0 lets the system choose one (printed).")
    var port = 8081

    @Option(help: "The journal: one JSON line per request received (created, or emptied).")
    var journal = "./mock-journal.jsonl"

    @Option(help: "A bearer token to require (repeatable); without one any bearer token is taken.")
    var token: [String] = []

    @Option(help: "The largest request body taken, bytes (after decompression); larger bodies get 413.")
    var maxBodyBytes = ServerConfiguration().maxBodyBytes

    @Option(help: "The client's log of recorded fixes: when given, the report is printed when the server stops.")
    var clientLog: String?

    @Flag(help: "With --client-log: fixes the client still held at its exit fail the report (check 'drained').")
    var requireDrained = false

    func run() async throws {
        let spec: FaultSpec
        do {
            spec = try FaultSpec(parsing: faults)
        } catch {
            throw ValidationError("--faults: \(error)")
        }
        let writer: JournalWriter
        do {
            // The plain-words reason (no such folder, a directory, permission) before the file handle's own error.
            try FileAccess.checkWritable(journal)
            writer = try JournalWriter(path: journal)
        } catch {
            throw ValidationError("--journal: \(error)")
        }
        let store = MockStore(spec: spec, seed: seed, journal: writer)
        let host = self.host
        let seed = self.seed
        let journalPath = URL(fileURLWithPath: journal).standardizedFileURL.path
        let app = makeMockServerApplication(
            store: store, tokens: MockTokens(accepting: token.isEmpty ? nil : Set(token)),
            configuration: ServerConfiguration(maxBodyBytes: maxBodyBytes), host: host, port: port
        ) { port in
            print("locwire-server mock-server listening on http://\(host):\(port)")
            print("faults: \(spec) (seed \(seed))")
            print("journal: \(journalPath)")
            // Standard output to a pipe or file is block-buffered; a script waiting for the URL needs it now.
            fflush(nil)
        }
        try await app.runService()
        let faultCounts = await store.faultCounts
        let counts = faultCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print("mock-server stopped after \(faultCounts.values.reduce(0, +)) requests")
        print("faults: \(counts.isEmpty ? "none" : counts.joined(separator: ", "))")
        print("stored: \(await store.storedFixCount) fixes; journal: \(journalPath)")
        if let clientLog {
            let report = try MockServerReportCommand.report(
                journal: journal, clientLog: clientLog, requireDrained: requireDrained)
            print(report.text())
            if !report.clean { throw ExitCode(1) }
        }
    }
}

/// `locwire-server mock-server report`: the journal against the client's log.
struct MockServerReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Say whether a client lost or doubled fixes: the mock server's journal against the client's log.",
        discussion: """
            The client log has one JSON line per fix the client recorded: {"installId": "8143", "sequence": 1, \
            "timeMs": 1767225500000, "latitudeE7": 525200000, "longitudeE7": 134050000}; a line \
            {"installId": "8143", "discarded": 17} per fix it discarded after a refusal of it alone as too large; \
            and at its exit {"installId": "8143", "pending": [18, 19]}, the fixes it still held. The checks: \
            \(MockReport.checkTags.map { $0.name }.joined(separator: ", ")), each named with the tags of the rules \
            it enforces. Exit status: 0 when every check passed, 1 when one failed, 2 when an input cannot be read.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "The mock server's journal (--journal of mock-server run).")
    var journal: String

    @Option(help: "The client's log of the fixes it recorded (JSON lines).")
    var clientLog: String

    @Option(help: "text or json.")
    var format: Format = .text

    @Flag(help: "Fixes the client still held at its exit (its 'pending' lines) fail the check 'drained'.")
    var requireDrained = false

    func run() async throws {
        let report = try Self.report(journal: journal, clientLog: clientLog, requireDrained: requireDrained)
        print(format == .json ? report.json() : report.text())
        if !report.clean { throw ExitCode(1) }
    }

    /// The report of two files; an unreadable one is named on standard error and exits 2.
    static func report(journal: String, clientLog: String, requireDrained: Bool) throws(ExitCode) -> MockReport {
        do {
            return MockReport(
                journal: try JournalWriter.read(path: journal), clientLog: try ClientLog.read(path: clientLog),
                requireDrained: requireDrained)
        } catch {
            printToStandardError("mock-server report: \(error)")
            throw ExitCode(2)
        }
    }
}
