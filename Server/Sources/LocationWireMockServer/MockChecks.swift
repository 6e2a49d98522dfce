import LocationWire
import LocationWireHTTP
import LocationWireSession

/// One check of the report: a client-side rule of proto/HTTP.md or proto/README.md, named by the tags it enforces,
/// judged on the journal (and the client log), with the first requests that break it.
public struct MockCheck: Codable, Hashable, Sendable {
    public var name: String
    /// The rules it enforces, as the spec tags them (`§back-off`).
    public var tags: [String]
    /// `pass` or `fail`.
    public var verdict: String
    /// One sentence: what was judged and how it came out.
    public var summary: String
    /// How many requests (or fixes) break the rule; the first ``MockCheck/listLimit`` are in `offences`.
    public var offenceCount: Int
    public var offences: [Offence]

    /// The most offences a check lists.
    public static let listLimit = 10

    /// A request (or a fix) that breaks the rule.
    public struct Offence: Codable, Hashable, Sendable {
        /// The offending request's number in the journal; nil when no request is to blame (a fix never sent).
        public var request: Int?
        public var installId: String?
        public var detail: String

        public init(request: Int?, installId: String?, detail: String) {
            self.request = request
            self.installId = installId
            self.detail = detail
        }
    }

    public var passed: Bool { verdict == "pass" }

    public init(name: String, tags: [String], summary: String, offences: [Offence], passed: Bool? = nil) {
        self.name = name
        self.tags = tags
        self.verdict = (passed ?? offences.isEmpty) ? "pass" : "fail"
        self.summary = summary
        self.offenceCount = offences.count
        self.offences = Array(offences.prefix(Self.listLimit))
    }
}

/// The checks that judge a client's choices from the journal alone: when it sent, with what token, how large,
/// how encoded, with which bytes and fixes, after each answer. Each treats the journal per installation (or per
/// token, for the token rules), in the order the mock server read the requests.
enum JournalChecks {
    /// Clock slack between the mock server's answer time and the client's next request.
    static let slackMs: Int64 = 150
    /// The back-off of `§back-off`: 1 s after the first failure in a row, doubling, at most 5 minutes.
    static func backOffMs(failures: Int) -> Int64 {
        guard failures > 0 else { return 0 }
        return min(1000 << Int64(min(failures - 1, 20)), 300_000)
    }
    /// A device may cap a stated wait at a day (`§http-retry-after`).
    static let longestWaitMs: Int64 = 86_400_000

    /// The batch requests of each installation, in journal order.
    static func byInstallation(_ journal: [JournalEntry]) -> [(installId: String, entries: [JournalEntry])] {
        var order: [String] = []
        var groups: [String: [JournalEntry]] = [:]
        for entry in journal where entry.isBatch {
            guard let installId = entry.installId else { continue }
            if groups[installId] == nil { order.append(installId) }
            groups[installId, default: []].append(entry)
        }
        return order.map { ($0, groups[$0]!) }
    }

    /// The next batch request of the client that sent `journal[index]`: the same installation, or a request with
    /// the same token whose installation is unknown (refused before its body was read); by token alone when the
    /// first is of no known installation.
    static func nextBatch(after index: Int, in journal: [JournalEntry]) -> JournalEntry? {
        let entry = journal[index]
        return journal[(index + 1)...].first { candidate in
            guard candidate.isBatch else { return false }
            if let installId = entry.installId, candidate.installId == installId { return true }
            guard candidate.installId == nil || entry.installId == nil, let token = entry.tokenDigest else {
                return false
            }
            return candidate.tokenDigest == token
        }
    }

    // MARK: paced

    /// What an answer does to the wait before the next batch (`§back-off`, `§http-retry-after`).
    struct Pace {
        /// Failures in a row, as few as the client may count.
        var failures = 0

        /// Applies one answer; returns the wait it requires before the next batch and why.
        mutating func answer(_ entry: JournalEntry) -> (waitMs: Int64, why: String) {
            func failure(_ what: String, stated: Int64?) -> (Int64, String) {
                failures += 1
                if let stated { return (min(stated, JournalChecks.longestWaitMs), "\(what), stated wait \(stated) ms") }
                return (
                    JournalChecks.backOffMs(failures: failures),
                    "\(what), failure \(failures) in a row: back-off \(JournalChecks.backOffMs(failures: failures)) ms"
                )
            }
            func held(_ what: String) -> (Int64, String) {
                guard let stated = entry.ackRetryAfterMs else { return (0, "") }
                return (Int64(stated), "\(what) with retry_after_ms \(stated)")
            }
            // The mock server cannot know whether a client waiting for a slow answer gave up: whatever it did
            // is taken as right, and the count starts afresh.
            if entry.fault == "slow" {
                failures = 0
                return (0, "")
            }
            guard let status = entry.status else { return failure("no answer (\(entry.answer))", stated: nil) }
            if entry.answer == "cut-ack" { return failure("a 200 cut short", stated: nil) }
            if entry.answer == "stale-ack" {
                // Another batch's ack: no ack for this one, a failure; but a client that still remembers the
                // batch it names may apply it, and that may reset the count first (`§http-late-ack`).
                failures = 1
                let wait = min(Int64(entry.ackRetryAfterMs ?? 1000), 1000)
                return (wait, "another batch's ack, a failure: wait at least \(wait) ms")
            }
            switch status {
            case 200:
                switch entry.outcome {
                case "PROCESSED":
                    switch entry.deletes {
                    case true?:
                        failures = 0
                        return held("an ack that deletes")
                    case false?:
                        return failure(
                            "a PROCESSED ack that deletes nothing", stated: entry.ackRetryAfterMs.map(Int64.init))
                    case nil:
                        return held("an ack of a batch without items")
                    }
                case "HOLD": return failure("a HOLD", stated: entry.ackRetryAfterMs.map(Int64.init))
                case "TOO_LARGE": return held("TOO_LARGE")
                case nil:
                    // An older journal: an ack, taken as one that deletes.
                    failures = 0
                    return (0, "")
                default: return failure("an ack with an unknown outcome", stated: nil)
                }
            case 413:
                return (0, "")
            case 401, 403:
                // The client must stop with this token (`credentials`); whether it counts a failure for a later
                // token is not settled, so nothing is required here.
                return (0, "")
            case 408, 429, 503:
                let stated = entry.retryAfter.flatMap { RetryAfter.waitMs($0, nowMs: entry.answeredAt) }
                let what =
                    "a \(status)" + (entry.retryAfter.map { " with Retry-After '\($0)'" } ?? " without Retry-After")
                return failure(what, stated: stated)
            default:
                return failure("a \(status)", stated: nil)
            }
        }
    }

    static func paced(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var offences: [MockCheck.Offence] = []
        for (installId, entries) in byInstallation(journal) {
            var pace = Pace()
            var previous: (entry: JournalEntry, waitMs: Int64, why: String)?
            for entry in entries {
                if let previous, previous.waitMs > 0 {
                    let gap = entry.timeMs - previous.entry.answeredAt
                    if gap + slackMs < previous.waitMs {
                        offences.append(
                            .init(
                                request: entry.request, installId: installId,
                                detail: "sent \(gap) ms after the answer to request \(previous.entry.request) "
                                    + "(\(previous.why)); the wait is \(previous.waitMs) ms"))
                    }
                }
                let (waitMs, why) = pace.answer(entry)
                previous = (entry, waitMs, why)
            }
        }
        return offences
    }

    // MARK: credentials

    static func credentials(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var refused: [String: (request: Int, status: Int)] = [:]
        var offences: [MockCheck.Offence] = []
        for entry in journal {
            guard let token = entry.tokenDigest else { continue }
            if let refusal = refused[token] {
                offences.append(
                    .init(
                        request: entry.request, installId: entry.installId,
                        detail: "a request to /v1/\(entry.endpoint ?? "batches") with the token refused "
                            + "\(refusal.status) at request \(refusal.request)"))
            } else if entry.status == 401 || entry.status == 403 {
                refused[token] = (entry.request, entry.status ?? 0)
            }
        }
        return offences
    }

    // MARK: shrink

    /// Whether an answer refuses the batch as too large: a `413`, or a `TOO_LARGE` ack the client received.
    static func refusedAsTooLarge(_ entry: JournalEntry) -> Bool {
        entry.status == 413 || (entry.answer == "ack" && entry.outcome == "TOO_LARGE")
    }

    /// The fixes refused alone as too large, by installation, with the request that refused each: the client
    /// discards them (`§http-shrink`), and never sends them again.
    static func refusedAlone(_ journal: [JournalEntry]) -> [String: [UInt64: Int]] {
        var refused: [String: [UInt64: Int]] = [:]
        for entry in journal where entry.isBatch && refusedAsTooLarge(entry) {
            guard let installId = entry.installId, entry.fixes.count == 1, (entry.items ?? 1) == 1 else { continue }
            refused[installId, default: [:]][entry.fixes[0]] = refused[installId]?[entry.fixes[0]] ?? entry.request
        }
        return refused
    }

    static func shrink(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var offences: [MockCheck.Offence] = []
        for (installId, entries) in byInstallation(journal) {
            var refusedAlone: [UInt64: Int] = [:]
            for (index, entry) in entries.enumerated() {
                if let sequence = entry.fixes.first(where: { refusedAlone[$0] != nil }) {
                    offences.append(
                        .init(
                            request: entry.request, installId: installId,
                            detail: "fix \(sequence) sent again after request \(refusedAlone[sequence]!) refused "
                                + "it alone as too large"))
                }
                let tooLarge = refusedAsTooLarge(entry)
                guard tooLarge || entry.status == 408 else { continue }
                if tooLarge, entry.fixes.count == 1, (entry.items ?? 1) == 1, refusedAlone[entry.fixes[0]] == nil {
                    refusedAlone[entry.fixes[0]] = entry.request
                }
                guard let sent = entry.bodyBytes, index + 1 < entries.count else { continue }
                let next = entries[index + 1]
                // The limit §http-shrink gives, as the binding's queue computes it.
                let refusal: UploadQueue.SizeRefusal =
                    tooLarge ? .tooLarge(stated: entry.maxBatchBytes.map { UInt32(clamping: $0) }) : .timedOut
                let limit = Int(UploadQueue.shrunkLimit(sent: UInt32(clamping: sent), after: refusal))
                // A batch of one item cannot be smaller.
                guard let size = next.bodyBytes, size > limit, (next.items ?? next.fixes.count) > 1 else { continue }
                let what =
                    entry.status == 408
                    ? "a 408"
                    : entry.status == 413
                        ? "a 413" + (entry.maxBatchBytes.map { " stating \($0)" } ?? "")
                        : "TOO_LARGE" + (entry.maxBatchBytes.map { " stating \($0)" } ?? "")
                offences.append(
                    .init(
                        request: next.request, installId: installId,
                        detail: "\(size) bytes after \(what) to request \(entry.request)'s \(sent) bytes; at most "
                            + "\(limit)"))
            }
        }
        return offences
    }

    // MARK: encoding-after-415, new-bytes-after-400

    static func encodingAfter415(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var offences: [MockCheck.Offence] = []
        for (index, entry) in journal.enumerated() where entry.isBatch && entry.status == 415 {
            guard let next = nextBatch(after: index, in: journal), next.endpoint != nil else { continue }
            var wrong: [String] = []
            if let coding = next.contentEncoding, coding.trimmingWhitespace().lowercased() != "identity" {
                wrong.append("Content-Encoding '\(coding)'")
            }
            let type = next.contentType.flatMap(MediaType.init)
            let proto = type?.proto
            if type?.format == nil || (type?.protoCount ?? 0) > 1
                || (proto != nil && proto != LocationBatch.schema.fullName)
            {
                wrong.append("Content-Type '\(next.contentType ?? "none")'")
            }
            if !wrong.isEmpty {
                offences.append(
                    .init(
                        request: next.request, installId: next.installId,
                        detail: "\(wrong.joined(separator: " and ")) after the 415 to request \(entry.request)"))
            }
        }
        return offences
    }

    static func newBytesAfter400(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var offences: [MockCheck.Offence] = []
        for (index, entry) in journal.enumerated() where entry.isBatch && (entry.status == 400 || entry.status == 431) {
            guard let digest = entry.bodyDigest, let next = nextBatch(after: index, in: journal),
                next.bodyDigest == digest
            else { continue }
            offences.append(
                .init(
                    request: next.request, installId: next.installId,
                    detail: "the same bytes again after the \(entry.status ?? 0) to request \(entry.request)"))
        }
        return offences
    }

    // MARK: rejected-not-resent, policy-version, sequence-zero, regions-absent

    static func rejectedNotResent(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var offences: [MockCheck.Offence] = []
        for (installId, entries) in byInstallation(journal) {
            var rejected: [UInt64: Int] = [:]
            for entry in entries {
                if let sequence = entry.fixes.first(where: { rejected[$0] != nil }) {
                    offences.append(
                        .init(
                            request: entry.request, installId: installId,
                            detail: "fix \(sequence) sent again after request \(rejected[sequence]!) answered it "
                                + "REJECTED"))
                }
                // Only an ack the client received whole, and surely in time, tells it.
                guard entry.answer == "ack", entry.fault != "slow" else { continue }
                for sequence in entry.rejected ?? [] where rejected[sequence] == nil {
                    rejected[sequence] = entry.request
                }
            }
        }
        return offences
    }

    static func policyVersion(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var offences: [MockCheck.Offence] = []
        for (installId, entries) in byInstallation(journal) {
            var given: (version: UInt64, request: Int, answeredAt: Int64)?
            for entry in entries {
                if let given, entry.timeMs > given.answeredAt, let stated = entry.policyVersion, stated < given.version
                {
                    offences.append(
                        .init(
                            request: entry.request, installId: installId,
                            detail: "policy_version \(stated) after request \(given.request)'s ack gave policy "
                                + "version \(given.version)"))
                }
                guard entry.answer == "ack", entry.fault != "slow", let version = entry.policyVersionGiven,
                    version > (given?.version ?? 0)
                else { continue }
                given = (version, entry.request, entry.answeredAt)
            }
        }
        return offences
    }

    static func sequenceZero(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        journal.filter { $0.isBatch && $0.fixes.contains(0) }.map {
            .init(request: $0.request, installId: $0.installId, detail: "a fix numbered 0")
        }
    }

    static func regionsAbsent(_ journal: [JournalEntry]) -> [MockCheck.Offence] {
        var absent: [String: Int] = [:]
        var offences: [MockCheck.Offence] = []
        for entry in journal where entry.endpoint == "regions" {
            guard let token = entry.tokenDigest else { continue }
            if let request = absent[token] {
                offences.append(
                    .init(
                        request: entry.request, installId: nil,
                        detail: "asked for regions again after the 404 to request \(request)"))
            } else if entry.status == 404 {
                absent[token] = entry.request
            }
        }
        return offences
    }
}
