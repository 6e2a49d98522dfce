import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireHTTP
import Logging
import PostgresNIO
@testable import LocationWireServer
import Testing

/// ``ShardedStorage``: each device's rows and tokens in its own shard, tokens found from the bucket they name,
/// and a shard that is down failing only its own devices. Against shards of either backend (SQLite files, or
/// PostgreSQL schemas of the test server), and a PostgreSQL shard on a closed port.
@Suite struct ShardedStorageTests {
    /// Two devices of each shard of an even split in two: `device-1` and `device-2` have buckets below 2^31,
    /// `device-40` and `device-5` above (ShardMapTests has the first three's buckets).
    static let firstShardDevices = ["device-1", "device-2"]
    static let secondShardDevices = ["device-40", "device-5"]

    /// Runs `body` with two fresh databases of `backend`, a store over each, and the sharded store over them.
    static func withTwoShards(
        _ backend: StorageBackend,
        _ body: (ShardedStorage, [any InspectableStorage], [TestDatabase]) async throws -> Void
    ) async throws {
        try await backend.withFreshDatabase { first in
            try await backend.withFreshDatabase { second in
                try await first.withStore { (firstStore) async throws -> Void in
                    try await second.withStore { (secondStore) async throws -> Void in
                        let map = try ShardMap(evenlyOver: ["first", "second"])
                        let stores = [firstStore, secondStore]
                        try await body(ShardedStorage(map: map, shards: stores), stores, [first, second])
                    }
                }
            }
        }
    }

    @Test func theTestDevicesAreWhereTheTestsSay() throws {
        let map = try ShardMap(evenlyOver: ["first", "second"])
        #expect(Self.firstShardDevices.map(map.shardIndex(ofDevice:)) == [0, 0])
        #expect(Self.secondShardDevices.map(map.shardIndex(ofDevice:)) == [1, 1])
    }

    @Test(arguments: StorageBackend.tested) func aBatchLandsInItsDeviceShardOnly(_ backend: StorageBackend) async throws
    {
        try await Self.withTwoShards(backend) { sharded, stores, _ in
            for (index, device) in [Self.firstShardDevices[0], Self.secondShardDevices[0]].enumerated() {
                let ack = try await StorageTests.ingest(StorageTests.batch(1...3, deviceId: device), into: sharded)
                #expect(ack.fixResults == [AckRange(first: 1, last: 3, result: .accepted)])
                #expect(try await stores[index].storedFixCount(deviceId: device, installId: 7) == 3)
                #expect(try await stores[1 - index].storedFixCount(deviceId: device, installId: 7) == 0)
                #expect(try await stores[1 - index].installations(deviceId: device).isEmpty)
                let fixes = try await sharded.fixes(deviceId: device, fromMs: .min, toMs: .max, limit: 10)
                #expect(fixes.map(\.fix.sequence) == [1, 2, 3])
                #expect(try await sharded.installations(deviceId: device).count == 1)
                let again = try await StorageTests.ingest(StorageTests.batch(1...3, deviceId: device), into: sharded)
                #expect(again.fixResults == [AckRange(first: 1, last: 3, result: .duplicate)])
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func tokensNameTheirBucketAndLiveInTheirDeviceShard(
        _ backend: StorageBackend
    ) async throws {
        try await Self.withTwoShards(backend) { sharded, stores, _ in
            let devices = [Self.secondShardDevices[0], Self.firstShardDevices[0], Self.secondShardDevices[1]]
            let tokens = try await sharded.issueFirstTokens(forDevices: devices, nowMs: StorageTests.nowMs)
            #expect(
                try await sharded.issueFirstTokens(forDevices: devices, nowMs: StorageTests.nowMs) == [nil, nil, nil])
            let more = try await sharded.issueToken(forDevice: devices[1], nowMs: StorageTests.nowMs)
            for (device, token) in zip(devices + [devices[1]], tokens + [more]) {
                let token = try #require(token)
                #expect(token.hasPrefix(ShardMap.hex(ShardMap.bucket(ofDevice: device))))
                #expect(try await sharded.deviceId(forToken: token) == device)
                let home = sharded.map.shardIndex(ofDevice: device)
                #expect(try await stores[home].deviceId(forToken: token) == device)
                #expect(try await stores[1 - home].deviceId(forToken: token) == nil)
            }
            #expect(try await sharded.deviceId(forToken: String(repeating: "f", count: 64)) == nil)
            #expect(try await sharded.isOperatorToken(String(repeating: "f", count: 64)) == false)
        }
    }

    /// A token from before sharding names a random bucket: here the second shard's, for a device of the first.
    @Test(arguments: StorageBackend.tested) func aTokenFromBeforeShardingIsFoundInItsDeviceShard(
        _ backend: StorageBackend
    ) async throws {
        try await Self.withTwoShards(backend) { sharded, _, databases in
            let token = "ff" + String(repeating: "0", count: 62)
            try await Self.insertToken(token, device: Self.firstShardDevices[0], into: databases[0])
            #expect(sharded.map.shardIndex(ofBucket: try #require(ShardMap.bucket(namedByToken: token))) == 1)
            #expect(try await sharded.deviceId(forToken: token) == Self.firstShardDevices[0])
        }
    }

    @Test(arguments: StorageBackend.tested) func anOperatorTokenIsValidInEveryShard(
        _ backend: StorageBackend
    ) async throws {
        try await Self.withTwoShards(backend) { sharded, stores, _ in
            let token = try await sharded.issueOperatorToken(nowMs: StorageTests.nowMs)
            for store in stores { #expect(try await store.isOperatorToken(token)) }
            #expect(try await sharded.deviceId(forToken: token) == nil)
            #expect(try await sharded.isOperatorToken(token))
        }
    }

    @Test(arguments: StorageBackend.tested) func erasureGoesToTheDeviceShard(_ backend: StorageBackend) async throws {
        try await Self.withTwoShards(backend) { sharded, stores, _ in
            let (erased, kept) = (Self.secondShardDevices[0], Self.firstShardDevices[0])
            for device in [erased, kept] {
                _ = try await StorageTests.ingest(StorageTests.batch(1...3, deviceId: device), into: sharded)
            }
            #expect(try await sharded.erase(deviceId: erased, nowMs: StorageTests.nowMs).fixes == 3)
            #expect(try await stores[1].storedFixCount(deviceId: erased, installId: 7) == 0)
            #expect(try await stores[0].storedFixCount(deviceId: kept, installId: 7) == 3)
            #expect(try await sharded.erase(deviceId: kept, nowMs: StorageTests.nowMs).fixes == 3)
        }
    }

    /// Retention runs on every shard and sums; with one shard down, the other's pass still runs.
    @Test func retentionSumsTheShardsAndSkipsOneThatFails() async throws {
        try await StorageBackend.sqlite.withFreshDatabase { database in
            try await database.withStore { (store) async throws -> Void in
                let device = Self.firstShardDevices[0]
                let map = try ShardMap(evenlyOver: ["first", "second"])
                _ = try await StorageTests.ingest(StorageTests.batch(1...3, deviceId: device), into: store)
                let later = StorageTests.nowMs + 1
                let twoUp = ShardedStorage(map: map, shards: [store, try SQLiteStorage()])
                try await twoUp.prepareRetention(nowMs: later)
                let removed = try await twoUp.removeReceived(before: later, nowMs: later, rowLimit: 100)
                #expect(removed.fixes == 3)
                _ = try await StorageTests.ingest(
                    StorageTests.batch(4...5, deviceId: device), into: store, nowMs: later)
                let oneDown = ShardedStorage(map: map, shards: [FailingIngestStorage(acceptedDevice: nil), store])
                try await oneDown.prepareRetention(nowMs: later)
                #expect(try await oneDown.removeReceived(before: later + 1, nowMs: later, rowLimit: 100).fixes == 2)
                let allDown = ShardedStorage(
                    map: map,
                    shards: [FailingIngestStorage(acceptedDevice: nil), FailingIngestStorage(acceptedDevice: nil)])
                await #expect(throws: FailingIngestStorage.Unavailable.self) {
                    try await allDown.removeReceived(before: later, nowMs: later, rowLimit: 100)
                }
            }
        }
    }

    /// A shard that is down: its devices' requests are 503 with Retry-After (never 401, which would stop them
    /// until their credentials change); the other shard's devices are answered as ever.
    @Test func aShardThatIsDownAnswersItsOwnDevices503AndTheOthersGoOn() async throws {
        let store = try SQLiteStorage()
        let sharded = ShardedStorage(
            map: try ShardMap(evenlyOver: ["up", "down"]), shards: [store, FailingIngestStorage(acceptedDevice: nil)])
        let device = Self.firstShardDevices[0]
        let token = try #require(try await sharded.issueFirstToken(forDevice: device, nowMs: StorageTests.nowMs))
        let operatorToken = newBearerToken(forDevice: nil)
        try await store.addOperatorToken(operatorToken, nowMs: StorageTests.nowMs)
        // The down shard's device: its token names that shard.
        let unknown = newBearerToken(forDevice: Self.secondShardDevices[0])
        await #expect(throws: FailingIngestStorage.Unavailable.self) { try await sharded.deviceId(forToken: unknown) }
        await #expect(throws: FailingIngestStorage.Unavailable.self) {
            try await StorageTests.ingest(
                StorageTests.batch(1...1, deviceId: Self.secondShardDevices[0]), into: sharded)
        }
        #expect(try await sharded.deviceId(forToken: operatorToken) == nil)
        #expect(try await sharded.isOperatorToken(operatorToken))

        let router = makeServerRouter(
            storage: sharded, authenticator: TokenCache(sharded),
            configuration: ServerConfiguration(nowMs: { StorageTests.nowMs }))
        try await Application(router: router).test(.router) { client in
            for (bearer, owner, status) in [
                (token, device, HTTPResponse.Status.ok), (unknown, Self.secondShardDevices[0], .serviceUnavailable),
            ] {
                try await client.execute(
                    uri: Binding.batchesPath, method: .post,
                    headers: [.authorization: "Bearer \(bearer)", .contentType: Binding.protobufMediaType],
                    body: ByteBuffer(bytes: StorageTests.batch(1...2, deviceId: owner).serializedBytes())
                ) { response in
                    #expect(response.status == status)
                    #expect((response.headers[.retryAfter] != nil) == (status == .serviceUnavailable))
                }
            }
        }
        #expect(try await store.storedFixCount(deviceId: device, installId: 7) == 2)
    }

    /// The same with PostgreSQL: one shard a schema of the test server, the other a server on a closed port from
    /// the start, as when a server is restarted while a shard is down. The sharded store opens all the same; the
    /// down shard's device fails within the shards' connection wait; the other's batch is stored.
    @Test(.enabled(if: !StorageBackend.skipsPostgres)) func aPostgresShardOnAClosedPortFailsOnlyItsDevices()
        async throws
    {
        try await StorageBackend.postgres.withFreshDatabase { database in
            guard case .postgres(var up) = database else { return }
            up.connectionWait = ShardedStorage.connectionWait
            var closed = up
            closed.port = try await Self.closedPort()
            let map = try ShardMap(evenlyOver: ["up", "down"])
            try await ShardedStorage.withStorage(map, options: [up, closed]) { sharded in
                let clock = ContinuousClock()
                let started = clock.now
                await #expect(throws: PostgresStorageError.self) {
                    try await StorageTests.ingest(
                        StorageTests.batch(1...1, deviceId: Self.secondShardDevices[0]), into: sharded)
                }
                #expect(clock.now - started < ShardedStorage.connectionWait + .seconds(3))
                await #expect(throws: (any Error).self) {
                    try await sharded.deviceId(forToken: newBearerToken(forDevice: Self.secondShardDevices[0]))
                }
                let device = Self.firstShardDevices[0]
                let ack = try await StorageTests.ingest(StorageTests.batch(1...2, deviceId: device), into: sharded)
                #expect(ack.fixResults == [AckRange(first: 1, last: 2, result: .accepted)])
                let token = try #require(try await sharded.issueFirstToken(forDevice: device, nowMs: 0))
                #expect(try await sharded.deviceId(forToken: token) == device)
            }
        }
    }

    /// Server/scripts/shard-split.sh moves rows by the bucket PostgreSQL computes: it must be Swift's, for
    /// every device id (ASCII or not, short or long).
    @Test(.enabled(if: !StorageBackend.skipsPostgres)) func postgresComputesTheSameBucketsAsTheServer() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../scripts/shard-split.sh")
        let line = try #require(
            try String(contentsOf: script, encoding: .utf8).split(separator: "\n").first {
                $0.hasPrefix("bucket_sql=")
            })
        let expression = String(line.dropFirst("bucket_sql=\"".count).dropLast())
        let devices =
            (0..<300).map { "device-\($0)" } + ["", "é-ü", "📍 phone", String(repeating: "long-", count: 100), "a'b"]
        try await StorageBackend.postgres.withFreshDatabase { database in
            var bindings = PostgresBindings()
            bindings.append(devices)
            let query = PostgresQuery(
                unsafeSQL: "SELECT device_id, \(expression) FROM unnest($1::TEXT[]) AS item(device_id)", binds: bindings
            )
            let buckets = try await database.withPostgresConnection { connection, logger in
                var buckets: [String: Int64] = [:]
                for try await (device, bucket) in try await connection.query(query, logger: logger).decode(
                    (String, Int64).self)
                {
                    buckets[device] = bucket
                }
                return buckets
            }
            #expect(buckets.count == devices.count)
            for device in devices {
                #expect(buckets[device] == Int64(ShardMap.bucket(ofDevice: device)), "\(device)")
            }
        }
    }

    /// Puts a token into a database as the server keeps it (its digest), with any first digits.
    static func insertToken(_ token: String, device: String, into database: TestDatabase) async throws {
        let digest = StoredRows.tokenDigest(token)
        switch database {
        case .sqlite(let path):
            try await DatabaseQueue(path: path).write { db in
                try db.execute(
                    sql: "INSERT INTO device_token (token_sha256, device_id, created_at_ms) VALUES (?, ?, 0)",
                    arguments: [digest, device])
            }
        case .postgres:
            try await database.withPostgresConnection { connection, logger in
                try await connection.query(
                    "INSERT INTO device_token (token_sha256, device_id, created_at_ms) VALUES (\(digest), \(device), 0)",
                    logger: logger
                ).drain()
            }
        }
    }

    /// A loopback port nothing listens on: one the system gave a server that has stopped.
    static func closedPort() async throws -> Int {
        let app = Application(router: Router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in try #require(client.port) }
    }
}
