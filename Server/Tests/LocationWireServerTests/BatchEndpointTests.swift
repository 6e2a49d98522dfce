import Foundation
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireHTTP
import LocationWireServer
import LocationWireSession
import Testing

/// `POST /v1/batches` through Hummingbird's router tester: no socket, an in-memory SQLite store, a fixed clock.
@Suite struct BatchEndpointTests {
    static let nowMs: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z
    static let deviceId = "device-test"

    /// A store with a token for ``deviceId``, and the application's router over it.
    static func makeServer() async throws -> (store: SQLiteStorage, token: String, app: some ApplicationProtocol) {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: deviceId, nowMs: nowMs)
        let router = makeServerRouter(
            storage: store, authenticator: store, configuration: ServerConfiguration(nowMs: { nowMs }))
        return (store, token, Application(router: router))
    }

    /// A valid batch of fixes `sequences`, for installation 7.
    static func batch(_ sequences: ClosedRange<UInt64>, batchId: UInt64 = 1) -> LocationBatch {
        var batch = LocationBatch()
        batch.deviceId = deviceId
        batch.installId = 7
        batch.batchId = batchId
        batch.protocolRevision = IngestLedger.protocolRevision
        batch.datum = .wgs84
        batch.sentAtMs = nowMs
        batch.fixSequenceFloor = sequences.lowerBound
        batch.fixes = sequences.map { sequence in
            var fix = LocationFix()
            fix.sequence = sequence
            fix.timeMs = nowMs - 60_000 + Int64(sequence)
            fix.latitudeE7 = 525_200_000
            fix.longitudeE7 = 134_050_000
            return fix
        }
        return batch
    }

    static func headers(token: String?, contentType: String = Binding.protobufMediaType) -> HTTPFields {
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return headers
    }

    static func ack(_ response: TestResponse) throws -> BatchAck {
        #expect(response.headers[.contentType] == BodyFormat.binary.contentType(for: BatchAck.self))
        return try BatchAck(serializedBytes: Array(response.body.readableBytesView))
    }

    struct ErrorBodyMissing: Error {}

    static func errorBody(_ response: TestResponse) throws -> ErrorBody {
        guard let body = ErrorBody(jsonBytes: Array(response.body.readableBytesView)) else {
            throw ErrorBodyMissing()
        }
        return body
    }

    /// `§http-endpoints`: a binary batch in, its binary ack out, the fixes stored.
    @Test func batchIsStoredAndAcked() async throws {
        let (store, token, app) = try await Self.makeServer()
        try await app.test(.router) { client in
            let body = ByteBuffer(bytes: Self.batch(1...3).serializedBytes())
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: token), body: body
            ) { response in
                #expect(response.status == .ok)
                let ack = try Self.ack(response)
                #expect(ack.batchId == 1)
                #expect(ack.outcome == .processed)
                #expect(ack.serverTimeMs == Self.nowMs)
                #expect(ack.fixResults == [AckRange(first: 1, last: 3, result: .accepted)])
            }
        }
        #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 7) == 3)
    }

    /// `§http-retry`: a resend after a lost answer gets DUPLICATE and stores nothing twice.
    @Test func resendIsAnsweredDuplicateAndStoredOnce() async throws {
        let (store, token, app) = try await Self.makeServer()
        try await app.test(.router) { client in
            let body = ByteBuffer(bytes: Self.batch(1...3).serializedBytes())
            try await client.execute(uri: "/v1/batches", method: .post, headers: Self.headers(token: token), body: body)
            // The same bytes again, as a device does when the first ack was lost.
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: token), body: body
            ) { response in
                #expect(response.status == .ok)
                let ack = try Self.ack(response)
                #expect(ack.outcome == .processed)
                #expect(ack.fixResults == [AckRange(first: 1, last: 3, result: .duplicate)])
            }
            // An overlapping batch: 3 is a duplicate, 4 and 5 are new.
            let overlapping = ByteBuffer(bytes: Self.batch(3...5, batchId: 2).serializedBytes())
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: token), body: overlapping
            ) { response in
                let ack = try Self.ack(response)
                #expect(
                    ack.fixResults == [
                        AckRange(first: 3, last: 3, result: .duplicate),
                        AckRange(first: 4, last: 5, result: .accepted),
                    ])
            }
        }
        #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 7) == 5)
    }

    @Test func ledgerSurvivesReopeningTheDatabase() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let batch = Self.batch(1...2)
        let first = try SQLiteStorage(path: path)
        let ack = try await first.ingest(
            batch, encodedSize: batch.serializedSize, nowMs: Self.nowMs, policy: IngestLedger.Policy())
        #expect(ack.fixResults.map(\.result) == [.accepted])
        // A restarted server: a new store over the same file answers from what was committed.
        let second = try SQLiteStorage(path: path)
        let again = try await second.ingest(
            batch, encodedSize: batch.serializedSize, nowMs: Self.nowMs, policy: IngestLedger.Policy())
        #expect(again.fixResults == [AckRange(first: 1, last: 2, result: .duplicate)])
        #expect(try await second.storedFixCount(deviceId: Self.deviceId, installId: 7) == 2)
    }

    /// `§http-error-body`, `§http-error-codes`: the codec's code, the byte offset and the field path.
    @Test func garbageIsA400WithTheCodecsCode() async throws {
        let (store, token, app) = try await Self.makeServer()
        try await app.test(.router) { client in
            // Field 1 (device_id), length-delimited, claiming 5 bytes where 2 follow.
            let body = ByteBuffer(bytes: [0x0A, 0x05, 0x61, 0x62])
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: token), body: body
            ) { response in
                #expect(response.status == .badRequest)
                let error = try Self.errorBody(response)
                #expect(error.code == DecodingError.Code.truncated.rawValue)
                #expect(error.offset != nil)
                #expect(error.fieldPath?.hasPrefix("LocationBatch") == true)
            }
        }
        #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 7) == 0)
    }

    /// `§http-auth-errors`, `§http-error-codes`: 401 with WWW-Authenticate, 403, 415.
    @Test func transportErrors() async throws {
        let (_, token, app) = try await Self.makeServer()
        let body = ByteBuffer(bytes: Self.batch(1...1).serializedBytes())
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/batches", method: .post, headers: Self.headers(token: nil), body: body) {
                response in
                #expect(response.status == .unauthorized)
                let error = try Self.errorBody(response)
                #expect(error.code == ErrorBody.Code.unauthenticated)
            }
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: "not-a-token"), body: body
            ) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: token, contentType: "text/plain"),
                body: body
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                let error = try Self.errorBody(response)
                #expect(error.code == ErrorBody.Code.unsupportedMediaType)
            }
            var other = Self.batch(1...1)
            other.deviceId = "someone-else"
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: token),
                body: ByteBuffer(bytes: other.serializedBytes())
            ) { response in
                #expect(response.status == .forbidden)
                let error = try Self.errorBody(response)
                #expect(error.code == ErrorBody.Code.deviceMismatch)
            }
        }
    }

    /// `§http-size`: a body over the limit is refused with the limit in the error body.
    @Test func bodyOverTheLimitIs413() async throws {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: Self.deviceId, nowMs: Self.nowMs)
        let router = makeServerRouter(
            storage: store, authenticator: store,
            configuration: {
                var configuration = ServerConfiguration(maxBodyBytes: 16_384, nowMs: { Self.nowMs })
                configuration.ledgerPolicy.maxBatchBytes = 16_384
                return configuration
            }())
        try await Application(router: router).test(.router) { client in
            let body = ByteBuffer(bytes: Self.batch(1...1000).serializedBytes())
            #expect(body.readableBytes > 16_384)
            try await client.execute(
                uri: "/v1/batches", method: .post, headers: Self.headers(token: token), body: body
            ) { response in
                #expect(response.status == .contentTooLarge)
                let error = try Self.errorBody(response)
                #expect(error.code == ErrorBody.Code.bodyTooLarge)
                // The server's max_batch_bytes, the one number its policy and TOO_LARGE acks state (§http-size).
                #expect(error.maxBatchBytes == 16_384)
            }
        }
    }
}
