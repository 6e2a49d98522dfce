import LocationWire
import LocationWireConformance
import LocationWireSession

/// The conformance vectors of the ledger and session families, replayed over HTTP instead of the testee
/// protocol: the committed files (``ProbeVectors``, `--vectors`).
///
/// Every batch is rewritten to the token's device, and each installation of a vector to a fresh random
/// `install_id`, so that reruns against the same database never collide.
enum VectorScenarios {
    // MARK: - Ledger

    /// A check per ledger vector a server can be judged by without configuring it: the vector's ledger policy is
    /// the default (no size limit but the default, no known-devices list, no quota, no hold, mock fixes taken, no
    /// age limit) and its batches all name one device. Their acks are judged as the conformance runner judges a
    /// ledger testee's (``SessionEvaluation/judge(_:_:)-(ExpectedAck,BatchAck)``), and, with the read-back, the
    /// stored fixes of each installation against the vector's `stored_fixes`.
    static func ledgerChecks(_ vectors: [Vector]) -> (checks: [ProbeCheck], note: String) {
        var checks: [ProbeCheck] = []
        for vector in vectors {
            guard let request = try? SessionEvaluation.ledgerRequest(of: vector), isDefaultPolicy(request),
                let batches = singleDeviceBatches(request)
            else { continue }
            checks.append(
                ProbeCheck("vectors.\(vector.id)", rules: vector.rules ?? []) { context in
                    try await replayLedger(vector, batches: batches, context: context)
                })
        }
        return (
            checks,
            "ledger vectors: \(checks.count) of \(vectors.count) have the default ledger policy and one device, and "
                + "are replayed; the others need a configured server"
        )
    }

    static func isDefaultPolicy(_ request: LedgerRequest) -> Bool {
        request.maxBatchBytes == 0 && request.knownDevices.isEmpty && request.fixQuotaPerInstallation == 0
            && request.holdEverything == .unspecified && request.retryAfterMs == nil && !request.rejectsMockFixes
            && request.oldestAcceptedTimeMs == 0 && request.policyVersion == 0
    }

    /// The request's batches decoded, when every one decodes and names the same non-empty device.
    static func singleDeviceBatches(_ request: LedgerRequest) -> [LocationBatch]? {
        var batches: [LocationBatch] = []
        for ledgerBatch in request.batches {
            guard let batch = try? LocationBatch(serializedBytes: ledgerBatch.bytes) else { return nil }
            batches.append(batch)
        }
        let devices = Set(batches.map(\.deviceId))
        guard devices.count == 1, devices.first?.isEmpty == false else { return nil }
        return batches
    }

    static func replayLedger(
        _ vector: Vector, batches original: [LocationBatch], context: ProbeContext
    ) async throws -> Verdict {
        // install_id 0 stays 0: it is what the vector is about (a batch read as revision 0).
        var installs: [UInt64: UInt64] = [0: 0]
        for batch in original where installs[batch.installId] == nil {
            installs[batch.installId] = context.freshInstallId()
        }
        let batches = original.map { batch in
            var rewritten = batch
            rewritten.deviceId = context.deviceId
            rewritten.installId = installs[batch.installId] ?? 0
            return rewritten
        }
        var stored: [UInt64: Set<UInt64>] = [:]
        for installation in vector.expectedInstallations ?? [] {
            guard let install = installs[installation.installId] else { continue }
            for range in installation.storedFixes ?? [] {
                guard let first = range.first, let last = range.last, first <= last else { continue }
                stored[install, default: []].formUnion(first...last)
            }
        }
        let expected = vector.expectedAcks ?? []
        return try await replay(
            batches, expected: batches.indices.map { expected.indices.contains($0) ? expected[$0] : nil },
            stored: stored, context: context, what: vector.comment)
    }

    // MARK: - Session

    /// A check per session vector whose device sends at least one batch. The session vectors state what a
    /// device does, not what a server answers; the batches the reference device engine (``UploadQueue``, through
    /// the built-in testee) sends in the script are posted in order, and each ack is judged against the ack the
    /// reference ledger (``IngestLedger`` with the default policy) gives the same batches.
    static func sessionChecks(_ vectors: [Vector]) -> (checks: [ProbeCheck], note: String) {
        // A session vector's own rules are the device's; what these checks judge is the server's answer to the
        // batches: its keys, its outcome and its item results.
        let serverRules = ["§fix-key", "§event-key", "§batch-outcome", "§ack-table"]
        var checks: [ProbeCheck] = []
        for vector in vectors {
            guard let request = try? SessionEvaluation.sessionRequest(of: vector),
                !sentBatches(of: request).isEmpty
            else { continue }
            checks.append(
                ProbeCheck("vectors.\(vector.id)", rules: serverRules) { context in
                    var rewritten = request
                    rewritten.deviceId = context.deviceId
                    rewritten.installId = context.freshInstallId()
                    return try await replaySession(sentBatches(of: rewritten), context: context, what: vector.comment)
                })
        }
        return (
            checks,
            "session vectors: \(checks.count) of \(vectors.count) send batches; these are posted and their acks "
                + "judged against the reference ledger's with the default policy"
        )
    }

    /// The batches the reference device engine sends in a session script, in order.
    static func sentBatches(of request: SessionRequest) -> [LocationBatch] {
        BuiltinTestee().run(request).steps.compactMap(\.batch)
    }

    static func replaySession(
        _ batches: [LocationBatch], context: ProbeContext, what: String
    ) async throws
        -> Verdict
    {
        var ledger = IngestLedger(policy: IngestLedger.Policy())
        var expected: [ExpectedAck] = []
        var stored: [UInt64: Set<UInt64>] = [:]
        for batch in batches {
            let ack = ledger.ingest(batch, encodedSize: batch.serializedSize, nowMs: batch.sentAtMs).ack
            expected.append(expectedAck(ack, for: batch))
            for range in ack.fixResults where range.result == .accepted {
                stored[batch.installId, default: []].formUnion(range.firstSequence...range.lastSequence)
            }
        }
        return try await replay(batches, expected: expected, stored: stored, context: context, what: what)
    }

    /// What the reference ack says of each item `batch` carries, in the vectors' terms.
    static func expectedAck(_ ack: BatchAck, for batch: LocationBatch) -> ExpectedAck {
        var expected = ExpectedAck(outcome: ShortEnumName.outcome(ack.outcome))
        if ack.outcome == .hold { expected.holdReason = ShortEnumName.holdReason(ack.holdReason) }
        if ack.outcome == .tooLarge { expected.maxBatchBytes = ack.maxBatchBytes ?? 0 }
        func results(_ sequences: [UInt64], _ ranges: [AckRange]) -> [String: String] {
            Dictionary(
                sequences.map { sequence in
                    let range = ranges.first { $0.firstSequence <= sequence && sequence <= $0.lastSequence }
                    return (String(sequence), range.map(ShortEnumName.result) ?? "not covered")
                }, uniquingKeysWith: { first, _ in first })
        }
        expected.fixResults = results(fixes(of: batch).map(\.sequence), ack.fixResults)
        expected.eventResults = results(batch.fenceEvents.map(\.eventSequence), ack.fenceEventResults)
        return expected
    }

    // MARK: - Replay

    /// Every fix a batch carries: its backlog (rows, or compact fixes rebuilt) and its live fix.
    static func fixes(of batch: LocationBatch) -> [LocationFix] {
        let backlog = (try? batch.compactFixes?.fixes()) ?? batch.fixes
        return backlog + (batch.liveFix.map { [$0] } ?? [])
    }

    /// Posts `batches` in order, judges each ack against `expected` (nil: any ack a device would apply), then,
    /// with the read-back, checks each installation stored exactly the fixes of `stored` (by install id), with
    /// the content first sent.
    static func replay(
        _ batches: [LocationBatch], expected: [ExpectedAck?], stored: [UInt64: Set<UInt64>], context: ProbeContext,
        what: String
    ) async throws -> Verdict {
        var problems: [String] = []
        for (index, batch) in batches.enumerated() {
            let result = try await context.upload(batch)
            problems += ProbeContext.problems(of: result, for: batch, expected: expected[index]).map {
                "batch \(index + 1) of \(batches.count): \($0)"
            }
        }
        var notes = ""
        for install in Set(batches.map(\.installId)).sorted() where install != 0 {
            let sent = batches.filter { $0.installId == install }.flatMap(fixes(of:))
            // What a key holds is what the first batch that could store it carried: a batch held or too large
            // stores nothing, and its fixes may differ (compact fixes the server could not rebuild).
            let storing = batches.indices.filter {
                batches[$0].installId == install && !["HOLD", "TOO_LARGE"].contains(expected[$0]?.outcome ?? "")
            }
            var first: [UInt64: LocationFix] = [:]
            for fix in storing.flatMap({ fixes(of: batches[$0]) }) where first[fix.sequence] == nil {
                first[fix.sequence] = fix
            }
            let wanted = (stored[install] ?? []).sorted().compactMap { first[$0] }
            let (storageProblems, note) = try await context.storageProblems(
                install: install, expected: wanted, sent: sent)
            problems += storageProblems.map { "install \(install): \($0)" }
            notes = note
        }
        return .judging(
            problems,
            passed: "\(batches.count) batch\(batches.count == 1 ? "" : "es") acked as expected\(notes). \(what)")
    }
}
