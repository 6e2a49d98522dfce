import Foundation
import Hummingbird
import LocationWire
import LocationWireHTTP
import LocationWireJSON
import LocationWireHTTPClient
@testable import LocationWireProbe
import LocationWireServer
import LocationWireSession
import NIOCore
import Testing

/// `locwire-server probe` against servers on loopback sockets: the reference server, which must pass every
/// check, and deliberately wrong servers, which must fail the checks that look at what they get wrong (a probe
/// that cannot fail proves nothing). Serialized: each test loads the machine with bursts of requests, which would
/// slow the others' servers past their time-outs.
@Suite(.serialized) struct ProbeTests {
    static let deviceId = "device-1"

    /// Runs `application`, which reports its port to `ports`, calls `body` with its base URL, then cancels it.
    static func withRunning<App: ApplicationProtocol, Result>(
        _ application: App, ports: AsyncStream<Int>, _ body: (String) async throws -> Result
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw ProbeTestError(message: "the server did not start") }
            return try await body("http://127.0.0.1:\(port)")
        }
    }

    /// Runs the reference server on a loopback port chosen by the system, over an in-memory store with a token for
    /// ``deviceId``, and calls `body` with its base URL and the token.
    static func withReferenceServer<Result>(
        _ configuration: ServerConfiguration, _ body: (String, String) async throws -> Result
    ) async throws -> Result {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: deviceId, nowMs: 0)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = try makeServerApplication(
            storage: store, authenticator: store, configuration: configuration, port: 0
        ) { port in
            continuation.yield(port)
        }
        return try await withRunning(application, ports: ports) { url in try await body(url, token) }
    }

    /// Runs a server with `fault` on a loopback port and calls `body` with its base URL.
    static func withWrongServer<Result>(
        _ fault: WrongServer.Fault, _ body: (String) async throws -> Result
    ) async throws -> Result {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = WrongServer.application(fault) { port in continuation.yield(port) }
        return try await withRunning(application, ports: ports, body)
    }

    /// The committed vectors of this checkout (conformance/vectors/), read once.
    static let vectors = Result {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return try ProbeVectors(directory: repository.appendingPathComponent("conformance/vectors"))
    }

    /// The probe's options for a test run: the committed vectors, a short stall (the servers' body time-out is
    /// 1 s) and a small burst.
    static func options(_ url: String, token: String, only: [String] = []) throws -> ServerProbe.Options {
        ServerProbe.Options(
            server: url, token: token, deviceId: deviceId, vectors: try vectors.get(), only: only, stallSeconds: 8,
            burstRequests: 16, requestTimeoutSeconds: 20)
    }

    static func failures(_ report: ProbeReport) -> String {
        report.results.filter { $0.outcome == .failed }.map { "\($0.name): \($0.message)" }.joined(separator: "\n")
    }

    static func outcome(_ report: ProbeReport, _ name: String) -> ProbeOutcome? {
        report.results.first { $0.name == name }?.outcome
    }

    // MARK: - The vectors

    @Test func theCommittedVectorsAreFoundUpFromAFolderOfTheCheckout() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let found = try #require(ProbeVectors.findDirectory(from: here))
        #expect(FileManager.default.fileExists(atPath: found.appendingPathComponent("ledger.json").path))
        #expect(found.path.hasSuffix("/conformance/vectors"))
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        #expect(ProbeVectors.findDirectory(from: outside) == nil)
        // Each family's file gives the probe checks of its own.
        let names = ServerProbe.catalogue(try Self.vectors.get()).checks.map(\.name)
        for family in ProbeVectors.families {
            #expect(names.contains { $0.hasPrefix("vectors.\(family).") }, "\(family)")
        }
        #expect(throws: (any Error).self) { try ProbeVectors(directory: outside) }
    }

    // MARK: - The reference server

    @Test func referenceServerPassesEveryCheck() async throws {
        let configuration = ServerConfiguration(bodyTimeout: .seconds(1))
        let report = try await Self.withReferenceServer(configuration) { url, token in
            try await ServerProbe(options: Self.options(url, token: token)).run()
        }
        #expect(report.count(.failed) == 0, "\(Self.failures(report))")
        // The checks that must have run and passed, not been skipped: the read-back, vectors of both families,
        // every refusal the reference server sends.
        for name in [
            "readback.offered", "vectors.ledger.fix-key.partly-new", "vectors.ledger.rejected.null-island",
            "vectors.session.send.backlog-and-live", "batches.duplicate-resend", "batches.concurrent-devices",
            "batches.oversized", "formats.gzip-bomb", "status.401.no-token", "status.408.slow-client",
            "status.partial-body", "status.415.content-encoding",
        ] {
            #expect(Self.outcome(report, name) == .passed, "\(name)")
        }
        // Without --rate-limit and --max-in-flight, no 429 or 503; without a catalogue, no regions.
        #expect(Self.outcome(report, "status.429.rate-limit") == .notApplicable)
        #expect(Self.outcome(report, "endpoints.regions") == .notApplicable)
        #expect(report.exitStatus == 0)
        #expect(report.results.filter { $0.name.hasPrefix("vectors.ledger.") }.count >= 20)
    }

    @Test func loadSheddingIsProvokedAndJudged() async throws {
        let configuration = ServerConfiguration(rateLimitPerDevice: 10, maxInFlight: 2)
        let report = try await Self.withReferenceServer(configuration) { url, token in
            var options = try Self.options(
                url, token: token, only: ["status.429", "status.503", "batches.partial-reject"])
            options.requiredStatuses = [429, 503]
            options.burstRequests = 64
            return try await ServerProbe(options: options).run()
        }
        #expect(report.count(.failed) == 0, "\(Self.failures(report))")
        #expect(Self.outcome(report, "status.429.rate-limit") == .passed)
        #expect(Self.outcome(report, "status.503.overload") == .passed)
        // An ordinary check still passes against a rate-limited server: the probe waits out 429 as a device does.
        #expect(Self.outcome(report, "batches.partial-reject") == .passed)
    }

    @Test func requiredStatusThatNeverComesFails() async throws {
        let report = try await Self.withReferenceServer(ServerConfiguration()) { url, token in
            var options = try Self.options(url, token: token, only: ["status.429"])
            options.requiredStatuses = [429]
            return try await ServerProbe(options: options).run()
        }
        #expect(Self.outcome(report, "status.429.rate-limit") == .failed)
        #expect(report.exitStatus == 1)
    }

    @Test func unreachableServerThrows() async throws {
        // Port 9 (discard): nothing listens on it here, so the connection is refused.
        let probe = ServerProbe(options: try Self.options("http://127.0.0.1:9", token: "x"))
        await #expect(throws: ServerProbe.CannotRun.self) { try await probe.run() }
    }

    @Test func refusedTokenStopsTheProbe() async throws {
        // Nothing can be judged with a token the server refuses: a setup error, not a hundred failed checks.
        try await Self.withReferenceServer(ServerConfiguration()) { url, _ in
            let probe = ServerProbe(options: try Self.options(url, token: String(repeating: "0", count: 64)))
            await #expect(throws: ServerProbe.CannotRun.self) { try await probe.run() }
        }
    }

    // MARK: - The record

    @Test func everyRequestVectorIsClassifiedWellFormedOrMalformedOnce() throws {
        let problems = HTTPVectorScenarios.classificationProblems(try Self.vectors.get())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func recordHoldsEveryExchangeWithItsCheckAndForm() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = try ExchangeRecorder(path: file.path)
        let (report, token) = try await Self.withReferenceServer(ServerConfiguration()) { url, token in
            var options = try Self.options(
                url, token: token,
                only: ["status.401.no-token", "formats.json", "vectors.http.request.content-type.twice"])
            options.recorder = recorder
            return (try await ServerProbe(options: options).run(), token)
        }
        #expect(report.count(.failed) == 0, "\(Self.failures(report))")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains(token), "a bearer token is in the record")
        let records = try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == recorder.recordedCount)
        func lines(of check: String) -> [[String: Any]] { records.filter { $0["check"] as? String == check } }
        #expect(!lines(of: "setup").isEmpty)
        // Broken on purpose, and saying how; answered 401 with its error body.
        let noToken = try #require(lines(of: "status.401.no-token").first { $0["method"] as? String == "POST" })
        #expect(noToken["wellFormed"] as? Bool == false)
        #expect(noToken["breakage"] as? String == "no Authorization")
        #expect(noToken["status"] as? Int == 401)
        let errorBody = try #require(Data(base64Encoded: noToken["responseBody"] as? String ?? ""))
        #expect(ErrorBody(jsonBytes: Array(errorBody))?.code == "unauthenticated")
        // A device's JSON batch: well-formed, the body as sent.
        let json = try #require(lines(of: "formats.json").first { $0["method"] as? String == "POST" })
        #expect(json["wellFormed"] as? Bool == true)
        #expect(json["breakage"] == nil)
        let body = try #require(Data(base64Encoded: json["requestBody"] as? String ?? ""))
        #expect((try? LocationBatch(jsonUTF8: Array(body))) != nil)
        #expect((json["requestHeaders"] as? [[String]])?.contains(["Authorization", "Bearer REDACTED"]) == true)
        // A raw request: the fields as written, both Content-Types.
        let raw = try #require(lines(of: "vectors.http.request.content-type.twice").first)
        #expect(raw["transport"] as? String == "raw")
        #expect(raw["wellFormed"] as? Bool == false)
        #expect((raw["requestHeaders"] as? [[String]])?.filter { $0.first == "Content-Type" }.count == 2)
    }

    // MARK: - Wrong servers

    @Test func serverAnsweringEmptyBodiesFails() async throws {
        let report = try await Self.withWrongServer(.emptyBodies) { url in
            try await ServerProbe(
                options: Self.options(url, token: "any", only: ["batches", "status.401", "status.404", "formats.json"])
            ).run()
        }
        for name in [
            "batches.duplicate-resend", "batches.partial-reject", "batches.oversized", "status.401.no-token",
            "status.404.unknown-path", "formats.json",
        ] {
            #expect(Self.outcome(report, name) == .failed, "\(name)")
        }
        #expect(report.count(.passed) == 0, "\(report.results.filter { $0.outcome == .passed }.map(\.name))")
        #expect(report.exitStatus == 1)
    }

    @Test func serverAckingWithoutStoringFails() async throws {
        let report = try await Self.withWrongServer(.acksWithoutStoring) { url in
            try await ServerProbe(
                options: Self.options(url, token: "any", only: ["batches.duplicate-resend", "formats.binary"])
            ).run()
        }
        let resend = report.results.first { $0.name == "batches.duplicate-resend" }
        #expect(resend?.outcome == .failed)
        #expect(resend?.message.contains("expected DUPLICATE") == true, "\(resend?.message ?? "")")
        let stored = report.results.first { $0.name == "formats.binary" }
        #expect(stored?.outcome == .failed)
        #expect(stored?.message.contains("the read-back does not have it") == true, "\(stored?.message ?? "")")
    }

    @Test func serverStoringDuplicatesFails() async throws {
        let report = try await Self.withWrongServer(.storesDuplicates) { url in
            try await ServerProbe(
                options: Self.options(
                    url, token: "any", only: ["batches.duplicate-resend", "vectors.ledger.fix-key.same-batch-again"])
            ).run()
        }
        for name in ["batches.duplicate-resend", "vectors.ledger.fix-key.same-batch-again"] {
            let result = report.results.first { $0.name == name }
            #expect(result?.outcome == .failed, "\(name)")
            #expect(result?.message.contains("is stored 2 times") == true, "\(result?.message ?? "")")
        }
    }

    @Test func serverStoringRefusedBatchesFails() async throws {
        let report = try await Self.withWrongServer(.storesRefusedBatches) { url in
            try await ServerProbe(options: Self.options(url, token: "any", only: ["status.401.no-token"])).run()
        }
        let refused = report.results.first { $0.name == "status.401.no-token" }
        #expect(refused?.outcome == .failed)
        #expect(
            refused?.message.contains("fixes [1, 2, 3] are stored, but were refused") == true,
            "\(refused?.message ?? "")")
    }

    // MARK: - Reports

    @Test func reportFormats() throws {
        let report = ProbeReport(
            server: "http://127.0.0.1:1", deviceId: Self.deviceId,
            results: [
                ProbeCheckResult(
                    name: "status.401.no-token", rules: ["§http-bearer", "§http-auth-errors"], outcome: .passed,
                    message: "401", durationSeconds: 0.01),
                ProbeCheckResult(
                    name: "batches.oversized", rules: ["§http-size", "§http-bearer"], outcome: .failed,
                    message: "answered 200 <&> \"x\"\nsecond line", durationSeconds: 0.2),
                ProbeCheckResult(
                    name: "status.429.rate-limit", rules: ["§http-rate-limits"], outcome: .notApplicable,
                    message: "no 429", durationSeconds: 1),
            ], notes: ["a note"], durationSeconds: 1.5)
        #expect(report.summary == "3 checks: 1 passed, 1 failed, 1 not applicable")
        #expect(report.exitStatus == 1)

        let text = ProbeReportFormat.text.render(report)
        #expect(text.contains("FAIL  batches.oversized: answered 200"))
        #expect(text.contains("N/A   status.429.rate-limit: no 429"))
        #expect(text.contains("rule §http-bearer: 1 of 2 failed: batches.oversized"))
        #expect(text.contains("rules: 4 judged, 2 with a failed check"))

        let json = try JSONSerialization.jsonObject(with: Data(ProbeReportFormat.json.render(report).utf8))
        let document = try #require(json as? [String: Any])
        let checks = try #require(document["checks"] as? [[String: Any]])
        #expect(checks.count == 3)
        #expect(checks[1]["outcome"] as? String == "failed")
        #expect(checks[2]["outcome"] as? String == "not-applicable")
        #expect((document["summary"] as? [String: Any])?["failed"] as? Int == 1)
        let rules = try #require(document["rules"] as? [[String: Any]])
        #expect(
            rules.map { $0["rule"] as? String } == [
                "§http-auth-errors", "§http-bearer", "§http-rate-limits", "§http-size",
            ])
        #expect(rules[1]["passed"] as? Int == 1 && rules[1]["failed"] as? Int == 1)
        #expect(rules[2]["notApplicable"] as? Int == 1)

        let markdown = ProbeReportFormat.markdown.render(report, serverName: "wrong")
        #expect(markdown.contains("| `§http-bearer` | 1 / 2 | 0 |"))
        #expect(markdown.contains("| `§http-rate-limits` | 0 / 0 | 1 |"))

        let junit = ProbeReportFormat.junit.render(report)
        #expect(junit.contains("tests=\"3\" failures=\"1\""))
        #expect(junit.contains("<failure message=\"answered 200 &lt;&amp;&gt; &quot;x&quot;\">"))
        #expect(junit.contains("<skipped message=\"no 429\"/>"))
    }
}

struct ProbeTestError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Servers that get the binding wrong on purpose, each in one way, for the probe to catch.
enum WrongServer {
    enum Fault: Sendable {
        /// Every request: 200 with an empty body.
        case emptyBodies
        /// Every batch: an ack with each fix ACCEPTED, whether seen before or not; nothing stored.
        case acksWithoutStoring
        /// Acks from a correct ledger, but every fix received is stored, so a resend stores it again.
        case storesDuplicates
        /// A correct ledger, but a batch is stored before its token is checked: a 401 leaves its fixes stored.
        case storesRefusedBatches
    }

    /// What the duplicate-storing server keeps: the ledger and every fix it received.
    actor Store {
        var ledger = IngestLedger()
        var received: [(installId: UInt64, fix: LocationFix)] = []

        func ingest(_ batch: LocationBatch, size: Int) -> BatchAck {
            let fixes = (batch.fixes + (batch.liveFix.map { [$0] } ?? []))
            received += fixes.map { (batch.installId, $0) }
            return ledger.ingest(batch, encodedSize: size, nowMs: 1_767_225_600_000).ack
        }

        func readBack() -> String {
            let entries = received.map { "{\"installId\":\"\($0.installId)\",\"fix\":\($0.fix.jsonString())}" }
            return "{\"fixes\":[\(entries.joined(separator: ","))],\"truncated\":false}"
        }
    }

    static func application(
        _ fault: Fault, onRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        let store = Store()
        switch fault {
        case .emptyBodies:
            router.get("**") { _, _ in Response(status: .ok) }
            router.post("**") { _, _ in Response(status: .ok) }
        case .acksWithoutStoring, .storesDuplicates, .storesRefusedBatches:
            router.post(.init(Binding.batchesPath)) { request, _ in
                let bytes = try await request.body.collect(upTo: 8 << 20)
                let format = request.headers[.contentType].flatMap(MediaType.init)?.format ?? .binary
                let batch = try format.decode(LocationBatch.self, from: Array(bytes.readableBytesView))
                let ack: BatchAck
                if fault == .storesRefusedBatches {
                    ack = await store.ingest(batch, size: bytes.readableBytes)
                    if request.headers[.authorization] == nil {
                        let body = ErrorBody(code: ErrorBody.Code.unauthenticated, message: "no token")
                        return Response(
                            status: .unauthorized,
                            headers: [.contentType: Binding.jsonMediaType, .wwwAuthenticate: "Bearer"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.jsonBytes())))
                    }
                } else if fault == .storesDuplicates {
                    ack = await store.ingest(batch, size: bytes.readableBytes)
                } else {
                    var accepting = BatchAck()
                    accepting.batchId = batch.batchId
                    accepting.outcome = .processed
                    let sequences = (batch.fixes + (batch.liveFix.map { [$0] } ?? [])).map(\.sequence)
                    if let low = sequences.min(), let high = sequences.max() {
                        accepting.fixResults = [AckRange(first: low, last: high, result: .accepted)]
                    }
                    ack = accepting
                }
                return Response(
                    status: .ok, headers: [.contentType: format.contentType(for: BatchAck.self)],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: format.encode(ack))))
            }
            router.get("/v1/devices/:device/fixes") { _, _ in
                let text =
                    fault == .acksWithoutStoring ? "{\"fixes\":[],\"truncated\":false}" : await store.readBack()
                return Response(
                    status: .ok, headers: [.contentType: Binding.jsonMediaType],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
            }
        }
        return Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) })
    }
}
