import Foundation
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient

/// Every status of proto/HTTP.md's table but 200 (which every other check sees), 413 (`batches.oversized`) and
/// 429/503 (``LoadScenarios``): each refusal with its JSON error body and `code`, its headers, and nothing of a
/// refused batch stored.
enum StatusScenarios {
    static var checks: [ProbeCheck] {
        [
            garbage, jsonSyntax, badGzip, gzipCutShort, gzipTrailingBytes, noToken, unknownToken, tokenBeforeBody,
            otherDevice, otherDeviceReadBack,
            unknownPath, wrongMethod, wrongContentType, wrongProto, emptyProto, twoProtos, unknownContentEncoding,
            slowClient, halfSentBody,
            readBackBadQuery,
        ]
    }

    /// Sends a valid batch of a fresh installation in a way the server must refuse, and checks the refusal and
    /// that nothing of the batch was stored.
    static func refusal(
        _ context: ProbeContext, statuses: Set<Int>, code: String?, headers: [(String, String)] = [],
        passed: String,
        send: (LocationBatch) async throws -> BindingClient.Exchange
    ) async throws -> Verdict {
        let batch = context.batch(install: context.freshInstallId(), batchId: 1, backlog: [1, 2], live: 3)
        let answer = try await send(batch)
        var problems = ProbeContext.errorProblems(answer, statuses: statuses, code: code, headers: headers)
        let (storage, note) = try await context.storageProblems(
            install: batch.installId, expected: [], sent: VectorScenarios.fixes(of: batch))
        problems += storage
        return .judging(problems, passed: passed + note)
    }

    static let garbage = ProbeCheck("status.400.garbage", rules: ["§http-error-body", "§http-error-codes"]) { context in
        let body: [UInt8] = [0x0A, 0x05, 0x61, 0x62]
        let answer = try await context.postBatchBytes(
            body, form: .malformed("bytes that do not decode as a LocationBatch"))
        return .judging(
            BatchScenarios.expectDecodingError(answer, body: body, format: .binary),
            passed: "bytes that do not decode: 400 with the codec's code, offset and fieldPath")
    }

    static let jsonSyntax = ProbeCheck("status.400.json-syntax", rules: ["§http-error-body", "§http-error-codes"]) {
        context in
        let body = Array("{\"deviceId\": \"\(context.deviceId)\", \"installId\": ".utf8)
        let answer = try await context.postBatchBytes(
            body, contentType: BodyFormat.json.contentType(for: LocationBatch.self),
            form: .malformed("JSON cut short, which does not read as a LocationBatch"))
        return .judging(
            BatchScenarios.expectDecodingError(answer, body: body, format: .json),
            passed: "JSON cut short: 400 with the JSON reader's code, offset and fieldPath")
    }

    static let badGzip = ProbeCheck("status.400.bad-gzip", rules: ["§http-gzip", "§http-error-codes"]) { context in
        try await refusal(
            context, statuses: [400], code: ErrorBody.Code.corruptContentEncoding,
            passed: "Content-Encoding gzip over bytes that are not gzip: 400 corrupt-content-encoding"
        ) { batch in
            try await context.postBatchBytes(
                batch.serializedBytes(), headers: [("Content-Encoding", "gzip")],
                form: .malformed("Content-Encoding gzip over bytes that are not gzip"))
        }
    }

    static let gzipCutShort = ProbeCheck("status.400.gzip-cut-short", rules: ["§http-gzip"]) { context in
        try await refusal(
            context, statuses: [400], code: ErrorBody.Code.corruptContentEncoding,
            passed: "a gzip body without its 8-byte trailer (CRC-32, length): 400 corrupt-content-encoding"
        ) { batch in
            let whole = GzipCoding.compress(batch.serializedBytes())
            return try await context.postBatchBytes(
                Array(whole.dropLast(8)), headers: [("Content-Encoding", "gzip")],
                form: .malformed("a gzip member without its 8-byte trailer"))
        }
    }

    static let gzipTrailingBytes = ProbeCheck("status.400.gzip-trailing-bytes", rules: ["§http-gzip"]) { context in
        try await refusal(
            context, statuses: [400], code: ErrorBody.Code.corruptContentEncoding,
            passed: "a whole gzip member followed by a second one: 400 corrupt-content-encoding"
        ) { batch in
            let member = GzipCoding.compress(batch.serializedBytes())
            return try await context.postBatchBytes(
                member + member, headers: [("Content-Encoding", "gzip")], form: .malformed("two gzip members"))
        }
    }

    static let noToken = ProbeCheck("status.401.no-token", rules: ["§http-auth-errors", "§http-bearer"]) { context in
        try await refusal(
            context, statuses: [401], code: ErrorBody.Code.unauthenticated, headers: [("WWW-Authenticate", "Bearer")],
            passed: "no Authorization: 401 with WWW-Authenticate: Bearer"
        ) { batch in
            try await context.postBatchBytes(
                batch.serializedBytes(), token: .some(nil), form: .malformed("no Authorization"))
        }
    }

    static let unknownToken = ProbeCheck("status.401.unknown-token", rules: ["§http-auth-errors", "§http-bearer"]) {
        context in
        try await refusal(
            context, statuses: [401], code: ErrorBody.Code.unauthenticated, headers: [("WWW-Authenticate", "Bearer")],
            passed: "a token the server never issued: 401 with WWW-Authenticate: Bearer"
        ) { batch in
            let unknown = (0..<64).map { _ in "0123456789abcdef".randomElement().map(String.init) ?? "0" }.joined()
            // Well-formed: a token the server never issued has the form of any other.
            return try await context.postBatchBytes(batch.serializedBytes(), token: .some(unknown), form: .wellFormed)
        }
    }

    static let tokenBeforeBody = ProbeCheck("status.401.before-body", rules: ["§http-auth-errors"]) { context in
        // Bytes that do not decode, without a token: the token is checked first, so the answer is 401, not 400.
        let answer = try await context.postBatchBytes(
            [0x0A, 0x05, 0x61, 0x62], token: .some(nil),
            form: .malformed("no Authorization, and bytes that do not decode as a LocationBatch"))
        return .judging(
            ProbeContext.errorProblems(
                answer, statuses: [401], code: ErrorBody.Code.unauthenticated, headers: [("WWW-Authenticate", "Bearer")]
            ),
            passed: "an undecodable body without a token: 401, not 400 (the token is checked before the body is read)")
    }

    static let readBackBadQuery = ProbeCheck("readback.bad-query", rules: ["§http-read-back", "§http-error-codes"]) {
        context in
        guard context.readBackOffered else { return .notApplicable("the server offers no read-back") }
        let answer = try await context.exchange(
            method: "GET", path: Binding.fixesPath(deviceId: context.deviceId) + "?from=yesterday",
            token: context.token, form: .malformed("from=yesterday, not an integer"))
        return .judging(
            ProbeContext.errorProblems(answer, statuses: [400], code: ErrorBody.Code.badQuery),
            passed: "the read-back with from=yesterday: 400 bad-query")
    }

    static let otherDevice = ProbeCheck("status.403.other-device", rules: ["§http-auth-errors"]) { context in
        // The batch names another device; the read-back of the token's device must not show it either.
        try await refusal(
            context, statuses: [403], code: ErrorBody.Code.deviceMismatch,
            passed: "a batch naming another device_id: 403 device-mismatch"
        ) { batch in
            var other = batch
            other.deviceId = context.deviceId + "-not-this-token"
            return try await context.postBatchBytes(other.serializedBytes(), form: .wellFormed)
        }
    }

    static let otherDeviceReadBack = ProbeCheck(
        "status.403.other-device-read-back", rules: ["§http-auth-errors", "§http-read-back"]
    ) { context in
        guard context.readBackOffered else { return .notApplicable("the server offers no read-back") }
        let answer = try await context.exchange(
            method: "GET", path: Binding.fixesPath(deviceId: context.deviceId + "-not-this-token") + "?from=0&to=1",
            token: context.token, form: .wellFormed)
        return .judging(
            ProbeContext.errorProblems(answer, statuses: [403], code: ErrorBody.Code.deviceMismatch),
            passed: "the read-back of another device: 403 device-mismatch")
    }

    static let unknownPath = ProbeCheck("status.404.unknown-path", rules: ["§http-endpoints", "§http-error-codes"]) {
        context in
        let answer = try await context.exchange(
            method: "GET", path: "/v1/no-such-endpoint-\(context.freshInstallId())", token: context.token,
            form: .malformed("a path the binding does not have"))
        return .judging(
            ProbeContext.errorProblems(answer, statuses: [404], code: ErrorBody.Code.notFound),
            passed: "an unknown path: 404 with the JSON error body")
    }

    static let wrongMethod = ProbeCheck("status.405.wrong-method", rules: ["§http-error-codes"]) { context in
        let answer = try await context.exchange(
            method: "GET", path: Binding.batchesPath, token: context.token,
            form: .malformed("GET on a path that takes only POST"))
        switch answer.status {
        case 405:
            return .judging(
                ProbeContext.errorProblems(answer, statuses: [405], code: ErrorBody.Code.methodNotAllowed),
                passed: "GET /v1/batches: 405 with the JSON error body")
        case 400..<500 where answer.status != 401 && answer.status != 403:
            let problems = ProbeContext.errorProblems(answer, statuses: [answer.status])
            return problems.isEmpty
                ? .notApplicable("GET /v1/batches answers \(answer.status), not 405; the server does not send 405")
                : .failed(problems.joined(separator: "\n"))
        default:
            return .failed(
                "GET /v1/batches answered \(answer.status), expected 405 (or another 4xx) with an error body")
        }
    }

    static let wrongContentType = ProbeCheck(
        "status.415.content-type", rules: ["§http-media-types", "§http-error-codes"]
    ) { context in
        try await refusal(
            context, statuses: [415], code: ErrorBody.Code.unsupportedMediaType,
            passed: "Content-Type text/plain: 415 unsupported-media-type"
        ) { batch in
            try await context.postBatchBytes(
                batch.serializedBytes(), contentType: "text/plain", form: .malformed("Content-Type text/plain"))
        }
    }

    static let wrongProto = ProbeCheck("status.415.proto", rules: ["§http-media-types", "§http-error-codes"]) {
        context in
        try await refusal(
            context, statuses: [415], code: ErrorBody.Code.unsupportedMediaType,
            passed: "proto=locationwire.v1.RegionRequest on /v1/batches: 415 unsupported-media-type"
        ) { batch in
            try await context.postBatchBytes(
                batch.serializedBytes(), contentType: BodyFormat.binary.contentType(for: RegionRequest.self),
                form: .malformed("proto=locationwire.v1.RegionRequest on /v1/batches"))
        }
    }

    static let emptyProto = ProbeCheck("status.415.empty-proto", rules: ["§http-media-types"]) { context in
        try await refusal(
            context, statuses: [415], code: ErrorBody.Code.unsupportedMediaType,
            passed: "an empty proto parameter: 415 unsupported-media-type"
        ) { batch in
            try await context.postBatchBytes(
                batch.serializedBytes(), contentType: "\(Binding.protobufMediaType); proto=",
                form: .malformed("an empty proto parameter"))
        }
    }

    static let twoProtos = ProbeCheck("status.415.two-protos", rules: ["§http-media-types"]) { context in
        try await refusal(
            context, statuses: [415], code: ErrorBody.Code.unsupportedMediaType,
            passed: "two proto parameters (the right one last): 415 unsupported-media-type"
        ) { batch in
            try await context.postBatchBytes(
                batch.serializedBytes(),
                contentType: "\(Binding.protobufMediaType); proto=locationwire.v1.RegionRequest; "
                    + "proto=locationwire.v1.LocationBatch", form: .malformed("two proto parameters"))
        }
    }

    static let unknownContentEncoding = ProbeCheck(
        "status.415.content-encoding", rules: ["§http-gzip", "§http-error-codes"]
    ) { context in
        try await refusal(
            context, statuses: [415], code: ErrorBody.Code.unsupportedContentEncoding,
            headers: [("Accept-Encoding", "")],
            passed: "Content-Encoding br: 415 with Accept-Encoding"
        ) { batch in
            try await context.postBatchBytes(
                batch.serializedBytes(), headers: [("Content-Encoding", "br")], form: .malformed("Content-Encoding br"))
        }
    }

    /// A raw request for a valid batch of a fresh installation, with `sentBytes` of its body.
    static func rawBatchRequest(_ context: ProbeContext, sentFraction: Double) -> (RawRequest, LocationBatch)? {
        guard let (host, port, prefix) = RawRequest.endpoint(of: context.options.server) else { return nil }
        let batch = context.batch(install: context.freshInstallId(), batchId: 1, backlog: [1, 2, 3], live: 4)
        let body = batch.serializedBytes()
        let head =
            "POST \(prefix)\(Binding.batchesPath) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
            + "Authorization: Bearer \(context.token)\r\n"
            + "Content-Type: \(BodyFormat.binary.contentType(for: LocationBatch.self))\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        let sent = Array(body.prefix(Int(Double(body.count) * sentFraction)))
        return (RawRequest(host: host, port: port, head: head, partialBody: sent), batch)
    }

    static let slowClient = ProbeCheck("status.408.slow-client", rules: ["§http-partial-body", "§http-error-codes"]) {
        context in
        guard let (request, batch) = rawBatchRequest(context, sentFraction: 0.5) else {
            return .notApplicable("a raw TCP request needs an http:// URL")
        }
        let wait = context.options.stallSeconds
        var ending = try await request.stall(wait: .milliseconds(Int64(wait * 1000)))
        // A rate-limited or loaded server may refuse the request before its body matters: wait, and stall again.
        for _ in 0..<5 {
            guard ending == .answered(status: 429) || ending == .answered(status: 503) else { break }
            try await Task.sleep(for: .seconds(1))
            ending = try await request.stall(wait: .milliseconds(Int64(wait * 1000)))
        }
        var problems: [String] = []
        let what: String
        switch ending {
        case .answered(let status) where status == 408:
            what = "408"
        case .answered(let status):
            what = "\(status)"
            problems.append("a stalled body was answered \(status), expected 408 or a closed connection")
        case .closed:
            what = "the connection closed"
        case .stillOpen:
            what = "nothing"
            problems.append(
                "the server neither answered nor closed within \(wait) s of a stalled body (raise --stall-seconds "
                    + "above the server's body time-out if it is longer)")
        }
        let (storage, note) = try await context.storageProblems(
            install: batch.installId, expected: [], sent: VectorScenarios.fixes(of: batch))
        problems += storage
        return .judging(
            problems, passed: "half a body, then a stall: \(what) within \(wait) s\(note)")
    }

    static let halfSentBody = ProbeCheck("status.partial-body", rules: ["§http-partial-body"]) { context in
        guard let (request, batch) = rawBatchRequest(context, sentFraction: 0.5) else {
            return .notApplicable("a raw TCP request needs an http:// URL")
        }
        try await request.sendAndClose()
        // The server learns of the close asynchronously; give it a moment before asking what it stored.
        try await Task.sleep(for: .milliseconds(500))
        return try await BatchScenarios.afterRefusal(
            install: batch.installId, batch: batch, context: context,
            passed: "half a body, then the connection closed")
    }
}
