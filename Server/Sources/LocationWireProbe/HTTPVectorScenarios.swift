import Foundation
import LocationWire
import LocationWireConformance
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireJSON

/// The `http` vectors' request cases (`conformance/vectors/http.json`): each sent to the server as written, its
/// answer judged against the answers the binding allows. A case that needs what the server does not offer (the
/// vector's `requires`) is not applicable.
enum HTTPVectorScenarios {
    static func checks(_ vectors: [Vector]) -> (checks: [ProbeCheck], note: String) {
        let vectors = vectors.filter { $0.httpRequest != nil }
        let checks = vectors.map { vector in
            ProbeCheck("vectors.\(vector.id)", rules: vector.rules ?? []) { context in
                try await run(vector, context: context)
            }
        }
        return (
            checks, "http vectors: the \(checks.count) request cases are sent, each judged by the answers it allows"
        )
    }

    static func run(_ vector: Vector, context: ProbeContext) async throws -> Verdict {
        guard let request = vector.httpRequest, let expected = vector.expectedAnswers else {
            return .failed("the vector has no request")
        }
        let missing = (vector.requires ?? []).filter { !context.offers.contains($0) }
        if !missing.isEmpty {
            return .notApplicable("the case needs what the server does not offer: \(missing.joined(separator: ", "))")
        }
        let install = context.freshInstallId()
        let form = requestForm(of: vector)
        let answer: BindingClient.Exchange
        var framing: String?
        do {
            let built = try build(request, install: install, context: context)
            if request.raw == true {
                // A rate limit or load shedding is waited out as a device would, unless the case is about them.
                var attempts = 0
                var raw: RawAnswer?
                repeat {
                    attempts += 1
                    raw = try await sendRaw(request, built: built, context: context, form: form)
                    guard let refused = raw, [429, 503].contains(refused.status), attempts < 6 else { break }
                    let seconds = min(retryAfterSeconds(refused.header("Retry-After")) ?? 1, 10)
                    try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                } while true
                guard let raw else { return .failed("the server closed the connection without an answer") }
                answer = BindingClient.Exchange(status: raw.status, headers: raw.headers, body: raw.body)
                framing = raw.framing
            } else {
                answer = try await context.exchange(
                    method: request.method, path: built.path, token: nil, headers: built.headers, body: built.body,
                    form: form)
            }
        } catch let error as BuildError {
            return .failed("the vector cannot be built: \(error.message)")
        }
        var problems: [String] = []
        if let framing, !["content-length", "chunked", "none"].contains(framing) {
            problems.append("the answer's body is framed by \(framing == "cut" ? "a cut" : "closing the connection")")
        }
        let attempts = expected.map { problemsOf(answer, against: $0) }
        if let best = attempts.min(by: { $0.count < $1.count }) { problems += best }
        let allowed = expected.map { "\($0.status)\($0.code.map { " \($0)" } ?? "")" }.joined(separator: " or ")
        return .judging(problems, passed: "\(vector.comment) (\(allowed))")
    }

    struct BuildError: Error {
        var message: String
    }

    /// The path, fields and body, placeholders replaced and the body encoded.
    static func build(
        _ request: HTTPRequestCase, install: UInt64, context: ProbeContext
    ) throws
        -> (path: String, headers: [(String, String)], body: [UInt8]?)
    {
        let operatorToken = context.options.operatorToken ?? ""
        func fill(_ text: String) -> String {
            text.replacingOccurrences(of: "{token}", with: context.token)
                .replacingOccurrences(of: "{operator_token}", with: operatorToken)
                .replacingOccurrences(of: "{install_id}", with: String(install))
                .replacingOccurrences(of: "{device_id}", with: Binding.percentEncodedPathSegment(context.deviceId))
        }
        func fillBody(_ text: String) -> String {
            text.replacingOccurrences(of: "{install_id}", with: String(install))
                .replacingOccurrences(of: "{device_id}", with: context.deviceId)
        }
        var body: [UInt8]?
        if let hex = request.bodyHex {
            guard let bytes = Hex.decode(hex) else { throw BuildError(message: "bodyHex is not hex") }
            body = bytes
        } else if let template = request.batch {
            let json = fillBody(template.text(sortedKeys: false))
            let isRegionRequest = request.path.hasPrefix(Binding.regionsPath)
            let message: any LocationWireMessage
            do {
                message =
                    isRegionRequest
                    ? try RegionRequest(jsonUTF8: Array(json.utf8)) as any LocationWireMessage
                    : try LocationBatch(jsonUTF8: Array(json.utf8))
            } catch {
                throw BuildError(message: "the batch does not read: \(error)")
            }
            var bytes = request.bodyFormat == "json" ? Array(message.jsonString().utf8) : message.serializedBytes()
            if let size = request.padToBytes { bytes = try pad(bytes, to: size) }
            body = bytes
        }
        if request.gzip == true, let plain = body { body = GzipCoding.compress(plain) }
        let headers = request.headers.map { (fill($0[0]), fill($0[1])) }
        return (fill(request.path), headers, body)
    }

    /// A binary body padded with an unknown field of the private range to exactly `size` bytes.
    static func pad(_ bytes: [UInt8], to size: Int) throws -> [UInt8] {
        func varint(_ value: UInt64) -> [UInt8] {
            var value = value
            var out: [UInt8] = []
            while value >= 0x80 {
                out.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            return out + [UInt8(value)]
        }
        let tag = varint(50_001 << 3 | 2)
        var filler = size - bytes.count - tag.count - 1
        while filler > 0 {
            let field = tag + varint(UInt64(filler)) + [UInt8](repeating: 0x61, count: filler)
            if bytes.count + field.count == size { return bytes + field }
            filler -= 1
        }
        throw BuildError(message: "cannot pad \(bytes.count) bytes to \(size)")
    }

    /// Sends the request as written over a plain connection: fields in order, duplicates and all; records the
    /// exchange when it was answered.
    static func sendRaw(
        _ request: HTTPRequestCase, built: (path: String, headers: [(String, String)], body: [UInt8]?),
        context: ProbeContext, form: RequestForm
    ) async throws -> RawAnswer? {
        guard let endpoint = RawRequest.endpoint(of: context.options.server) else {
            throw BuildError(message: "a raw request needs an http:// server")
        }
        let end = request.lineEnding == "lf" ? "\n" : "\r\n"
        let names = Set(built.headers.map { $0.0.lowercased() })
        var fields: [(String, String)] = []
        if !names.contains("host") { fields.append(("Host", "\(endpoint.host):\(endpoint.port)")) }
        fields += built.headers
        if let body = built.body, !names.contains("content-length") {
            fields.append(("Content-Length", String(body.count)))
        }
        fields.append(("Connection", "close"))
        let head =
            "\(request.method) \(endpoint.prefix)\(built.path) \(request.version ?? "HTTP/1.1")\(end)"
            + fields.map { "\($0.0): \($0.1)\(end)" }.joined() + end
        let answer = try await RawAnswer.exchange(
            host: endpoint.host, port: endpoint.port, bytes: Array(head.utf8) + (built.body ?? []),
            isHead: request.method == "HEAD", wait: context.timeout)
        if let answer, let recorder = context.options.recorder {
            try recorder.record(
                form: form, transport: "raw", method: request.method, path: built.path, requestHeaders: fields,
                requestBody: built.body, status: answer.status, responseHeaders: answer.headers,
                responseBody: answer.body)
        }
        return answer
    }

    /// Whether the request of an `http` vector is one the binding describes: the vectors do not say, so each is
    /// classified here, by hand, once (ProbeTests checks that every committed request vector is, and only once).
    /// A vector missing from both lists counts as well-formed, so that one added without thought is checked
    /// against the OpenAPI document, and fails there, rather than skipped.
    static func requestForm(of vector: Vector) -> RequestForm {
        let name = String(vector.id.dropFirst("http.request.".count))
        return malformedRequests[name].map(RequestForm.malformed) ?? .wellFormed
    }

    /// What is wrong with the classification against `vectors`: a request vector in neither list or in both, a
    /// listed name that no vector has. Empty when each request vector is in exactly one list.
    static func classificationProblems(_ vectors: ProbeVectors) -> [String] {
        let names = vectors.http.filter { $0.httpRequest != nil }.map { String($0.id.dropFirst("http.request.".count)) }
        let malformed = Set(malformedRequests.keys)
        var problems = wellFormedRequests.intersection(malformed).sorted().map { "\($0): well-formed and malformed" }
        problems += Set(names).subtracting(wellFormedRequests.union(malformed)).sorted().map { "\($0): unclassified" }
        problems += wellFormedRequests.union(malformed).subtracting(names).sorted().map { "\($0): no such vector" }
        return problems
    }

    /// The `http.request.` vectors whose request is one a device that follows the binding may send.
    static let wellFormedRequests: Set<String> = [
        "content-type.charset", "content-type.upper-case", "content-type.proto-quoted", "media-type.json",
        "media-type.no-proto", "content-coding.x-gzip", "content-coding.upper-case", "content-coding.identity",
        "auth.empty-device-id", "auth.other-device", "auth.operator-token.batch", "auth.operator-token.read-back",
        "order.device-before-ledger", "version.http-1-0", "header-size.8-kib", "expect.100-continue",
        "framing.answer", "read-back.query-unknown-parameter", "read-back.query-large-limit",
        "read-back.query-negative-from", "read-back.geojson", "endpoints.policy", "endpoints.ledger",
        "endpoints.erase-other-device", "regions.no-current-fix", "size.at-the-limit", "size.one-over",
    ]

    /// The `http.request.` vectors whose request is broken on purpose, each with what is broken.
    static let malformedRequests: [String: String] = {
        let undecodable = "a body that does not decode as a LocationBatch"
        let unreadableJSON = "a JSON body that does not read as a LocationBatch"
        let otherMethod = "a method the path does not take"
        let badQuery = "a read-back parameter that is not one integer, or a negative limit"
        var table: [String: String] = [
            "content-type.missing": "no Content-Type",
            "content-type.twice": "two Content-Type fields",
            "content-type.two-in-one": "one Content-Type naming two media types",
            "content-type.proto-case": "proto= naming no message (message names are case-sensitive)",
            "media-type.other-message": "proto= naming another message",
            "media-type.empty-proto": "an empty proto parameter",
            "media-type.proto-twice": "two proto parameters",
            "media-type.other": "Content-Type text/plain",
            "content-coding.list": "a list of content codings",
            "content-coding.twice": "two Content-Encoding fields",
            "content-coding.empty": "an empty Content-Encoding",
            "content-coding.br": "Content-Encoding br",
            "gzip.empty-body": "Content-Encoding gzip over an empty body",
            "auth.operator-token.batch-bad-media-type": "Content-Type text/plain",
            "order.path-before-token": "a path the binding does not have, without a token",
            "order.method-before-token": "GET on a path that takes only POST, without a token",
            "order.token-before-media-type": "no token, and Content-Type text/plain",
            "order.media-type-before-coding": "Content-Type text/plain and Content-Encoding br",
            "order.coding-before-length": "Content-Encoding br and a Content-Length the body does not have",
            "order.length-before-body": "a Content-Length the body does not have",
            "order.decode-before-device": undecodable,
            "method.head-policy": "HEAD, which the endpoint table does not list (§http-head)",
            "syntax.bare-lf": "lines ended by a bare LF",
            "syntax.obs-fold": "a field line continued on the next (obs-fold)",
            "endpoints.regions-before-token": "no token, and an empty body",
        ]
        for name in [
            "truncated-value", "truncated-tag", "truncated-length", "length-beyond-input", "length-exceeds-message",
            "invalid-wire-type", "invalid-tag", "invalid-utf8", "unmatched-end-group", "unterminated-group",
            "varint-too-long", "depth", "case.sub-message-cuts-tag", "case.ten-continuation-bytes",
            "case.varint-beyond-64-bits", "case.field-zero-wire-type-7", "case.repeated-field-wrong-wire-type",
            "case.merged-sub-message-index",
        ] {
            table["decoding." + name] = undecodable
        }
        for name in [
            "syntax-literal", "syntax-trailing-comma", "syntax-after-value", "syntax-wins", "empty", "not-an-object",
            "unknown-member", "unknown-enum-name", "duplicate", "type-mismatch", "invalid-value", "out-of-range",
            "null-in-array", "depth",
        ] {
            table["json." + name] = unreadableJSON
        }
        for name in ["put", "options", "delete", "unknown"] { table["method." + name] = otherMethod }
        for name in [
            "plus-sign", "empty", "bare", "twice", "negative-limit", "fraction", "overflow",
        ] {
            table["read-back.query-" + name] = badQuery
        }
        return table
    }()

    /// How `answer` differs from one allowed answer; empty when it is that answer.
    static func problemsOf(_ answer: BindingClient.Exchange, against expected: HTTPAnswerExpectation) -> [String] {
        guard answer.status == expected.status else {
            let code = answer.errorBody.map { " \($0.code)" } ?? ""
            return [
                "answered \(answer.status)\(code), allowed: \(expected.status)\(expected.code.map { " \($0)" } ?? "")"
            ]
        }
        var problems: [String] = []
        if expected.code != nil || expected.offset != nil || expected.fieldPath != nil {
            let error = answer.errorBody
            func check<Value: Equatable>(_ name: String, _ want: Value?, _ got: Value?) {
                if let want, want != got {
                    problems.append("\(name) is \(got.map { "\($0)" } ?? "absent"), expected \(want)")
                }
            }
            check("code", expected.code, error?.code)
            check("offset", expected.offset, error?.offset)
            check("fieldPath", expected.fieldPath, error?.fieldPath)
        }
        for pair in expected.headers ?? [] where pair.count == 2 {
            let value = answer.header(pair[0])
            if !(value?.lowercased().hasPrefix(pair[1].lowercased()) ?? false) {
                problems.append("\(pair[0]) is \(value.map { "\"\($0)\"" } ?? "absent"), expected \"\(pair[1])...\"")
            }
        }
        if expected.noBody == true, !answer.body.isEmpty { problems.append("the answer to HEAD has a body") }
        if let outcome = expected.outcome {
            let format = answer.header("Content-Type").flatMap(MediaType.init)?.format ?? .binary
            do {
                let ack = try format.decode(BatchAck.self, from: answer.body)
                let actual = ShortEnumName.outcome(ack.outcome)
                if actual != outcome { problems.append("the ack's outcome is \(actual), expected \(outcome)") }
            } catch {
                problems.append("the 200's body is not a BatchAck (\(error.code))")
            }
        }
        if let members = expected.jsonMembers {
            let object = (try? JSONValue.parse(answer.body))?.object
            let missing = members.filter { object?[$0] == nil }
            if !missing.isEmpty { problems.append("the JSON answer lacks \(missing.joined(separator: ", "))") }
        }
        return problems
    }
}
