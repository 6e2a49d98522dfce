import Foundation

/// How one check of `locwire-server probe` came out.
public enum ProbeOutcome: String, Sendable, Codable, CaseIterable {
    /// The server did what the binding says.
    case passed
    /// The server did something else; the message says what was expected and what came back.
    case failed
    /// The check does not apply to this server: an optional endpoint it does not offer, a status it never sent.
    case notApplicable = "not-applicable"
}

/// One check's result: a stable dotted name (`status.401.no-token`, `vectors.ledger.fix-key.partly-new`), the
/// outcome, and a message that says what was expected and what came back.
public struct ProbeCheckResult: Sendable, Codable, Equatable {
    public var name: String
    /// The tags of the rules the check judges.
    public var rules: [String]
    public var outcome: ProbeOutcome
    public var message: String
    /// Wall-clock time the check took, seconds.
    public var durationSeconds: Double

    public init(
        name: String, rules: [String] = [], outcome: ProbeOutcome, message: String, durationSeconds: Double
    ) {
        self.name = name
        self.rules = rules
        self.outcome = outcome
        self.message = message
        self.durationSeconds = durationSeconds
    }
}

/// What a probe run found: every check's result, in the order run, and notes about the run (how many vectors
/// were replayed, which optional endpoints the server offers).
public struct ProbeReport: Sendable, Codable, Equatable {
    /// The base URL probed.
    public var server: String
    public var deviceId: String
    public var results: [ProbeCheckResult]
    public var notes: [String]
    /// Wall-clock time of the whole run, seconds.
    public var durationSeconds: Double

    public init(
        server: String, deviceId: String, results: [ProbeCheckResult], notes: [String], durationSeconds: Double
    ) {
        self.server = server
        self.deviceId = deviceId
        self.results = results
        self.notes = notes
        self.durationSeconds = durationSeconds
    }

    public func count(_ outcome: ProbeOutcome) -> Int { results.filter { $0.outcome == outcome }.count }

    /// `37 checks: 35 passed, 0 failed, 2 not applicable`.
    public var summary: String {
        "\(results.count) checks: \(count(.passed)) passed, \(count(.failed)) failed, "
            + "\(count(.notApplicable)) not applicable"
    }

    /// How the checks of one rule came out.
    public struct RuleTally: Sendable, Codable, Equatable {
        /// The rule's tag, e.g. `§http-shrink`.
        public var rule: String
        public var checks: Int
        public var passed: Int
        public var failed: Int
        public var notApplicable: Int
        /// The names of the checks of this rule that failed.
        public var failedChecks: [String]
    }

    /// Every rule a check judged, sorted by tag, with how its checks came out: what a server was held to, rule by
    /// rule, rather than check by check.
    public var byRule: [RuleTally] {
        var tallies: [String: RuleTally] = [:]
        for result in results {
            for rule in Set(result.rules) {
                var tally =
                    tallies[rule]
                    ?? RuleTally(rule: rule, checks: 0, passed: 0, failed: 0, notApplicable: 0, failedChecks: [])
                tally.checks += 1
                switch result.outcome {
                case .passed: tally.passed += 1
                case .failed:
                    tally.failed += 1
                    tally.failedChecks.append(result.name)
                case .notApplicable: tally.notApplicable += 1
                }
                tallies[rule] = tally
            }
        }
        return tallies.values.sorted { $0.rule < $1.rule }
    }

    /// 0 when nothing failed (not-applicable is allowed), 1 when anything failed.
    public var exitStatus: Int32 { count(.failed) == 0 ? 0 : 1 }
}
