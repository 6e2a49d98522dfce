import LocationWire
import LocationWireJSON

/// How the answers to session and ledger vectors are judged. The runner and the vector generator share it: the
/// generator holds the reference engines to each vector's stated expectations with exactly these checks.
public enum SessionEvaluation {
    /// The request a session vector sends, with its vector id.
    public static func sessionRequest(of vector: Vector) throws -> SessionRequest {
        var request = try SessionRequest(jsonString: vector.request?.text ?? "{}")
        request.vectorId = vector.id
        return request
    }

    /// The request a ledger vector sends, with its vector id.
    public static func ledgerRequest(of vector: Vector) throws -> LedgerRequest {
        var request = try LedgerRequest(jsonString: vector.request?.text ?? "{}")
        request.vectorId = vector.id
        return request
    }

    /// Why an answer is not a run of this vector (another vector's id, skipped, a runtime error), or nil.
    static func notRun(_ vector: Vector, _ vectorId: String, _ failure: TesteeFailure?) -> String? {
        if vectorId != vector.id { return "the response is for vector \"\(vectorId)\"" }
        switch failure {
        case .skipped(let reason): return "skipped: \(reason)"
        case .runtimeError(let message): return "runtime error: \(message)"
        case nil: return nil
        }
    }

    // MARK: - Session

    /// nil when the answer is right; otherwise every difference, one a line.
    public static func judge(_ vector: Vector, _ request: SessionRequest, _ response: SessionResponse) -> String? {
        if let problem = notRun(vector, response.vectorId, response.failure) { return problem }
        guard response.steps.count == request.steps.count else {
            return "\(response.steps.count) step results for \(request.steps.count) steps"
        }
        var problems: [String] = []
        for (index, (step, result)) in zip(request.steps, response.steps).enumerated() {
            guard case .sendBatchId(let batchId) = step.action, let batch = result.batch else { continue }
            let stated = (batch.deviceId, batch.installId, batch.batchId, batch.bootId, batch.sentAtMs)
            if stated != (request.deviceId, request.installId, batchId, step.bootId, step.nowMs) {
                problems.append(
                    "step \(index): the batch states device \(batch.deviceId), install \(batch.installId), batch \(batch.batchId), boot \(batch.bootId), sent at \(batch.sentAtMs); expected \(request.deviceId), \(request.installId), \(batchId), \(step.bootId), \(step.nowMs)"
                )
            }
        }
        for expected in vector.expectedSteps ?? [] {
            guard response.steps.indices.contains(expected.step) else {
                problems.append("the vector expects step \(expected.step), which the request does not have")
                continue
            }
            problems += judge(expected, response.steps[expected.step]).map { "step \(expected.step): \($0)" }
            if let earlier = expected.batch?.shrunkAfterStep, let batch = response.steps[expected.step].batch {
                problems += judgeHalf(batch, of: earlier, in: response).map { "step \(expected.step): batch: \($0)" }
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }

    static func judge(_ expected: ExpectedStep, _ actual: SessionStepResult) -> [String] {
        var problems: [String] = []
        func check<Value: Equatable>(_ name: String, _ expected: Value?, _ actual: Value) {
            if let expected, expected != actual { problems.append("\(name) is \(actual), expected \(expected)") }
        }
        check("the sequence assigned", expected.sequence, actual.sequence)
        if expected.nothingSent == true, let batch = actual.batch {
            problems.append("a batch was sent, expected none: \(summary(of: batch))")
        }
        if let expectedBatch = expected.batch {
            if let batch = actual.batch {
                problems += judge(expectedBatch, batch).map { "batch: \($0)" }
            } else {
                problems.append("nothing was sent, expected a batch")
            }
        }
        check("the ack", expected.ack, actual.ackIgnored.isEmpty ? "applied" : actual.ackIgnored)
        check("executed command ids", expected.executedCommandIds, actual.executedCommandIds)
        check("request_regions", expected.requestRegions, actual.requestRegions)
        check("held fixes", expected.heldFixes, actual.heldFixSequences)
        check("held fence events", expected.heldEvents, actual.heldEventSequences)
        check("held lifecycle events", expected.heldLifecycleEvents, actual.heldLifecycleEvents)
        check("the device's fix_sequence_floor", expected.fixSequenceFloor, actual.fixSequenceFloor)
        check("the device's event_sequence_floor", expected.eventSequenceFloor, actual.eventSequenceFloor)
        return problems
    }

    static func judge(_ expected: ExpectedBatch, _ batch: LocationBatch) -> [String] {
        var problems: [String] = []
        func check<Value: Equatable>(_ name: String, _ expected: Value?, _ actual: Value) {
            if let expected, expected != actual { problems.append("\(name) is \(actual), expected \(expected)") }
        }
        let backlog: [LocationFix]
        if let compact = batch.compactFixes {
            if !batch.fixes.isEmpty { problems.append("it carries both fixes and compact_fixes (rows-and-compact)") }
            do {
                backlog = try compact.fixes()
            } catch {
                return problems + ["its compact_fixes do not rebuild: \(error)"]
            }
        } else {
            backlog = batch.fixes
        }
        let form = batch.compactFixes != nil ? "compact" : batch.fixes.isEmpty ? "none" : "rows"
        check("the backlog", expected.backlog, backlog.map(\.sequence))
        check("the backlog's form", expected.backlogForm, form)
        check("the live fix", expected.liveFix, batch.liveFix?.sequence ?? 0)
        check("the fence events", expected.events, batch.fenceEvents.map(\.eventSequence))
        check("the lifecycle events", expected.lifecycleEvents, UInt32(batch.lifecycleEvents.count))
        check("fix_sequence_floor", expected.fixSequenceFloor, batch.fixSequenceFloor)
        check("event_sequence_floor", expected.eventSequenceFloor, batch.eventSequenceFloor)
        check("carries device_status", expected.deviceStatus, batch.deviceStatus != nil)
        check("carries armed_regions", expected.armedRegions, batch.armedRegions != nil)
        check("the fixes' boot ids", expected.fixBootIds, (backlog + (batch.liveFix.map { [$0] } ?? [])).map(\.bootId))
        check("protocol_revision", expected.protocolRevision, batch.protocolRevision)
        if let maxBytes = expected.maxBytes, batch.serializedSize > maxBytes {
            problems.append("it takes \(batch.serializedSize) bytes, more than \(maxBytes)")
        }
        return problems
    }

    /// Whether `batch` keeps within the limit proto/HTTP.md `§http-shrink` gives after the batch sent at step
    /// `earlier` was refused as too large without a usable limit: half its size, but not under 16384 bytes unless
    /// it was within 16384 already.
    static func judgeHalf(_ batch: LocationBatch, of earlier: Int, in response: SessionResponse) -> [String] {
        guard response.steps.indices.contains(earlier), let before = response.steps[earlier].batch else {
            return ["the vector compares it with the batch of step \(earlier), which sent none"]
        }
        let refused = before.serializedSize
        let limit = refused <= 16_384 ? refused / 2 : max(refused / 2, 16_384)
        guard batch.serializedSize > limit else { return [] }
        return [
            "it takes \(batch.serializedSize) bytes, more than \(limit), the limit after step \(earlier)'s batch of \(refused) bytes was refused"
        ]
    }

    static func summary(of batch: LocationBatch) -> String {
        let backlog = (try? batch.compactFixes?.fixes()) ?? batch.fixes
        return
            "batch \(batch.batchId): backlog \(backlog.map(\.sequence)), live fix \(batch.liveFix?.sequence ?? 0), events \(batch.fenceEvents.map(\.eventSequence))"
    }

    // MARK: - Ledger

    /// nil when the answer is right; otherwise every difference, one a line.
    public static func judge(_ vector: Vector, _ request: LedgerRequest, _ response: LedgerResponse) -> String? {
        if let problem = notRun(vector, response.vectorId, response.failure) { return problem }
        guard response.acks.count == request.batches.count else {
            return "\(response.acks.count) acks for \(request.batches.count) batches"
        }
        var problems: [String] = []
        for (index, (batch, ack)) in zip(request.batches, response.acks).enumerated() {
            if let decoded = try? LocationBatch(serializedBytes: batch.bytes), decoded.batchId != ack.batchId {
                problems.append("ack \(index): names batch \(ack.batchId), expected \(decoded.batchId)")
            }
            if let reason = reasonADeviceIgnores(ack) {
                problems.append("ack \(index): a device would ignore it (\(reason))")
            }
        }
        for (index, expected) in (vector.expectedAcks ?? []).enumerated() where index < response.acks.count {
            problems += judge(expected, response.acks[index]).map { "ack \(index): \($0)" }
        }
        problems += judge(vector.expectedInstallations ?? [], response.installations)
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }

    /// Every difference between an ack and what a vector expects of it (outcome, hold reason, limits, the result
    /// of each item), one a line; empty when it is right. Public for `locwire-server probe`, which judges the
    /// acks a server sends over HTTP with exactly these checks.
    public static func judge(_ expected: ExpectedAck, _ ack: BatchAck) -> [String] {
        var problems: [String] = []
        func check<Value: Equatable>(_ name: String, _ expected: Value?, _ actual: Value) {
            if let expected, expected != actual { problems.append("\(name) is \(actual), expected \(expected)") }
        }
        check("the outcome", expected.outcome, ShortEnumName.outcome(ack.outcome))
        check("the hold reason", expected.holdReason, ShortEnumName.holdReason(ack.holdReason))
        check("max_batch_bytes", expected.maxBatchBytes, ack.maxBatchBytes ?? 0)
        check("retry_after_ms", expected.retryAfterMs, ack.retryAfterMs ?? 0)
        if let version = expected.trackingPolicyVersion, ack.trackingPolicy?.policyVersion != version {
            let actual = ack.trackingPolicy.map { "version \($0.policyVersion)" } ?? "absent"
            problems.append("the tracking policy is \(actual), expected version \(version)")
        }
        for (name, results, ranges) in [
            ("fix", expected.fixResults, ack.fixResults), ("fence event", expected.eventResults, ack.fenceEventResults),
        ] {
            for (key, result) in (results ?? [:]).sorted(by: { (UInt64($0.key) ?? 0) < (UInt64($1.key) ?? 0) }) {
                let sequence = UInt64(key) ?? 0
                let range = ranges.first { $0.firstSequence <= sequence && sequence <= $0.lastSequence }
                let actual = range.map(ShortEnumName.result) ?? "not covered"
                if actual != result { problems.append("\(name) \(sequence) is \(actual), expected \(result)") }
            }
        }
        return problems
    }

    /// The code of proto/README.md's "Acks a device ignores" that a device would ignore this ack with (all but
    /// `ack-undecodable` and `ack-unknown-batch`, which depend on the device), or nil.
    public static func reasonADeviceIgnores(_ ack: BatchAck) -> String? {
        switch ack.outcome {
        case .unspecified: return "ack-outcome-missing"
        case .processed, .hold, .tooLarge: break
        default: return "ack-outcome-unknown"
        }
        for ranges in [ack.fixResults, ack.fenceEventResults] {
            for (index, range) in ranges.enumerated() {
                if range.firstSequence == 0 || range.lastSequence < range.firstSequence { return "range-inverted" }
                guard index > 0 else { continue }
                if range.firstSequence < ranges[index - 1].firstSequence { return "ranges-not-sorted" }
                if range.firstSequence <= ranges[index - 1].lastSequence { return "ranges-overlap" }
            }
        }
        if ack.outcome != .processed, !(ack.fixResults.isEmpty && ack.fenceEventResults.isEmpty) {
            return "ranges-without-processing"
        }
        if (ack.fixResults + ack.fenceEventResults).contains(where: {
            $0.result == .rejected && $0.rejectReason == .unspecified
        }) {
            return "reject-reason-missing"
        }
        return nil
    }

    static func judge(_ expected: [ExpectedInstallation], _ actual: [InstallationState]) -> [String] {
        func key(_ deviceId: String, _ installId: UInt64) -> String { "(\(deviceId), \(installId))" }
        // An installation with no stored, refused or lost number says nothing: listed or not, it is the same.
        let expected = expected.filter {
            !($0.storedFixes ?? []).isEmpty || !($0.rejectedFixes ?? []).isEmpty || !($0.lostFixes ?? []).isEmpty
                || !($0.storedEvents ?? []).isEmpty || !($0.rejectedEvents ?? []).isEmpty
                || !($0.lostEvents ?? []).isEmpty
        }
        let actual = actual.filter {
            !$0.storedFixes.isEmpty || !$0.rejectedFixes.isEmpty || !$0.lostFixes.isEmpty
                || !$0.storedEvents.isEmpty || !$0.rejectedEvents.isEmpty || !$0.lostEvents.isEmpty
        }
        var problems: [String] = []
        let actualKeys = actual.map { key($0.deviceId, $0.installId) }
        let expectedKeys = expected.map { key($0.deviceId, $0.installId) }
        if Set(actualKeys) != Set(expectedKeys) {
            problems.append("installations are \(actualKeys), expected \(expectedKeys)")
        }
        for installation in expected {
            guard
                let state = actual.first(where: {
                    $0.deviceId == installation.deviceId && $0.installId == installation.installId
                })
            else { continue }
            let lists: [(String, [[UInt64]]?, [SequenceRange])] = [
                ("stored fixes", installation.storedFixes, state.storedFixes),
                ("rejected fixes", installation.rejectedFixes, state.rejectedFixes),
                ("lost fixes", installation.lostFixes, state.lostFixes),
                ("stored events", installation.storedEvents, state.storedEvents),
                ("rejected events", installation.rejectedEvents, state.rejectedEvents),
                ("lost events", installation.lostEvents, state.lostEvents),
            ]
            for (name, expectedRanges, actualRanges) in lists {
                let wanted = normalized((expectedRanges ?? []).map { ($0.first ?? 0, $0.last ?? 0) })
                let got = normalized(actualRanges.map { ($0.first, $0.last) })
                if wanted.map(\.0) != got.map(\.0) || wanted.map(\.1) != got.map(\.1) {
                    problems.append(
                        "\(key(installation.deviceId, installation.installId)) \(name) are \(text(got)), expected \(text(wanted))"
                    )
                }
            }
        }
        return problems
    }

    /// Sorted, merged where they overlap or touch.
    static func normalized(_ ranges: [(UInt64, UInt64)]) -> [(UInt64, UInt64)] {
        var merged: [(UInt64, UInt64)] = []
        for range in ranges.sorted(by: { $0.0 < $1.0 }) {
            if let last = merged.last, range.0 <= last.1 &+ 1 {
                merged[merged.count - 1].1 = max(last.1, range.1)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    static func text(_ ranges: [(UInt64, UInt64)]) -> String {
        "[" + ranges.map { $0.0 == $0.1 ? "\($0.0)" : "\($0.0)-\($0.1)" }.joined(separator: ", ") + "]"
    }
}
