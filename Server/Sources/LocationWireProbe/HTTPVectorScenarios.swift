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
                    raw = try await sendRaw(request, built: built, context: context)
                    guard let refused = raw, [429, 503].contains(refused.status), attempts < 6 else { break }
                    let seconds = min(retryAfterSeconds(refused.header("Retry-After")) ?? 1, 10)
                    try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                } while true
                guard let raw else { return .failed("the server closed the connection without an answer") }
                answer = BindingClient.Exchange(status: raw.status, headers: raw.headers, body: raw.body)
                framing = raw.framing
            } else {
                answer = try await context.exchange(
                    method: request.method, path: built.path, token: nil, headers: built.headers, body: built.body)
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

    /// Sends the request as written over a plain connection: fields in order, duplicates and all.
    static func sendRaw(
        _ request: HTTPRequestCase, built: (path: String, headers: [(String, String)], body: [UInt8]?),
        context: ProbeContext
    ) async throws -> RawAnswer? {
        guard let endpoint = RawRequest.endpoint(of: context.options.server) else {
            throw BuildError(message: "a raw request needs an http:// server")
        }
        let end = request.lineEnding == "lf" ? "\n" : "\r\n"
        var head = "\(request.method) \(endpoint.prefix)\(built.path) \(request.version ?? "HTTP/1.1")\(end)"
        var names = Set(built.headers.map { $0.0.lowercased() })
        if !names.contains("host") { head += "Host: \(endpoint.host):\(endpoint.port)\(end)" }
        for (name, value) in built.headers { head += "\(name): \(value)\(end)" }
        if let body = built.body, !names.contains("content-length") {
            head += "Content-Length: \(body.count)\(end)"
            names.insert("content-length")
        }
        head += "Connection: close\(end)\(end)"
        return try await RawAnswer.exchange(
            host: endpoint.host, port: endpoint.port, bytes: Array(head.utf8) + (built.body ?? []),
            isHead: request.method == "HEAD", wait: context.timeout)
    }

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
