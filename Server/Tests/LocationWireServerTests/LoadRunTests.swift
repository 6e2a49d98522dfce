import Foundation
import Hummingbird
import HummingbirdTesting
import LocationWireHTTPClient
import LocationWireLoad
import LocationWireServer
import Testing

/// `locwire-server load`'s engine against a live reference server on loopback (an in-memory store): what it
/// counts as acknowledged is what the server stored, once, and what it journals is what it counted. Timings are
/// not checked (they swing on a shared machine); counts are.
@Suite struct LoadRunTests {
    static let devices = 4

    /// A store with tokens for device-1 ... device-N.
    static func makeStore() async throws -> (SQLiteStorage, [String: String]) {
        let store = try SQLiteStorage()
        var tokens: [String: String] = [:]
        for index in 0..<devices {
            let deviceId = LoadConfiguration.deviceId(index)
            tokens[deviceId] = try await store.issueToken(forDevice: deviceId, nowMs: 0)
        }
        return (store, tokens)
    }

    static func storedFixCount(_ store: SQLiteStorage) async throws -> Int {
        var count = 0
        for index in 0..<devices {
            count += try await store.fixes(
                deviceId: LoadConfiguration.deviceId(index), fromMs: 0, toMs: .max, limit: 1_000_000
            ).count
        }
        return count
    }

    @Test func everyAcknowledgedFixIsStoredOnceAndJournalled() async throws {
        let (store, tokens) = try await Self.makeStore()
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID()).csv").path
        let requestLog = FileManager.default.temporaryDirectory.appendingPathComponent("requests-\(UUID()).csv").path
        defer {
            try? FileManager.default.removeItem(atPath: journal)
            try? FileManager.default.removeItem(atPath: requestLog)
        }
        let app = Application(
            router: makeServerRouter(storage: store, authenticator: store, configuration: ServerConfiguration()),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            var configuration = LoadConfiguration(
                serverURLs: ["http://127.0.0.1:\(try #require(client.port))"], tokens: tokens)
            configuration.devices = Self.devices
            // Long enough for a first batch on a loaded machine (the suites run in parallel); counts, not times, are checked.
            configuration.duration = .seconds(3)
            configuration.fixesPerBatch = 20
            configuration.ackJournalPath = journal
            configuration.requestLogPath = requestLog
            configuration.progressInterval = nil
            configuration.startSpread = .zero
            let report = try await LoadRun(configuration: configuration).run()

            #expect(report.errors.isEmpty)
            #expect(report.batchesAcknowledged > 0)
            #expect(report.fixesAcknowledged == report.batchesAcknowledged * 20)
            #expect(report.fixesUnacknowledgedAtEnd == 0)
            // With no failure there is no resend, so no DUPLICATE: acknowledged equals stored.
            #expect(try await Self.storedFixCount(store) == report.fixesAcknowledged)
            let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == report.fixesAcknowledged)
            let fields = try #require(lines.first).split(separator: ",")
            #expect(fields.count == 4)
            #expect(fields.first?.hasPrefix("device-") == true)
            #expect(fields.last?.count == 64)
            // One request line per batch sent, each an applied ack, with a latency.
            let requests = try String(contentsOfFile: requestLog, encoding: .utf8).split(separator: "\n")
            #expect(requests.count == report.batchesSent)
            for request in requests {
                let fields = request.split(separator: ",", maxSplits: 3)
                #expect(fields.count == 4)
                #expect(Int64(fields[0]).map { $0 > 1_700_000_000_000 } == true)
                #expect(fields[1].hasPrefix("device-"))
                #expect(Double(fields[2]).map { $0 > 0 } == true)
                #expect(fields.last.map(String.init) == RequestLog.processed)
            }
        }
    }

    /// Tokens the server does not know: every attempt is a 401, counted and logged under its status, so that a
    /// soak can tell it from a 503.
    @Test func refusedCredentialsAreCountedAndLoggedAs401() async throws {
        let (store, tokens) = try await Self.makeStore()
        let requestLog = FileManager.default.temporaryDirectory.appendingPathComponent("requests-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: requestLog) }
        let app = Application(
            router: makeServerRouter(storage: store, authenticator: store, configuration: ServerConfiguration()),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            var configuration = LoadConfiguration(
                serverURLs: ["http://127.0.0.1:\(try #require(client.port))"],
                tokens: tokens.mapValues { _ in "not-a-token-the-server-issued" })
            configuration.devices = 2
            configuration.duration = .milliseconds(300)
            configuration.requestLogPath = requestLog
            configuration.progressInterval = nil
            configuration.startSpread = .zero
            let report = try await LoadRun(configuration: configuration).run()
            #expect(report.fixesAcknowledged == 0)
            let refused = report.errors.filter { $0.key.hasPrefix("http 401") }.values.reduce(0, +)
            #expect(refused >= 2)
            #expect(refused == report.errorCount)
            let requests = try String(contentsOfFile: requestLog, encoding: .utf8).split(separator: "\n")
            #expect(requests.count == report.batchesSent)
            #expect(requests.allSatisfy { $0.split(separator: ",", maxSplits: 3).last?.hasPrefix("http 401") == true })
        }
    }

    @Test func aServerThatIsNotThereCountsTransportErrorsAndAcksNothing() async throws {
        let (_, tokens) = try await Self.makeStore()
        // A port nothing listens on: bind one, then close it.
        let app = Application(
            router: Router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let port = try await app.test(.live) { client in try #require(client.port) }
        var configuration = LoadConfiguration(serverURLs: ["http://127.0.0.1:\(port)"], tokens: tokens)
        configuration.devices = 2
        configuration.duration = .milliseconds(300)
        configuration.progressInterval = nil
        configuration.startSpread = .zero
        let report = try await LoadRun(configuration: configuration).run()
        #expect(report.fixesAcknowledged == 0)
        #expect(report.errors["transport: connection refused", default: 0] >= 2)
        #expect(report.fixesUnacknowledgedAtEnd == 2 * configuration.fixesPerBatch)
    }

    @Test func aDeviceWithoutTokenIsRefusedBeforeTheRun() {
        var configuration = LoadConfiguration(serverURLs: ["http://127.0.0.1:1"], tokens: ["device-1": "t"])
        configuration.devices = 2
        #expect(throws: LoadConfigurationError.self) { try configuration.validate() }
        configuration.devices = 1
        #expect(throws: Never.self) { try configuration.validate() }
        configuration.serverURLs = ["127.0.0.1:8080"]
        #expect(throws: LoadConfigurationError.self) { try configuration.validate() }
    }

    @Test func percentilesAreNearestRank() throws {
        let summary = try #require(LatencySummary((1...100).map(Double.init).reversed()))
        #expect(summary.p50 == 50)
        #expect(summary.p90 == 90)
        #expect(summary.p99 == 99)
        #expect(summary.max == 100)
        #expect(summary.mean == 50.5)
        #expect(LatencySummary([]) == nil)
    }
}
