import LocationWire
import LocationWireHTTPBinding
import LocationWireJSON
import Testing

@Suite struct RetryAfterTests {
    static let now: Int64 = 784_111_777_000  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(
        arguments: [
            ("0", 0), ("5", 5_000), (" 120 ", 120_000), ("Sun, 06 Nov 1994 08:49:47 GMT", 10_000),
            ("Sunday, 06-Nov-94 08:50:37 GMT", 60_000), ("Sun Nov  6 08:49:57 1994", 20_000),
            ("Sun, 06 Nov 1994 08:48:37 GMT", 0),
        ] as [(String, Int64)])
    func readsBothForms(value: String, waitMs: Int64) {
        #expect(RetryAfter.waitMs(value, nowMs: Self.now) == waitMs)
    }

    @Test(arguments: [
        "", "+5", "-1", "1.5", "5s", "soon", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "²",
    ])
    func refusesWhatIsNeither(value: String) {
        #expect(RetryAfter.waitMs(value, nowMs: Self.now) == nil)
    }

    @Test func anHTTPDateIsExact() {
        #expect(RetryAfter.httpDateMs("Thu, 01 Jan 1970 00:00:00 GMT", nowYear: 2026) == 0)
        #expect(RetryAfter.httpDateMs("Fri, 31 Dec 1999 23:59:59 GMT", nowYear: 2026) == 946_684_799_000)
        #expect(RetryAfter.httpDateMs("Tue, 29 Feb 2028 12:00:00 GMT", nowYear: 2026) == 1_835_438_400_000)
        // A two-digit year more than 50 years ahead is in the past century (RFC 9110, section 5.6.7).
        #expect(RetryAfter.httpDateMs("Monday, 01-Jan-80 00:00:00 GMT", nowYear: 2026) == 315_532_800_000)
        #expect(RetryAfter.httpDateMs("Monday, 01-Jan-35 00:00:00 GMT", nowYear: 2026) == 2_051_222_400_000)
        #expect(RetryAfter.value(seconds: 3) == "3")
    }

    @Test func anHTTPDateIsWrittenAsAnIMFFixdateThatReadsBack() {
        #expect(RetryAfter.httpDate(ms: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(RetryAfter.httpDate(ms: 946_684_799_999) == "Fri, 31 Dec 1999 23:59:59 GMT")
        #expect(RetryAfter.httpDate(ms: 1_835_438_400_000) == "Tue, 29 Feb 2028 12:00:00 GMT")
        #expect(RetryAfter.httpDate(ms: 784_111_777_000) == "Sun, 06 Nov 1994 08:49:37 GMT")
        for ms: Int64 in [1_767_225_600_000, 1_767_225_603_500, 4_102_444_799_000, 951_782_400_000] {
            #expect(RetryAfter.httpDateMs(RetryAfter.httpDate(ms: ms), nowYear: 2026) == ms / 1000 * 1000)
            #expect(RetryAfter.waitMs(RetryAfter.httpDate(ms: ms + 5000), nowMs: ms / 1000 * 1000) == 5000)
        }
    }
}

@Suite struct MediaTypeTests {
    @Test(arguments: [
        (["application/x-protobuf"], BodyFormat.binary),
        (["Application/JSON; charset=utf-8"], .json),
        (["application/x-protobuf; PROTO=locationwire.v1.LocationBatch"], .binary),
        (["application/json; proto=\"locationwire.v1.LocationBatch\""], .json),
        (["application/json;proto=locationwire.v1.LocationBatch;charset=\"a,b\""], .json),
    ])
    func accepts(fields: [String], format: BodyFormat) throws {
        #expect(try BodyFormat.ofRequest(contentTypeFields: fields, expecting: LocationBatch.self) == format)
    }

    @Test(
        arguments: [
            [], ["text/plain"], ["application/x-protobuf", "application/x-protobuf"],
            ["application/x-protobuf, application/json"], ["application/x-protobuf; charset=x, application/json"],
            ["application/x-protobuf; proto=locationwire.v1.BatchAck"],
            ["application/x-protobuf; proto=locationwire.v1.locationbatch"], ["application/x-protobuf; proto="],
            ["application/x-protobuf; proto=locationwire.v1.LocationBatch; proto=locationwire.v1.LocationBatch"],
        ] as [[String]])
    func refuses(fields: [String]) {
        #expect {
            try BodyFormat.ofRequest(contentTypeFields: fields, expecting: LocationBatch.self)
        } throws: { ($0 as? BindingRefusal)?.body.code == ErrorBody.Code.unsupportedMediaType }
    }

    @Test func codings() throws {
        #expect(try ContentCoding.ofRequest(contentEncodingFields: []) == .identity)
        #expect(try ContentCoding.ofRequest(contentEncodingFields: [" GZIP "]) == .gzip)
        #expect(try ContentCoding.ofRequest(contentEncodingFields: ["x-gzip"]) == .gzip)
        #expect(try ContentCoding.ofRequest(contentEncodingFields: ["Identity"]) == .identity)
        for refused in [["br"], ["gzip, gzip"], ["gzip", "gzip"], [""], ["gzip, identity"]] {
            #expect {
                try ContentCoding.ofRequest(contentEncodingFields: refused)
            } throws: { error in
                guard let refusal = error as? BindingRefusal else { return false }
                return refusal.status == 415 && refusal.body.code == ErrorBody.Code.unsupportedContentEncoding
                    && refusal.headers.contains { $0.name == "Accept-Encoding" && $0.value == "gzip" }
            }
        }
    }

    @Test func answersInTheRequestsFormatUnlessAcceptNamesOnlyTheOther() {
        #expect(BodyFormat.ofAnswer(accept: nil, request: .json) == .json)
        #expect(BodyFormat.ofAnswer(accept: "application/x-protobuf", request: .json) == .binary)
        #expect(BodyFormat.ofAnswer(accept: "application/json, application/x-protobuf", request: .binary) == .binary)
        #expect(BodyFormat.ofAnswer(accept: "*/*", request: .binary) == .binary)
    }
}

@Suite struct ReadBackQueryTests {
    @Test func readsTheGrammar() throws {
        #expect(try ReadBackQuery(query: "") == ReadBackQuery())
        #expect(
            try ReadBackQuery(query: "from=-5&to=10&limit=0&x=y&x=z") == ReadBackQuery(fromMs: -5, toMs: 10, limit: 0))
        #expect(try ReadBackQuery(query: "limit=99999999") == ReadBackQuery(limit: 99_999_999))
        #expect(try ReadBackQuery(query: "from=%2D5") == ReadBackQuery(fromMs: -5))
        #expect(ReadBackQuery(fromMs: 1, limit: 3).queryString == "from=1&limit=3")
    }

    @Test(arguments: [
        "from=+5", "from=", "from", "from=1&from=1", "limit=-1", "to=1.5", "to=9223372036854775808", "from=%20",
        "limit=1e3", "to=0x10",
    ])
    func refuses(query: String) {
        #expect {
            try ReadBackQuery(query: query)
        } throws: { ($0 as? BindingRefusal)?.body.code == ErrorBody.Code.badQuery }
    }
}

@Suite struct ErrorBodyTests {
    @Test func writesCanonicalJSONAndReadsItBack() {
        let body = ErrorBody(
            code: "truncated", offset: 3, fieldPath: "LocationBatch.fixes[0]", message: "input \"ends\"")
        let text = String(decoding: body.jsonBytes(), as: UTF8.self)
        #expect(
            text
                == #"{"code":"truncated","fieldPath":"LocationBatch.fixes[0]","message":"input \"ends\"","offset":3}"#)
        #expect(ErrorBody(jsonBytes: body.jsonBytes()) == body)
        #expect(ErrorBody(jsonBytes: Array(#"{"code":"x","extra":[1]}"#.utf8))?.code == "x")
        #expect(ErrorBody(jsonBytes: Array(#"{"message":"no code"}"#.utf8)) == nil)
        #expect(ErrorBody(jsonBytes: Array("not json".utf8)) == nil)
    }

    @Test func carriesTheDecodersCodeOffsetAndPath() {
        #expect {
            try BodyFormat.binary.decode(LocationBatch.self, from: [0x3A, 0x02, 0x1D, 0x00])
        } throws: { error in
            (error as? ErrorBody)
                == ErrorBody(
                    code: "truncated", offset: 3, fieldPath: "LocationBatch.fixes[0].latitude_e7",
                    message: (error as? ErrorBody)?.message ?? "")
        }
        #expect {
            try BodyFormat.json.decode(LocationBatch.self, from: Array(#"{"fixes":[{"foo":1}]}"#.utf8))
        } throws: { error in
            let body = error as? ErrorBody
            return body?.code == "json-unknown-field" && body?.offset == 11
                && body?.fieldPath == "LocationBatch.fixes[0]"
        }
    }
}

@Suite struct UploadAnswerTests {
    static func answer(
        _ status: Int, body: [UInt8] = [], contentType: String? = nil, retryAfter: String? = nil, whole: Bool = true
    ) -> UploadAnswer {
        UploadAnswer(
            status: status, contentType: contentType, retryAfter: retryAfter, body: body, bodyIsWhole: whole,
            batchId: 7, nowMs: 0)
    }

    static func ack(batchId: UInt64) -> BatchAck {
        var ack = BatchAck()
        ack.batchId = batchId
        ack.outcome = .processed
        return ack
    }

    @Test func everyRowOfTheTable() {
        let own = Self.ack(batchId: 7)
        #expect(Self.answer(200, body: own.serializedBytes()) == .ack(own))
        #expect(
            Self.answer(200, body: Array(own.jsonString().utf8), contentType: "application/json; proto=x") == .ack(own))
        #expect(Self.answer(200, body: Self.ack(batchId: 8).serializedBytes()) == .otherBatchAck(Self.ack(batchId: 8)))
        #expect(
            Self.answer(200, body: own.serializedBytes(), whole: false)
                == .noAck(reason: "200 whose body was cut short"))
        #expect(Self.answer(200, body: [0xFF]) == .noAck(reason: "200 whose body is not a BatchAck"))
        #expect(Self.answer(204) == .noAck(reason: "HTTP 204"))
        #expect(
            Self.answer(400, body: ErrorBody(code: "truncated", message: "").jsonBytes())
                == .malformed(code: "truncated"))
        #expect(Self.answer(401) == .credentialsRefused(status: 401, code: ""))
        #expect(Self.answer(403) == .credentialsRefused(status: 403, code: ""))
        #expect(Self.answer(408, retryAfter: "2") == .bodyTimedOut(waitMs: 2_000))
        #expect(
            Self.answer(413, body: ErrorBody(code: "body-too-large", maxBatchBytes: 20_000, message: "").jsonBytes())
                == .tooLarge(maxBatchBytes: 20_000))
        #expect(Self.answer(413) == .tooLarge(maxBatchBytes: nil))
        #expect(Self.answer(415) == .unsupportedEncoding(code: ""))
        #expect(Self.answer(429, retryAfter: "Thu, 01 Jan 1970 00:00:03 GMT") == .wait(status: 429, waitMs: 3_000))
        #expect(Self.answer(503, retryAfter: "later") == .wait(status: 503, waitMs: nil))
        #expect(Self.answer(431) == .malformed(code: ""))
        #expect(!Self.answer(413).isFailure && !Self.answer(200, body: own.serializedBytes()).isFailure)
        #expect(
            Self.answer(429).isFailure && Self.answer(400).isFailure && UploadAnswer.transportFailure("reset").isFailure
        )
    }
}

@Suite struct EndpointTests {
    @Test func pathsAndAllow() {
        #expect(Endpoint.readBack.path(deviceId: "a/b c") == "/v1/devices/a%2Fb%20c/fixes")
        #expect(Binding.percentDecoded("a%2Fb%20c") == "a/b c")
        #expect(Binding.percentDecoded("%zz") == nil)
        #expect(Endpoint.methodsByPath.first { $0.pathTemplate == "/v1/devices/{device_id}" }?.methods == ["DELETE"])
        #expect(Endpoint.all.filter { !$0.isOptional } == [.batches])
    }
}
