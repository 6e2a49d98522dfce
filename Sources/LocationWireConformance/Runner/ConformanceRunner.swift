import Foundation
import LocationWire
import LocationWireFiles

/// How one vector came out.
public enum VectorStatus: String, Codable, Sendable, CaseIterable {
    case pass
    case fail
    /// Failed, as the failure list says it will.
    case expectedFailure = "expected-failure"
    /// Listed as failing, but passed: the entry is stale.
    case unexpectedPass = "unexpected-pass"
    case crash
    case timeout
    /// The testee lacks a feature the vector needs (it said so in its hello).
    case unsupported

    /// Statuses that make a run fail.
    public var isUnexpected: Bool {
        switch self {
        case .fail, .unexpectedPass, .crash, .timeout: true
        case .pass, .expectedFailure, .unsupported: false
        }
    }
}

public struct VectorResult: Codable, Sendable {
    public let id: String
    public let family: String
    public let status: VectorStatus
    /// What went wrong (fail, crash, timeout, expected failure), or why it is unsupported.
    public let detail: String?
    /// The failure-list reason, for expected failures and unexpected passes.
    public let listedReason: String?
    /// What the testee did with the input, whatever the verdict: "accepted", "rejected", "skipped", "runtime-error",
    /// "crash", "timeout", or nil when the vector was not sent. The matrix uses it to show where implementations
    /// behave differently even when both behaviours are allowed.
    public let outcome: String?
}

/// The outcome of a run against one implementation; `--format json` writes it, `conformance matrix` reads it.
public struct RunReport: Codable, Sendable {
    public let implementation: String
    public let version: String
    public let features: [String]
    public let failureList: String
    public let results: [VectorResult]
    /// Failure-list entries that matched no vector.
    public let staleEntries: [String]
    public let testeeStarts: Int

    public func count(_ status: VectorStatus, family: String? = nil) -> Int {
        results.filter { $0.status == status && (family == nil || $0.family == family) }.count
    }

    public var families: [String] {
        var seen: [String] = []
        for result in results where !seen.contains(result.family) { seen.append(result.family) }
        return seen
    }

    public var passed: Bool {
        staleEntries.isEmpty && !results.contains { $0.status.isUnexpected }
    }
}

/// Runs vector files against a testee.
public struct ConformanceRunner {
    public var timeoutMilliseconds: Int
    /// Only vectors whose id equals or starts with one of these (at a `.` boundary); all when empty.
    public var filters: [String]

    public init(timeoutMilliseconds: Int = 10_000, filters: [String] = []) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.filters = filters
    }

    /// Loads every `*.json` vector file of a directory, in file name order.
    public static func loadVectors(from directory: URL) throws -> [VectorFile] {
        let names = try FileAccess.contentsOfDirectory(directory.path).filter { $0.hasSuffix(".json") }
        guard !names.isEmpty else {
            throw VectorFileError(message: "no vector files (*.json) in \(directory.path)")
        }
        return try names.map { name in try loadVectorFile(directory.appendingPathComponent(name)) }
    }

    /// Loads one vector file (`conformance/vectors/<family>.json`); an error that is not the file system's names
    /// the file.
    public static func loadVectorFile(_ url: URL) throws -> VectorFile {
        let bytes = try FileAccess.read(url.path)
        do {
            return try VectorFile.decode(Data(bytes))
        } catch {
            throw VectorFileError(message: "\(url.lastPathComponent): \(error)")
        }
    }

    func selected(_ vector: Vector) -> Bool {
        filters.isEmpty || filters.contains { vector.id == $0 || vector.id.hasPrefix($0 + ".") }
    }

    /// Runs a session or ledger vector: its status, what went wrong, and what the testee did ("ran",
    /// "skipped", ...).
    func runScript(
        _ vector: Vector, testee: TesteeProcess, features: Set<TesteeFeature>
    ) -> (VectorStatus, String?, String?) {
        do {
            switch vector.messageType {
            case RecordingRequest.schema.fullName: return runBehavior(RecordingRequest.self, vector, testee, features)
            case FenceRequest.schema.fullName: return runBehavior(FenceRequest.self, vector, testee, features)
            case PlanningRequest.schema.fullName: return runBehavior(PlanningRequest.self, vector, testee, features)
            case ArmingRequest.schema.fullName: return runBehavior(ArmingRequest.self, vector, testee, features)
            case HttpAnswerRequest.schema.fullName:
                return runBehavior(HttpAnswerRequest.self, vector, testee, features)
            default: break
            }
            if vector.messageType.hasSuffix(".LedgerRequest") {
                guard features.contains(.ledger) else { return (.unsupported, "no ledger", nil) }
                let request = try SessionEvaluation.ledgerRequest(of: vector)
                return verdict(testee.run(request, timeoutMilliseconds: timeoutMilliseconds), \.failure) {
                    SessionEvaluation.judge(vector, request, $0)
                }
            } else {
                guard features.contains(.session) else { return (.unsupported, "no session", nil) }
                let request = try SessionEvaluation.sessionRequest(of: vector)
                return verdict(testee.run(request, timeoutMilliseconds: timeoutMilliseconds), \.failure) {
                    SessionEvaluation.judge(vector, request, $0)
                }
            }
        } catch {
            return (.fail, "the vector's request does not parse: \(error)", nil)
        }
    }

    /// Runs a behaviour vector: the testee's whole response must equal the vector's.
    func runBehavior<Request: BehaviorRequest>(
        _ type: Request.Type, _ vector: Vector, _ testee: TesteeProcess, _ features: Set<TesteeFeature>
    ) -> (VectorStatus, String?, String?) {
        guard features.contains(Request.feature) else {
            return (.unsupported, "no \(Request.feature.name ?? "feature")", nil)
        }
        do {
            let request = try BehaviorEvaluation.request(Request.self, of: vector)
            let expected = try BehaviorEvaluation.expectedResponse(Request.self, of: vector)
            return verdict(testee.run(request, timeoutMilliseconds: timeoutMilliseconds), \.failure) {
                BehaviorEvaluation.judge(vector, expected: expected, actual: $0)
            }
        } catch {
            return (.fail, "the vector does not parse: \(error)", nil)
        }
    }

    /// A session's or ledger's status, what went wrong, and what the testee did, from its reply.
    private func verdict<Response>(
        _ reply: TesteeProcess.Reply<Response>, _ failure: KeyPath<Response, TesteeFailure?>,
        judge: (Response) -> String?
    ) -> (VectorStatus, String?, String?) {
        switch reply {
        case .crashed(let how):
            return (.crash, how, "crash")
        case .timedOut:
            return (.timeout, "no answer within \(timeoutMilliseconds) ms", "timeout")
        case .response(let response):
            let problem = judge(response)
            let outcome: String
            switch response[keyPath: failure] {
            case .skipped: outcome = "skipped"
            case .runtimeError: outcome = "runtime-error"
            case nil: outcome = "ran"
            }
            return (problem == nil ? .pass : .fail, problem, outcome)
        }
    }

    /// Runs every selected vector. `progress` is called after each vector with (done, total, result).
    public func run(
        _ files: [VectorFile], testee: TesteeProcess, failureList: FailureList,
        progress: (Int, Int, VectorResult) -> Void = { _, _, _ in }
    ) throws -> RunReport {
        let hello = try testee.start(timeoutMilliseconds: max(timeoutMilliseconds, 30_000))
        let features = Set(hello.features)
        // Request vectors of the http family are a server's to answer: locwire-server probe sends them.
        let work = files.flatMap { file in
            file.vectors.filter { selected($0) && $0.httpRequest == nil }.map { (file.family, $0) }
        }
        var results: [VectorResult] = []
        results.reserveCapacity(work.count)
        var matchedEntries: Set<Int> = []
        for (index, (family, vector)) in work.enumerated() {
            let evaluation = VectorEvaluation(vector: vector, features: features)
            var status: VectorStatus
            var detail: String?
            var outcome: String?
            if vector.request != nil {
                (status, detail, outcome) = runScript(vector, testee: testee, features: features)
            } else {
                switch evaluation.plan() {
                case .unsupported(let reason):
                    status = .unsupported
                    detail = reason
                case .send(let request):
                    switch testee.run(request, timeoutMilliseconds: timeoutMilliseconds) {
                    case .response(let response):
                        detail = evaluation.judge(response)
                        status = detail == nil ? .pass : .fail
                        switch response.result {
                        case .decoded: outcome = "accepted"
                        case .parseError: outcome = "rejected"
                        case .skipped: outcome = "skipped"
                        case .runtimeError, nil: outcome = "runtime-error"
                        }
                    case .crashed(let how):
                        status = .crash
                        detail = how
                        outcome = "crash"
                    case .timedOut:
                        status = .timeout
                        detail = "no answer within \(timeoutMilliseconds) ms"
                        outcome = "timeout"
                    }
                }
            }
            var listedReason: String?
            if let entryIndex = failureList.entries.firstIndex(where: { $0.matches(vector.id) }) {
                matchedEntries.insert(entryIndex)
                listedReason = failureList.entries[entryIndex].reason
                switch status {
                case .pass: status = .unexpectedPass
                case .fail, .crash, .timeout: status = .expectedFailure
                case .unsupported, .expectedFailure, .unexpectedPass: break
                }
            }
            let result = VectorResult(
                id: vector.id, family: family, status: status, detail: detail, listedReason: listedReason,
                outcome: outcome)
            results.append(result)
            progress(index + 1, work.count, result)
        }
        testee.stop()
        // With a filter, entries outside it cannot be judged stale.
        let stale =
            filters.isEmpty
            ? failureList.entries.indices.filter { !matchedEntries.contains($0) }.map {
                "\(failureList.source):\(failureList.entries[$0].line): \(failureList.entries[$0].pattern) matches no vector"
            }
            : []
        return RunReport(
            implementation: hello.implementation, version: hello.version,
            features: hello.features.map { $0.name ?? String($0.rawValue) }, failureList: failureList.source,
            results: results, staleEntries: stale, testeeStarts: testee.starts)
    }
}
