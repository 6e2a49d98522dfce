import LocationWire
import LocationWireConformance
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireSession

/// The scenarios of issue 12 a server must get right with any configuration: resends, rejections, out-of-order
/// arrival, size, undecodable bytes, both formats and gzip, reinstalls and many installations at once.
enum BatchScenarios {
    static var checks: [ProbeCheck] {
        [
            duplicateResend, lostAckResend, partialReject, outOfOrder, reinstallEpoch, oversized, undecodable,
            binaryFormat, jsonFormat, noProtoParameter, acceptNegotiation, gzip, gzipBomb, concurrentInstallations,
            oneInstallationAtOnce,
        ]
    }

    /// Sends `steps` in order (each a batch and the ack it must get), then checks the read-back holds exactly
    /// the fixes of `stored` (by install id).
    static func run(
        _ steps: [(batch: LocationBatch, expected: ExpectedAck)], stored: [UInt64: [UInt64]], context: ProbeContext,
        format: BodyFormat = .binary, gzip: Bool = false, passed: String
    ) async throws -> Verdict {
        var problems: [String] = []
        for (index, step) in steps.enumerated() {
            let result = try await context.upload(step.batch, format: format, gzip: gzip)
            problems += ProbeContext.problems(of: result, for: step.batch, expected: step.expected).map {
                "batch \(index + 1) (\(ProbeContext.describe(result))): \($0)"
            }
        }
        var note = ""
        for install in Set(steps.map(\.batch.installId)).sorted() {
            let sent = steps.map(\.batch).filter { $0.installId == install }.flatMap(VectorScenarios.fixes(of:))
            let wanted = Set(stored[install] ?? [])
            var first: [UInt64: LocationFix] = [:]
            for fix in sent where first[fix.sequence] == nil && wanted.contains(fix.sequence) {
                first[fix.sequence] = fix
            }
            let (storage, storageNote) = try await context.storageProblems(
                install: install, expected: first.values.sorted { $0.sequence < $1.sequence }, sent: sent)
            problems += storage
            note = storageNote
        }
        return .judging(problems, passed: passed + note)
    }

    static let duplicateResend = ProbeCheck("batches.duplicate-resend", rules: ["§http-retry", "§fix-key"]) { context in
        let install = context.freshInstallId()
        let first = context.batch(install: install, batchId: 1, backlog: [1, 2], live: 3)
        let again = context.batch(install: install, batchId: 2, backlog: [1, 2], live: 3)
        let overlapping = context.batch(install: install, batchId: 3, backlog: [3, 4], live: 5)
        var mixed = ProbeContext.processed([3], "DUPLICATE")
        mixed.fixResults?["4"] = "ACCEPTED"
        mixed.fixResults?["5"] = "ACCEPTED"
        return try await run(
            [
                (first, ProbeContext.processed([1, 2, 3], "ACCEPTED")),
                (again, ProbeContext.processed([1, 2, 3], "DUPLICATE")), (overlapping, mixed),
            ], stored: [install: [1, 2, 3, 4, 5]], context: context,
            passed: "fixes 1-3 ACCEPTED, the same fixes in a new batch DUPLICATE, then 3 DUPLICATE and 4-5 ACCEPTED")
    }

    static let lostAckResend = ProbeCheck("batches.lost-ack-resend", rules: ["§http-retry", "§fix-key"]) { context in
        let install = context.freshInstallId()
        var batch = context.batch(install: install, batchId: 7, backlog: [1, 2, 3], live: 4)
        batch.fixes[2].latitudeE7 = 900_000_001
        var firstAck = ProbeContext.processed([1, 2, 4], "ACCEPTED")
        firstAck.fixResults?["3"] = "REJECTED:INVALID_COORDINATES"
        var resentAck = ProbeContext.processed([1, 2, 4], "DUPLICATE")
        resentAck.fixResults?["3"] = "REJECTED:INVALID_COORDINATES"
        return try await run(
            [(batch, firstAck), (batch, resentAck)], stored: [install: [1, 2, 4]], context: context,
            passed:
                "the very same batch twice (its ack lost): DUPLICATE for what was stored, the invalid fix 3 REJECTED again"
        )
    }

    static let partialReject = ProbeCheck("batches.partial-reject", rules: ["§ack-table", "§item-defects"]) { context in
        let install = context.freshInstallId()
        var batch = context.batch(install: install, batchId: 1, backlog: [1, 2, 3, 4, 5], live: 6)
        batch.fixes[1].latitudeE7 = 900_000_001
        batch.fixes[3].timeMs = 946_684_799_999
        batch.fixes[4].latitudeE7 = 0
        batch.fixes[4].longitudeE7 = 0
        var expected = ProbeContext.processed([1, 3, 6], "ACCEPTED")
        expected.fixResults?["2"] = "REJECTED:INVALID_COORDINATES"
        expected.fixResults?["4"] = "REJECTED:TIMESTAMP_OUT_OF_RANGE"
        expected.fixResults?["5"] = "REJECTED:INVALID_COORDINATES"
        return try await run(
            [(batch, expected)], stored: [install: [1, 3, 6]], context: context,
            passed:
                "fixes 2, 4 and 5 REJECTED with their reasons, 1, 3 and 6 ACCEPTED: one bad fix never blocks a batch")
    }

    static let outOfOrder = ProbeCheck("batches.out-of-order-backlog", rules: ["§fix-key", "§http-retry"]) { context in
        let install = context.freshInstallId()
        let late = context.batch(install: install, batchId: 3, backlog: Array(11...14), live: 15)
        let early = context.batch(install: install, batchId: 1, backlog: Array(1...4), live: 5)
        let middle = context.batch(install: install, batchId: 2, backlog: Array(6...9), live: 10)
        return try await run(
            [
                (late, ProbeContext.processed(Array(11...15), "ACCEPTED")),
                (early, ProbeContext.processed(Array(1...5), "ACCEPTED")),
                (middle, ProbeContext.processed(Array(6...10), "ACCEPTED")),
            ], stored: [install: Array(1...15)], context: context,
            passed: "batches 11-15, 1-5, then 6-10 (a retried backlog arriving late): every fix ACCEPTED and stored")
    }

    static let reinstallEpoch = ProbeCheck("batches.reinstall-epoch", rules: ["§install-id", "§fix-key"]) { context in
        let old = context.freshInstallId()
        let new = context.freshInstallId()
        return try await run(
            [
                (
                    context.batch(install: old, batchId: 1, backlog: [1, 2], live: 3),
                    ProbeContext.processed([1, 2, 3], "ACCEPTED")
                ),
                (
                    context.batch(install: new, batchId: 1, backlog: [1, 2], live: 3),
                    ProbeContext.processed([1, 2, 3], "ACCEPTED")
                ),
                (
                    context.batch(install: old, batchId: 2, backlog: [3], live: 4),
                    {
                        var ack = ProbeContext.processed([3], "DUPLICATE")
                        ack.fixResults?["4"] = "ACCEPTED"
                        return ack
                    }()
                ),
            ], stored: [old: [1, 2, 3, 4], new: [1, 2, 3]], context: context,
            passed: "a new install_id numbers from 1 again: its fixes 1-3 are new (ACCEPTED), the old ones untouched")
    }

    /// A batch of fixes 1-3 padded past `bytes` with an unknown field (number 50001, which no revision uses).
    static func padded(_ batch: LocationBatch, to bytes: Int) -> [UInt8] {
        let base = batch.serializedBytes()
        let padding = max(bytes - base.count, 0)
        return base + varint(UInt64(50_001 << 3 | 2)) + varint(UInt64(padding))
            + [UInt8](repeating: 0x61, count: padding)
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    static let oversized = ProbeCheck("batches.oversized", rules: ["§http-size", "§http-error-codes"]) { context in
        let install = context.freshInstallId()
        let batch = context.batch(install: install, batchId: 1, backlog: [1, 2], live: 3)
        let body = padded(batch, to: context.options.oversizedBytes)
        var answer: BindingClient.Exchange?
        var reset: (any Error)?
        // A server may close the connection once it has answered 413 without reading the rest; the client then
        // sees a reset before the answer. Whether the answer or the reset wins is a race on a loaded machine, so
        // the batch is sent up to three times for an answer to judge (nothing of it is stored either way).
        for _ in 1...3 where answer == nil {
            do {
                // Well-formed: the padding is an unknown field, so the body decodes; only its size is refused.
                answer = try await context.postBatchBytes(body, form: .wellFormed)
            } catch {
                reset = error
            }
        }
        guard let answer else {
            // Three resets: what counts is that nothing was stored and the server lives.
            return try await afterRefusal(
                install: install, batch: batch, context: context,
                passed: "a \(body.count)-byte batch: the connection was closed (\(reset.map { "\($0)" } ?? "")) "
                    + "before an answer, three times")
        }
        var problems: [String] = []
        var what = ""
        // One number in the policy, the TOO_LARGE ack and the 413: the policy's, or the default.
        let stated = Int(context.policy?.maxBatchBytes ?? UInt32(UploadQueue.defaultMaxBatchBytes))
        if answer.status == 200 {
            switch BindingClient.uploadResult(answer) {
            case .acknowledged(let ack) where ack.outcome == .tooLarge:
                if ack.maxBatchBytes.map(Int.init) != stated {
                    problems.append(
                        "the TOO_LARGE ack states max_batch_bytes \(ack.maxBatchBytes.map(String.init) ?? "absent"), "
                            + "expected \(stated), the one number the server states (§http-size)")
                }
                what = "200 TOO_LARGE with max_batch_bytes \(ack.maxBatchBytes ?? 0)"
            case let other:
                problems.append(
                    "answered \(ProbeContext.describe(other)), expected 413 or a TOO_LARGE ack (a server whose "
                        + "limit is above \(body.count) bytes needs a larger --oversized-bytes)")
            }
        } else {
            problems += ProbeContext.errorProblems(answer, statuses: [413], code: ErrorBody.Code.bodyTooLarge)
            if answer.status == 413, answer.errorBody?.maxBatchBytes != stated {
                problems.append(
                    "the 413 states maxBatchBytes \(answer.errorBody?.maxBatchBytes.map(String.init) ?? "absent"), "
                        + "expected \(stated), the max_batch_bytes the server states (§http-size)")
            }
            what = "413 with maxBatchBytes \(answer.errorBody?.maxBatchBytes.map(String.init) ?? "absent")"
        }
        let after = try await afterRefusal(
            install: install, batch: batch, context: context, passed: "a \(body.count)-byte batch: \(what)")
        return problems.isEmpty ? after : .failed((problems + [after.message]).joined(separator: "\n"))
    }

    /// After a refused batch: nothing of it is stored, and the server still takes a good batch.
    static func afterRefusal(
        install: UInt64, batch: LocationBatch, context: ProbeContext, passed: String
    ) async throws -> Verdict {
        var problems = try await context.storageProblems(
            install: install, expected: [], sent: VectorScenarios.fixes(of: batch)
        ).problems
        let probe = context.batch(install: context.freshInstallId(), batchId: 1, backlog: [], live: 1)
        let result = try await context.upload(probe)
        problems += ProbeContext.problems(of: result, for: probe, expected: ProbeContext.processed([1], "ACCEPTED"))
            .map { "a good batch afterwards: \($0)" }
        return .judging(problems, passed: passed + "; nothing stored, and the server still takes a good batch")
    }

    static let undecodable = ProbeCheck("batches.undecodable", rules: ["§http-error-body"]) { context in
        var problems: [String] = []
        // Field 1 (device_id) claiming 5 bytes where 2 follow; a device_id of invalid UTF-8; a field number 0.
        for (name, body) in [
            ("truncated", [0x0A, 0x05, 0x61, 0x62] as [UInt8]), ("invalid UTF-8", [0x0A, 0x02, 0xC3, 0x28]),
            ("field 0", [0x00, 0x01]),
        ] {
            let answer = try await context.postBatchBytes(
                body, form: .malformed("bytes that do not decode as a LocationBatch"))
            problems += expectDecodingError(answer, body: body, format: .binary).map { "\(name): \($0)" }
        }
        return .judging(
            problems, passed: "three undecodable bodies: 400 with the codec's code, offset and fieldPath each")
    }

    /// The problems of a 400 for an undecodable `body`: the error body must carry what the reference codec says
    /// of the same bytes (its stable code, the byte offset and the field path).
    static func expectDecodingError(_ answer: BindingClient.Exchange, body: [UInt8], format: BodyFormat) -> [String] {
        let reference: ErrorBody
        do {
            _ = try format.decode(LocationBatch.self, from: body)
            return ["the probe's own body decodes; this is a bug in the probe"]
        } catch {
            reference = error
        }
        var problems = ProbeContext.errorProblems(answer, statuses: [400], code: reference.code)
        if let got = answer.errorBody {
            if got.offset != reference.offset {
                problems.append(
                    "offset is \(got.offset.map(String.init) ?? "absent"), expected \(reference.offset.map(String.init) ?? "absent")"
                )
            }
            if got.fieldPath != reference.fieldPath {
                problems.append(
                    "fieldPath is \(got.fieldPath ?? "absent"), expected \(reference.fieldPath ?? "absent")")
            }
        }
        return problems
    }

    /// Checks a 200 answer's Content-Type: `format`'s media type, and `proto=` naming BatchAck when present.
    static func contentTypeProblems(_ answer: BindingClient.Exchange, format: BodyFormat) -> [String] {
        guard let header = answer.header("Content-Type"), let type = MediaType(header) else {
            return ["the ack has no Content-Type, expected \(format.mediaType)"]
        }
        var problems: [String] = []
        if type.format != format {
            problems.append("the ack's Content-Type is \(header), expected \(format.mediaType)")
        }
        if let proto = type.proto, proto != BatchAck.schema.fullName {
            problems.append("the ack's proto= is \(proto), expected \(BatchAck.schema.fullName)")
        }
        return problems
    }

    /// Posts a batch of fixes 1-3 in `format` with `accept`, and checks the ack comes back in `answerFormat`.
    static func formatProblems(
        _ context: ProbeContext, format: BodyFormat, accept: String?, answerFormat: BodyFormat, gzip: Bool = false,
        contentType: String? = nil
    ) async throws -> [String] {
        let install = context.freshInstallId()
        let batch = context.batch(install: install, batchId: 1, backlog: [1, 2], live: 3)
        let encoded = format.encode(batch)
        var headers: [(String, String)] = []
        if let accept { headers.append(("Accept", accept)) }
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        let answer = try await context.postBatchBytes(
            gzip ? GzipCoding.compress(encoded) : encoded,
            contentType: contentType ?? format.contentType(for: LocationBatch.self),
            headers: headers, form: .wellFormed)
        let result = BindingClient.uploadResult(answer)
        var problems = ProbeContext.problems(
            of: result, for: batch, expected: ProbeContext.processed([1, 2, 3], "ACCEPTED"))
        if answer.status == 200 { problems += contentTypeProblems(answer, format: answerFormat) }
        problems += try await context.storageProblems(
            install: install, expected: VectorScenarios.fixes(of: batch), sent: []
        ).problems
        return problems
    }

    static let binaryFormat = ProbeCheck("formats.binary", rules: ["§http-media-types", "§http-negotiation"]) {
        context in
        .judging(
            try await formatProblems(
                context, format: .binary, accept: Binding.protobufMediaType, answerFormat: .binary),
            passed: "a binary batch with proto=locationwire.v1.LocationBatch: a binary BatchAck, fixes stored as sent")
    }

    static let jsonFormat = ProbeCheck("formats.json", rules: ["§http-media-types", "§http-negotiation"]) { context in
        .judging(
            try await formatProblems(context, format: .json, accept: Binding.jsonMediaType, answerFormat: .json),
            passed:
                "a proto3 JSON batch with proto=locationwire.v1.LocationBatch: a JSON BatchAck, fixes stored as sent")
    }

    static let noProtoParameter = ProbeCheck("formats.no-proto-parameter", rules: ["§http-media-types"]) { context in
        var problems = try await formatProblems(
            context, format: .binary, accept: nil, answerFormat: .binary, contentType: Binding.protobufMediaType
        ).map { "application/x-protobuf: \($0)" }
        problems += try await formatProblems(
            context, format: .json, accept: nil, answerFormat: .json, contentType: Binding.jsonMediaType
        ).map { "application/json: \($0)" }
        return .judging(problems, passed: "bodies without the proto parameter, binary and JSON: acked and stored")
    }

    static let acceptNegotiation = ProbeCheck("formats.accept-negotiation", rules: ["§http-negotiation"]) { context in
        var problems = try await formatProblems(
            context, format: .binary, accept: Binding.jsonMediaType, answerFormat: .json
        ).map { "binary request, Accept JSON: \($0)" }
        problems += try await formatProblems(
            context, format: .json, accept: Binding.protobufMediaType, answerFormat: .binary
        ).map { "JSON request, Accept binary: \($0)" }
        problems += try await formatProblems(context, format: .json, accept: nil, answerFormat: .json).map {
            "JSON request, no Accept: \($0)"
        }
        return .judging(
            problems, passed: "the ack follows Accept when it names the other format, else the request's format")
    }

    static let gzip = ProbeCheck("formats.gzip", rules: ["§http-gzip"]) { context in
        var problems = try await formatProblems(
            context, format: .binary, accept: nil, answerFormat: .binary, gzip: true
        ).map { "binary, gzip: \($0)" }
        problems += try await formatProblems(context, format: .json, accept: nil, answerFormat: .json, gzip: true).map {
            "JSON, gzip: \($0)"
        }
        return .judging(problems, passed: "gzip request bodies, binary and JSON: acked and stored")
    }

    static let gzipBomb = ProbeCheck("formats.gzip-bomb", rules: ["§http-gzip", "§http-size"]) { context in
        // 64 MiB of zeros in about 64 KiB: far past any body limit once decompressed.
        let bomb = GzipCoding.compress([UInt8](repeating: 0, count: 64 << 20))
        let answer = try await context.postBatchBytes(
            bomb, headers: [("Content-Encoding", "gzip")],
            form: .malformed("gzip of 64 MiB of zeros, which decode as no LocationBatch"))
        var problems = ProbeContext.errorProblems(answer, statuses: [413], code: ErrorBody.Code.bodyTooLarge)
        let probe = context.batch(install: context.freshInstallId(), batchId: 1, backlog: [], live: 1)
        problems += ProbeContext.problems(
            of: try await context.upload(probe), for: probe, expected: ProbeContext.processed([1], "ACCEPTED")
        ).map { "a good batch afterwards: \($0)" }
        return .judging(
            problems,
            passed: "\(bomb.count) gzip bytes of 64 MiB of zeros: 413, and the server still takes a good batch")
    }

    /// Batches of one installation that overlap, all sent at once (as resends after time-outs race the first
    /// sending): each answer must be the one its batch would get taken alone, in some order, so that every fix
    /// is `ACCEPTED` in exactly one ack and `DUPLICATE` in the others, and stored once. A group commit that
    /// took two of them from the same ledger record would accept a fix twice.
    static let oneInstallationAtOnce = ProbeCheck(
        "batches.one-installation-at-once", rules: ["§http-group-commit", "§fix-key"]
    ) { context in
        let install = context.freshInstallId()
        let batchCount = 12
        // Batch k carries fixes 3k+1 ... 3k+6: each overlaps the next by three.
        let batches = (0..<batchCount).map { index in
            let first = UInt64(index * 3 + 1)
            return context.batch(install: install, batchId: UInt64(index + 1), backlog: Array(first...(first + 5)))
        }
        let answers = try await withThrowingTaskGroup(of: (Int, BindingClient.UploadResult).self) { group in
            for (index, batch) in batches.enumerated() {
                group.addTask { (index, try await context.upload(batch)) }
            }
            var answers: [(Int, BindingClient.UploadResult)] = []
            for try await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }
        }
        var problems: [String] = []
        var accepted: [UInt64: Int] = [:]
        for (index, answer) in answers {
            guard case .acknowledged(let ack) = answer, ack.outcome == .processed else {
                problems.append("batch \(index + 1): \(ProbeContext.describe(answer)), expected 200 PROCESSED")
                continue
            }
            let carried = Set(VectorScenarios.fixes(of: batches[index]).map(\.sequence))
            var answered: Set<UInt64> = []
            for range in ack.fixResults {
                for sequence in range.firstSequence...range.lastSequence {
                    answered.insert(sequence)
                    switch range.result {
                    case .accepted: accepted[sequence, default: 0] += 1
                    case .duplicate: break
                    default:
                        problems.append(
                            "batch \(index + 1): fix \(sequence) \(range.result), expected ACCEPTED or DUPLICATE")
                    }
                }
            }
            if answered != carried {
                problems.append("batch \(index + 1) answers fixes \(answered.sorted()), it carried \(carried.sorted())")
            }
        }
        let sent = batches.flatMap(VectorScenarios.fixes(of:))
        let sequences = Set(sent.map(\.sequence))
        for sequence in sequences.sorted() where accepted[sequence] != 1 {
            problems.append("fix \(sequence) ACCEPTED in \(accepted[sequence] ?? 0) acks, expected exactly 1")
        }
        let unique = Dictionary(sent.map { ($0.sequence, $0) }, uniquingKeysWith: { first, _ in first })
        problems += try await context.storageProblems(
            install: install, expected: unique.values.sorted { $0.sequence < $1.sequence }, sent: []
        ).problems
        return .judging(
            problems,
            passed: "\(batchCount) overlapping batches of one installation at once: every fix ACCEPTED in one ack, "
                + "DUPLICATE in the others, stored once")
    }

    /// Installations at once, each sending batches one after another (with a resend), as many phones would.
    static let concurrentInstallations = ProbeCheck(
        "batches.concurrent-devices", rules: ["§fix-key", "§http-ack-after-commit"]
    ) { context in
        let installations = 16
        let batchesEach = 4
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<installations {
                group.addTask {
                    let install = context.freshInstallId()
                    var problems: [String] = []
                    var sent: [LocationFix] = []
                    for index in 0..<batchesEach {
                        let first = UInt64(index * 5 + 1)
                        let batch = context.batch(
                            install: install, batchId: UInt64(index + 1), backlog: Array(first...(first + 3)),
                            live: first + 4)
                        sent += VectorScenarios.fixes(of: batch)
                        let expected = ProbeContext.processed(Array(first...(first + 4)), "ACCEPTED")
                        problems += ProbeContext.problems(
                            of: try await context.upload(batch), for: batch, expected: expected
                        ).map { "install \(install) batch \(index + 1): \($0)" }
                        // The same batch again, as after a lost ack.
                        let duplicate = ProbeContext.processed(Array(first...(first + 4)), "DUPLICATE")
                        problems += ProbeContext.problems(
                            of: try await context.upload(batch), for: batch, expected: duplicate
                        ).map { "install \(install) batch \(index + 1) resent: \($0)" }
                    }
                    problems += try await context.storageProblems(install: install, expected: sent, sent: [])
                        .problems.map { "install \(install): \($0)" }
                    return problems
                }
            }
            var all: [String] = []
            for try await problems in group { all += problems }
            return all
        }
        return .judging(
            problems,
            passed:
                "\(installations) installations at once, \(batchesEach) batches of 5 fixes each, each sent twice: "
                + "every ack right, every fix stored once")
    }
}
