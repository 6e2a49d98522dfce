import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import LocationWire
import LocationWireBehavior
import LocationWireCatalogues
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireJSON
import LocationWireServer
import LocationWireSession
import NIOCore
import Testing

/// The binding's endpoints and refusals beyond the batch basics of ``BatchEndpointTests``: formats and
/// negotiation, content coding, regions, policy, read-back, rate limits and a failing store. (`§http-scope`: the
/// binding's terms are RFC 9110's, and these tests use Hummingbird's, which are too.)
@Suite struct RouteTests {
    typealias Fixture = BatchEndpointTests

    static func app(
        _ configuration: ServerConfiguration, storage: (any ServerStorage & BearerTokenAuthenticator)? = nil
    ) async throws -> (
        token: String, app: some ApplicationProtocol
    ) {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: Fixture.deviceId, nowMs: Fixture.nowMs)
        var configuration = configuration
        configuration.nowMs = { Fixture.nowMs }
        let storage = storage ?? store
        return (
            token,
            Application(
                router: makeServerRouter(storage: storage, authenticator: storage, configuration: configuration))
        )
    }

    static func headers(_ token: String, _ pairs: [HTTPField.Name: String]) -> HTTPFields {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        for (name, value) in pairs { headers[name] = value }
        return headers
    }

    static func errorCode(_ response: TestResponse) -> String? {
        ErrorBody(jsonBytes: Array(response.body.readableBytesView))?.code
    }

    /// `§http-negotiation`, `§media-types`: proto3 JSON in, JSON out; Accept picks binary.
    @Test func jsonBatchGetsAJSONAckAndAcceptCanAskForBinary() async throws {
        let (token, app) = try await Self.app(ServerConfiguration())
        let json = ByteBuffer(string: Fixture.batch(1...2).jsonString())
        try await app.test(.router) { client in
            let jsonType = BodyFormat.json.contentType(for: LocationBatch.self)
            try await client.execute(
                uri: Binding.batchesPath, method: .post, headers: Self.headers(token, [.contentType: jsonType]),
                body: json
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == BodyFormat.json.contentType(for: BatchAck.self))
                let ack = try BatchAck(jsonUTF8: Array(response.body.readableBytesView))
                #expect(ack.fixResults == [AckRange(first: 1, last: 2, result: .accepted)])
            }
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(token, [.contentType: jsonType, .accept: Binding.protobufMediaType]), body: json
            ) { response in
                #expect(response.headers[.contentType] == BodyFormat.binary.contentType(for: BatchAck.self))
                let ack = try BatchAck(serializedBytes: Array(response.body.readableBytesView))
                #expect(ack.fixResults == [AckRange(first: 1, last: 2, result: .duplicate)])
            }
        }
    }

    /// `§http-media-types`: a `proto` parameter naming another message is a 415.
    @Test func protoParameterMustNameTheEndpointsMessage() async throws {
        let (token, app) = try await Self.app(ServerConfiguration())
        try await app.test(.router) { client in
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(
                    token, [.contentType: BodyFormat.binary.contentType(for: RegionRequest.self)]),
                body: ByteBuffer(bytes: Fixture.batch(1...1).serializedBytes())
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(Self.errorCode(response) == ErrorBody.Code.unsupportedMediaType)
            }
        }
    }

    /// `§http-gzip`: gzip read, a bomb stopped at the limit, garbage and unknown codings refused.
    @Test func gzipBodiesAreReadAndBombsAndGarbageRefused() async throws {
        let (token, app) = try await Self.app(ServerConfiguration(maxBodyBytes: 4096))
        let binary = BodyFormat.binary.contentType(for: LocationBatch.self)
        try await app.test(.router) { client in
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(token, [.contentType: binary, .contentEncoding: "gzip"]),
                body: ByteBuffer(bytes: GzipCoding.compress(Fixture.batch(1...3).serializedBytes()))
            ) { response in
                #expect(response.status == .ok)
                let ack = try BatchAck(serializedBytes: Array(response.body.readableBytesView))
                #expect(ack.fixResults == [AckRange(first: 1, last: 3, result: .accepted)])
            }
            // A megabyte of zeros compresses to about a kilobyte, under the limit; decompressed it is far over.
            let bomb = GzipCoding.compress([UInt8](repeating: 0, count: 1 << 20))
            #expect(bomb.count < 4096)
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(token, [.contentType: binary, .contentEncoding: "gzip"]),
                body: ByteBuffer(bytes: bomb)
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.errorCode(response) == ErrorBody.Code.bodyTooLarge)
            }
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(token, [.contentType: binary, .contentEncoding: "gzip"]),
                body: ByteBuffer(bytes: Fixture.batch(1...1).serializedBytes())
            ) { response in
                #expect(response.status == .badRequest)
                #expect(Self.errorCode(response) == ErrorBody.Code.corruptContentEncoding)
            }
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(token, [.contentType: binary, .contentEncoding: "br"]),
                body: ByteBuffer(bytes: Fixture.batch(1...1).serializedBytes())
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(response.headers[.acceptEncoding] == "gzip")
                #expect(Self.errorCode(response) == ErrorBody.Code.unsupportedContentEncoding)
            }
        }
    }

    /// `§http-regions`: the planner's assignment, with the previous one kept for the next plan.
    @Test func regionsArePlannedFromTheCatalogueAndRemembered() async throws {
        let catalogue = try RegionCatalogueFixture.regions()
        let planner = RegionPlanner(catalogue: catalogue)
        let (token, app) = try await Self.app(ServerConfiguration(planner: planner))
        var request = RegionRequest()
        request.deviceId = Fixture.deviceId
        request.reason = .initial
        request.platformSlotLimit = 20
        request.reservedAppSlots = 2
        request.datum = .wgs84
        request.sentAtMs = Fixture.nowMs
        request.platform = .ios
        var fix = LocationFix()
        fix.timeMs = Fixture.nowMs - 1000
        fix.latitudeE7 = 453_271_000
        fix.longitudeE7 = 144_422_000
        fix.horizontalAccuracyCm = 1000
        request.currentFix = fix
        let body = ByteBuffer(bytes: request.serializedBytes())
        let expected = planner.plan(
            latitudeE7: 453_271_000, longitudeE7: 144_422_000, slotBudget: 18, nowMs: Fixture.nowMs, previous: nil)
        try await app.test(.router) { client in
            let headers = Self.headers(token, [.contentType: BodyFormat.binary.contentType(for: RegionRequest.self)])
            try await client.execute(
                uri: Binding.regionsPath, method: .post, headers: headers, body: body
            ) { response in
                #expect(response.status == .ok)
                let assignment = try RegionAssignment(serializedBytes: Array(response.body.readableBytesView))
                #expect(assignment == expected)
                #expect(assignment.slotBudget == 18)
                #expect(!assignment.regions.isEmpty)
            }
            // The second plan has the first as its previous assignment (§plan-delta).
            let second = planner.plan(
                latitudeE7: 453_271_000, longitudeE7: 144_422_000, slotBudget: 18, nowMs: Fixture.nowMs,
                previous: expected)
            try await client.execute(
                uri: Binding.regionsPath, method: .post, headers: headers, body: body
            ) { response in
                let assignment = try RegionAssignment(serializedBytes: Array(response.body.readableBytesView))
                #expect(assignment == second)
            }
        }
    }

    /// `§http-endpoints`: an endpoint a server does not offer is a 404 `not-offered`, before the token or the body
    /// is looked at.
    @Test func regionsWithoutACatalogueAndPolicyWithoutOneAre404() async throws {
        let (token, app) = try await Self.app(ServerConfiguration())
        var request = RegionRequest()
        request.deviceId = Fixture.deviceId
        let body = ByteBuffer(bytes: request.serializedBytes())
        try await app.test(.router) { client in
            try await client.execute(uri: Binding.policyPath, method: .get, headers: Self.headers(token, [:])) {
                response in
                #expect(response.status == .notFound)
                #expect(Self.errorCode(response) == ErrorBody.Code.notOffered)
            }
            try await client.execute(
                uri: Binding.regionsPath, method: .post,
                headers: Self.headers(token, [.contentType: Binding.protobufMediaType]), body: body
            ) { response in
                // The routing answers before validation (§http-check-order, step 2).
                #expect(response.status == .notFound)
                #expect(Self.errorCode(response) == ErrorBody.Code.notOffered)
            }
        }
    }

    @Test func policyIsServedInEitherFormat() async throws {
        let policy = {
            var policy = TrackingPolicy()
            policy.policyVersion = 3
            policy.fenceHysteresisM = 150
            return policy
        }()
        let (token, app) = try await Self.app(ServerConfiguration(trackingPolicy: policy))
        try await app.test(.router) { client in
            try await client.execute(uri: Binding.policyPath, method: .get, headers: Self.headers(token, [:])) {
                response in
                #expect(response.status == .ok)
                let served = try TrackingPolicy(serializedBytes: Array(response.body.readableBytesView))
                #expect(served == policy)
            }
            try await client.execute(
                uri: Binding.policyPath, method: .get, headers: Self.headers(token, [.accept: Binding.jsonMediaType])
            ) { response in
                let served = try TrackingPolicy(jsonUTF8: Array(response.body.readableBytesView))
                #expect(served == policy)
            }
            try await client.execute(uri: Binding.policyPath, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    /// `§http-read-back`: the range, the order, the limit, GeoJSON, 403 and 400.
    @Test func readBackReturnsStoredFixesAsJSONAndGeoJSON() async throws {
        let (token, app) = try await Self.app(ServerConfiguration())
        let batch = Fixture.batch(1...4)
        try await app.test(.router) { client in
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(token, [.contentType: Binding.protobufMediaType]),
                body: ByteBuffer(bytes: batch.serializedBytes()))
            let from = batch.fixes[1].timeMs
            let to = batch.fixes[3].timeMs
            let path = Binding.fixesPath(deviceId: Fixture.deviceId) + "?from=\(from)&to=\(to)"
            try await client.execute(uri: path, method: .get, headers: Self.headers(token, [:])) { response in
                #expect(response.status == .ok)
                let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                let root = try #require(object as? [String: Any])
                let fixes = try #require(root["fixes"] as? [[String: Any]])
                // from is inclusive and to exclusive: fixes 2 and 3.
                #expect(fixes.map { ($0["fix"] as? [String: Any])?["sequence"] as? String } == ["2", "3"])
                #expect(root["truncated"] as? Bool == false)
            }
            try await client.execute(
                uri: path + "&limit=1", method: .get,
                headers: Self.headers(token, [.accept: Binding.geoJSONMediaType])
            ) { response in
                #expect(response.headers[.contentType] == Binding.geoJSONMediaType)
                let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                let root = try #require(object as? [String: Any])
                #expect(root["type"] as? String == "FeatureCollection")
                let features = try #require(root["features"] as? [[String: Any]])
                #expect(features.count == 1)
                let geometry = try #require(features.first?["geometry"] as? [String: Any])
                // GeoJSON is longitude first.
                #expect(geometry["coordinates"] as? [Double] == [13.405, 52.52])
                #expect(root["truncated"] as? Bool == true)
            }
            try await client.execute(
                uri: Binding.fixesPath(deviceId: "someone-else"), method: .get, headers: Self.headers(token, [:])
            ) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: path + "&from=yesterday", method: .get, headers: Self.headers(token, [:])) {
                response in
                #expect(response.status == .badRequest)
                #expect(Self.errorCode(response) == ErrorBody.Code.badQuery)
            }
        }
    }

    /// `§http-rate-limits`: 429 with Retry-After past the device's rate.
    @Test func rateLimitAnswers429WithRetryAfter() async throws {
        // One instant for all four requests, however long they take: the bucket never refills.
        var configuration = ServerConfiguration(rateLimitPerDevice: 2)
        let instant = ContinuousClock.now
        configuration.monotonicNow = { instant }
        let (token, app) = try await Self.app(configuration)
        try await app.test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for batchId in 1...4 as ClosedRange<UInt64> {
                try await client.execute(
                    uri: Binding.batchesPath, method: .post,
                    headers: Self.headers(token, [.contentType: Binding.protobufMediaType]),
                    body: ByteBuffer(bytes: Fixture.batch(batchId...batchId, batchId: batchId).serializedBytes())
                ) { response in
                    statuses.append(response.status)
                    if response.status == .tooManyRequests {
                        #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1)
                        #expect(Self.errorCode(response) == ErrorBody.Code.rateLimited)
                    }
                }
            }
            // A burst of two passes; the rest of the same instant is refused.
            #expect(statuses == [.ok, .ok, .tooManyRequests, .tooManyRequests])
        }
    }

    /// `§http-ack-after-commit`: a store that fails gives 503, never an ack.
    @Test func failingStoreIs503AndNothingIsAcked() async throws {
        let (token, app) = try await Self.app(ServerConfiguration(), storage: FailingIngestStorage())
        try await app.test(.router) { client in
            try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: Self.headers(token, [.contentType: Binding.protobufMediaType]),
                body: ByteBuffer(bytes: Fixture.batch(1...1).serializedBytes())
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] != nil)
                #expect(Self.errorCode(response) == ErrorBody.Code.storageUnavailable)
            }
            try await client.execute(uri: "/v1/unknown", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(Self.errorCode(response) == ErrorBody.Code.notFound)
            }
        }
    }
}

/// A store whose every write fails, as a database that went away does, and whose token lookup accepts any token
/// for `acceptedDevice` (by default ``BatchEndpointTests/deviceId``), or fails too when it is nil: a shard that
/// is down (``ShardedStorageTests``).
struct FailingIngestStorage: ShardStorage {
    struct Unavailable: Error {}
    var acceptedDevice: String? = BatchEndpointTests.deviceId

    func deviceId(forToken token: String) async throws -> String? {
        guard let acceptedDevice else { throw Unavailable() }
        return acceptedDevice
    }
    func isOperatorToken(_ token: String) async throws -> Bool {
        guard acceptedDevice != nil else { throw Unavailable() }
        return false
    }
    func addOperatorToken(_ token: String, nowMs: Int64) async throws { throw Unavailable() }
    func issueFirstToken(forDevice deviceId: String, nowMs: Int64) async throws -> String? { throw Unavailable() }
    func issueOperatorToken(nowMs: Int64) async throws -> String { throw Unavailable() }
    func erase(deviceId: String, nowMs: Int64) async throws -> RemovedRows { throw Unavailable() }
    func installations(deviceId: String) async throws -> [InstallationRecord] { throw Unavailable() }
    func removeReceived(before receivedBeforeMs: Int64, nowMs: Int64, rowLimit: Int) async throws -> RemovedRows {
        throw Unavailable()
    }
    func prepareRetention(nowMs: Int64) async throws { throw Unavailable() }
    func issueToken(forDevice deviceId: String, nowMs: Int64) async throws -> String { throw Unavailable() }
    func ingest(
        _ batch: LocationBatch, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy
    ) async throws
        -> BatchAck
    { throw Unavailable() }
    func fixes(deviceId: String, fromMs: Int64, toMs: Int64, limit: Int) async throws -> [StoredFix] {
        throw Unavailable()
    }
    func lastAssignment(deviceId: String) async throws -> RegionAssignment? { throw Unavailable() }
    func saveAssignment(_ assignment: RegionAssignment, deviceId: String, nowMs: Int64) async throws {
        throw Unavailable()
    }
}

/// The example catalogue of the repository (examples/catalogue.geojson), read as `serve --catalogue` reads it.
enum RegionCatalogueFixture {
    static func regions() throws -> [Region] {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return try RegionCatalogueFile.read(repository.appendingPathComponent("examples/catalogue.geojson").path)
    }
}

/// The binding's remaining rules that a router test can check: the order of the checks, methods, load shedding,
/// and what a device reads as an ack.
@Suite struct BindingRuleTests {
    typealias Fixture = BatchEndpointTests

    /// `§http-auth-errors`: the token is checked before the body is read, so garbage without a token is a 401,
    /// not a 400 that would tell an unauthenticated client how its body was read.
    @Test func tokenIsCheckedBeforeTheBody() async throws {
        let (_, app) = try await RouteTests.app(ServerConfiguration())
        try await app.test(.router) { client in
            try await client.execute(
                uri: Binding.batchesPath, method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(bytes: [0xFF, 0xFF])
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
        }
    }

    /// `§http-error-codes`: a known path with another method.
    @Test func wrongMethodIsRefusedWithTheErrorBody() async throws {
        let (token, app) = try await RouteTests.app(ServerConfiguration())
        try await app.test(.router) { client in
            try await client.execute(
                uri: Binding.batchesPath, method: .get, headers: RouteTests.headers(token, [:])
            ) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
                #expect(RouteTests.errorCode(response) == ErrorBody.Code.methodNotAllowed)
            }
        }
    }

    /// `§http-rate-limits`: past `maxInFlight` requests at once, 503 `unavailable` with Retry-After, and the
    /// refused batch stored nothing.
    @Test func loadSheddingAnswers503() async throws {
        let gate = SlowIngestStorage()
        let token = try await gate.store.issueToken(forDevice: Fixture.deviceId, nowMs: Fixture.nowMs)
        let router = makeServerRouter(
            storage: gate, authenticator: gate,
            configuration: ServerConfiguration(maxInFlight: 1, nowMs: { Fixture.nowMs }))
        try await Application(router: router).test(.live) { client in
            // Two connections, as two devices have: the test client's one connection would queue the second
            // request behind the first.
            let http = BindingClient(baseURL: "http://127.0.0.1:\(try #require(client.port))")
            async let first = http.upload(Fixture.batch(1...1), token: token)
            try await gate.waitUntilIngesting()
            let second = try await http.upload(Fixture.batch(2...2, batchId: 2), token: token)
            gate.release()
            let firstResult = try await first
            try await http.shutdown()
            guard case .refused(let status, let error, let retryAfter) = second else {
                Issue.record("expected a 503, got \(second)")
                return
            }
            #expect(status == 503)
            #expect(retryAfter == "1")
            #expect(error?.code == ErrorBody.Code.unavailable)
            guard case .acknowledged = firstResult else {
                Issue.record("the request in flight was not acknowledged: \(firstResult)")
                return
            }
        }
        #expect(try await gate.store.storedFixCount(deviceId: Fixture.deviceId, installId: 7) == 1)
    }
}

/// A store whose ingest waits until released, to hold a request in flight.
final class SlowIngestStorage: ServerStorage, BearerTokenAuthenticator {
    let store: SQLiteStorage
    let ingesting = AsyncStream<Void>.makeStream()
    let released = AsyncStream<Void>.makeStream()

    init() { store = try! SQLiteStorage() }

    func waitUntilIngesting() async throws {
        for await _ in ingesting.stream { return }
    }

    func release() { released.continuation.yield() }

    func deviceId(forToken token: String) async throws -> String? { try await store.deviceId(forToken: token) }
    func issueFirstToken(forDevice deviceId: String, nowMs: Int64) async throws -> String? {
        try await store.issueFirstToken(forDevice: deviceId, nowMs: nowMs)
    }
    func issueOperatorToken(nowMs: Int64) async throws -> String { try await store.issueOperatorToken(nowMs: nowMs) }
    func erase(deviceId: String, nowMs: Int64) async throws -> RemovedRows {
        try await store.erase(deviceId: deviceId, nowMs: nowMs)
    }
    func installations(deviceId: String) async throws -> [InstallationRecord] {
        try await store.installations(deviceId: deviceId)
    }
    func removeReceived(before receivedBeforeMs: Int64, nowMs: Int64, rowLimit: Int) async throws -> RemovedRows {
        try await store.removeReceived(before: receivedBeforeMs, nowMs: nowMs, rowLimit: rowLimit)
    }
    func prepareRetention(nowMs: Int64) async throws { try await store.prepareRetention(nowMs: nowMs) }
    func issueToken(forDevice deviceId: String, nowMs: Int64) async throws -> String {
        try await store.issueToken(forDevice: deviceId, nowMs: nowMs)
    }
    func ingest(
        _ batch: LocationBatch, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy
    ) async throws
        -> BatchAck
    {
        ingesting.continuation.yield()
        for await _ in released.stream { break }
        return try await store.ingest(batch, encodedSize: encodedSize, nowMs: nowMs, policy: policy)
    }
    func fixes(deviceId: String, fromMs: Int64, toMs: Int64, limit: Int) async throws -> [StoredFix] {
        try await store.fixes(deviceId: deviceId, fromMs: fromMs, toMs: toMs, limit: limit)
    }
    func lastAssignment(deviceId: String) async throws -> RegionAssignment? {
        try await store.lastAssignment(deviceId: deviceId)
    }
    func saveAssignment(_ assignment: RegionAssignment, deviceId: String, nowMs: Int64) async throws {
        try await store.saveAssignment(assignment, deviceId: deviceId, nowMs: nowMs)
    }
}
