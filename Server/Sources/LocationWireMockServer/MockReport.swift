import Foundation
import LocationWireFiles
import LocationWireTools

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
/// or absent for a fix without a position). Other members are ignored. The client writes a line when it records
/// a fix, before it ever sends it, and never rewrites the line.
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
        if let number = try? container.decode(UInt64.self, forKey: .installId) {
            installId = String(number)
        } else {
            let text = try container.decode(String.self, forKey: .installId)
            guard let number = UInt64(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .installId, in: container, debugDescription: "not a decimal 64-bit id")
            }
            installId = String(number)
        }
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        timeMs = try container.decode(Int64.self, forKey: .timeMs)
        latitudeE7 = try container.decodeIfPresent(Int32.self, forKey: .latitudeE7)
        longitudeE7 = try container.decodeIfPresent(Int32.self, forKey: .longitudeE7)
    }

    /// Reads a client log: every non-empty line must be an entry.
    public static func read(path: String) throws -> [ClientLogEntry] {
        let text: String
        do {
            text = String(decoding: try FileAccess.read(path), as: UTF8.self)
        } catch {
            throw MockReportError.unreadable("the client log: \(error)")
        }
        var entries: [ClientLogEntry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                entries.append(try JSONDecoder().decode(ClientLogEntry.self, from: Data(line.utf8)))
            } catch {
                throw MockReportError.unreadable("\(path) line \(index + 1): not a client log entry (\(error))")
            }
        }
        return entries
    }
}

/// What the mock server stored, held against what the client recorded: a recorded fix is found in the store by
/// its installation and content (`timeMs`, `latitudeE7`, `longitudeE7`), not by its sequence number, so that a
/// client that renumbers a fix on resend is caught storing it twice rather than passing.
///
/// - **lost**: recorded fixes stored under no key;
/// - **doubled**: stored copies beyond one per recorded fix (the same fix under two keys);
/// - **unknown**: stored fixes whose content the client never recorded (a key reused for another fix, or a log
///   that is not this run's);
/// - **renumbered**: recorded fixes stored once, under another sequence number than recorded (not a loss, but
///   a client that breaks `§sequence-consecutive`'s promise that a number names one fix).
///
/// Recorded fixes with the same content (the OS handing out one fix twice) are matched as a multiset: first by
/// equal sequence numbers, then in order. The report is clean when nothing is lost or doubled, and no more fixes
/// were stored as `SERVER_REQUEST` than `RECORD_FIX` commands were given.
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

    public init(journal: [JournalEntry], clientLog: [ClientLogEntry]) {
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
        for entry in journal {
            let installId = entry.installId.flatMap(UInt64.init).map { String($0) } ?? entry.installId ?? ""
            for fix in entry.stored {
                let content = Content(
                    installId: installId, timeMs: fix.timeMs, latitudeE7: fix.latitudeE7,
                    longitudeE7: fix.longitudeE7)
                stored[content, default: []].append(fix.sequence)
                storedCount += 1
            }
        }
        storedFixes = storedCount
        recordFixCommands = journal.reduce(0) { $0 + ($1.commands ?? []).filter { $0.kind == "RECORD_FIX" }.count }
        serverRequestedFixes = journal.reduce(0) { $0 + $1.stored.filter { $0.serverRequested == true }.count }
        lostFixes = []
        doubledFixes = []
        unknownFixes = []
        renumbered = 0
        doubled = 0
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
            for sequence in unmatchedRecorded.dropFirst(paired) {
                lostFixes.append(ReportedFix(content, sequence: sequence))
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
        lost = lostFixes.count
        unknown = unknownFixes.count
        clean = lost == 0 && doubled == 0 && serverRequestedFixes <= recordFixCommands
    }

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
        lines.append("lost: \(lost) (recorded by the client, never stored)")
        lines.append("doubled: \(doubled) (extra copies of a recorded fix stored under another key)")
        lines.append("unknown: \(unknown) (stored, never recorded by the client)")
        lines.append("renumbered: \(renumbered) (stored once, under another sequence than recorded)")
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
        lines.append(
            clean
                ? "verdict: PASS (nothing lost, nothing doubled)"
                : serverRequestedFixes > recordFixCommands && lost == 0 && doubled == 0
                    ? "verdict: FAIL (a command ran more than once)" : "verdict: FAIL (fixes lost or doubled)")
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
