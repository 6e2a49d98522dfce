import Foundation
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireFloor
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireLoad
import LocationWireServer
import Testing

/// `locwire-floor`: the constant ack for every body, one stored row per request for floor (b), and the
/// load run's `--constant-ack`, without which a floor's ack is ignored.
@Suite struct FloorTests {
    static let ack = FloorAck(serverTimeMs: 1_767_225_600_000)

    static func post(_ client: some TestClientProtocol, _ body: [UInt8]) async throws -> BatchAck {
        try await client.execute(
            uri: Binding.batchesPath, method: .post,
            headers: [.contentType: BodyFormat.binary.contentType(for: LocationBatch.self)],
            body: ByteBuffer(bytes: body)
        ) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == BodyFormat.binary.contentType(for: BatchAck.self))
            return try BatchAck(serializedBytes: Array(response.body.readableBytesView))
        }
    }

    /// Floor (a): any body, no token, the same ack (that a device's queue applies it is the load test's).
    @Test func answersTheConstantAckToAnyBody() async throws {
        let app = Application(router: makeFloorRouter(ack: Self.ack, store: nil))
        try await app.test(.router) { client in
            let toABatch = try await Self.post(client, BatchEndpointTests.batch(1...3).serializedBytes())
            let toGarbage = try await Self.post(client, [0xFF, 0x00])
            #expect(toABatch == Self.ack.ack)
            #expect(toGarbage == Self.ack.ack)
        }
        #expect(Self.ack.ack.outcome == .processed)
    }

    /// Floor (b): one row per request, holding the body as it arrived, committed before the ack.
    @Test func storesEachBodyAsOneRow() async throws {
        let store = try RawBatchStore()
        let app = Application(router: makeFloorRouter(ack: Self.ack, store: store, nowMs: { 42 }))
        let bodies = [1...3, 4...4].map { BatchEndpointTests.batch($0).serializedBytes() }
        try await app.test(.router) { client in
            for body in bodies { _ = try await Self.post(client, body) }
        }
        #expect(try await store.rowCount() == 2)
        #expect(try await store.storedBodies() == bodies.map { Data($0) })
    }

    /// The load run against a live floor: with `constantAck` every batch counts, with all its fixes; without it
    /// the ack names no batch the device sent and is ignored.
    @Test func loadTakesTheConstantAckOnlyWhenTold() async throws {
        let tokens = Dictionary(uniqueKeysWithValues: (0..<2).map { (LoadConfiguration.deviceId($0), "t\($0)") })
        let app = Application(
            router: makeFloorRouter(ack: Self.ack, store: nil),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            var configuration = LoadConfiguration(
                serverURLs: ["http://127.0.0.1:\(try #require(client.port))"], tokens: tokens)
            configuration.devices = 2
            configuration.duration = .milliseconds(500)
            configuration.fixesPerBatch = 10
            configuration.progressInterval = nil
            configuration.startSpread = .zero
            configuration.constantAck = true
            let taken = try await LoadRun(configuration: configuration).run()
            #expect(taken.errors.isEmpty)
            #expect(taken.batchesAcknowledged > 0)
            #expect(taken.fixesAcknowledged == taken.batchesAcknowledged * 10)

            configuration.constantAck = false
            let ignored = try await LoadRun(configuration: configuration).run()
            #expect(ignored.fixesAcknowledged == 0)
            #expect(ignored.errors["ack ignored: ack-unknown-batch", default: 0] > 0)

            configuration.constantAck = true
            configuration.ackJournalPath = "/dev/null"
            #expect(throws: LoadConfigurationError.self) { try configuration.validate() }
        }
    }
}
