import Foundation
import HTTPTypes
import LocationWire
import LocationWireHTTP
import LocationWireServer
import LocationWireSession

/// What the mock server does with one batch, decided by ``MockStore/receive(_:encodedSize:)`` after any commit.
public enum MockAction: Sendable {
    /// A 200 with this ack, after `delayMs` (0: at once).
    case answer(BatchAck, delayMs: Int)
    /// A non-200 with the JSON error body.
    case refuse(Refusal)
    /// No answer: the connection is closed (FIN) or, with `reset`, reset (RST).
    case close(reset: Bool)
    /// A 200 whose body stops after `keep` of this ack's bytes, under the whole ack's `Content-Length`.
    case cutShort(BatchAck, keep: Double)
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
    private var generator: SeededGenerator
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
        self.generator = SeededGenerator(seed: seed)
        self.journal = journal
        self.policy = policy
        self.nowMs = nowMs
    }

    /// Draws the request's fault, commits what the fault lets through, writes the journal line, and says what to
    /// answer. A journal that cannot be written turns the request into a 503 that stores nothing: what is not in
    /// the journal must not be stored, or the report would take it for lost.
    public func receive(_ batch: LocationBatch, encodedSize: Int) -> MockAction {
        requestCount += 1
        let receivedAtMs = nowMs()
        let fault = spec.fault(forDraw: generator.nextUnit())
        faultCounts[fault?.name ?? "none", default: 0] += 1
        var entry = JournalEntry(
            request: requestCount, timeMs: receivedAtMs, fault: fault?.name ?? "none", committed: false, status: 200,
            answer: "ack", deviceId: batch.deviceId, installId: String(batch.installId),
            batchId: String(batch.batchId), fixes: Self.rows(of: batch).map(\.sequence))
        // The ledger's step for `part` (the batch, unless partial-ack cut it), against the installation's record;
        // committed below only once the journal line is written.
        let previous = record(of: batch)
        func ingest(_ part: LocationBatch) -> Step {
            Step(batch: part, previous: previous, encodedSize: encodedSize, nowMs: receivedAtMs, policy)
        }
        let action: MockAction
        var step: Step?
        var newCommand: DeviceCommand?
        switch fault {
        case nil:
            let whole = ingest(batch)
            step = whole
            action = .answer(whole.result.ack, delayMs: 0)
        case .dropAfterCommit:
            step = ingest(batch)
            action = .close(reset: false)
        case .status503(let seconds), .status429(let seconds):
            let tooMany = fault == .status429(retryAfterSeconds: seconds)
            action = .refuse(
                Refusal(
                    status: tooMany ? .tooManyRequests : .serviceUnavailable,
                    body: ErrorBody(
                        code: tooMany ? ErrorBody.Code.rateLimited : ErrorBody.Code.unavailable,
                        message: "injected by the mock server (\(tooMany ? "status-429" : "status-503")); "
                            + "nothing was stored"),
                    headers: [.retryAfter: "\(seconds)"]))
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
        case .reset(let moment):
            let after =
                switch moment {
                case .before: false
                case .after: true
                case .either: generator.nextUnit() < 0.5
                }
            if after { step = ingest(batch) }
            action = .close(reset: true)
        }

        switch action {
        case .answer(let ack, _):
            entry.ackBatchId = String(ack.batchId)
            entry.answer = ack.batchId == batch.batchId ? "ack" : "stale-ack"
        case .refuse(let refusal):
            entry.status = Int(refusal.status.code)
            entry.answer = "refusal"
            entry.errorCode = refusal.body.code
        case .close(let reset):
            entry.status = nil
            entry.answer = reset ? "reset" : "closed"
        case .cutShort(let ack, _):
            entry.ackBatchId = String(ack.batchId)
            entry.answer = "cut-ack"
        }
        if let step {
            entry.committed = true
            entry.stored = step.result.storedFixes.map(StoredFixRecord.init)
        }
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

    /// The next command for an installation: the kinds in turn, its id above the previous one's and above every
    /// id an earlier run of the mock server can have given (the clock's ms), as `§commands` asks.
    private func nextCommand(after previous: DeviceCommand?, nowMs: Int64) -> DeviceCommand {
        let kinds: [DeviceCommandKind] = [.recordFix, .requestRegions, .uploadNow]
        var command = DeviceCommand()
        command.commandId = max((previous?.commandId ?? 0) + 1, UInt64(max(nowMs, 1)))
        command.kind = kinds[commandsGiven % kinds.count]
        return command
    }

    /// Journals a request refused before it reached the ledger (401, 400, 413, 415, ...): nothing was stored.
    public func recordRefusal(_ refusal: Refusal) {
        requestCount += 1
        faultCounts["none", default: 0] += 1
        try? journal?.append(
            JournalEntry(
                request: requestCount, timeMs: nowMs(), fault: "none", committed: false,
                status: Int(refusal.status.code), answer: "refusal", errorCode: refusal.body.code))
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
        var ack = BatchAck()
        ack.batchId = batch.batchId &+ 1 == 0 ? 1 : batch.batchId &+ 1
        ack.outcome = .processed
        ack.serverTimeMs = nowMs
        ack.protocolRevision = IngestLedger.protocolRevision
        let sequences = Self.rows(of: batch).map(\.sequence).filter { $0 != 0 }
        if let first = sequences.min(), let last = sequences.max() {
            var range = AckRange()
            range.firstSequence = first
            range.lastSequence = last
            range.result = .accepted
            ack.fixResults = [range]
        }
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
