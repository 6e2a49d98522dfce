import Foundation
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireJSON

/// `GET /v1/policy`, `POST /v1/regions` and `DELETE /v1/devices/{id}`, which a server may leave out: 404
/// (`not-found`, `no-catalogue`) or 405 makes their check not-applicable; anything else must be a 200 with the
/// message, or a refusal with the error body.
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
                headers: accept.map { [("Accept", $0)] } ?? [], form: .wellFormed)
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
            contentType: BodyFormat.binary.contentType(for: RegionRequest.self), body: request.serializedBytes(),
            form: .wellFormed)
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

    /// `§http-erase`: an installation's fixes are erased with the device's token; afterwards a resend is
    /// `DUPLICATE` and the next numbers `ACCEPTED` (`§http-erase-after`); erasing again answers 200; another
    /// device's path is 403. Opt-in (``ServerProbe/Options/allowsErasure``): it erases all of the device's data.
    static let erasure = ProbeCheck(
        "endpoints.erase", rules: ["§http-endpoints", "§http-erase", "§http-erase-after", "§http-erase-assignments"]
    ) { context in
        guard context.options.allowsErasure else {
            return .notApplicable("not run: it erases every stored item of \(context.deviceId) (--allow-erase)")
        }
        // With regions, the version of the last assignment must outlive the erasure (§http-erase-assignments).
        var versionBefore: UInt64?
        if context.offers.contains("regions"),
            case .success(let assignment) = try await BindingScenarios.askForRegions(context)
        {
            versionBefore = assignment.assignmentVersion
        }
        let install = context.freshInstallId()
        let first = context.batch(install: install, batchId: 1, backlog: [1, 2, 3])
        var problems = ProbeContext.problems(
            of: try await context.upload(first), for: first, expected: ProbeContext.processed([1, 2, 3], "ACCEPTED"))
        let path = Binding.devicePath(deviceId: context.deviceId)
        let answer = try await context.exchange(method: "DELETE", path: path, token: context.token, form: .wellFormed)
        if answer.status == 404 || answer.status == 405 {
            let found = ProbeContext.errorProblems(answer, statuses: [404, 405])
            return found.isEmpty
                ? .notApplicable("DELETE \(path) answers \(answer.status): not offered")
                : .failed(found.joined(separator: "\n"))
        }
        guard answer.status == 200 else {
            return .failed(
                (problems + ProbeContext.errorProblems(answer, statuses: [200])).joined(separator: "\n"))
        }
        let document = (try? JSONValue.parse(answer.body)).flatMap(ErasureDocument.init(json:))
        if document?.deviceId != context.deviceId || (document?.removed.fixes ?? 0) < 3 {
            problems.append(
                "the answer is not an erasure document saying that 3 fixes or more of \(context.deviceId) went (every "
                    + "count, armedRegions included): \(String(decoding: answer.body, as: UTF8.self))")
        }
        if case .fixes(let left) = try await context.stored(
            install: install, fromMs: context.baseTimeMs, toMs: context.baseTimeMs + 3_600_000)
        {
            if !left.isEmpty { problems.append("the read-back still has \(left.count) fixes after the erasure") }
        }
        problems += ProbeContext.problems(
            of: try await context.upload(first), for: first, expected: ProbeContext.processed([1, 2, 3], "DUPLICATE")
        ).map { "the resend after the erasure: \($0)" }
        if let versionBefore {
            switch try await BindingScenarios.askForRegions(context) {
            case .success(let after) where after.mode == .fullReplacement && after.assignmentVersion > versionBefore:
                break
            case .success(let after):
                problems.append(
                    "after the erasure the assignment is \(after.mode) version \(after.assignmentVersion), expected a "
                        + "full one above version \(versionBefore)")
            case .failure(let failure): problems.append("after the erasure: \(failure.message)")
            }
        }
        let next = context.batch(install: install, batchId: 2, backlog: [4, 5])
        problems += ProbeContext.problems(
            of: try await context.upload(next), for: next, expected: ProbeContext.processed([4, 5], "ACCEPTED")
        ).map { "the next batch: \($0)" }
        let again = try await context.exchange(method: "DELETE", path: path, token: context.token, form: .wellFormed)
        if again.status != 200 { problems.append("erasing again answered \(again.status), expected 200") }
        let other = try await context.exchange(
            method: "DELETE", path: Binding.devicePath(deviceId: context.deviceId + "-someone-else"),
            token: context.token, form: .wellFormed)
        problems += ProbeContext.errorProblems(other, statuses: [403]).map { "another device's path: \($0)" }
        return .judging(
            problems,
            passed: "DELETE \(path): 200, the fixes gone; a resend is DUPLICATE, the next numbers ACCEPTED; "
                + "another device's path 403")
    }
}
