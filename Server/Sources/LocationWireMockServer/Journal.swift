import Crypto
import Foundation
import LocationWire
import LocationWireFiles

/// One line of the mock server's journal (`--journal FILE`, JSON lines): a request to `POST /v1/batches` (or to
/// `/v1/regions`, which the mock server does not offer) as it was received, the fault it got, what was stored, and
/// what was answered.
///
/// ```json
/// {"request":3,"timeMs":1767225600123,"answeredAtMs":1767225600125,"fault":"partial-ack","committed":true,
///  "status":200,"answer":"ack","outcome":"PROCESSED","deletes":true,"endpoint":"batches",
///  "deviceId":"phone-1","installId":"8143","batchId":"77","ackBatchId":"77","fixes":[4,5,6,7],"items":4,
///  "tokenDigest":"9f86d081884c7d65","bodyBytes":812,"bodyDigest":"2c26b46b68ffc68f",
///  "contentType":"application/json; proto=locationwire.v1.LocationBatch","contentEncoding":"gzip",
///  "stored":[{"sequence":4,"timeMs":1767225500000,"latitudeE7":525200000,"longitudeE7":134050000}, ...]}
/// ```
///
/// 64-bit ids (`installId`, `batchId`, `ackBatchId`) are decimal strings, as proto3 JSON writes them; sequence
/// numbers and times are numbers. The report reads the stored fixes of every line, so a journal is the complete
/// record of what the mock server stored: every fix stored appears in exactly one line's `stored`. Members added
/// after the first version are optional, so an older journal still reads (its checks see less).
public struct JournalEntry: Codable, Hashable, Sendable {
    /// 1 for the first request the server read, then one more for each; refusals count too.
    public var request: Int
    /// When the request was read, server clock, UTC ms.
    public var timeMs: Int64
    /// When the answer was sent, or the connection closed, server clock, UTC ms (a `slow` answer: after its delay).
    public var answeredAtMs: Int64?
    /// `batches` (absent in older journals) or `regions`.
    public var endpoint: String?
    /// The fault's name (``Fault/name``), or `none`.
    public var fault: String
    /// Whether anything of the batch went through the ledger (`partial-ack`: part of it).
    public var committed: Bool
    /// The status answered; nil when the connection was closed or reset without an answer.
    public var status: Int?
    /// What the client was sent: `ack`, `stale-ack` (another batch's), `cut-ack` (a body cut short), `refusal`
    /// (a non-200 with the JSON error body), `closed` or `reset`.
    public var answer: String
    /// The stable code of a refusal: the injected one, or why the body was refused.
    public var errorCode: String?
    /// `Retry-After` as sent, with a 408, 429 or 503.
    public var retryAfter: String?
    /// `maxBatchBytes` of a 413, or `max_batch_bytes` of a `TOO_LARGE` ack.
    public var maxBatchBytes: Int?
    /// The first 16 hex digits of the SHA-256 of the bearer token; nil without one.
    public var tokenDigest: String?
    /// The request's `Content-Type` and `Content-Encoding` as received (several fields joined by ", ").
    public var contentType: String?
    public var contentEncoding: String?
    /// The body's size as sent, after content decoding (what `max_batch_bytes` bounds), and the first 16 hex digits
    /// of its SHA-256; nil when the body was not read.
    public var bodyBytes: Int?
    public var bodyDigest: String?
    public var deviceId: String?
    public var installId: String?
    public var batchId: String?
    /// The batch's `policy_version` (0 while the device holds the default policy).
    public var policyVersion: UInt64?
    /// The batch id the answered ack names, when an ack was sent (whole or cut short).
    public var ackBatchId: String?
    /// The fix sequence numbers the batch carried, backlog then live fix.
    public var fixes: [UInt64]
    /// The batch's items: fixes, fence events and lifecycle events (a batch of one item cannot be made smaller).
    public var items: Int?
    /// The ack's outcome, when an ack was sent (whole or cut short): `PROCESSED`, `HOLD` or `TOO_LARGE`.
    public var outcome: String?
    /// Whether the ack, applied, deletes anything of the batch: a fix or fence event answered `ACCEPTED`,
    /// `DUPLICATE` or `REJECTED` (but reasons 5 and 6), or its lifecycle events (`PROCESSED`); nil for a batch
    /// without items, or when no ack was sent.
    public var deletes: Bool?
    /// `retry_after_ms` of the ack sent, if any.
    public var ackRetryAfterMs: UInt32?
    /// The fixes of the batch its own ack answers `REJECTED` (for good: not reasons 5 and 6).
    public var rejected: [UInt64]?
    /// `policy_version` of the `TrackingPolicy` in the ack sent, if any.
    public var policyVersionGiven: UInt64?
    /// The fixes stored for the first time by this request.
    public var stored: [StoredFixRecord]
    /// The commands this request's ack gave for the first time (`commands`); nil when none.
    public var commands: [IssuedCommand]?

    public init(
        request: Int, timeMs: Int64, fault: String, committed: Bool, status: Int?, answer: String,
        errorCode: String? = nil, deviceId: String? = nil, installId: String? = nil, batchId: String? = nil,
        ackBatchId: String? = nil, fixes: [UInt64] = [], stored: [StoredFixRecord] = []
    ) {
        self.request = request
        self.timeMs = timeMs
        self.fault = fault
        self.committed = committed
        self.status = status
        self.answer = answer
        self.errorCode = errorCode
        self.deviceId = deviceId
        self.installId = installId
        self.batchId = batchId
        self.ackBatchId = ackBatchId
        self.fixes = fixes
        self.stored = stored
    }

    /// The request was to `POST /v1/batches` (older journals journal nothing else).
    public var isBatch: Bool { endpoint == nil || endpoint == "batches" }

    /// The answer's time, or the request's in an older journal.
    public var answeredAt: Int64 { answeredAtMs ?? timeMs }
}

/// What the journal keeps of a request beyond its batch: the token's and the body's digests, never the token or
/// the body.
public struct RequestFacts: Hashable, Sendable {
    public var tokenDigest: String?
    public var contentType: String?
    public var contentEncoding: String?
    public var bodyBytes: Int?
    public var bodyDigest: String?

    public init(
        tokenDigest: String? = nil, contentType: String? = nil, contentEncoding: String? = nil, bodyBytes: Int? = nil,
        bodyDigest: String? = nil
    ) {
        self.tokenDigest = tokenDigest
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.bodyBytes = bodyBytes
        self.bodyDigest = bodyDigest
    }

    /// The first 16 hex digits of the SHA-256 of `bytes`: enough to tell two tokens or two bodies apart in a run.
    public static func digest(_ bytes: some Sequence<UInt8>) -> String {
        SHA256.hash(data: Array(bytes)).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The digest of the bearer token of an `Authorization` field (`Bearer TOKEN`, scheme in any case); nil
    /// without one.
    public static func tokenDigest(authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : digest(token.utf8)
    }

    /// Copies the facts into a journal entry.
    func apply(to entry: inout JournalEntry) {
        entry.tokenDigest = tokenDigest
        entry.contentType = contentType
        entry.contentEncoding = contentEncoding
        entry.bodyBytes = bodyBytes
        entry.bodyDigest = bodyDigest
    }
}

/// A command the mock server gave a device in an ack.
public struct IssuedCommand: Codable, Hashable, Sendable {
    /// `command_id`, a decimal string as proto3 JSON writes 64-bit numbers.
    public var commandId: String
    /// The `DeviceCommandKind` without its prefix: `RECORD_FIX`, `REQUEST_REGIONS` or `UPLOAD_NOW`.
    public var kind: String

    public init(commandId: String, kind: String) {
        self.commandId = commandId
        self.kind = kind
    }

    public init(_ command: DeviceCommand) {
        let names: [DeviceCommandKind: String] = [
            .recordFix: "RECORD_FIX", .requestRegions: "REQUEST_REGIONS", .uploadNow: "UPLOAD_NOW",
        ]
        self.init(commandId: String(command.commandId), kind: names[command.kind] ?? "UNSPECIFIED")
    }
}

/// A stored fix as the journal and the client log both describe it: its key within an installation and the
/// content the report compares (time and position), enough to tell one recorded fix from another.
public struct StoredFixRecord: Codable, Hashable, Sendable {
    public var sequence: UInt64
    /// The fix's `time_ms`, UTC ms.
    public var timeMs: Int64
    /// 1e-7 degrees; nil when the fix had none.
    public var latitudeE7: Int32?
    public var longitudeE7: Int32?

    /// True for a fix recorded because the server asked (reason `SERVER_REQUEST`); absent otherwise.
    public var serverRequested: Bool?

    public init(
        sequence: UInt64, timeMs: Int64, latitudeE7: Int32?, longitudeE7: Int32?, serverRequested: Bool? = nil
    ) {
        self.sequence = sequence
        self.timeMs = timeMs
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        self.serverRequested = serverRequested
    }

    public init(_ fix: LocationFix) {
        self.init(
            sequence: fix.sequence, timeMs: fix.timeMs, latitudeE7: fix.latitudeE7, longitudeE7: fix.longitudeE7,
            serverRequested: fix.reason == .serverRequest ? true : nil)
    }
}

/// Appends journal entries to a file, one JSON object a line, each written through to the file before the
/// client is answered, so that the journal is whole even when the server is killed.
public final class JournalWriter: Sendable {
    private let handle: FileHandle
    public let path: String

    /// Creates `path`, or empties it: a journal describes one run.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    deinit { try? handle.close() }

    /// Writes one line. Called by ``MockStore`` alone, one entry at a time.
    func append(_ entry: JournalEntry) throws {
        try handle.write(contentsOf: Self.line(entry))
    }

    static func line(_ entry: JournalEntry) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A struct of strings, integers and arrays of them always encodes.
        var data = (try? encoder.encode(entry)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads a journal file: every non-empty line must be a ``JournalEntry``.
    public static func read(path: String) throws -> [JournalEntry] {
        let text: String
        do {
            text = String(decoding: try FileAccess.read(path), as: UTF8.self)
        } catch {
            throw MockReportError.unreadable("the journal: \(error)")
        }
        var entries: [JournalEntry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                entries.append(try JSONDecoder().decode(JournalEntry.self, from: Data(line.utf8)))
            } catch {
                throw MockReportError.unreadable("\(path) line \(index + 1): not a journal entry (\(error))")
            }
        }
        return entries
    }
}
