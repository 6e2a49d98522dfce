import Foundation
import GRDB
@testable import LocationWireServer
import Testing

/// Bearer tokens are kept only as digests (issue 24): how `serve` shows them, and what becomes of a database
/// that an older release left with tokens in clear.
@Suite struct TokenTests {
    static let nowMs: Int64 = 1_700_000_000_000

    /// A scratch directory, removed afterwards.
    static func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-tokens-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// v1 kept each device's first token in clear. Opening such a database migrates it: the token still works,
    /// cannot be shown again, and its bytes are nowhere in the file.
    @Test func aDatabaseWithClearTokensKeepsOnlyTheirDigests() async throws {
        try await Self.withDirectory { directory in
            let path = directory.appendingPathComponent("v1.sqlite").path
            let token = String(repeating: "5a", count: 32)
            do {
                let old = try DatabaseQueue(path: path)
                var migrator = DatabaseMigrator()
                migrator.registerMigration("v1") { db in try db.execute(sql: SQLiteSchema.create) }
                try migrator.migrate(old)
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO device_token (token_sha256, device_id, printable_token, created_at_ms)
                            VALUES (?, 'device-1', ?, 0)
                            """,
                        arguments: [StoredRows.tokenDigest(token), token])
                }
                try old.close()
            }
            let database = TestDatabase.sqlite(path: path)
            #expect(try await database.holds(token, inTable: "device_token"), "the old file holds it in clear")
            try await database.withStore { (store) async throws -> Void in
                #expect(try await store.deviceId(forToken: token) == "device-1")
                #expect(try await store.issueFirstToken(forDevice: "device-1", nowMs: Self.nowMs) == nil)
            }
            #expect(try await database.holds(token, inTable: "device_token") == false)
        }
    }

    /// Without a file, the first start shows the token and a later start says it has one; with a file, every
    /// start shows the same working token, and the file is its owner's alone.
    @Test func serveShowsATokenOnceOrKeepsItInAFileOnlyItsOwnerReads() async throws {
        try await Self.withDirectory { directory in
            let database = TestDatabase.sqlite(path: directory.appendingPathComponent("s.sqlite").path)
            let devices = ["device-1", "device-2"]
            let first = try await database.withStore { store in
                try await DeviceTokens.prepare(deviceIds: devices, storage: store, nowMs: Self.nowMs, file: nil)
            }
            #expect(first.shown.keys.sorted() == devices)
            #expect(first.issuedEarlier.isEmpty)
            let again = try await database.withStore { store in
                try await DeviceTokens.prepare(deviceIds: devices, storage: store, nowMs: Self.nowMs, file: nil)
            }
            #expect(again == DeviceTokens(shown: [:], issuedEarlier: devices))

            // A file: device-1 and device-2 had their first tokens shown already, so each gets one more.
            let file = TokensFile(path: directory.appendingPathComponent("tokens.json").path)
            let kept = try await database.withStore { store in
                try await DeviceTokens.prepare(deviceIds: devices, storage: store, nowMs: Self.nowMs, file: file)
            }
            #expect(try file.read() == kept.shown)
            #expect(try Self.mode(file.path) == 0o600)
            try await database.withStore { (store) async throws -> Void in
                for (device, token) in kept.shown {
                    #expect(try await store.deviceId(forToken: token) == device)
                    #expect(token != first.shown[device])
                    #expect(try await store.deviceId(forToken: first.shown[device]!) == device, "still works")
                }
                let restarted = try await DeviceTokens.prepare(
                    deviceIds: ["device-1"], storage: store, nowMs: Self.nowMs, file: file)
                #expect(restarted.shown == ["device-1": kept.shown["device-1"]!])
            }
            #expect(try file.read() == kept.shown, "device-2's token stays in the file")

            // A file others could read is rewritten for its owner alone; one from another database is replaced.
            chmod(file.path, 0o644)
            #expect(file.isOpenToOthers())
            try file.write(["device-1": String(repeating: "0", count: 64)])
            chmod(file.path, 0o644)
            let replaced = try await database.withStore { store in
                try await DeviceTokens.prepare(deviceIds: ["device-1"], storage: store, nowMs: Self.nowMs, file: file)
            }
            #expect(replaced.shown["device-1"] != String(repeating: "0", count: 64))
            #expect(try file.read() == replaced.shown)
            #expect(try Self.mode(file.path) == 0o600)
        }
    }

    @Test func aTokensFileThatIsNotAnObjectOfStringsIsRefusedWithItsPath() async throws {
        try await Self.withDirectory { directory in
            let path = directory.appendingPathComponent("bad.json").path
            try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: TokensFileError.self) { try TokensFile(path: path).read() }
            #expect(error?.description.contains(path) == true)
        }
    }
}

/// ``TokenCache``: a token found once is not looked up again; a token not found is looked up every time (it may
/// be issued meanwhile); a full cache starts again empty.
@Suite struct TokenCacheTests {
    final class CountingAuthenticator: BearerTokenAuthenticator, @unchecked Sendable {
        let lock = NSLock()
        var lookups = 0
        var devices: [String: String] = [:]

        func deviceId(forToken token: String) async throws -> String? {
            lock.withLock {
                lookups += 1
                return devices[token]
            }
        }
    }

    @Test func aFoundTokenIsLookedUpOnce() async throws {
        let counting = CountingAuthenticator()
        counting.devices = ["a": "device-a", "b": "device-b"]
        let cache = TokenCache(counting, capacity: 2)
        #expect(try await cache.deviceId(forToken: "a") == "device-a")
        #expect(try await cache.deviceId(forToken: "a") == "device-a")
        #expect(counting.lookups == 1)
        #expect(try await cache.deviceId(forToken: "c") == nil)
        counting.lock.withLock { counting.devices["c"] = "device-c" }
        #expect(try await cache.deviceId(forToken: "c") == "device-c", "issued after the miss")
        #expect(cache.count == 2)
        #expect(try await cache.deviceId(forToken: "b") == "device-b")
        #expect(cache.count == 1, "full: started again")
        #expect(try await cache.isOperatorToken("a") == false)
    }

    @Test func anOperatorTokenIsRememberedAsTheOperator() async throws {
        let store = try SQLiteStorage()
        let operatorToken = try await store.issueOperatorToken(nowMs: 0)
        let cache = TokenCache(store)
        #expect(try await cache.isOperatorToken(operatorToken))
        #expect(try await cache.deviceId(forToken: operatorToken) == nil)
        #expect(try await cache.caller(forToken: operatorToken) == .operator)
    }
}
