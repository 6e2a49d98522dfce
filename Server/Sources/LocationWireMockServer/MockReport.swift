import Foundation
import LocationWireFiles

/// An input the report cannot read; the command line exits 2 with it.
public enum MockReportError: Error, CustomStringConvertible {
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let message): message
        }
    }
}

/// One fix as the client recorded it: a line of the client log (`--client-log FILE`, JSON lines).
///
/// ```json
/// {"installId": "8143", "sequence": 1, "timeMs": 1767225500000, "latitudeE7": 525200000, "longitudeE7": 134050000}
/// ```
///
/// `installId` is the installation's id as a decimal string or a number; `sequence` the number the client gave
/// the fix when it recorded it; `timeMs`, `latitudeE7` and `longitudeE7` its content (the latter two may be null
/// or absent for a fix without a position). Other members are ignored. The client writes a line once the fix is
/// durable, before it ever sends it, and never rewrites the line. ``ClientLog`` reads the two other kinds of line.
public struct ClientLogEntry: Decodable, Hashable, Sendable {
    public var installId: String
    public var sequence: UInt64
    public var timeMs: Int64
    public var latitudeE7: Int32?
    public var longitudeE7: Int32?

    public init(installId: String, sequence: UInt64, timeMs: Int64, latitudeE7: Int32?, longitudeE7: Int32?) {
        self.installId = installId
        self.sequence = sequence
        self.timeMs = timeMs
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    enum CodingKeys: String, CodingKey {
        case installId, sequence, timeMs, latitudeE7, longitudeE7
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        installId = try Self.installId(in: container, forKey: .installId)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        timeMs = try container.decode(Int64.self, forKey: .timeMs)
        latitudeE7 = try container.decodeIfPresent(Int32.self, forKey: .latitudeE7)
        longitudeE7 = try container.decodeIfPresent(Int32.self, forKey: .longitudeE7)
    }

    /// An installation id written as a decimal string or a number, as a decimal string.
    static func installId<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> String {
        if let number = try? container.decode(UInt64.self, forKey: key) { return String(number) }
        let text = try container.decode(String.self, forKey: key)
        guard let number = UInt64(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "not a decimal 64-bit id")
        }
        return String(number)
    }

    /// Reads the fixes of a client log (its `discarded` and `pending` lines left out).
    public static func read(path: String) throws -> [ClientLogEntry] {
        try ClientLog.read(path: path).fixes
    }
}

/// A client log: the fixes the client recorded, and two more kinds of line.
///
/// ```json
/// {"installId": "8143", "discarded": 17}
/// {"installId": "8143", "pending": [18, 19, 20]}
/// ```
///
/// `discarded`: the client discarded that fix, which it may only do with a fix refused alone as too large
/// (`§http-shrink`); `pending`: at its exit, the fixes it still held. A later `pending` line of an installation
/// replaces an earlier one (a client started again goes on from its queue).
public struct ClientLog: Hashable, Sendable {
    public var fixes: [ClientLogEntry]
    /// The fixes the client discarded, by installation.
    public var discarded: [String: [UInt64]]
    /// What each installation held at its last exit.
    public var pending: [String: [UInt64]]

    public init(
        fixes: [ClientLogEntry] = [], discarded: [String: [UInt64]] = [:], pending: [String: [UInt64]] = [:]
    ) {
        self.fixes = fixes
        self.discarded = discarded
        self.pending = pending
    }

    /// The members that tell a line's kind.
    private struct Kind: Decodable {
        var installId: String
        var discarded: UInt64?
        var pending: [UInt64]?

        enum CodingKeys: String, CodingKey { case installId, discarded, pending }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            installId = try ClientLogEntry.installId(in: container, forKey: .installId)
            discarded = try container.decodeIfPresent(UInt64.self, forKey: .discarded)
            pending = try container.decodeIfPresent([UInt64].self, forKey: .pending)
        }
    }

    /// Reads a client log: every non-empty line must be a fix, a `discarded` or a `pending` line.
    public static func read(path: String) throws -> ClientLog {
        let text: String
        do {
            text = String(decoding: try FileAccess.read(path), as: UTF8.self)
        } catch {
            throw MockReportError.unreadable("the client log: \(error)")
        }
        var log = ClientLog()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let data = Data(line.utf8)
            do {
                if let kind = try? JSONDecoder().decode(Kind.self, from: data),
                    kind.discarded != nil || kind.pending != nil
                {
                    if let sequence = kind.discarded { log.discarded[kind.installId, default: []].append(sequence) }
                    if let pending = kind.pending { log.pending[kind.installId] = pending }
                } else {
                    log.fixes.append(try JSONDecoder().decode(ClientLogEntry.self, from: data))
                }
            } catch {
                throw MockReportError.unreadable("\(path) line \(index + 1): not a client log line (\(error))")
            }
        }
        return log
    }
}

/// What the mock server stored, held against what the client recorded, and the checks of the client's choices.
///
/// A recorded fix is found in the store by its installation and content (`timeMs`, `latitudeE7`, `longitudeE7`),
/// not by its sequence number, so that a client that renumbers a fix on resend is caught storing it twice rather
/// than passing:
///
/// - **lost**: recorded fixes stored under no key, except those the client still held at its exit (**pending**,
///   `§gap-report`), those the server refused for good (**rejected**), and those the client discarded after the
///   server refused each alone as too large (**discarded**, `§http-shrink`); a fix discarded without such a
///   refusal is lost;
/// - **doubled**: stored copies beyond one per recorded fix (the same fix under two keys);
/// - **unknown**: stored fixes whose content the client never recorded (a key reused for another fix, a fix
///   recorded just before a kill whose log line was not written, or a log that is not this run's);
/// - **renumbered**: recorded fixes stored once, under another sequence number than recorded (not a loss, but
///   a client that breaks `§sequence-consecutive`'s promise that a number names one fix).
///
/// Recorded fixes with the same content (the OS handing out one fix twice) are matched as a multiset: first by
/// equal sequence numbers, then in order. The report is clean when every check of ``checks`` passes.
public struct MockReport: Codable, Hashable, Sendable {
    public var clean: Bool
    public var requests: Int
    /// Requests by fault name (`none` for none).
    public var faults: [String: Int]
    public var recordedFixes: Int
    public var storedFixes: Int
    public var lost: Int
    public var doubled: Int
    public var unknown: Int
    public var renumbered: Int
    /// Fixes the client held at its last exit (its `pending` lines); not lost.
    public var pending: Int
    /// Recorded fixes the server refused for good (`REJECTED`), never stored; not lost.
    public var rejected: Int
    /// Recorded fixes the client discarded after the server refused each alone as too large; not lost.
    public var discarded: Int
    /// `RECORD_FIX` commands the mock server gave (`commands`), and the fixes it stored with reason
    /// `SERVER_REQUEST`: more of those than commands means a command ran twice (`§commands`).
    public var recordFixCommands: Int
    public var serverRequestedFixes: Int
    /// The recorded fixes lost, by installation and sequence.
    public var lostFixes: [ReportedFix]
    /// The recorded fixes stored more than once, each with the sequence numbers it was stored under.
    public var doubledFixes: [ReportedFix]
    /// The stored fixes that match no recorded fix.
    public var unknownFixes: [ReportedFix]
    /// Every check, passed or not, in a fixed order.
    public var checks: [MockCheck]

    /// A fix named in the report.
    public struct ReportedFix: Codable, Hashable, Sendable {
        public var installId: String
        /// The sequence number it was recorded under (stored under, for an unknown fix).
        public var sequence: UInt64
        public var timeMs: Int64
        public var latitudeE7: Int32?
        public var longitudeE7: Int32?
        /// For a doubled fix: every sequence number it was stored under.
        public var storedAs: [UInt64]?
    }

    /// What the report compares: a fix's installation and content.
    struct Content: Hashable {
        var installId: String
        var timeMs: Int64
        var latitudeE7: Int32?
        var longitudeE7: Int32?
    }

    /// The tags each check enforces.
    public static let checkTags: [(name: String, tags: [String])] = [
        ("lost", ["§http-only-200-deletes", "§http-late-ack", "§http-whole-body"]),
        ("doubled", ["§http-only-200-deletes", "§http-late-ack", "§http-whole-body", "§sequence-consecutive"]),
        ("drained", []),
        (
            "paced",
            [
                "§back-off", "§http-retry-after", "§wait-clock", "§http-device-answers", "§http-late-ack",
                "§http-whole-body",
            ]
        ),
        ("credentials", ["§http-credentials"]),
        ("shrink", ["§http-shrink", "§http-shrink-alone", "§http-size"]),
        ("encoding-after-415", ["§http-content-coding", "§http-device-answers"]),
        ("new-bytes-after-400", ["§http-device-answers"]),
        ("rejected-not-resent", ["§reject-reason-unknown", "§ack-table"]),
        ("commands", ["§commands", "§command-once"]),
        ("policy-version", ["§policy-in-acks"]),
        ("sequence-zero", ["§sequence-zero"]),
        ("regions-absent", ["§http-regions-absent"]),
    ]

    static func tags(of name: String) -> [String] { checkTags.first { $0.name == name }?.tags ?? [] }

    /// The report of a journal and the fixes of a client log (no `discarded` or `pending` lines).
    public init(journal: [JournalEntry], clientLog: [ClientLogEntry], requireDrained: Bool = false) {
        self.init(journal: journal, clientLog: ClientLog(fixes: clientLog), requireDrained: requireDrained)
    }

    /// The report of a journal and a client log; with `requireDrained`, fixes the client still held at its exit
    /// fail the check `drained`.
    public init(journal: [JournalEntry], clientLog log: ClientLog, requireDrained: Bool = false) {
        let clientLog = log.fixes
        requests = journal.count
        faults = journal.reduce(into: [:]) { counts, entry in counts[entry.fault, default: 0] += 1 }
        recordedFixes = clientLog.count
        var recorded: [Content: [UInt64]] = [:]
        for entry in clientLog {
            let content = Content(
                installId: entry.installId, timeMs: entry.timeMs, latitudeE7: entry.latitudeE7,
                longitudeE7: entry.longitudeE7)
            recorded[content, default: []].append(entry.sequence)
        }
        var stored: [Content: [UInt64]] = [:]
        var storedCount = 0
        var refused: [String: Set<UInt64>] = [:]
        var lastCarried: [String: [UInt64: Int]] = [:]
        for entry in journal {
            let installId = entry.installId.flatMap(UInt64.init).map { String($0) } ?? entry.installId ?? ""
            for fix in entry.stored {
                let content = Content(
                    installId: installId, timeMs: fix.timeMs, latitudeE7: fix.latitudeE7,
                    longitudeE7: fix.longitudeE7)
                stored[content, default: []].append(fix.sequence)
                storedCount += 1
            }
            refused[installId, default: []].formUnion(entry.rejected ?? [])
            for sequence in entry.fixes where entry.isBatch {
                lastCarried[installId, default: [:]][sequence] = entry.request
            }
        }
        storedFixes = storedCount
        recordFixCommands = journal.reduce(0) { $0 + ($1.commands ?? []).filter { $0.kind == "RECORD_FIX" }.count }
        serverRequestedFixes = journal.reduce(0) { $0 + $1.stored.filter { $0.serverRequested == true }.count }
        let refusedAlone = JournalChecks.refusedAlone(journal)
        lostFixes = []
        doubledFixes = []
        unknownFixes = []
        renumbered = 0
        doubled = 0
        rejected = 0
        discarded = 0
        var pendingNotStored = 0
        var lostOffences: [MockCheck.Offence] = []
        for (content, recordedSequences) in recorded {
            var unmatchedRecorded = recordedSequences.sorted()
            var unmatchedStored = (stored[content] ?? []).sorted()
            let allStored = unmatchedStored
            for sequence in unmatchedRecorded {
                if let index = unmatchedStored.firstIndex(of: sequence) {
                    unmatchedStored.remove(at: index)
                    unmatchedRecorded.remove(at: unmatchedRecorded.firstIndex(of: sequence)!)
                }
            }
            let paired = min(unmatchedRecorded.count, unmatchedStored.count)
            renumbered += paired
            let installId = content.installId
            for sequence in unmatchedRecorded.dropFirst(paired) {
                if log.pending[installId]?.contains(sequence) == true {
                    pendingNotStored += 1
                } else if refused[installId]?.contains(sequence) == true {
                    rejected += 1
                } else if log.discarded[installId]?.contains(sequence) == true,
                    refusedAlone[installId]?[sequence] != nil
                {
                    discarded += 1
                } else {
                    lostFixes.append(ReportedFix(content, sequence: sequence))
                    let why =
                        log.discarded[installId]?.contains(sequence) == true
                        ? "discarded by the client, but never refused alone as too large" : "never stored"
                    lostOffences.append(
                        .init(
                            request: lastCarried[installId]?[sequence], installId: installId,
                            detail: "fix \(sequence) (time \(content.timeMs)) \(why)"
                                + (lastCarried[installId]?[sequence] == nil ? ", never sent" : "; last sent")))
                }
            }
            let extra = allStored.count - recordedSequences.count
            if extra > 0 {
                doubled += extra
                for sequence in recordedSequences.sorted() {
                    var fix = ReportedFix(content, sequence: sequence)
                    fix.storedAs = allStored
                    doubledFixes.append(fix)
                }
            }
        }
        for (content, sequences) in stored where recorded[content] == nil {
            for sequence in sequences { unknownFixes.append(ReportedFix(content, sequence: sequence)) }
        }
        let order: (ReportedFix, ReportedFix) -> Bool = { ($0.installId, $0.sequence) < ($1.installId, $1.sequence) }
        lostFixes.sort(by: order)
        doubledFixes.sort(by: order)
        unknownFixes.sort(by: order)
        lostOffences.sort { ($0.installId ?? "", $0.detail) < ($1.installId ?? "", $1.detail) }
        lost = lostFixes.count
        unknown = unknownFixes.count
        pending = log.pending.values.reduce(0) { $0 + $1.count }

        func check(_ name: String, _ summary: String, _ offences: [MockCheck.Offence], passed: Bool? = nil) -> MockCheck
        {
            MockCheck(name: name, tags: Self.tags(of: name), summary: summary, offences: offences, passed: passed)
        }
        func judged(_ offences: [MockCheck.Offence], _ what: String) -> String {
            offences.isEmpty ? "no \(what)" : "\(offences.count) \(what)"
        }
        let doubledOffences = doubledFixes.map { fix in
            MockCheck.Offence(
                request: nil, installId: fix.installId,
                detail: "fix \(fix.sequence) stored as \((fix.storedAs ?? []).map(String.init).joined(separator: ", "))"
            )
        }
        let commandOffences =
            serverRequestedFixes > recordFixCommands
            ? [
                MockCheck.Offence(
                    request: nil, installId: nil,
                    detail:
                        "\(serverRequestedFixes) fixes stored as SERVER_REQUEST, \(recordFixCommands) RECORD_FIX given: "
                        + "a command ran more than once")
            ] : []
        let pendingOffences = log.pending.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map {
            MockCheck.Offence(
                request: nil, installId: $0.key, detail: "pending \($0.value.count) fixes from \($0.value.min() ?? 0)")
        }
        let paced = JournalChecks.paced(journal)
        let credentials = JournalChecks.credentials(journal)
        let shrink = JournalChecks.shrink(journal)
        let encoding = JournalChecks.encodingAfter415(journal)
        let newBytes = JournalChecks.newBytesAfter400(journal)
        let rejectedResent = JournalChecks.rejectedNotResent(journal)
        let policyVersion = JournalChecks.policyVersion(journal)
        let sequenceZero = JournalChecks.sequenceZero(journal)
        let regionsAbsent = JournalChecks.regionsAbsent(journal)
        let drained = "\(pending) fixes held by the client at its exit"
        checks = [
            check(
                "lost",
                "\(lost) lost (\(pendingNotStored) pending, \(rejected) rejected, \(discarded) discarded after a "
                    + "refusal alone as too large: none of them lost)", lostOffences),
            check("doubled", "\(doubled) extra stored copies", doubledOffences),
            check(
                "drained", drained + (requireDrained ? "; --require-drained" : " (allowed without --require-drained)"),
                pendingOffences, passed: !requireDrained || pending == 0),
            check("paced", judged(paced, "batches sent before their wait"), paced),
            check("credentials", judged(credentials, "requests with a refused token"), credentials),
            check("shrink", judged(shrink, "batches not shrunk as told"), shrink),
            check("encoding-after-415", judged(encoding, "wrong codings after a 415"), encoding),
            check("new-bytes-after-400", judged(newBytes, "bodies sent again after a 400"), newBytes),
            check("rejected-not-resent", judged(rejectedResent, "rejected fixes sent again"), rejectedResent),
            check(
                "commands",
                "\(recordFixCommands) RECORD_FIX given, \(serverRequestedFixes) fixes stored as SERVER_REQUEST",
                commandOffences),
            check("policy-version", judged(policyVersion, "batches below the policy given"), policyVersion),
            check("sequence-zero", judged(sequenceZero, "batches with a fix 0"), sequenceZero),
            check("regions-absent", judged(regionsAbsent, "region requests after a 404"), regionsAbsent),
        ]
        clean = checks.allSatisfy(\.passed)
    }

    /// The check of that name.
    public func check(_ name: String) -> MockCheck? { checks.first { $0.name == name } }

    /// The names of the checks that failed.
    public var failedChecks: [String] { checks.filter { !$0.passed }.map(\.name) }

    /// The report as indented JSON, keys sorted.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Strings, integers and arrays of them always encode.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The report for people; at most `listLimit` fixes of each list are named.
    public func text(listLimit: Int = 20) -> String {
        var lines: [String] = []
        let faultList = faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("requests: \(requests) (\(faultList.isEmpty ? "none" : faultList))")
        lines.append("recorded by the client: \(recordedFixes) fixes; stored by the mock server: \(storedFixes) fixes")
        lines.append("lost: \(lost) (recorded by the client, never stored, neither pending, rejected nor discarded)")
        lines.append("doubled: \(doubled) (extra copies of a recorded fix stored under another key)")
        lines.append("unknown: \(unknown) (stored, never recorded by the client)")
        lines.append("renumbered: \(renumbered) (stored once, under another sequence than recorded)")
        lines.append("pending: \(pending) (held by the client at its exit: not lost, §gap-report)")
        lines.append("rejected: \(rejected) (refused for good by the server: not lost)")
        lines.append("discarded: \(discarded) (refused alone as too large, discarded by the client: not lost)")
        if recordFixCommands > 0 || serverRequestedFixes > 0 {
            lines.append(
                "commands: \(recordFixCommands) RECORD_FIX given, \(serverRequestedFixes) fixes stored as SERVER_REQUEST "
                    + "(at most one per command: §commands)")
        }
        func list(_ title: String, _ fixes: [ReportedFix]) {
            for fix in fixes.prefix(listLimit) {
                var line =
                    "  \(title) install \(fix.installId) sequence \(fix.sequence) time \(fix.timeMs) "
                    + "at \(fix.latitudeE7.map(String.init) ?? "-"),\(fix.longitudeE7.map(String.init) ?? "-")"
                if let storedAs = fix.storedAs {
                    line += " stored as \(storedAs.map(String.init).joined(separator: ", "))"
                }
                lines.append(line)
            }
            if fixes.count > listLimit { lines.append("  ... and \(fixes.count - listLimit) more \(title)") }
        }
        list("lost", lostFixes)
        list("doubled", doubledFixes)
        list("unknown", unknownFixes)
        lines.append("checks:")
        for check in checks {
            let tags = check.tags.isEmpty ? "" : " [\(check.tags.joined(separator: " "))]"
            lines.append("  \(check.passed ? "PASS" : "FAIL") \(check.name)\(tags): \(check.summary)")
            for offence in check.offences {
                let place = [offence.request.map { "request \($0)" }, offence.installId.map { "install \($0)" }]
                    .compactMap { $0 }.joined(separator: ", ")
                lines.append("      \(place.isEmpty ? "" : place + ": ")\(offence.detail)")
            }
            if check.offenceCount > check.offences.count {
                lines.append("      ... and \(check.offenceCount - check.offences.count) more")
            }
        }
        lines.append(
            clean
                ? "verdict: PASS (every check passed: nothing lost, nothing doubled, every rule kept)"
                : "verdict: FAIL (failed: \(failedChecks.joined(separator: ", ")))")
        return lines.joined(separator: "\n")
    }
}

extension MockReport.ReportedFix {
    init(_ content: MockReport.Content, sequence: UInt64) {
        self.init(
            installId: content.installId, sequence: sequence, timeMs: content.timeMs, latitudeE7: content.latitudeE7,
            longitudeE7: content.longitudeE7, storedAs: nil)
    }
}
