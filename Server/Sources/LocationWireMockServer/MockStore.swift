import Foundation
import HTTPTypes
import LocationWire
import LocationWireHTTP
import LocationWireRandom
import LocationWireServer
import LocationWireSession

/// What the mock server does with one batch, decided by ``MockStore/receive(_:encodedSize:facts:)`` after any
/// commit.
public enum MockAction: Sendable {
    /// A 200 with this ack, after `delayMs` (0: at once).
    case answer(BatchAck, delayMs: Int)
    /// A non-200 with the JSON error body.
    case refuse(Refusal)
    /// No answer: the connection is closed (FIN) or, with `reset`, reset (RST).
    case close(reset: Bool)
    /// A 200 whose body stops after `keep` of this ack's bytes, under the whole ack's `Content-Length`.
    case cutShort(BatchAck, keep: Double)
    /// A 200 whose `Content-Length` covers this ack and padding after it, of which only the ack's bytes are sent.
    case cutAfterAck(BatchAck)
}

/// The mock server's state, one request at a time: the de-duplicating ledger (the reference server's
/// ``IngestLedger``, held in memory), the seeded fault generator and the journal.
///
/// Deciding the fault, committing, writing the journal line and choosing the answer happen in one actor call,
/// so the journal's order is the order of the commits, and a seed gives the same faults for the same order of
/// requests.
public actor MockStore {
    public let spec: FaultSpec
    let policy: IngestLedger.Policy
    let nowMs: @Sendable () -> Int64
    let journal: JournalWriter?
    private var generator: SeededRandom
    /// Every installation's ledger record, as ``IngestLedger`` left it after the installation's last commit.
    private var records: [IngestLedger.InstallationKey: InstallationRecord] = [:]
    /// The latest acks the ledger gave each installation, newest last, at most two with different batch ids:
    /// what `duplicate-response` sends again.
    private var recentAcks: [IngestLedger.InstallationKey: [BatchAck]] = [:]
    private var requestCount = 0
    /// The latest command given to each installation (`commands`), given again with the next.
    private var lastCommands: [IngestLedger.InstallationKey: DeviceCommand] = [:]
    /// How many commands `commands` has given, which decides the next one's kind.
    private var commandsGiven = 0
    /// How many requests got each fault (`none` for none), for the summary at shutdown.
    public private(set) var faultCounts: [String: Int] = [:]
    /// How many fixes are stored.
    public private(set) var storedFixCount = 0

    public init(
        spec: FaultSpec, seed: UInt64, journal: JournalWriter?, policy: IngestLedger.Policy = IngestLedger.Policy(),
        nowMs: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.spec = spec
        self.generator = SeededRandom(seed: seed)
        self.journal = journal
        self.policy = policy
        self.nowMs = nowMs
    }

    /// Draws the request's fault, commits what the fault lets through, writes the journal line, and says what to
    /// answer. A journal that cannot be written turns the request into a 503 that stores nothing: what is not in
    /// the journal must not be stored, or the report would take it for lost.
    public func receive(_ batch: LocationBatch, encodedSize: Int, facts: RequestFacts = RequestFacts()) -> MockAction {
        requestCount += 1
        let receivedAtMs = nowMs()
        let fault = spec.fault(forDraw: generator.uniform(0, 1))
        faultCounts[fault?.name ?? "none", default: 0] += 1
        var entry = JournalEntry(
            request: requestCount, timeMs: receivedAtMs, fault: fault?.name ?? "none", committed: false, status: 200,
            answer: "ack", deviceId: batch.deviceId, installId: String(batch.installId),
            batchId: String(batch.batchId), fixes: Self.rows(of: batch).map(\.sequence))
        facts.apply(to: &entry)
        entry.endpoint = "batches"
        entry.bodyBytes = entry.bodyBytes ?? encodedSize
        entry.policyVersion = batch.policyVersion
        entry.items = entry.fixes.count + batch.fenceEvents.count + batch.lifecycleEvents.count
        // The ledger's step for `part` (the batch, unless partial-ack cut it), against the installation's record;
        // committed below only once the journal line is written.
        let previous = record(of: batch)
        func ingest(_ part: LocationBatch) -> Step {
            Step(batch: part, previous: previous, encodedSize: encodedSize, nowMs: receivedAtMs, policy)
        }
        func injected(_ what: String) -> String {
            "injected by the mock server (\(fault?.name ?? "")): \(what); nothing was stored"
        }
        let action: MockAction
        var step: Step?
        var newCommand: DeviceCommand?
        var rejectedForGood: [UInt64] = []
        switch fault {
        case nil:
            let whole = ingest(batch)
            step = whole
            action = .answer(whole.result.ack, delayMs: 0)
        case .dropAfterCommit:
            step = ingest(batch)
            action = .close(reset: false)
        case .status503(let seconds, let form), .status429(let seconds, let form):
            let tooMany = fault?.name == "status-429"
            let retryAfter =
                form == .seconds
                ? RetryAfter.value(seconds: seconds) : RetryAfter.httpDate(ms: receivedAtMs + Int64(seconds) * 1000)
            action = .refuse(
                Refusal(
                    status: tooMany ? .tooManyRequests : .serviceUnavailable,
                    body: ErrorBody(
                        code: tooMany ? ErrorBody.Code.rateLimited : ErrorBody.Code.unavailable,
                        message: injected("come back after Retry-After")),
                    headers: [.retryAfter: retryAfter]))
        case .status400:
            action = .refuse(
                Refusal(
                    status: .badRequest,
                    body: ErrorBody(
                        code: LocationWire.DecodingError.Code.truncated.rawValue, offset: encodedSize,
                        fieldPath: "LocationBatch",
                        message: injected("read as a body cut short; do not send these bytes again"))))
        case .status401:
            action = .refuse(
                Refusal(
                    status: .unauthorized,
                    body: ErrorBody(
                        code: ErrorBody.Code.unauthenticated,
                        message: injected("the token is refused; never send with it again")),
                    headers: [.wwwAuthenticate: "Bearer"]))
        case .status403:
            action = .refuse(
                Refusal(
                    status: .forbidden,
                    body: ErrorBody(
                        code: ErrorBody.Code.deviceMismatch,
                        message: injected("the token does not belong to this device; never send with it again"))))
        case .status408(let seconds):
            var headers: HTTPFields = [.connection: "close"]
            if let seconds { headers[.retryAfter] = RetryAfter.value(seconds: seconds) }
            action = .refuse(
                Refusal(
                    status: .requestTimeout,
                    body: ErrorBody(
                        code: ErrorBody.Code.incompleteBody,
                        message: injected("the body did not arrive in time; send batches of half the size")),
                    headers: headers))
        case .status413(let limit):
            action = .refuse(
                Refusal(
                    status: .contentTooLarge,
                    body: ErrorBody(
                        code: ErrorBody.Code.bodyTooLarge, maxBatchBytes: limit,
                        message: injected("the body is too large; send smaller batches")),
                    headers: [.connection: "close"]))
        case .status415:
            action = .refuse(
                Refusal(
                    status: .unsupportedMediaType,
                    body: ErrorBody(
                        code: ErrorBody.Code.unsupportedContentEncoding,
                        message: injected("send without content coding")),
                    headers: [.acceptEncoding: "gzip"]))
        case .partialAck(let keep):
            // Compact fixes that cannot be cut go whole: the ledger holds them, as it would without a fault.
            let cut = ingest(Self.leadingPart(of: batch, keep: keep) ?? batch)
            step = cut
            action = .answer(cut.result.ack, delayMs: 0)
        case .duplicateResponse:
            action = .answer(staleAck(for: batch, nowMs: receivedAtMs), delayMs: 0)
        case .truncate(let keep):
            let whole = ingest(batch)
            step = whole
            action = .cutShort(whole.result.ack, keep: keep)
        case .cutAck:
            action = .cutAfterAck(Self.claim(batch, fixes: .accepted, nowMs: receivedAtMs))
        case .retryLater:
            action = .answer(
                Self.claim(batch, fixes: .retryLater, events: .retryLater, nowMs: receivedAtMs), delayMs: 0)
        case .rejectUnknown:
            let ack = Self.claim(
                batch, fixes: .rejected, reason: RejectReason(rawValue: Fault.unknownRejectReason),
                events: .retryLater, nowMs: receivedAtMs)
            rejectedForGood = Self.rejected(by: ack, of: batch)
            action = .answer(ack, delayMs: 0)
        case .slow(let delayMs):
            let whole = ingest(batch)
            step = whole
            action = .answer(whole.result.ack, delayMs: delayMs)
        case .commands:
            let whole = ingest(batch)
            step = whole
            let key = IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)
            let command = nextCommand(after: lastCommands[key], nowMs: receivedAtMs)
            newCommand = command
            var ack = whole.result.ack
            ack.commands = (lastCommands[key].map { [$0] } ?? []) + [command]
            entry.commands = [IssuedCommand(command)]
            action = .answer(ack, delayMs: 0)
        case .policy(let version):
            let whole = ingest(batch)
            step = whole
            var ack = whole.result.ack
            var policy = TrackingPolicy()
            policy.policyVersion = version
            ack.trackingPolicy = policy
            action = .answer(ack, delayMs: 0)
        case .hint:
            let whole = ingest(batch)
            step = whole
            var ack = whole.result.ack
            ack.latestAssignmentVersion = Fault.hintedAssignmentVersion
            action = .answer(ack, delayMs: 0)
        case .reset(let moment):
            let after =
                switch moment {
                case .before: false
                case .after: true
                case .either: generator.uniform(0, 1) < 0.5
                }
            if after { step = ingest(batch) }
            action = .close(reset: true)
        }

        var delayMs = 0
        switch action {
        case .answer(let ack, let delay):
            delayMs = delay
            entry.ackBatchId = String(ack.batchId)
            entry.answer = ack.batchId == batch.batchId ? "ack" : "stale-ack"
            Self.describe(ack, of: batch, own: ack.batchId == batch.batchId, in: &entry)
        case .refuse(let refusal):
            entry.status = Int(refusal.status.code)
            entry.answer = "refusal"
            entry.errorCode = refusal.body.code
            entry.retryAfter = refusal.headers[.retryAfter]
            entry.maxBatchBytes = refusal.body.maxBatchBytes
        case .close(let reset):
            entry.status = nil
            entry.answer = reset ? "reset" : "closed"
        case .cutShort(let ack, _), .cutAfterAck(let ack):
            entry.ackBatchId = String(ack.batchId)
            entry.answer = "cut-ack"
            Self.describe(ack, of: batch, own: true, in: &entry)
        }
        if let step {
            entry.committed = true
            entry.stored = step.result.storedFixes.map(StoredFixRecord.init)
            rejectedForGood = Self.rejected(by: step.result.ack, of: batch)
        }
        entry.rejected = rejectedForGood.isEmpty ? nil : rejectedForGood
        entry.answeredAtMs = nowMs() + Int64(delayMs)
        do {
            try journal?.append(entry)
        } catch {
            return .refuse(.storageUnavailable(retryAfterSeconds: 1))
        }
        if let step { commit(step, of: batch) }
        if let newCommand {
            lastCommands[IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)] =
                newCommand
            commandsGiven += 1
        }
        return action
    }

    /// What `cut-ack` promises after the ack and never sends: bytes that leave the whole body a valid ack of the
    /// same meaning (JSON: white space after the object; binary: the private field 50001, which a reader keeps as
    /// an unknown field), so that only the framing tells that the body was cut short.
    public static func cutAckPadding(_ format: BodyFormat) -> [UInt8] {
        switch format {
        case .json: return Array(repeating: UInt8(ascii: " "), count: 64)
        case .binary:
            var bytes: [UInt8] = []
            var key = UInt64(50001) << 3 | 2
            while key >= 0x80 {
                bytes.append(UInt8(key & 0x7F) | 0x80)
                key >>= 7
            }
            bytes.append(UInt8(key))
            return bytes + [32] + Array(repeating: 0, count: 32)
        }
    }

    /// The journal's account of an ack sent for `batch`: its outcome, its `retry_after_ms` and, for the batch's own
    /// ack, whether it deletes anything of the batch, its policy and its size limit.
    static func describe(_ ack: BatchAck, of batch: LocationBatch, own: Bool, in entry: inout JournalEntry) {
        entry.outcome =
            switch ack.outcome {
            case .processed: "PROCESSED"
            case .hold: "HOLD"
            case .tooLarge: "TOO_LARGE"
            default: "\(ack.outcome.rawValue)"
            }
        entry.ackRetryAfterMs = ack.retryAfterMs
        guard own else { return }
        entry.deletes = deletes(ack, of: batch)
        entry.policyVersionGiven = ack.trackingPolicy?.policyVersion
        if ack.outcome == .tooLarge, let limit = ack.maxBatchBytes { entry.maxBatchBytes = Int(limit) }
    }

    /// Whether a range deletes the item it covers when applied (`§ack-table`): stored, or refused for good.
    static func deletes(_ range: AckRange) -> Bool {
        switch range.result {
        case .accepted, .duplicate: true
        case .rejected:
            range.rejectReason != RejectReason(rawValue: 5) && range.rejectReason != RejectReason(rawValue: 6)
        default: false
        }
    }

    /// Whether `ack`, applied, deletes anything of `batch` (`§back-off`); nil for a batch without items.
    static func deletes(_ ack: BatchAck, of batch: LocationBatch) -> Bool? {
        let fixes = rows(of: batch).map(\.sequence)
        let events = batch.fenceEvents.map(\.eventSequence)
        guard !fixes.isEmpty || !events.isEmpty || !batch.lifecycleEvents.isEmpty else { return nil }
        guard ack.outcome == .processed else { return false }
        func deleted(_ sequence: UInt64, by ranges: [AckRange]) -> Bool {
            sequence != 0
                && ranges.contains { $0.firstSequence <= sequence && sequence <= $0.lastSequence && deletes($0) }
        }
        return !batch.lifecycleEvents.isEmpty || fixes.contains { deleted($0, by: ack.fixResults) }
            || events.contains { deleted($0, by: ack.fenceEventResults) }
    }

    /// The batch's fixes `ack` refuses for good.
    static func rejected(by ack: BatchAck, of batch: LocationBatch) -> [UInt64] {
        guard ack.outcome == .processed else { return [] }
        return rows(of: batch).map(\.sequence).filter { sequence in
            sequence != 0
                && ack.fixResults.contains {
                    $0.firstSequence <= sequence && sequence <= $0.lastSequence && $0.result == .rejected
                        && deletes($0)
                }
        }
    }

    /// A `PROCESSED` ack of `batch` that answers all its fixes `fixes` (with `reason`) and all its fence events
    /// `events` (none: left unanswered), each list as one range from its lowest to its highest number; it stores
    /// nothing.
    static func claim(
        _ batch: LocationBatch, fixes: AckResult, reason: RejectReason? = nil, events: AckResult? = nil, nowMs: Int64
    ) -> BatchAck {
        var ack = BatchAck()
        ack.batchId = batch.batchId
        ack.outcome = .processed
        ack.serverTimeMs = nowMs
        ack.protocolRevision = IngestLedger.protocolRevision
        func range(_ sequences: [UInt64], _ result: AckResult) -> [AckRange] {
            guard let first = sequences.min(), let last = sequences.max() else { return [] }
            var range = AckRange()
            range.firstSequence = first
            range.lastSequence = last
            range.result = result
            if result == .rejected, let reason { range.rejectReason = reason }
            return [range]
        }
        ack.fixResults = range(rows(of: batch).map(\.sequence).filter { $0 != 0 }, fixes)
        if let events {
            ack.fenceEventResults = range(batch.fenceEvents.map(\.eventSequence).filter { $0 != 0 }, events)
        }
        return ack
    }

    /// The next command for an installation: the kinds in turn, its id above the previous one's and above every
    /// id an earlier run of the mock server can have given (the clock's ms), as `§commands` asks.
    private func nextCommand(after previous: DeviceCommand?, nowMs: Int64) -> DeviceCommand {
        let kinds: [DeviceCommandKind] = [.recordFix, .requestRegions, .uploadNow]
        var command = DeviceCommand()
        command.commandId = max((previous?.commandId ?? 0) + 1, UInt64(max(nowMs, 1)))
        command.kind = kinds[commandsGiven % kinds.count]
        return command
    }

    /// Journals a request to `POST /v1/batches` refused before it reached the ledger (401, 400, 413, 415, ...):
    /// nothing was stored.
    public func recordRefusal(_ refusal: Refusal, facts: RequestFacts = RequestFacts()) {
        requestCount += 1
        faultCounts["none", default: 0] += 1
        var entry = JournalEntry(
            request: requestCount, timeMs: nowMs(), fault: "none", committed: false,
            status: Int(refusal.status.code), answer: "refusal", errorCode: refusal.body.code)
        facts.apply(to: &entry)
        entry.endpoint = "batches"
        entry.retryAfter = refusal.headers[.retryAfter]
        entry.maxBatchBytes = refusal.body.maxBatchBytes
        entry.answeredAtMs = nowMs()
        try? journal?.append(entry)
    }

    /// Journals a request to `/v1/regions`, which the mock server does not offer, with the status it got (`404`
    /// `not-offered`, or what the routing answered).
    public func recordRegionsRequest(facts: RequestFacts, status: Int, errorCode: String?) {
        requestCount += 1
        faultCounts["none", default: 0] += 1
        var entry = JournalEntry(
            request: requestCount, timeMs: nowMs(), fault: "none", committed: false, status: status,
            answer: status == 200 ? "answer" : "refusal", errorCode: errorCode)
        facts.apply(to: &entry)
        entry.endpoint = "regions"
        entry.answeredAtMs = nowMs()
        try? journal?.append(entry)
    }

    private func record(of batch: LocationBatch) -> InstallationRecord? {
        records[IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)]
    }

    private func commit(_ step: Step, of batch: LocationBatch) {
        let key = IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)
        if let record = step.record { records[key] = record }
        storedFixCount += step.result.storedFixes.count
        var acks = recentAcks[key, default: []].filter { $0.batchId != step.result.ack.batchId }
        acks.append(step.result.ack)
        recentAcks[key] = Array(acks.suffix(2))
    }

    /// The ack `duplicate-response` sends: the installation's latest ack of another batch, sent again as it was
    /// (an ack delivered twice, or a stale one); when the installation has none, an ack for a batch id the device
    /// never used that claims the request's fixes `ACCEPTED`, which only a device that matches `batch_id`
    /// ignores (`ack-unknown-batch`).
    private func staleAck(for batch: LocationBatch, nowMs: Int64) -> BatchAck {
        let key = IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)
        if let earlier = recentAcks[key]?.last(where: { $0.batchId != batch.batchId }) { return earlier }
        var ack = Self.claim(batch, fixes: .accepted, nowMs: nowMs)
        ack.batchId = batch.batchId &+ 1 == 0 ? 1 : batch.batchId &+ 1
        return ack
    }

    /// The batch's fixes as rows, backlog then live fix; compact fixes are rebuilt, or left out when they cannot be.
    static func rows(of batch: LocationBatch) -> [LocationFix] {
        var rows = batch.fixes
        if rows.isEmpty, let compact = batch.compactFixes, let rebuilt = try? compact.fixes() { rows = rebuilt }
        if let live = batch.liveFix { rows.append(live) }
        return rows
    }

    /// The batch cut down for `partial-ack`: its lifecycle events and floors, and the fixes whose sequence is at
    /// most the one at the `keep` share of its fixes in sequence order; its fence events are left out, so
    /// everything left out is beyond every range of the ack and stays unacknowledged. Nil for compact fixes that
    /// cannot be rebuilt, or that have a column of a later revision: rows rebuilt from them would drop that
    /// column, so the whole batch goes to the ledger, which holds it (`§no-silent-drop`).
    static func leadingPart(of batch: LocationBatch, keep: Double) -> LocationBatch? {
        if let compact = batch.compactFixes {
            let laterColumn = compact.unknownFields.fieldNumbers.contains(
                where: IngestLedger.futureCompactColumns.contains)
            guard batch.fixes.isEmpty, !laterColumn, (try? compact.fixes()) != nil else { return nil }
        }
        let sorted = rows(of: batch).filter { $0.sequence != 0 }.map(\.sequence).sorted()
        let count = Int((Double(sorted.count) * keep).rounded(.down))
        var part = batch
        part.compactFixes = nil
        part.fenceEvents = []
        guard count > 0 else {
            part.fixes = []
            part.liveFix = nil
            return part
        }
        let highest = sorted[count - 1]
        part.fixes = rows(of: batch).dropLast(batch.liveFix == nil ? 0 : 1).filter {
            $0.sequence != 0 && $0.sequence <= highest
        }
        if let live = batch.liveFix, live.sequence > highest || live.sequence == 0 { part.liveFix = nil }
        return part
    }
}

/// One batch through a ledger that holds only its installation's record, as the reference server's backends do:
/// the ledger's answer for a key depends only on that key's installation.
struct Step {
    var result: IngestResult
    /// The installation's record after the batch; nil when nothing is to be written (`HOLD`, `TOO_LARGE`).
    var record: InstallationRecord?

    init(
        batch: LocationBatch, previous: InstallationRecord?, encodedSize: Int, nowMs: Int64,
        _ policy: IngestLedger.Policy
    ) {
        var ledger = IngestLedger(policy: policy, records: previous.map { [$0] } ?? [])
        result = ledger.ingest(batch, encodedSize: encodedSize, nowMs: nowMs)
        let key = IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)
        record = result.ack.outcome == .processed ? ledger.installations[key] : nil
    }
}
