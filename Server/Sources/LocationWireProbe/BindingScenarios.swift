import Foundation
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireJSON
import LocationWireConformance
import LocationWireSession

/// The settled rules a single request cannot show: each takes several exchanges (a batch, then the ledger; three
/// region requests; a batch per policy version). The one-request cases are the `http` vectors
/// (``HTTPVectorScenarios``).
enum BindingScenarios {
    static var checks: [ProbeCheck] {
        [lostNumbers, deltaAfterDelta, policyInAcks, retentionStated, jsonMeasuredAsSent, compactAsRows]
    }

    /// `§http-ledger`, `§gap-report`: numbers below the floor neither stored nor refused are lost, those at or
    /// above it pending, and the ledger says so.
    static let lostNumbers = ProbeCheck("ledger.lost-numbers", rules: ["§http-ledger", "§gap-report"]) { context in
        guard context.offers.contains("ledger") else { return .notApplicable("the server offers no ledger") }
        let install = context.freshInstallId()
        // Floor 5: 1-4 left the device without reaching the server; 7 and 8, above the floor, are pending.
        let batch = context.batch(install: install, batchId: 1, backlog: [5, 6], live: 9, floor: 5)
        var problems = ProbeContext.problems(
            of: try await context.upload(batch), for: batch, expected: ProbeContext.processed([5, 6, 9], "ACCEPTED"))
        let answer = try await context.exchange(
            method: "GET", path: Binding.ledgerPath(deviceId: context.deviceId), token: context.token,
            form: .wellFormed)
        guard answer.status == 200, let json = try? JSONValue.parse(answer.body),
            let document = LedgerDocument(json: json)
        else {
            return .failed(
                (problems + [
                    "the ledger answered \(answer.status): \(String(decoding: answer.body.prefix(200), as: UTF8.self))"
                ])
                .joined(separator: "\n"))
        }
        guard let entry = document.installations.first(where: { $0.installId == install }) else {
            return .failed((problems + ["the ledger has no entry for installation \(install)"]).joined(separator: "\n"))
        }
        let expected = LedgerDocument.Installation(
            installId: install, fixSequenceFloor: 5, eventSequenceFloor: entry.eventSequenceFloor,
            storedFixes: [5...6, 9...9], lostFixes: [1...4])
        if entry != expected { problems.append("the ledger says \(entry), expected \(expected)") }
        if document.deviceId != context.deviceId { problems.append("the ledger names device \(document.deviceId)") }
        return .judging(problems, passed: "floor 5 and fixes 5, 6, 9: the ledger reports 1-4 lost and 7-8 not lost")
    }

    /// A region request at the probe's region position.
    static func regionRequest(_ context: ProbeContext) -> RegionRequest {
        var request = RegionRequest()
        request.deviceId = context.deviceId
        request.reason = .initial
        var fix = context.fix(1)
        fix.sequence = 0
        if let (latitude, longitude) = context.options.regionPosition {
            fix.latitudeE7 = latitude
            fix.longitudeE7 = longitude
        }
        request.currentFix = fix
        request.platformSlotLimit = 20
        request.datum = .wgs84
        request.sentAtMs = context.baseTimeMs + 3_600_000
        request.platform = .android
        return request
    }

    /// Asks for regions once; the assignment, or why not.
    static func askForRegions(_ context: ProbeContext) async throws -> Result<RegionAssignment, ProbeFailure> {
        let answer = try await context.exchange(
            method: "POST", path: Binding.regionsPath, token: context.token,
            contentType: BodyFormat.binary.contentType(for: RegionRequest.self),
            headers: [("Accept", Binding.protobufMediaType)], body: regionRequest(context).serializedBytes(),
            form: .wellFormed)
        guard answer.status == 200, let assignment = try? RegionAssignment(serializedBytes: answer.body) else {
            return .failure(
                ProbeFailure(message: "POST /v1/regions answered \(answer.status) \(answer.errorBody?.code ?? "")"))
        }
        return .success(assignment)
    }

    struct ProbeFailure: Error {
        var message: String
    }

    /// `§http-regions-held`: the `previous` of a plan is the set the device holds, so a delta follows a delta.
    /// Three requests at one position: the second is a delta of the first (nothing changed), and the third a
    /// delta of the second, not a full assignment.
    static let deltaAfterDelta = ProbeCheck(
        "regions.delta-after-delta", rules: ["§http-regions-held", "§plan-delta"]
    ) { context in
        guard context.offers.contains("regions") else { return .notApplicable("the server offers no regions") }
        var answers: [RegionAssignment] = []
        for _ in 0..<3 {
            switch try await askForRegions(context) {
            case .success(let assignment): answers.append(assignment)
            case .failure(let failure): return .failed(failure.message)
            }
        }
        guard !answers[0].regions.isEmpty else {
            return .notApplicable("no region is assigned at the position (--regions-at)")
        }
        var problems: [String] = []
        for index in 1...2 {
            let (previous, next) = (answers[index - 1], answers[index])
            if next.mode != .delta || next.baseVersion != previous.assignmentVersion
                || next.assignmentVersion <= previous.assignmentVersion
            {
                problems.append(
                    "request \(index + 1): \(next.mode) version \(next.assignmentVersion) base \(next.baseVersion), "
                        + "expected a DELTA of version \(previous.assignmentVersion)")
            }
        }
        return .judging(
            problems,
            passed: "three requests at one position: a full assignment, then a delta, then a delta of the delta")
    }

    /// `§policy-in-acks`: a batch stating an older policy version gets the server's policy in its ack.
    static let policyInAcks = ProbeCheck("policy.in-acks", rules: ["§policy-in-acks"]) { context in
        guard let policy = context.policy, policy.policyVersion > 0 else {
            return .notApplicable("the server states no policy with a version above 0")
        }
        var problems: [String] = []
        for stated in [0, policy.policyVersion - 1] {
            var batch = context.batch(install: context.freshInstallId(), batchId: 1, backlog: [], live: 1)
            batch.policyVersion = stated
            guard case .acknowledged(let ack) = try await context.upload(batch) else {
                problems.append("policy_version \(stated): the batch was not acknowledged")
                continue
            }
            if ack.trackingPolicy?.policyVersion != policy.policyVersion {
                problems.append(
                    "policy_version \(stated): the ack carries "
                        + (ack.trackingPolicy.map { "policy version \($0.policyVersion)" } ?? "no policy")
                        + ", expected version \(policy.policyVersion)")
            }
        }
        return .judging(problems, passed: "batches stating older policy versions get policy \(policy.policyVersion)")
    }

    /// `§http-retention-stated`: a server set up to remove items by age states it in its policy.
    static let retentionStated = ProbeCheck("policy.retention-days", rules: ["§http-retention-stated"]) { context in
        guard let expected = context.options.expectedRetentionDays else {
            return .notApplicable("no --expect-retention-days: how long the server keeps items is not known here")
        }
        guard let stated = context.policy?.retentionDays else {
            return .failed("the server removes items after \(expected) days but its policy states no retention_days")
        }
        return stated == expected
            ? .passed("the policy states retention_days \(stated)")
            : .failed("the policy states retention_days \(stated), expected \(expected)")
    }

    /// `§http-size`, `§batch-size`: max_batch_bytes bounds the body as sent, so a JSON body over it is too large
    /// though its binary encoding is not.
    static let jsonMeasuredAsSent = ProbeCheck(
        "batches.json-measured-as-sent", rules: ["§http-size", "§batch-size"]
    ) { context in
        guard context.offers.contains("default-limits") else {
            return .notApplicable("the server states a max_batch_bytes other than the default")
        }
        let limit = UploadQueue.defaultMaxBatchBytes
        var batch = context.batch(install: context.freshInstallId(), batchId: 1, backlog: [])
        var sequence: UInt64 = 1
        while Array(batch.jsonString().utf8).count <= limit {
            batch.fixes.append(contentsOf: (sequence..<(sequence + 500)).map(context.fix))
            sequence += 500
        }
        batch.fixSequenceFloor = 1
        let binary = batch.serializedSize
        guard binary <= limit else { return .failed("the probe's batch is over the limit in binary too") }
        let result = try await context.upload(batch, format: .json)
        var problems: [String] = []
        switch result {
        case .acknowledged(let ack) where ack.outcome == .tooLarge: break
        case .refused(413, _, _): break
        default:
            problems.append(
                "a JSON body of \(Array(batch.jsonString().utf8).count) bytes (\(binary) in binary) got "
                    + "\(ProbeContext.describe(result)), expected TOO_LARGE or 413")
        }
        let (storage, note) = try await context.storageProblems(
            install: batch.installId, expected: [], sent: VectorScenarios.fixes(of: batch))
        problems += storage
        return .judging(
            problems, passed: "a JSON batch over max_batch_bytes as sent, within it in binary: too large\(note)")
    }

    /// `§http-read-back-fixes`: fixes sent as compact columns read back as the rows they are.
    static let compactAsRows = ProbeCheck("readback.compact-as-rows", rules: ["§http-read-back-fixes"]) { context in
        guard context.readBackOffered else { return .notApplicable("the server offers no read-back") }
        let install = context.freshInstallId()
        var batch = context.batch(install: install, batchId: 1, backlog: [], live: 4)
        let rows = (1...3).map(context.fix)
        batch.compactFixes = try CompactFixes(fixes: rows)
        batch.fixSequenceFloor = 1
        guard case .acknowledged(let ack) = try await context.upload(batch) else {
            return .failed("the compact batch was not acknowledged")
        }
        guard ack.outcome == .processed else {
            return .notApplicable("the server holds compact fixes (\(ShortEnumName.outcome(ack.outcome)))")
        }
        let (problems, note) = try await context.storageProblems(
            install: install, expected: rows + [context.fix(4)], sent: rows + [context.fix(4)])
        return .judging(problems, passed: "compact fixes 1-3 read back as the rows they are\(note)")
    }
}
