import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireHTTPClient
import LocationWireProbe
@testable import LocationWireServer
import LocationWireSession
import Testing

/// The probe against the reference server with one settled choice made the other way (``PlantedMutant``): each
/// mutant must fail at least one check, and every check it fails must name the rule it breaks. So a server that
/// chose otherwise on a settled point fails a check named for that point, and no other. The unplanted server,
/// set up the same way, passes every check. The slow checks (a stalled body, bursts for 429 and 503) are left
/// out: ProbeTests runs them against the reference server, and no mutant touches what they judge.
@Suite(.serialized) struct MutantTests {
    static let slowChecks: Set<String> = [
        "status.408.slow-client", "status.partial-body", "status.503.overload", "status.429.rate-limit",
    ]

    /// The reference server as probe-reference.sh starts it (a catalogue, a policy stating retention, an operator
    /// token), with `mutant`, probed with the options that make every fast check applicable.
    static func probe(_ mutant: PlantedMutant?) async throws -> ProbeReport {
        var policy = TrackingPolicy()
        policy.policyVersion = 3
        policy.retentionDays = 30
        var configuration = ServerConfiguration(bodyTimeout: .seconds(1))
        // A server that answers not-offered must leave an endpoint out to show how it answers.
        if mutant != .notOfferedAsNotFound {
            configuration.planner = RegionPlanner(catalogue: try RegionCatalogueFixture.regions())
        }
        configuration.trackingPolicy = policy
        configuration.ledgerPolicy.trackingPolicy = policy
        configuration.plantedMutant = mutant
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: ProbeTests.deviceId, nowMs: 0)
        let operatorToken = try await store.issueOperatorToken(nowMs: 0)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = try makeServerApplication(
            storage: store, authenticator: store, configuration: configuration, port: 0
        ) { port in continuation.yield(port) }
        return try await ProbeTests.withRunning(application, ports: ports) { url in
            var options = try ProbeTests.options(url, token: token)
            options.only = ServerProbe.catalogue(options.vectors).checks.map(\.name).filter { !slowChecks.contains($0) }
            options.allowsErasure = true
            options.operatorToken = operatorToken
            options.expectedRetentionDays = 30
            options.regionPosition = (453_000_000, 146_000_000)
            return try await ServerProbe(options: options).run()
        }
    }

    @Test func theUnplantedServerPassesEveryFastCheck() async throws {
        let report = try await Self.probe(nil)
        #expect(report.count(.failed) == 0, "\(ProbeTests.failures(report))")
        let notApplicable = report.results.filter { $0.outcome == .notApplicable }.map(\.name)
        #expect(notApplicable.isEmpty, "checks that did not apply: \(notApplicable)")
    }

    @Test(arguments: PlantedMutant.allCases)
    func eachMutantFailsOnlyChecksNamingItsRule(_ mutant: PlantedMutant) async throws {
        let report = try await Self.probe(mutant)
        let failed = report.results.filter { $0.outcome == .failed }
        #expect(!failed.isEmpty, "\(mutant) (\(mutant.rule)) passed every check")
        let strays = failed.filter { mutant.rules.isDisjoint(with: $0.rules) }
        let described = strays.map { "\($0.name) \($0.rules): \($0.message)" }.joined(separator: "\n")
        #expect(strays.isEmpty, "\(mutant) breaks \(mutant.rules) but also fails checks naming none:\n\(described)")
    }
}
