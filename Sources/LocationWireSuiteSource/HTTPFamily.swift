import Foundation
import LocationWire
import LocationWireConformance
import LocationWireHTTPBinding
import LocationWireJSON

/// Family (l): the HTTP binding (proto/HTTP.md) as data. Two kinds of case, both language-neutral:
///
/// - **answers** (`http.answer.*`): an answer to `POST /v1/batches` and what a device's queue does with it, as an
///   `HttpAnswerRequest` of the testee protocol (FEATURE_HTTP_ANSWERS). Each expectation is written here from the
///   text, and the generation stops when the reference device (``UploadAnswer`` and ``UploadQueue``) disagrees.
/// - **requests** (`http.request.*`): a request and the answers a server may give (`httpRequest`,
///   `expectedAnswers`), for a server set up as the file's `setup` says; `locwire-server probe` sends them to any
///   server. The codes, offsets and paths of bodies that do not decode are the codec's, by proto/README.md's
///   "Decoding errors" and "JSON"; everything else is written from the text.
enum HTTPFamily: VectorFamily {
    static let name = "http"
    static let description = """
        The HTTP binding (proto/HTTP.md): answers to POST /v1/batches and what a device's queue does with each \
        (HttpAnswerRequest, FEATURE_HTTP_ANSWERS), and requests with the answers a server may give (httpRequest, \
        expectedAnswers), which locwire-server probe sends to a server set up as `setup` says.
        """

    static let setup: [String: String]? = [
        "token": "{token} is a bearer token of device {device_id}; {operator_token}, when the server issues one, an "
            + "operator token (cases that need it say `requires: operator-token`)",
        "installations": "{install_id} is a fresh installation id for each case, so cases never meet",
        "limits": "cases that `require default-limits` assume max_batch_bytes 1048576 (the default) and a body "
            + "limit of at least that",
        "endpoints": "a case that requires an optional endpoint (policy, regions, read-back, ledger) applies when "
            + "the server offers it; an endpoint it leaves out answers 404 not-offered",
        "raw": "cases with `raw: true` are sent as written over a plain TCP connection (http:// servers only)",
    ]

    static var sections: [VectorFamilySection] {
        [
            answers, contentTypes, contentCodings, authentication, checkOrder, decodingErrors, jsonErrors, methods,
            messages, readBack, endpoints, sizes,
        ]
    }

    // MARK: - Answers (client side)

    static let batchId: UInt64 = 0x00B1_7E57
    /// Sun, 06 Nov 1994 08:49:37 GMT, the device's clock when the answers arrive.
    static let nowMs: Int64 = 784_111_777_000

    static func ackBody(_ batchId: UInt64 = batchId, json: Bool = false) -> [UInt8] {
        var ack = BatchAck()
        ack.batchId = batchId
        ack.outcome = .processed
        var range = AckRange()
        range.firstSequence = 1
        range.lastSequence = 3
        range.result = .accepted
        ack.fixResults = [range]
        return json ? Array(ack.jsonString().utf8) : ack.serializedBytes()
    }

    static func errorBody(_ code: String, maxBatchBytes: Int? = nil) -> [UInt8] {
        ErrorBody(code: code, maxBatchBytes: maxBatchBytes, message: "for the vector").jsonBytes()
    }

    /// One answer case: the answer to a batch of `sentBytes` in JSON (or binary), and what the device must do.
    static func answer(
        _ builder: inout VectorBuilder, _ name: String, rules: [String], _ comment: String, status: UInt32,
        headers: [(String, String)] = [], body: [UInt8] = [], whole: Bool = true, sentBytes: UInt32 = 40_000,
        json: Bool = true, expected: (inout HttpAnswerResponse) -> Void
    ) {
        var request = HttpAnswerRequest()
        request.batchId = batchId
        request.sentFormat = json ? .json : .binary
        request.sentGzip = json
        request.sentBodyBytes = sentBytes
        request.nowMs = nowMs
        request.status = status
        request.headers = headers.map { name, value in
            var field = HttpField()
            field.name = name
            field.value = value
            return field
        }
        request.body = body
        request.bodyIsWhole = whole
        var response = HttpAnswerResponse()
        expected(&response)
        builder.httpAnswer("http.answer.\(name)", rules: rules, comment, request, expected: response)
    }

    static func answers(_ builder: inout VectorBuilder) {
        let jsonType = [("Content-Type", "application/json; proto=locationwire.v1.BatchAck")]
        let binaryType = [("Content-Type", "application/x-protobuf; proto=locationwire.v1.BatchAck")]
        let errorType = ("Content-Type", "application/json")
        answer(
            &builder, "200-ack-json", rules: ["§http-only-200-deletes", "§http-device-answers"],
            "A 200 whose whole JSON body is the ack of the batch sent: the one answer that is applied.", status: 200,
            headers: jsonType, body: ackBody(json: true)
        ) { $0.action = .applyAck }
        answer(
            &builder, "200-ack-binary", rules: ["§http-only-200-deletes", "§http-negotiation"],
            "A 200 with the binary ack of the batch sent, to a binary batch: applied.", status: 200,
            headers: binaryType, body: ackBody(), json: false
        ) { $0.action = .applyAck }
        answer(
            &builder, "200-other-batch", rules: ["§http-late-ack", "§http-only-200-deletes"],
            "A 200 carrying the ack of another batch (a stale or repeated answer): no ack for the batch sent, a failure.",
            status: 200, headers: jsonType, body: ackBody(0xBAD, json: true)
        ) {
            $0.action = .noAck
            $0.countsAsFailure = true
        }
        answer(
            &builder, "200-cut-short", rules: ["§http-whole-body"],
            "A 200 whose body stopped before its Content-Length, though the bytes that came parse: a transport failure.",
            status: 200, headers: jsonType + [("Content-Length", "400")], body: ackBody(json: true), whole: false
        ) {
            $0.action = .noAck
            $0.countsAsFailure = true
        }
        answer(
            &builder, "200-not-an-ack", rules: ["§http-only-200-deletes"],
            "A 200 whose body is not a BatchAck: no ack.", status: 200, headers: jsonType,
            body: Array("<html>ok</html>".utf8)
        ) {
            $0.action = .noAck
            $0.countsAsFailure = true
        }
        answer(
            &builder, "204", rules: ["§http-only-200-deletes"], "A 2xx other than 200 deletes nothing: no ack.",
            status: 204
        ) {
            $0.action = .noAck
            $0.countsAsFailure = true
        }
        for (status, code) in [(UInt32(400), "truncated"), (431, ErrorBody.Code.headersTooLarge)] {
            answer(
                &builder, "\(status)", rules: ["§http-device-answers", "§back-off"],
                "\(status) \(code): malformed as sent; rebuilt, never resent as the same bytes; a failure.",
                status: status, headers: [errorType], body: errorBody(code)
            ) {
                $0.action = .rebuild
                $0.countsAsFailure = true
            }
        }
        for status in [UInt32(401), 403] {
            answer(
                &builder, "\(status)", rules: ["§http-credentials", "§http-device-answers"],
                "\(status): the device stops sending with this token until its app gives it another.", status: status,
                headers: [errorType], body: errorBody(status == 401 ? "unauthenticated" : "device-mismatch")
            ) {
                $0.action = .stopToken
                $0.countsAsFailure = true
            }
        }
        answer(
            &builder, "408-retry-after", rules: ["§http-shrink", "§http-retry-after"],
            "408 with Retry-After 2: wait 2 s, then batches of half the size sent (20000 bytes).", status: 408,
            headers: [errorType, ("Retry-After", "2")], body: errorBody("incomplete-body")
        ) {
            $0.action = .shrinkAndWait
            $0.waitMs = 2000
            $0.maxBatchBytes = 20_000
            $0.countsAsFailure = true
        }
        answer(
            &builder, "408-small-batch", rules: ["§http-shrink"],
            "408 to a batch of 10000 bytes: a late small body is the link's fault, so the limit halves but never under 16384; no Retry-After: the back-off.",
            status: 408, headers: [errorType], body: errorBody("incomplete-body"), sentBytes: 10_000
        ) {
            $0.action = .shrinkAndWait
            $0.maxBatchBytes = 16_384
            $0.countsAsFailure = true
        }
        answer(
            &builder, "413-with-limit", rules: ["§http-shrink", "§http-size"],
            "413 with maxBatchBytes 20000: the new limit; sent again at once; no failure.", status: 413,
            headers: [errorType], body: errorBody("body-too-large", maxBatchBytes: 20_000)
        ) {
            $0.action = .shrink
            $0.maxBatchBytes = 20_000
        }
        answer(
            &builder, "413-without-limit", rules: ["§http-shrink"],
            "413 without maxBatchBytes: half the size sent, 20000 bytes.", status: 413, headers: [errorType],
            body: errorBody("body-too-large")
        ) {
            $0.action = .shrink
            $0.maxBatchBytes = 20_000
        }
        answer(
            &builder, "413-limit-below-minimum", rules: ["§http-shrink", "§batch-size"],
            "413 with maxBatchBytes 1000, below what a server may state: never under 16384.", status: 413,
            headers: [errorType], body: errorBody("body-too-large", maxBatchBytes: 1000)
        ) {
            $0.action = .shrink
            $0.maxBatchBytes = 16_384
        }
        answer(
            &builder, "413-limit-below-minimum-small-batch", rules: ["§http-shrink"],
            "413 with maxBatchBytes 1000 for a batch of 10000 bytes: the limit counts as 16384, which is not below what was sent, so it is read as absent; the batch was within 16384 already, so half, 5000.",
            status: 413, headers: [errorType], body: errorBody("body-too-large", maxBatchBytes: 1000),
            sentBytes: 10_000
        ) {
            $0.action = .shrink
            $0.maxBatchBytes = 5000
        }
        answer(
            &builder, "413-limit-not-below-sent", rules: ["§http-shrink"],
            "413 with maxBatchBytes 1048576 for a batch of 40000 bytes: a limit that contradicts the refusal is read as absent: half, 20000.",
            status: 413, headers: [errorType], body: errorBody("body-too-large", maxBatchBytes: 1_048_576)
        ) {
            $0.action = .shrink
            $0.maxBatchBytes = 20_000
        }
        answer(
            &builder, "415", rules: ["§http-device-answers", "§http-content-coding"],
            "415: sent again with the binding's Content-Type and no content coding; a failure.", status: 415,
            headers: [errorType, ("Accept-Encoding", "gzip")], body: errorBody("unsupported-content-encoding")
        ) {
            $0.action = .fixEncoding
            $0.countsAsFailure = true
        }
        let dates: [(String, String, Int64?)] = [
            ("seconds", "3", 3000), ("zero", "0", 0), ("imf-fixdate", "Sun, 06 Nov 1994 08:49:47 GMT", 10_000),
            ("rfc850", "Sunday, 06-Nov-94 08:49:57 GMT", 20_000), ("asctime", "Sun Nov  6 08:50:07 1994", 30_000),
            ("date-past", "Sun, 06 Nov 1994 08:00:00 GMT", 0), ("unreadable", "soon", nil),
            ("signed", "+3", nil),
        ]
        for status in [UInt32(429), 503] {
            for (name, value, waitMs) in dates {
                let code = status == 429 ? "rate-limited" : "unavailable"
                answer(
                    &builder, "\(status)-retry-after-\(name)", rules: ["§http-retry-after", "§http-rate-limits"],
                    "\(status) with Retry-After \"\(value)\": "
                        + (waitMs.map { "wait \($0) ms (the answer came at Sun, 06 Nov 1994 08:49:37 GMT)" }
                            ?? "unreadable, so the device backs off"),
                    status: status, headers: [errorType, ("Retry-After", value)], body: errorBody(code)
                ) {
                    $0.action = .wait
                    $0.waitMs = waitMs
                    $0.countsAsFailure = true
                }
            }
        }
        answer(
            &builder, "503-two-retry-after", rules: ["§http-retry-after"],
            "503 with two Retry-After fields: read as absent, the back-off.", status: 503,
            headers: [errorType, ("Retry-After", "3"), ("Retry-After", "5")], body: errorBody("unavailable")
        ) {
            $0.action = .wait
            $0.countsAsFailure = true
        }
        for status in [UInt32(500), 502] {
            answer(
                &builder, "\(status)", rules: ["§http-device-answers", "§no-ack"],
                "\(status): another status, no ack.", status: status, headers: [errorType], body: errorBody("x")
            ) {
                $0.action = .noAck
                $0.countsAsFailure = true
            }
        }
        answer(
            &builder, "no-answer", rules: ["§http-device-answers", "§no-ack"],
            "No HTTP answer (a reset, a closed connection, a time-out): no ack, a failure.", status: 0
        ) {
            $0.action = .noAck
            $0.countsAsFailure = true
        }
    }

    // MARK: - Requests (server side)

    static let batchType = "application/x-protobuf; proto=locationwire.v1.LocationBatch"
    static let jsonBatchType = "application/json; proto=locationwire.v1.LocationBatch"
    static let bearer = ["Authorization", "Bearer {token}"]

    /// A valid batch of the run's device and installation in proto3 JSON: fixes 1 and 2, live fix 3.
    static func validBatch(device: String = "{device_id}", revision: UInt32 = 1) -> JSONValue {
        var batch = LocationBatch()
        batch.deviceId = "DEVICE"
        batch.batchId = 1
        batch.protocolRevision = revision
        batch.datum = .wgs84
        batch.sentAtMs = 1_767_225_600_000
        batch.fixSequenceFloor = 1
        batch.fixes = (1...2).map(fix)
        batch.liveFix = fix(3)
        var text = batch.jsonString().replacingOccurrences(of: "\"DEVICE\"", with: "\"\(device)\"")
        text = text.replacingOccurrences(of: "\"batchId\"", with: "\"installId\":\"{install_id}\",\"batchId\"")
        return try! JSONValue.parse(text)
    }

    static func fix(_ sequence: UInt64) -> LocationFix {
        var fix = LocationFix()
        fix.sequence = sequence
        fix.timeMs = 1_767_225_000_000 + Int64(sequence) * 1000
        fix.latitudeE7 = 525_200_000 + Int32(sequence)
        fix.longitudeE7 = 134_050_000 - Int32(sequence)
        fix.horizontalAccuracyCm = 500
        return fix
    }

    static let processed = HTTPAnswerExpectation(status: 200, outcome: "PROCESSED")

    static func refused(_ status: Int, _ code: String, headers: [[String]]? = nil) -> HTTPAnswerExpectation {
        HTTPAnswerExpectation(status: status, code: code, headers: headers)
    }

    static func request(
        _ builder: inout VectorBuilder, _ name: String, rules: [String], _ comment: String,
        _ request: HTTPRequestCase, _ expected: [HTTPAnswerExpectation], requires: [String] = [],
        message: String = "locationwire.v1.LocationBatch"
    ) {
        builder.httpRequest(
            "http.request.\(name)", rules: rules, comment, request, expected: expected, requires: requires,
            messageType: message)
    }

    /// `POST /v1/batches` of a valid batch with these fields (and the token).
    static func post(
        _ headers: [[String]], batch: JSONValue? = nil, format: String = "binary", gzip: Bool? = nil,
        raw: Bool? = nil, path: String = Binding.batchesPath
    ) -> HTTPRequestCase {
        HTTPRequestCase(
            method: "POST", path: path, headers: [bearer] + headers, batch: batch ?? validBatch(), bodyFormat: format,
            gzip: gzip, raw: raw)
    }

    static func contentTypes(_ builder: inout VectorBuilder) {
        let rules = ["§http-content-type"]
        request(
            &builder, "content-type.missing", rules: rules, "A body without Content-Type: 415.", post([]),
            [refused(415, "unsupported-media-type")])
        request(
            &builder, "content-type.twice", rules: rules,
            "Two Content-Type fields: which one is meant is a guess: 415.",
            post([["Content-Type", batchType], ["Content-Type", batchType]], raw: true),
            [refused(415, "unsupported-media-type")], requires: ["raw-connection"])
        request(
            &builder, "content-type.two-in-one", rules: rules, "One Content-Type field naming two media types: 415.",
            post([["Content-Type", "application/x-protobuf, application/json"]]),
            [refused(415, "unsupported-media-type")])
        request(
            &builder, "content-type.charset", rules: rules,
            "A JSON batch with charset=utf-8 beside proto: parameters other than proto are ignored: stored.",
            post(
                [["Content-Type", "application/json; charset=utf-8; proto=locationwire.v1.LocationBatch"]],
                format: "json"),
            [processed])
        request(
            &builder, "content-type.upper-case", rules: rules,
            "Type, subtype and parameter name in upper case: case-insensitive: stored.",
            post([["Content-Type", "Application/X-Protobuf; PROTO=locationwire.v1.LocationBatch"]]), [processed])
        request(
            &builder, "content-type.proto-quoted", rules: rules, "proto as a quoted string: stored.",
            post([["Content-Type", "application/x-protobuf; proto=\"locationwire.v1.LocationBatch\""]]), [processed])
        request(
            &builder, "content-type.proto-case", rules: rules,
            "proto=locationwire.v1.locationbatch: message names are case-sensitive: 415.",
            post([["Content-Type", "application/x-protobuf; proto=locationwire.v1.locationbatch"]]),
            [refused(415, "unsupported-media-type")])
        let mediaRules = ["§http-media-types"]
        request(
            &builder, "media-type.json", rules: mediaRules, "A JSON batch: every server takes both formats.",
            post([["Content-Type", jsonBatchType]], format: "json"), [processed])
        request(
            &builder, "media-type.no-proto", rules: mediaRules, "No proto parameter: taken.",
            post([["Content-Type", "application/x-protobuf"]]), [processed])
        request(
            &builder, "media-type.other-message", rules: mediaRules, "proto naming another message: 415.",
            post([["Content-Type", "application/x-protobuf; proto=locationwire.v1.BatchAck"]]),
            [refused(415, "unsupported-media-type")])
        request(
            &builder, "media-type.empty-proto", rules: mediaRules, "An empty proto: 415.",
            post([["Content-Type", "application/x-protobuf; proto="]]), [refused(415, "unsupported-media-type")])
        request(
            &builder, "media-type.proto-twice", rules: mediaRules, "proto given twice: 415.",
            post([["Content-Type", batchType + "; proto=locationwire.v1.LocationBatch"]]),
            [refused(415, "unsupported-media-type")])
        request(
            &builder, "media-type.other", rules: mediaRules, "text/plain: 415.",
            post([["Content-Type", "text/plain"]]),
            [refused(415, "unsupported-media-type")])
    }

    static func contentCodings(_ builder: inout VectorBuilder) {
        let rules = ["§http-content-coding"]
        let acceptGzip = [["Accept-Encoding", "gzip"]]
        for (name, value) in [("x-gzip", "x-gzip"), ("upper-case", "GZIP")] {
            request(
                &builder, "content-coding.\(name)", rules: rules,
                "Content-Encoding: \(value), gzip by another name: stored.",
                post([["Content-Type", batchType], ["Content-Encoding", value]], gzip: true), [processed])
        }
        request(
            &builder, "content-coding.identity", rules: rules, "Content-Encoding: identity: no coding: stored.",
            post([["Content-Type", batchType], ["Content-Encoding", "identity"]]), [processed])
        request(
            &builder, "content-coding.list", rules: rules, "Content-Encoding: gzip, gzip: one coding at most: 415.",
            post([["Content-Type", batchType], ["Content-Encoding", "gzip, gzip"]], gzip: true),
            [refused(415, "unsupported-content-encoding", headers: acceptGzip)])
        request(
            &builder, "content-coding.twice", rules: rules, "Two Content-Encoding fields: a list: 415.",
            post(
                [["Content-Type", batchType], ["Content-Encoding", "gzip"], ["Content-Encoding", "gzip"]], gzip: true,
                raw: true),
            [refused(415, "unsupported-content-encoding", headers: acceptGzip)], requires: ["raw-connection"])
        request(
            &builder, "content-coding.empty", rules: rules, "An empty Content-Encoding: 415.",
            post([["Content-Type", batchType], ["Content-Encoding", ""]], raw: true),
            [refused(415, "unsupported-content-encoding", headers: acceptGzip)], requires: ["raw-connection"])
        request(
            &builder, "content-coding.br", rules: rules, "Content-Encoding: br: 415 with Accept-Encoding: gzip.",
            post([["Content-Type", batchType], ["Content-Encoding", "br"]]),
            [refused(415, "unsupported-content-encoding", headers: acceptGzip)])
        request(
            &builder, "gzip.empty-body", rules: ["§http-gzip"],
            "Content-Encoding: gzip over an empty body, which is not one whole gzip member: 400.",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath,
                headers: [bearer, ["Content-Type", batchType], ["Content-Encoding", "gzip"]], bodyHex: ""),
            [refused(400, "corrupt-content-encoding")])
    }

    static func authentication(_ builder: inout VectorBuilder) {
        request(
            &builder, "auth.empty-device-id", rules: ["§http-empty-device-id", "§http-auth-errors"],
            "A batch with an empty device_id: no token belongs to it: 403, not a HOLD.",
            post([["Content-Type", batchType]], batch: validBatch(device: "")), [refused(403, "device-mismatch")])
        request(
            &builder, "auth.other-device", rules: ["§http-auth-errors"], "A batch naming another device: 403.",
            post([["Content-Type", batchType]], batch: validBatch(device: "{device_id}-other")),
            [refused(403, "device-mismatch")])
        let operatorToken = ["Authorization", "Bearer {operator_token}"]
        for (name, request) in [
            (
                "batch",
                HTTPRequestCase(
                    method: "POST", path: Binding.batchesPath, headers: [operatorToken, ["Content-Type", batchType]],
                    batch: validBatch(), bodyFormat: "binary")
            ),
            (
                "batch-bad-media-type",
                HTTPRequestCase(
                    method: "POST", path: Binding.batchesPath,
                    headers: [operatorToken, ["Content-Type", "text/plain"]],
                    batch: validBatch(), bodyFormat: "binary")
            ),
        ] {
            self.request(
                &builder, "auth.operator-token.\(name)", rules: ["§http-operator-token", "§http-check-order"],
                "An operator token on POST /v1/batches: it acts for no device: 403, checked before the media type.",
                request, [refused(403, "device-mismatch")], requires: ["operator-token"])
        }
        request(
            &builder, "auth.operator-token.read-back", rules: ["§http-operator-token"],
            "An operator token on the read-back: it does nothing but erase: 403.",
            HTTPRequestCase(method: "GET", path: "/v1/devices/{device_id}/fixes", headers: [operatorToken]),
            [refused(403, "device-mismatch")], requires: ["operator-token", "read-back"])
    }

    static func checkOrder(_ builder: inout VectorBuilder) {
        let rules = ["§http-check-order"]
        request(
            &builder, "order.path-before-token", rules: rules, "An unknown path without a token: 404, not 401.",
            HTTPRequestCase(
                method: "POST", path: "/v1/nothing", headers: [["Content-Type", batchType]], bodyHex: "0a00"),
            [refused(404, "not-found")])
        request(
            &builder, "order.method-before-token", rules: rules + ["§http-allow"],
            "GET /v1/batches without a token: 405 with Allow: POST, not 401.",
            HTTPRequestCase(method: "GET", path: Binding.batchesPath),
            [refused(405, "method-not-allowed", headers: [["Allow", "POST"]])])
        request(
            &builder, "order.token-before-media-type", rules: rules + ["§http-auth-errors"],
            "No token and a wrong media type: 401 with WWW-Authenticate: Bearer.",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath, headers: [["Content-Type", "text/plain"]], bodyHex: "0a00"),
            [refused(401, "unauthenticated", headers: [["WWW-Authenticate", "Bearer"]])])
        request(
            &builder, "order.media-type-before-coding", rules: rules,
            "A wrong media type and a wrong coding: the media type is checked first: 415 unsupported-media-type.",
            post([["Content-Type", "text/plain"], ["Content-Encoding", "br"]]), [refused(415, "unsupported-media-type")]
        )
        request(
            &builder, "order.coding-before-length", rules: rules,
            "A wrong coding and a Content-Length of 1 TB: 415 unsupported-content-encoding, before the length.",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath,
                headers: [
                    bearer, ["Content-Type", batchType], ["Content-Encoding", "br"],
                    ["Content-Length", "1000000000000"],
                ],
                bodyHex: "0a00", raw: true),
            [refused(415, "unsupported-content-encoding")], requires: ["raw-connection"])
        request(
            &builder, "order.length-before-body", rules: rules + ["§http-size"],
            "A Content-Length of 1 TB with a few bytes of body: 413 before reading, with maxBatchBytes.",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath,
                headers: [bearer, ["Content-Type", batchType], ["Content-Length", "1000000000000"]], bodyHex: "0a00",
                raw: true),
            [refused(413, "body-too-large", headers: [["Connection", "close"]])], requires: ["raw-connection"])
        // A batch of another device whose last field is cut: the body is read before its device is known.
        var other = LocationBatch()
        other.deviceId = "another-device"
        other.installId = 7
        let cut = other.serializedBytes() + [0x3A, 0x05, 0x08]
        request(
            &builder, "order.decode-before-device",
            rules: rules + ["§decode-errors", "§decode-error-offset", "§decode-error-path", "§http-error-body"],
            "A batch naming another device, cut short: 400 with the codec's error (the device is learnt by decoding).",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath, headers: [bearer, ["Content-Type", batchType]],
                bodyHex: Hex.encode(cut)),
            [decoded(cut, .binary)])
        request(
            &builder, "order.device-before-ledger", rules: rules + ["§revision-zero"],
            "A revision-0 batch naming another device: 403, not a 200 with HOLD.",
            post([["Content-Type", batchType]], batch: validBatch(device: "{device_id}-other", revision: 0)),
            [refused(403, "device-mismatch")])
    }

    /// The answer to a body that does not decode: 400 with the decoder's code, offset and path.
    static func decoded(_ body: [UInt8], _ format: BodyFormat) -> HTTPAnswerExpectation {
        do {
            _ = try format.decode(LocationBatch.self, from: body)
            preconditionFailure("the body decodes: \(Hex.encode(body))")
        } catch {
            return HTTPAnswerExpectation(
                status: 400, code: error.code, offset: error.offset, fieldPath: error.fieldPath)
        }
    }

    static func decodingErrors(_ builder: inout VectorBuilder) {
        let cases: [(String, String, String)] = [
            ("truncated-value", "3a021d00", "a fixed-width latitude cut after one byte"),
            ("truncated-tag", "3a02f8ff", "a tag cut inside a fix"),
            ("truncated-length", "0aff", "a length prefix cut short"),
            ("length-beyond-input", "42040800", "a length prefix claiming more than the input has"),
            ("length-exceeds-message", "3a034204080108010801", "a length beyond its enclosing fix, the input going on"),
            ("invalid-wire-type", "3a027fff", "wire type 7 in a fix"),
            ("invalid-tag", "3a020008", "field number 0 in a fix"),
            ("invalid-utf8", "6a03120180", "a region id that is not UTF-8"),
            ("unmatched-end-group", "3a020c00", "an end-group tag without its start"),
            ("unterminated-group", "3a010b", "a group still open where the fix ends"),
            ("varint-too-long", "3a0b08ffffffffffffffffffff01", "an 11-byte varint"),
            (
                "depth", "cb06" + String(repeating: "cb06", count: 100) + String(repeating: "cc06", count: 101),
                "101 nested groups"
            ),
        ]
        // The fine points of `§decode-error-cases`, where careful readers of the table could differ.
        let finePoints: [(String, String, String)] = [
            ("sub-message-cuts-tag", "3a0180" + "00", "a fix whose one byte starts a tag, the input going on"),
            (
                "ten-continuation-bytes", "20" + String(repeating: "ff", count: 10),
                "a varint still going at its tenth byte, where the input ends"
            ),
            (
                "varint-beyond-64-bits", "20" + String(repeating: "ff", count: 9) + "7f" + "0a0180",
                "a 10-byte varint above 2^64 - 1 (no error), then a device_id that is not UTF-8"
            ),
            ("field-zero-wire-type-7", "07", "a tag of field 0 with wire type 7"),
            ("repeated-field-wrong-wire-type", "38ff", "fixes met as a varint, cut"),
            (
                "merged-sub-message-index", "6a03120161" + "6a03120180",
                "two occurrences of armed_regions, the second's region id not UTF-8"
            ),
        ]
        let table = ["§decode-errors", "§decode-error-offset", "§decode-error-path"]
        let groups = [
            (cases, "decoding.", table + ["§http-error-body"], "the decoder's code, offset and fieldPath"),
            (
                finePoints, "decoding.case.", ["§decode-error-cases"] + table,
                "the code, offset and fieldPath §decode-error-cases settles"
            ),
        ]
        for (group, prefix, rules, answer) in groups {
            for (name, hex, what) in group {
                request(
                    &builder, prefix + name, rules: rules, "A body with \(what): 400 with \(answer).",
                    HTTPRequestCase(
                        method: "POST", path: Binding.batchesPath, headers: [bearer, ["Content-Type", batchType]],
                        bodyHex: hex),
                    [decoded(Hex.decode(hex)!, .binary)])
            }
        }
    }

    static func jsonErrors(_ builder: inout VectorBuilder) {
        let cases: [(String, String, [String])] = [
            ("syntax-literal", #"{"x":1, "deviceId": tru}"#, ["§json-errors", "§json-error-offset"]),
            ("syntax-trailing-comma", #"{"fixes":[{}],}"#, ["§json-errors", "§json-error-offset"]),
            ("syntax-after-value", #"{"deviceId":"a"} x"#, ["§json-errors", "§json-error-offset"]),
            ("syntax-wins", #"{"unknownMember":1, "deviceId": }"#, ["§json-errors", "§json-error-offset"]),
            ("empty", "", ["§json-errors", "§json-error-offset"]),
            ("not-an-object", "[1]", ["§json-errors"]),
            ("unknown-member", #"{"fixes":[{"foo":1}]}"#, ["§json-unknown-members", "§json-errors"]),
            ("unknown-enum-name", #"{"datum":"COORDINATE_DATUM_MARS"}"#, ["§json-unknown-members", "§json-errors"]),
            ("duplicate", #"{"deviceId":"a","device_id":"b"}"#, ["§json-errors", "§json-error-offset"]),
            ("type-mismatch", #"{"armedRegions":{"regionIds":["a",1]}}"#, ["§json-errors", "§json-error-offset"]),
            ("invalid-value", #"{"fixes":[{},{"latitudeE7":"x"}]}"#, ["§json-errors", "§json-error-offset"]),
            ("out-of-range", #"{"installId":"18446744073709551616"}"#, ["§json-errors"]),
            ("null-in-array", #"{"fixes":[null]}"#, ["§json-errors", "§json-mapping"]),
            (
                "depth", #"{"a":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}",
                ["§json-errors", "§json-error-offset"]
            ),
        ]
        for (name, text, rules) in cases {
            request(
                &builder, "json.\(name)", rules: rules + ["§http-error-body"],
                "A JSON body \(text.count > 60 ? "nesting 101 levels" : text.isEmpty ? "that is empty" : text): 400 with the JSON reader's code, offset and fieldPath.",
                HTTPRequestCase(
                    method: "POST", path: Binding.batchesPath, headers: [bearer, ["Content-Type", jsonBatchType]],
                    bodyHex: Hex.encode(Array(text.utf8))),
                [decoded(Array(text.utf8), .json)])
        }
    }

    static func methods(_ builder: inout VectorBuilder) {
        for method in ["PUT", "OPTIONS", "DELETE"] {
            request(
                &builder, "method.\(method.lowercased())", rules: ["§http-allow"],
                "\(method) /v1/batches: 405 with Allow: POST.",
                HTTPRequestCase(method: method, path: Binding.batchesPath, headers: [bearer]),
                [refused(405, "method-not-allowed", headers: [["Allow", "POST"]])])
        }
        request(
            &builder, "method.unknown", rules: ["§http-allow"],
            "BREW /v1/batches, a method no one defines: 405 with Allow: POST, 501, or 400 malformed-request from a parser that refuses the request line.",
            HTTPRequestCase(method: "BREW", path: Binding.batchesPath, headers: [bearer], raw: true),
            [
                refused(405, "method-not-allowed", headers: [["Allow", "POST"]]), HTTPAnswerExpectation(status: 501),
                refused(400, "malformed-request"),
            ],
            requires: ["raw-connection"])
        request(
            &builder, "method.head-policy", rules: ["§http-head", "§http-allow"],
            "HEAD /v1/policy: answered as the GET without a body, or 405 with Allow: GET.",
            HTTPRequestCase(method: "HEAD", path: Binding.policyPath, headers: [bearer], raw: true),
            [
                HTTPAnswerExpectation(status: 200, noBody: true),
                HTTPAnswerExpectation(status: 405, headers: [["Allow", "GET"]], noBody: true),
            ], requires: ["policy", "raw-connection"], message: "locationwire.v1.TrackingPolicy")
    }

    static func messages(_ builder: inout VectorBuilder) {
        request(
            &builder, "version.http-1-0", rules: ["§http-versions"], "An HTTP/1.0 request: served.",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath, version: "HTTP/1.0",
                headers: [bearer, ["Content-Type", batchType]],
                batch: validBatch(), bodyFormat: "binary", raw: true),
            [processed], requires: ["raw-connection"])
        request(
            &builder, "header-size.8-kib", rules: ["§http-header-size"],
            "A header section of about 8000 bytes (a long field beside the usual ones): taken.",
            post([["Content-Type", batchType], ["X-Padding", String(repeating: "a", count: 7600)]]), [processed])
        request(
            &builder, "syntax.bare-lf", rules: ["§http-message-syntax"],
            "Lines ended by a bare LF: taken, or 400 malformed-request.",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath, headers: [bearer, ["Content-Type", batchType]],
                lineEnding: "lf",
                batch: validBatch(), bodyFormat: "binary", raw: true),
            [processed, refused(400, "malformed-request")], requires: ["raw-connection"])
        request(
            &builder, "syntax.obs-fold", rules: ["§http-message-syntax"],
            "A field continued on the next line (obs-fold): taken, or 400 malformed-request.",
            HTTPRequestCase(
                method: "POST", path: Binding.batchesPath,
                headers: [
                    bearer, ["Content-Type", "application/x-protobuf;\r\n proto=locationwire.v1.LocationBatch"],
                ],
                batch: validBatch(), bodyFormat: "binary", raw: true),
            [processed, refused(400, "malformed-request")], requires: ["raw-connection"])
        request(
            &builder, "expect.100-continue", rules: ["§http-expect"],
            "Expect: 100-continue with the body sent at once: stored (an interim 100 may come first).",
            post([["Content-Type", batchType], ["Expect", "100-continue"]], raw: true), [processed],
            requires: ["raw-connection"])
        request(
            &builder, "framing.answer", rules: ["§http-whole-body"],
            "A 200 is framed by Content-Length or chunked coding, never by closing the connection.",
            post([["Content-Type", batchType]], raw: true), [processed], requires: ["raw-connection"])
    }

    static func readBack(_ builder: inout VectorBuilder) {
        let path = "/v1/devices/{device_id}/fixes"
        for (name, query) in [
            ("plus-sign", "from=%2B5"), ("empty", "from="), ("bare", "to"), ("twice", "limit=1&limit=1"),
            ("negative-limit", "limit=-1"), ("fraction", "to=1.5"), ("overflow", "from=9223372036854775808"),
        ] {
            request(
                &builder, "read-back.query-\(name)", rules: ["§http-read-back-query"],
                "The read-back with \(query): not one integer: 400 bad-query.",
                HTTPRequestCase(method: "GET", path: path + "?" + query, headers: [bearer]),
                [refused(400, "bad-query")],
                requires: ["read-back"])
        }
        for (name, query) in [
            ("unknown-parameter", "page=2&from=0"), ("large-limit", "limit=99999999"), ("negative-from", "from=-5"),
        ] {
            request(
                &builder, "read-back.query-\(name)", rules: ["§http-read-back-query"],
                "The read-back with \(query): taken (unknown parameters are ignored; a limit above the page size is the page size).",
                HTTPRequestCase(method: "GET", path: path + "?" + query, headers: [bearer]),
                [HTTPAnswerExpectation(status: 200, jsonMembers: ["deviceId", "fixes", "truncated"])],
                requires: ["read-back"])
        }
        request(
            &builder, "read-back.geojson", rules: ["§http-read-back-geojson"],
            "The read-back as GeoJSON: a FeatureCollection with the foreign members deviceId and truncated.",
            HTTPRequestCase(method: "GET", path: path, headers: [bearer, ["Accept", "application/geo+json"]]),
            [
                HTTPAnswerExpectation(
                    status: 200, headers: [["Content-Type", "application/geo+json"]],
                    jsonMembers: ["type", "features", "deviceId", "truncated"])
            ], requires: ["read-back"])
    }

    static func endpoints(_ builder: inout VectorBuilder) {
        let notOffered = refused(404, "not-offered")
        request(
            &builder, "endpoints.policy", rules: ["§http-endpoints"],
            "GET /v1/policy: the policy, or 404 not-offered when the server has none.",
            HTTPRequestCase(method: "GET", path: Binding.policyPath, headers: [bearer]),
            [HTTPAnswerExpectation(status: 200), notOffered], message: "locationwire.v1.TrackingPolicy")
        request(
            &builder, "endpoints.regions-before-token", rules: ["§http-endpoints", "§http-check-order"],
            "POST /v1/regions without a token: 401, or 404 not-offered (routing comes before the token).",
            HTTPRequestCase(method: "POST", path: Binding.regionsPath, headers: [], bodyHex: ""),
            [refused(401, "unauthenticated"), notOffered], message: "locationwire.v1.RegionRequest")
        request(
            &builder, "endpoints.ledger", rules: ["§http-endpoints", "§http-ledger"],
            "GET /v1/devices/{device_id}/ledger: the ledger document, or 404 not-offered.",
            HTTPRequestCase(method: "GET", path: "/v1/devices/{device_id}/ledger", headers: [bearer]),
            [HTTPAnswerExpectation(status: 200, jsonMembers: ["deviceId", "installations"]), notOffered])
        request(
            &builder, "endpoints.erase-other-device", rules: ["§http-endpoints", "§http-erase", "§http-check-order"],
            "DELETE of another device's data with this device's token: 403, or 404 not-offered.",
            HTTPRequestCase(method: "DELETE", path: "/v1/devices/{device_id}-other", headers: [bearer]),
            [refused(403, "device-mismatch"), notOffered])
        var regionRequest = RegionRequest()
        regionRequest.deviceId = "DEVICE"
        regionRequest.reason = .initial
        regionRequest.platformSlotLimit = 20
        regionRequest.sentAtMs = 1_767_225_600_000
        let body = try! JSONValue.parse(
            regionRequest.jsonString().replacingOccurrences(of: "DEVICE", with: "{device_id}"))
        request(
            &builder, "regions.no-current-fix", rules: ["§http-regions-position", "§http-regions"],
            "A RegionRequest without current_fix: planning needs a position: 400 required-field-missing at RegionRequest.current_fix.",
            HTTPRequestCase(
                method: "POST", path: Binding.regionsPath,
                headers: [bearer, ["Content-Type", "application/json; proto=locationwire.v1.RegionRequest"]],
                batch: body, bodyFormat: "json"),
            [
                HTTPAnswerExpectation(
                    status: 400, code: "required-field-missing", fieldPath: "RegionRequest.current_fix")
            ],
            requires: ["regions"], message: "locationwire.v1.RegionRequest")
    }

    static func sizes(_ builder: inout VectorBuilder) {
        var padded = post([["Content-Type", batchType]])
        padded.padToBytes = 1_048_576
        request(
            &builder, "size.at-the-limit", rules: ["§http-size"],
            "A binary batch of exactly max_batch_bytes (1048576): within the limit, and the body limit is at least that: stored.",
            padded, [processed], requires: ["default-limits"])
        padded.padToBytes = 1_048_577
        request(
            &builder, "size.one-over", rules: ["§http-size"],
            "A binary batch one byte over max_batch_bytes: a TOO_LARGE ack, or 413; either states 1048576.",
            padded,
            [
                HTTPAnswerExpectation(status: 200, outcome: "TOO_LARGE"),
                HTTPAnswerExpectation(status: 413, code: "body-too-large"),
            ], requires: ["default-limits"])
    }
}

extension VectorBuilder {
    /// An `http.answer` vector: the expectation written from the text, which the reference device must meet.
    mutating func httpAnswer(
        _ id: String, rules: [String], _ comment: String, _ request: HttpAnswerRequest, expected: HttpAnswerResponse
    ) {
        for rule in rules { precondition(SpecRules.http.contains(rule), "\(id): unknown rule \(rule)") }
        var reference = Self.reference(request)
        reference.vectorId = ""
        precondition(reference == expected, "\(id): the reference device answers \(reference), the text \(expected)")
        guard let requestJSON = try? JSONValue.parse(request.jsonString()),
            let responseJSON = try? JSONValue.parse(expected.jsonString())
        else { preconditionFailure("\(id): the JSON does not parse") }
        add(
            Vector(
                id: id, messageType: HttpAnswerRequest.schema.fullName, result: .valid, request: requestJSON,
                expectedResponse: responseJSON, rules: rules, flags: [family, "http-answer"], comment: comment))
    }

    /// An `http.request` vector: a request and the answers a server may give.
    mutating func httpRequest(
        _ id: String, rules: [String], _ comment: String, _ request: HTTPRequestCase,
        expected: [HTTPAnswerExpectation], requires: [String], messageType: String
    ) {
        for rule in rules { precondition(SpecRules.http.contains(rule), "\(id): unknown rule \(rule)") }
        precondition(!expected.isEmpty, "\(id): no answer expected")
        add(
            Vector(
                id: id, messageType: messageType, result: .valid, httpRequest: request, expectedAnswers: expected,
                requires: requires.isEmpty ? nil : requires, rules: rules, flags: [family, "http-request"],
                comment: comment))
    }
}
