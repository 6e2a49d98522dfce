import LocationWire
import LocationWireHTTP

/// `GET /v1/policy` and `POST /v1/regions`, which a server may leave out: 404 (`not-found`, `no-catalogue`) makes
/// their check not-applicable; anything else must be a 200 with the message, or a refusal with the error body.
enum OptionalEndpointScenarios {
    static var checks: [ProbeCheck] { [policy, regions] }

    /// The answer's message in the format its Content-Type names, or the problem.
    static func decode<Message: LocationWireMessage>(
        _: Message.Type, _ answer: BindingClient.Exchange, expected format: BodyFormat
    ) -> (message: Message?, problems: [String]) {
        var problems: [String] = []
        let type = answer.header("Content-Type").flatMap(MediaType.init)
        if type?.format != format {
            problems.append(
                "Content-Type is \(answer.header("Content-Type") ?? "absent"), expected \(format.contentType(for: Message.self))"
            )
        }
        if let proto = type?.proto, proto != Message.schema.fullName {
            problems.append("proto= is \(proto), expected \(Message.schema.fullName)")
        }
        do {
            return (try (type?.format ?? format).decode(Message.self, from: answer.body), problems)
        } catch {
            return (nil, problems + ["the body is not a \(Message.schema.fullName): \(error.code) \(error.message)"])
        }
    }

    static let policy = ProbeCheck("endpoints.policy", rules: ["§http-endpoints", "§http-negotiation"]) { context in
        var problems: [String] = []
        var version: UInt64?
        // Without Accept, a GET answers binary (§http-negotiation).
        for (accept, format) in [
            (nil, BodyFormat.binary), (Binding.protobufMediaType, .binary), (Binding.jsonMediaType, .json),
        ] {
            let answer = try await context.exchange(
                method: "GET", path: Binding.policyPath, token: context.token,
                headers: accept.map { [("Accept", $0)] } ?? [])
            if answer.status == 404 {
                let problems = ProbeContext.errorProblems(answer, statuses: [404])
                return problems.isEmpty
                    ? .notApplicable("GET /v1/policy answers 404 (\(answer.errorBody?.code ?? "")): not offered")
                    : .failed(problems.joined(separator: "\n"))
            }
            guard answer.status == 200 else {
                problems.append("Accept \(accept ?? "absent"): answered \(answer.status), expected 200 or 404")
                continue
            }
            let (policy, decodeProblems) = decode(TrackingPolicy.self, answer, expected: format)
            problems += decodeProblems.map { "Accept \(accept ?? "absent"): \($0)" }
            if let policy { version = policy.policyVersion }
        }
        return .judging(
            problems,
            passed:
                "GET /v1/policy: a TrackingPolicy (version \(version.map(String.init) ?? "?")) in both formats, binary without Accept"
        )
    }

    static let regions = ProbeCheck("endpoints.regions", rules: ["§http-endpoints", "§http-regions"]) { context in
        var request = RegionRequest()
        request.deviceId = context.deviceId
        request.reason = .initial
        request.currentFix = context.fix(1)
        request.platformSlotLimit = 20
        request.datum = .wgs84
        request.sentAtMs = context.baseTimeMs + 3_600_000
        request.platform = .android
        let answer = try await context.exchange(
            method: "POST", path: Binding.regionsPath, token: context.token,
            contentType: BodyFormat.binary.contentType(for: RegionRequest.self), body: request.serializedBytes())
        if answer.status == 404 {
            let problems = ProbeContext.errorProblems(answer, statuses: [404])
            return problems.isEmpty
                ? .notApplicable("POST /v1/regions answers 404 (\(answer.errorBody?.code ?? "")): no catalogue")
                : .failed(problems.joined(separator: "\n"))
        }
        guard answer.status == 200 else {
            let problems = ProbeContext.errorProblems(answer, statuses: [200])
            return .failed((["answered \(answer.status), expected 200 or 404"] + problems).joined(separator: "\n"))
        }
        let (assignment, problems) = decode(RegionAssignment.self, answer, expected: .binary)
        return .judging(
            problems,
            passed: "POST /v1/regions: a RegionAssignment of \(assignment?.regions.count ?? 0) regions")
    }
}
