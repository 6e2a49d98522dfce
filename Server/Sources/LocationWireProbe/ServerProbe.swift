import Foundation
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient

/// `locwire-server probe`: checks a running server against proto/HTTP.md and proto/README.md over HTTP, as a
/// device would meet it: de-duplication and acks (the ledger vectors replayed, the issue's scenarios), every
/// status code and error body of the binding, what the read-back says was stored, and the optional endpoints.
///
/// Every check works in installations of its own: `install_id` is a fresh random value per check per run, so
/// runs against the same database never collide, and a check's read-back sees only what it sent.
public struct ServerProbe: Sendable {
    public struct Options: Sendable {
        /// The server's base URL, e.g. `http://127.0.0.1:8080`.
        public var server: String
        /// A bearer token of ``deviceId``.
        public var token: String
        /// The device the token belongs to: every batch names it.
        public var deviceId: String
        /// The committed conformance vectors whose ledger, session and http cases the probe replays.
        public var vectors: ProbeVectors
        /// Run only the checks whose name is one of these or starts with one of these and a dot (`status`,
        /// `status.401`, `vectors.ledger.fix-key.partly-new`); empty runs every check.
        public var only: [String]
        /// Statuses (429, 503) whose absence fails their check instead of making it not-applicable.
        public var requiredStatuses: Set<Int>
        /// How long the slow-client check waits for the server to give up on a stalled body, seconds; longer
        /// than the server's body time-out (the reference server's is 30 s by default).
        public var stallSeconds: Double
        /// Requests in a burst that tries to provoke 429 or 503.
        public var burstRequests: Int
        /// The size of the oversized batch, bytes: above any limit the server should have.
        public var oversizedBytes: Int
        /// What each ordinary request may take, seconds.
        public var requestTimeoutSeconds: Double
        /// Whether the erasure check may run: it erases every stored item of ``deviceId``, not only the probe's.
        public var allowsErasure: Bool
        /// An operator token the server issued, for the checks of `§http-operator-token`; nil: not applicable.
        public var operatorToken: String?
        /// The `retention_days` the server is set up to state (`§http-retention-stated`); nil: not checked.
        public var expectedRetentionDays: UInt32?
        /// Where to ask for regions, latitude and longitude in 1e-7 degrees: a place the server's catalogue
        /// covers; nil: the probe's own fixes' place.
        public var regionPosition: (Int32, Int32)?
        /// Where every exchange with the server is recorded (`--record`); nil records nothing.
        public var recorder: ExchangeRecorder?
        /// Called with a line of progress (a check started, a check failed); the command line writes them to
        /// standard error.
        public var progress: @Sendable (String) -> Void

        public init(
            server: String, token: String, deviceId: String, vectors: ProbeVectors, only: [String] = [],
            requiredStatuses: Set<Int> = [],
            stallSeconds: Double = 40, burstRequests: Int = 64, oversizedBytes: Int = 4 << 20 + 1,
            requestTimeoutSeconds: Double = 30, allowsErasure: Bool = false, operatorToken: String? = nil,
            expectedRetentionDays: UInt32? = nil, regionPosition: (Int32, Int32)? = nil,
            recorder: ExchangeRecorder? = nil,
            progress: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.regionPosition = regionPosition
            self.operatorToken = operatorToken
            self.expectedRetentionDays = expectedRetentionDays
            self.server = server
            self.token = token
            self.deviceId = deviceId
            self.vectors = vectors
            self.only = only
            self.requiredStatuses = requiredStatuses
            self.stallSeconds = stallSeconds
            self.burstRequests = burstRequests
            self.oversizedBytes = oversizedBytes
            self.requestTimeoutSeconds = requestTimeoutSeconds
            self.allowsErasure = allowsErasure
            self.recorder = recorder
            self.progress = progress
        }
    }

    /// Why a probe could not run at all: no HTTP answer, a token the server refuses, an `--only` that selects
    /// nothing (exit status 2 on the command line).
    public struct CannotRun: Error, CustomStringConvertible {
        public var description: String
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Every check's name, in the order they run (the replayed `vectors` among them), with the notes on how they
    /// were chosen.
    public static func catalogue(_ vectors: ProbeVectors) -> (checks: [ProbeCheck], notes: [String]) {
        let ledger = VectorScenarios.ledgerChecks(vectors.ledger)
        let session = VectorScenarios.sessionChecks(vectors.session)
        let http = HTTPVectorScenarios.checks(vectors.http)
        let checks =
            [ProbeCheck.readBackOffered] + ledger.checks + session.checks + http.checks + BindingScenarios.checks
            + BatchScenarios.checks
            + StatusScenarios.checks + LoadScenarios.checks + OptionalEndpointScenarios.checks
            // Last: it erases the device's data, which the read-back of earlier checks looks at.
            + [OptionalEndpointScenarios.erasure]
        return (checks, [ledger.note, session.note, http.note])
    }

    /// Whether `name` is selected by `only` (empty selects everything).
    static func isSelected(_ name: String, only: [String]) -> Bool {
        only.isEmpty || only.contains { name == $0 || name.hasPrefix($0 + ".") }
    }

    /// Runs the selected checks one after another and reports them.
    ///
    /// - Throws: ``CannotRun`` when the server does not answer at all (no HTTP answer to a first request), or
    ///   refuses the token.
    public func run() async throws -> ProbeReport {
        let started = ContinuousClock.now
        let client = BindingClient(baseURL: options.server, connectionsPerHost: max(8, options.burstRequests))
        do {
            let report = try await run(client: client, started: started)
            try? await client.shutdown()
            return report
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    func run(client: BindingClient, started: ContinuousClock.Instant) async throws -> ProbeReport {
        let context: ProbeContext
        do {
            context = try await ProbeContext.connect(client: client, options: options)
        } catch let cannotRun as CannotRun {
            throw cannotRun
        } catch {
            throw CannotRun(description: "\(options.server) does not answer: \(error)")
        }
        let (all, notes) = Self.catalogue(options.vectors)
        let selected = all.filter { Self.isSelected($0.name, only: options.only) }
        guard !selected.isEmpty else {
            throw CannotRun(description: "--only \(options.only.joined(separator: " ")) selects no check")
        }
        var results: [ProbeCheckResult] = []
        for (index, check) in selected.enumerated() {
            options.progress("[\(index + 1)/\(selected.count)] \(check.name)")
            let checkStarted = ContinuousClock.now
            let verdict: Verdict
            do {
                verdict = try await ProbeCheckScope.$checkName.withValue(check.name) { try await check.run(context) }
            } catch {
                verdict = .failed("the check stopped: \(error)")
            }
            let seconds = Self.seconds(ContinuousClock.now - checkStarted)
            if verdict.outcome == .failed { options.progress("FAIL \(check.name): \(verdict.message)") }
            results.append(
                ProbeCheckResult(
                    name: check.name, rules: check.rules, outcome: verdict.outcome, message: verdict.message,
                    durationSeconds: seconds))
        }
        var allNotes = notes
        allNotes.append(
            context.readBackOffered
                ? "the server offers the read-back: what was stored is checked"
                : "the server offers no read-back (404): what was stored is not checked")
        return ProbeReport(
            server: options.server, deviceId: options.deviceId, results: results, notes: allNotes,
            durationSeconds: Self.seconds(ContinuousClock.now - started))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// One named check: what it sends and how it judges the answers.
public struct ProbeCheck: Sendable {
    public let name: String
    /// The tags of the rules the check judges (`§http-size`, `§fix-key`): proto/HTTP.md's and proto/README.md's.
    public let rules: [String]
    let run: @Sendable (ProbeContext) async throws -> Verdict

    init(
        _ name: String, rules: [String], _ run: @escaping @Sendable (ProbeContext) async throws -> Verdict
    ) {
        self.name = name
        self.rules = rules
        self.run = run
    }

    /// Whether the server offers `GET /v1/devices/{id}/fixes`; the other checks use it when it does.
    static let readBackOffered = ProbeCheck("readback.offered", rules: ["§http-read-back"]) { context in
        context.readBackOffered
            ? .passed("GET \(Binding.fixesPath(deviceId: context.deviceId)) answers 200: stored fixes are checked")
            : .notApplicable("the read-back answers 404: the server does not offer it (optional in the binding)")
    }
}

/// A check's outcome and its message.
struct Verdict: Sendable {
    var outcome: ProbeOutcome
    var message: String

    static func passed(_ message: String) -> Verdict { Verdict(outcome: .passed, message: message) }
    static func failed(_ message: String) -> Verdict { Verdict(outcome: .failed, message: message) }
    static func notApplicable(_ message: String) -> Verdict { Verdict(outcome: .notApplicable, message: message) }

    /// Failed with the problems, one a line, or passed with `passed`.
    static func judging(_ problems: [String], passed: String) -> Verdict {
        problems.isEmpty ? .passed(passed) : .failed(problems.joined(separator: "\n"))
    }
}
