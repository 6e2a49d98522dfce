import ArgumentParser
import Foundation
import LocationWireCommandLine
import LocationWireFiles
import LocationWireHTTPClient
import LocationWireProbe

/// `locwire-server probe`: checks a running server against the HTTP binding.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Check a running server against proto/HTTP.md: de-duplication, acks, refusals, status codes.",
        discussion: """
            Sends batches as a device of --device-id with --token, each check in installations of its own (a fresh \
            random install_id per check per run, so reruns against the same database never collide): the ledger, \
            session and http conformance vectors replayed over HTTP (the committed files of --vectors), resends, \
            rejections, sizes, formats, gzip, every status of the binding with its error body, and, when the server \
            offers the read-back (GET /v1/devices/{id}/fixes), what was stored. Progress goes to standard error.

            With --record FILE every exchange the probe completes is written to FILE, one JSON object a line: the \
            check's name, whether the request is well-formed (one the binding describes) or broken on purpose and \
            how, the method, path, request fields and body (base64, bearer tokens redacted), and the status, \
            fields and body of the answer. scripts/judges/openapi_exchanges.py checks such a file against \
            proto/openapi.yaml.

            Exit status: 0 every check passed (not-applicable allowed), 1 a check failed, 2 usage error or the \
            server does not answer.
            """
    )

    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080 (required but with --list).")
    var server: String?

    @Option(help: "A bearer token of --device-id (required but with --list).")
    var token: String?

    @Option(help: "The device the token belongs to.")
    var deviceId = "device-1"

    @Option(help: "The report's form: text, json, junit, or markdown (the section of conformance/RESULTS.md).")
    var format: ProbeReportFormat = .text

    @Option(help: "The server's name in the markdown report (default: the URL).")
    var name: String?

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Record every exchange with the server in FILE, one JSON object a line (JSON Lines), for "
                + "scripts/judges/openapi_exchanges.py.", valueName: "FILE"))
    var record: String?

    @Option(
        parsing: .upToNextOption,
        help: "Run only these checks, or the checks under these names (e.g. status status.401 vectors.ledger).")
    var only: [String] = []

    @Option(help: "Statuses whose absence fails their check, e.g. 429,503 (for CI against a configured server).")
    var requireStatus: String?

    @Option(help: "Seconds to wait for the server to give up on a stalled body (above its body time-out).")
    var stallSeconds: Double = 40

    @Option(help: "Requests in the bursts that look for 429 and 503.")
    var burstRequests = 64

    @Option(help: "The size of the oversized batch, bytes.")
    var oversizedBytes = 4 << 20 + 1

    @Option(help: "Seconds each request may take.")
    var timeoutSeconds: Double = 30

    @Flag(help: "Run the erasure check (DELETE /v1/devices/{id}), which erases every stored item of --device-id.")
    var allowErase = false

    @Option(help: "An operator token the server issued, for the checks that an operator token acts for no device.")
    var operatorToken: String?

    @Option(help: "The retention_days the server is set up to state (serve --retain-days): the policy must say so.")
    var expectRetentionDays: UInt32?

    @Option(
        help: ArgumentHelp(
            "Where to ask for regions, LAT,LON in degrees: a place the server's catalogue covers (default: where the "
                + "probe's fixes are).", valueName: "LAT,LON"))
    var regionsAt: String?

    @Option(
        help: ArgumentHelp(
            "The folder of the conformance vectors whose ledger, session and http files are replayed (default: the "
                + "conformance/vectors folder of the current directory or the nearest above it).", valueName: "DIR"))
    var vectors: String?

    @Flag(help: "List the checks' names and exit.")
    var list = false

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        if list { return }
        guard let server, token != nil else { throw ValidationError("--server and --token are required") }
        guard URL(string: server)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) == true else {
            throw ValidationError("--server must be an http:// or https:// URL, not \(server)")
        }
        guard stallSeconds > 0, timeoutSeconds > 0, burstRequests > 0, oversizedBytes > 0 else {
            throw ValidationError(
                "--stall-seconds, --timeout-seconds, --burst-requests and --oversized-bytes must be positive")
        }
        _ = try requiredStatuses()
        _ = try regionPosition()
    }

    /// `--regions-at` in 1e-7 degrees.
    func regionPosition() throws -> (Int32, Int32)? {
        guard let regionsAt else { return nil }
        let parts = regionsAt.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
            throw ValidationError("--regions-at takes LAT,LON in degrees, not \(regionsAt)")
        }
        return (Int32((parts[0] * 1e7).rounded()), Int32((parts[1] * 1e7).rounded()))
    }

    func requiredStatuses() throws -> Set<Int> {
        guard let requireStatus else { return [] }
        var statuses: Set<Int> = []
        for part in requireStatus.split(separator: ",") {
            guard let status = Int(part.trimmingCharacters(in: .whitespaces)), status == 429 || status == 503 else {
                throw ValidationError("--require-status takes 429 and 503, comma-separated, not \(requireStatus)")
            }
            statuses.insert(status)
        }
        return statuses
    }

    /// The vectors of `--vectors`, or of the `conformance/vectors` folder found up from the current directory.
    /// Exit status 2 when there is none, or it cannot be read.
    func probeVectors() throws -> ProbeVectors {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        guard let directory = vectors.map({ URL(fileURLWithPath: $0) }) ?? ProbeVectors.findDirectory(from: current)
        else {
            printToStandardError(
                "locwire-server probe: no conformance/vectors folder in \(current.path) or above; pass --vectors DIR")
            throw ExitCode(2)
        }
        do {
            return try ProbeVectors(directory: directory)
        } catch {
            printToStandardError(
                "locwire-server probe: the vectors in \(directory.path): \(error) (--vectors DIR names their folder)")
            throw ExitCode(2)
        }
    }

    func run() async throws {
        let vectors = try probeVectors()
        if list {
            for check in ServerProbe.catalogue(vectors).checks { print(check.name) }
            return
        }
        guard let server, let token else { throw ValidationError("--server and --token are required") }
        let quiet = self.quiet
        var recorder: ExchangeRecorder?
        if let record {
            do {
                recorder = try ExchangeRecorder(path: record)
            } catch {
                printToStandardError("locwire-server probe: \(error)")
                throw ExitCode(2)
            }
        }
        let probe = ServerProbe(
            options: .init(
                server: server, token: token, deviceId: deviceId, vectors: vectors, only: only,
                requiredStatuses: try requiredStatuses(),
                stallSeconds: stallSeconds, burstRequests: burstRequests, oversizedBytes: oversizedBytes,
                requestTimeoutSeconds: timeoutSeconds, allowsErasure: allowErase, operatorToken: operatorToken,
                expectedRetentionDays: expectRetentionDays, regionPosition: try regionPosition(), recorder: recorder,
                progress: { line in if !quiet { printToStandardError("probe: \(line)") } }))
        let report: ProbeReport
        do {
            report = try await probe.run()
        } catch let cannotRun as ServerProbe.CannotRun {
            printToStandardError("locwire-server probe: \(cannotRun.description)")
            throw ExitCode(2)
        }
        if let recorder, let record, !quiet {
            printToStandardError("probe: \(recorder.recordedCount) exchanges recorded in \(record)")
        }
        let text = format.render(report, serverName: name)
        if let output {
            do {
                try FileAccess.write(Array(text.utf8), to: output)
            } catch {
                printToStandardError("locwire-server probe: \(error)")
                throw ExitCode(2)
            }
            if !quiet { printToStandardError("probe: \(report.summary); report in \(output)") }
        } else {
            print(text, terminator: "")
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
}

extension ProbeReportFormat: ExpressibleByArgument {}
