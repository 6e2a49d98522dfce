import Foundation
import LocationWire
import LocationWireConformance
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireJSON
import LocationWireSession

/// What every check shares: the client, the device and its token, whether the server offers the read-back, and
/// the helpers that build batches, send them and judge the answers.
public final class ProbeContext: Sendable {
    let client: BindingClient
    let options: ServerProbe.Options
    /// Whether `GET /v1/devices/{id}/fixes` answered 200 to a first request (404: not offered).
    let readBackOffered: Bool
    /// What the server offers, in the words of the `http` vectors' `requires`: `policy`, `regions`, `read-back`,
    /// `ledger`, `operator-token`, `raw-connection`, `default-limits`.
    let offers: Set<String>
    /// The policy `GET /v1/policy` answered, when the server offers one.
    let policy: TrackingPolicy?
    /// The time of the probe's own fixes: an hour before the run started, UTC ms, whole seconds, so fixes are
    /// recent (no server should find them too old) and in the past (none in the future).
    let baseTimeMs: Int64

    var deviceId: String { options.deviceId }
    var token: String { options.token }
    var timeout: Duration { .milliseconds(Int64(options.requestTimeoutSeconds * 1000)) }

    init(
        client: BindingClient, options: ServerProbe.Options, readBackOffered: Bool, baseTimeMs: Int64,
        offers: Set<String> = [], policy: TrackingPolicy? = nil
    ) {
        self.client = client
        self.options = options
        self.readBackOffered = readBackOffered
        self.baseTimeMs = baseTimeMs
        self.offers = offers
        self.policy = policy
    }

    /// What the server offers: each optional endpoint asked once (`404` `not-offered` meaning not), the probe's own
    /// options, and whether the server states the default limits.
    static func offers(
        client: BindingClient, options: ServerProbe.Options, readBackOffered: Bool
    ) async throws -> (Set<String>, TrackingPolicy?) {
        var offers: Set<String> = readBackOffered ? ["read-back"] : []
        let policyAnswer = try await send(
            client: client, options: options, method: "GET", path: Binding.policyPath, token: options.token,
            headers: [("Accept", Binding.protobufMediaType)], form: .wellFormed)
        let policy = policyAnswer.status == 200 ? try? TrackingPolicy(serializedBytes: policyAnswer.body) : nil
        if policy != nil { offers.insert("policy") }
        // Without a token, an offered endpoint is a 401; one left out is routed to 404 first.
        let regions = try await send(
            client: client, options: options, method: "POST", path: Binding.regionsPath, token: nil, body: [],
            form: .malformed("no token, no Content-Type, an empty body: asks only whether the endpoint is there"))
        if regions.status != 404 { offers.insert("regions") }
        let ledger = try await send(
            client: client, options: options, method: "GET", path: Binding.ledgerPath(deviceId: options.deviceId),
            token: options.token, form: .wellFormed)
        if ledger.status == 200 { offers.insert("ledger") }
        if options.operatorToken != nil { offers.insert("operator-token") }
        if RawRequest.endpoint(of: options.server) != nil { offers.insert("raw-connection") }
        if (policy?.maxBatchBytes ?? UInt32(UploadQueue.defaultMaxBatchBytes))
            == UInt32(UploadQueue.defaultMaxBatchBytes)
        {
            offers.insert("default-limits")
        }
        return (offers, policy)
    }

    /// Asks for the read-back once: any HTTP answer means the server is there; 200 means the read-back is offered;
    /// 401 or 403 means the token or device id is wrong, and the probe stops.
    static func connect(client: BindingClient, options: ServerProbe.Options) async throws -> ProbeContext {
        let answer = try await send(
            client: client, options: options, method: "GET",
            path: Binding.fixesPath(deviceId: options.deviceId) + "?from=0&to=1", token: options.token,
            // The client retries a refused connection until the time-out: a short one reports a server that is
            // not there in seconds.
            timeout: .milliseconds(Int64(min(options.requestTimeoutSeconds, 5) * 1000)), form: .wellFormed)
        // Nothing can be judged with credentials the server refuses: that is the caller's mistake, not the server's.
        if answer.status == 401 || answer.status == 403 {
            throw ServerProbe.CannotRun(
                description:
                    "the server refuses the token for device \(options.deviceId) (\(answer.status) "
                    + "\(answer.errorBody?.code ?? "without an error body")); check --token and --device-id")
        }
        let now = Int64(Date().timeIntervalSince1970) * 1000
        let (offers, policy) = try await Self.offers(
            client: client, options: options, readBackOffered: answer.status == 200)
        return ProbeContext(
            client: client, options: options, readBackOffered: answer.status == 200, baseTimeMs: now - 3_600_000,
            offers: offers, policy: policy)
    }

    /// A fresh installation id: random, never 0, so that reruns against the same database never meet.
    func freshInstallId() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return UInt64.random(in: 1 ... .max, using: &generator)
    }

    // MARK: - Batches

    /// A valid fix `sequence` of this run: one second apart, around Berlin, each position its own so that stored
    /// content can be compared.
    func fix(_ sequence: UInt64) -> LocationFix {
        var fix = LocationFix()
        fix.sequence = sequence
        fix.timeMs = baseTimeMs + Int64(sequence % 1_000_000) * 1000
        fix.latitudeE7 = 525_200_000 + Int32(sequence % 100_000)
        fix.longitudeE7 = 134_050_000 - Int32(sequence % 100_000)
        fix.horizontalAccuracyCm = 400
        return fix
    }

    /// A revision-1 batch of this device: backlog `backlog`, live fix `live`; the floor is the lowest number
    /// carried unless given.
    func batch(
        install: UInt64, batchId: UInt64, backlog: [UInt64], live: UInt64? = nil, floor: UInt64? = nil
    ) -> LocationBatch {
        var batch = LocationBatch()
        batch.deviceId = deviceId
        batch.installId = install
        batch.batchId = batchId
        batch.protocolRevision = 1
        batch.datum = .wgs84
        batch.sentAtMs = baseTimeMs + 3_600_000
        batch.fixes = backlog.map(fix)
        batch.liveFix = live.map(fix)
        batch.fixSequenceFloor = floor ?? (backlog + (live.map { [$0] } ?? [])).min() ?? 1
        return batch
    }

    // MARK: - Sending

    /// How long ``upload(_:format:gzip:)`` keeps waiting out 429 and 503 before it reports the refusal.
    static let refusalPatience: Duration = .seconds(60)

    /// Posts `batch` as a device does, in `format`, and reads the answer. A 429 or 503 is waited out as a device
    /// waits it out (`Retry-After`, at most 10 s a time, for up to ``refusalPatience``), so that a rate-limited
    /// server can be probed; the load checks, which look for those statuses, send without this. Each wait adds up
    /// to half a second at random: sixteen installations refused together and retrying after exactly the same
    /// second would meet the same in-flight limit again, every time.
    func upload(
        _ batch: LocationBatch, format: BodyFormat = .binary, gzip: Bool = false
    ) async throws
        -> BindingClient.UploadResult
    {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.refusalPatience
        while true {
            let result = try await uploadOnce(batch, format: format, gzip: gzip)
            guard case .refused(let status, _, let retryAfter) = result, status == 429 || status == 503,
                clock.now < deadline
            else { return result }
            let seconds = min(retryAfterSeconds(retryAfter) ?? 1, 10)
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000) + Int64.random(in: 0...500)))
        }
    }

    /// Posts `batch` once, as ``BindingClient/upload(_:token:format:gzip:timeout:)`` does (a 429 or 503 is
    /// returned, not waited out), through the record.
    func uploadOnce(
        _ batch: LocationBatch, format: BodyFormat = .binary, gzip: Bool = false
    ) async throws
        -> BindingClient.UploadResult
    {
        let encoded = format.encode(batch)
        var headers: [(String, String)] = [("Accept", format.mediaType)]
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        let answer = try await Self.send(
            client: client, options: options, method: "POST", path: Binding.batchesPath, token: token,
            contentType: format.contentType(for: LocationBatch.self), headers: headers,
            body: gzip ? GzipCoding.compress(encoded) : encoded, timeout: timeout, form: .wellFormed)
        return BindingClient.uploadResult(answer)
    }

    /// Posts raw bytes to `/v1/batches`; `token` nil sends the probe's token, `.some(nil)` none. `form` says
    /// whether the request is one the binding describes, or broken on purpose.
    func postBatchBytes(
        _ body: [UInt8], contentType: String? = BodyFormat.binary.contentType(for: LocationBatch.self),
        headers: [(String, String)] = [], token: String?? = .none, form: RequestForm
    ) async throws -> BindingClient.Exchange {
        try await exchange(
            method: "POST", path: Binding.batchesPath, token: token ?? self.token, contentType: contentType,
            headers: headers, body: body, form: form)
    }

    /// One request through the client, recorded when the probe records (``ServerProbe/Options/recorder``).
    static func send(
        client: BindingClient, options: ServerProbe.Options, method: String, path: String, token: String?,
        contentType: String? = nil, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: Duration = .seconds(30), form: RequestForm
    ) async throws -> BindingClient.Exchange {
        let answer = try await client.exchange(
            method: method, path: path, token: token, contentType: contentType, headers: headers, body: body,
            timeout: timeout)
        if let recorder = options.recorder {
            // The fields as the client sends them: Authorization, then Content-Type, then the rest.
            var sent: [(String, String)] = []
            if let token { sent.append(("Authorization", "Bearer \(token)")) }
            if let contentType { sent.append(("Content-Type", contentType)) }
            try recorder.record(
                form: form, transport: "client", method: method, path: path, requestHeaders: sent + headers,
                requestBody: body, status: answer.status, responseHeaders: answer.headers, responseBody: answer.body)
        }
        return answer
    }

    /// One request, with a 429 or 503 waited out as a device waits it out (`Retry-After`, at most 10 s a time, 5
    /// times), so that a rate-limited or loaded server can be probed; the load checks, which look for those
    /// statuses, send without this.
    func exchange(
        method: String, path: String, token: String?, contentType: String? = nil, headers: [(String, String)] = [],
        body: [UInt8]? = nil, form: RequestForm
    ) async throws -> BindingClient.Exchange {
        var attempts = 0
        while true {
            let answer = try await Self.send(
                client: client, options: options, method: method, path: path, token: token,
                contentType: contentType, headers: headers, body: body, timeout: timeout, form: form)
            attempts += 1
            guard answer.status == 429 || answer.status == 503, attempts < 6 else { return answer }
            let seconds = min(retryAfterSeconds(answer.header("Retry-After")) ?? 1, 10)
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        }
    }

    // MARK: - Judging

    /// The problems of an upload's answer against `expected` (nil: any ack a device would apply), judged as the
    /// conformance runner judges ledger vectors (`SessionEvaluation`): the batch it names, whether a device
    /// would ignore it, the outcome, the hold reason, each item's result.
    static func problems(
        of result: BindingClient.UploadResult, for batch: LocationBatch, expected: ExpectedAck?
    ) -> [String] {
        switch result {
        case .refused(let status, let error, _):
            return ["answered \(status) (\(error?.code ?? "no error body")), expected 200 with a BatchAck"]
        case .unreadableAck(let why):
            return ["answered 200 with a body that is not a BatchAck: \(why)"]
        case .acknowledged(let ack):
            var problems: [String] = []
            if ack.batchId != batch.batchId {
                problems.append("the ack names batch \(ack.batchId), expected \(batch.batchId)")
            }
            if let reason = SessionEvaluation.reasonADeviceIgnores(ack) {
                problems.append("a device would ignore the ack (\(reason))")
            }
            if let expected { problems += SessionEvaluation.judge(expected, ack) }
            return problems
        }
    }

    /// PROCESSED, with `result` for each of `sequences`.
    static func processed(_ sequences: [UInt64], _ result: String) -> ExpectedAck {
        var ack = ExpectedAck(outcome: "PROCESSED")
        ack.fixResults = Dictionary(sequences.map { (String($0), result) }, uniquingKeysWith: { first, _ in first })
        return ack
    }

    /// A short account of an ack, for messages.
    static func describe(_ result: BindingClient.UploadResult) -> String {
        switch result {
        case .refused(let status, let error, let retryAfter):
            return "\(status) \(error?.code ?? "(no error body)")\(retryAfter.map { ", Retry-After \($0)" } ?? "")"
        case .unreadableAck(let why): return "200 with an unreadable ack (\(why))"
        case .acknowledged(let ack):
            let ranges = ack.fixResults.map { "\($0.firstSequence)-\($0.lastSequence) \(ShortEnumName.result($0))" }
            return "\(ShortEnumName.outcome(ack.outcome)) [\(ranges.joined(separator: ", "))]"
        }
    }

    /// The problems of a non-200 answer: its status (one of `statuses`), a JSON error body with a `code` (`code`
    /// when given), and `headers` present (a value prefix, compared case-insensitively).
    static func errorProblems(
        _ answer: BindingClient.Exchange, statuses: Set<Int>, code: String? = nil, headers: [(String, String)] = []
    ) -> [String] {
        var problems: [String] = []
        let wanted = statuses.sorted().map(String.init).joined(separator: " or ")
        if !statuses.contains(answer.status) {
            problems.append("answered \(answer.status), expected \(wanted)")
        }
        let mediaType = answer.header("Content-Type").flatMap(MediaType.init)?.type
        if mediaType != Binding.jsonMediaType {
            problems.append(
                "the error body's Content-Type is \(answer.header("Content-Type") ?? "absent"), expected application/json"
            )
        }
        if let body = answer.errorBody {
            if body.code.isEmpty { problems.append("the error body's code is empty") }
            if let code, body.code != code {
                problems.append("the error body's code is \(body.code), expected \(code)")
            }
        } else {
            let text = String(decoding: answer.body.prefix(200), as: UTF8.self)
            problems.append("no JSON error body with a code (the body was \"\(text)\")")
        }
        for (name, prefix) in headers {
            guard let value = answer.header(name) else {
                problems.append("no \(name) header")
                continue
            }
            if !value.lowercased().hasPrefix(prefix.lowercased()) {
                problems.append("\(name) is \"\(value)\", expected \"\(prefix)...\"")
            }
        }
        return problems
    }

    // MARK: - Read-back

    /// What the read-back says was stored for one installation.
    enum Stored {
        /// The server offers no read-back.
        case notOffered
        /// The fixes of the installation in the window, as the server answered them.
        case fixes([LocationFix])
        /// The answer was cut (more fixes of the device in the window than the server returns at once).
        case truncated
    }

    /// The stored fixes of installation `install` with `time_ms` in `fromMs..<toMs`.
    func stored(install: UInt64, fromMs: Int64, toMs: Int64) async throws -> Stored {
        guard readBackOffered else { return .notOffered }
        let answer = try await exchange(
            method: "GET", path: Binding.fixesPath(deviceId: deviceId) + "?from=\(fromMs)&to=\(toMs)", token: token,
            form: .wellFormed)
        guard answer.status == 200 else {
            throw ReadBackError(description: "the read-back answered \(answer.status)")
        }
        let document = try ReadBackDocument(json: answer.body)
        if document.truncated { return .truncated }
        return .fixes(document.entries.filter { $0.installId == install }.map(\.fix))
    }

    /// The problems of what was stored for installation `install`: exactly the fixes `expected` (each once, with
    /// the content sent), and none of the other fixes `sent` (those refused or never acked). Nothing when the
    /// server offers no read-back; `note` says whether storage was checked.
    func storageProblems(
        install: UInt64, expected: [LocationFix], sent: [LocationFix]
    ) async throws -> (problems: [String], note: String) {
        let times = (expected + sent).map(\.timeMs).filter { $0 >= 946_684_800_000 && $0 < 4_102_444_800_000 }
        guard let low = times.min(), let high = times.max() else { return ([], "") }
        switch try await stored(install: install, fromMs: low, toMs: high + 1) {
        case .notOffered: return ([], "; storage not checked (no read-back)")
        case .truncated: return ([], "; storage not checked (the read-back was truncated)")
        case .fixes(let stored):
            var problems: [String] = []
            var bySequence: [UInt64: [LocationFix]] = [:]
            for fix in stored { bySequence[fix.sequence, default: []].append(fix) }
            var wanted: [UInt64: LocationFix] = [:]
            for fix in expected where wanted[fix.sequence] == nil { wanted[fix.sequence] = fix }
            for (sequence, fix) in wanted.sorted(by: { $0.key < $1.key }) {
                let copies = bySequence[sequence] ?? []
                if copies.isEmpty {
                    problems.append("fix \(sequence) was acked as stored but the read-back does not have it")
                } else if copies.count > 1 {
                    problems.append("fix \(sequence) is stored \(copies.count) times")
                } else if copies[0] != fix {
                    problems.append(
                        "fix \(sequence) is stored as \(copies[0].jsonString()), sent as \(fix.jsonString())")
                }
            }
            let extra = Set(bySequence.keys).subtracting(wanted.keys).sorted()
            if !extra.isEmpty {
                problems.append("fixes \(extra) are stored, but were refused or never acked as stored")
            }
            return (
                problems,
                wanted.isEmpty
                    ? "; the read-back shows nothing stored"
                    : "; the read-back has exactly the \(wanted.count) fixes acked as stored"
            )
        }
    }
}

struct ReadBackError: Error, CustomStringConvertible {
    var description: String
}

/// The read-back's JSON: `{"fixes": [{"installId": "7", "fix": {...proto3 JSON...}}, ...], "truncated": false}`,
/// or the bare array of entries.
struct ReadBackDocument {
    struct Entry {
        var installId: UInt64
        var fix: LocationFix
    }

    var entries: [Entry] = []
    var truncated = false

    init(json bytes: [UInt8]) throws {
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        let list: [Any]
        if let array = object as? [Any] {
            list = array
        } else if let dictionary = object as? [String: Any], let fixes = dictionary["fixes"] as? [Any] {
            list = fixes
            truncated = dictionary["truncated"] as? Bool ?? false
        } else {
            throw ReadBackError(description: "the read-back is neither an array nor an object with \"fixes\"")
        }
        for item in list {
            guard let entry = item as? [String: Any], let fixObject = entry["fix"] else {
                throw ReadBackError(description: "a read-back entry without \"fix\"")
            }
            // proto3 JSON writes 64-bit integers as strings; accept numbers too.
            let install: UInt64? =
                (entry["installId"] as? String).flatMap { UInt64($0) } ?? (entry["installId"] as? NSNumber)?.uint64Value
            guard let install else { throw ReadBackError(description: "a read-back entry without \"installId\"") }
            let fixData = try JSONSerialization.data(withJSONObject: fixObject)
            entries.append(Entry(installId: install, fix: try LocationFix(jsonUTF8: [UInt8](fixData))))
        }
    }
}
