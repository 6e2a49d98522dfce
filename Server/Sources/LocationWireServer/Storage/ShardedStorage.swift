import LocationWire
import LocationWireSession
import Logging

/// A store that can be one shard of ``ShardedStorage``: a backend that can also keep an operator token made
/// elsewhere, so that one operator token is valid in every shard.
public protocol ShardStorage: ServerStorage, BearerTokenAuthenticator {
    /// Keeps the digest of `token` as an operator token (``ServerStorage/issueOperatorToken(nowMs:)``).
    func addOperatorToken(_ token: String, nowMs: Int64) async throws
}

extension PostgresStorage: ShardStorage {}
extension SQLiteStorage: ShardStorage {}

/// The reference server's state spread over several databases by device (`serve --postgres-shard`,
/// `--shard-map`): each device's rows, its tokens included, live in the shard its bucket falls in
/// (``ShardMap``), so a shard that is down stops only its own devices, which get 503 with `Retry-After`.
///
/// - Tokens name their device's bucket in their first 8 hex digits (``newBearerToken(forDevice:)``), so the
///   token lookup asks that shard first. Tokens issued before sharding name a random bucket and live in their
///   device's shard: on a miss the other shards are asked in turn. A lookup throws (503) only when the token
///   was found nowhere and some shard could not answer: it might be that shard's, and a 401 would stop its
///   device until its credentials change.
/// - Operator tokens are kept in every shard, so any shard that answers can confirm one.
/// - Retention runs on every shard; a shard that fails is logged and skipped.
public final class ShardedStorage: ServerStorage, BearerTokenAuthenticator {
    public let map: ShardMap
    /// `shards[i]` holds the buckets of `map.shards[i]`.
    let shards: [any ShardStorage]
    let logger: Logger

    /// - Precondition: one store per shard of `map`, in its order.
    public init(map: ShardMap, shards: [any ShardStorage], logger: Logger = ShardedStorage.defaultLogger) {
        precondition(map.shards.count == shards.count, "one store per shard of the map")
        self.map = map
        self.shards = shards
        self.logger = logger
    }

    public static var defaultLogger: Logger { Logger(label: "locwire-server.shards") }

    /// How long a shard's storage operation waits for a connection before it fails: shorter than a single
    /// database's default, so that the devices of a shard that is down get their 503 within a couple of seconds
    /// rather than hold a request (and the device's retry) for ten.
    public static let connectionWait: Duration = .seconds(2)

    /// Runs `body` with a sharded store over the PostgreSQL databases of `map`, `options[i]` for its shard i, each
    /// opened and migrated by ``PostgresStorage/withStorage(_:logger:migratingLater:_:)``; all are closed when
    /// `body` ends. A shard that cannot be reached now is logged and migrated once it can: a server restarted
    /// while a shard is down serves the other shards' devices.
    ///
    /// - Precondition: one options per shard of `map`, in its order.
    public static func withStorage<Result: Sendable>(
        _ map: ShardMap, options: [PostgresStorage.Options], logger: Logger = PostgresStorage.defaultLogger,
        _ body: (ShardedStorage) async throws -> Result
    ) async throws -> Result {
        precondition(map.shards.count == options.count, "one options per shard of the map")
        func open(_ opened: [PostgresStorage]) async throws -> Result {
            guard opened.count < options.count else {
                return try await body(ShardedStorage(map: map, shards: opened))
            }
            return try await PostgresStorage.withStorage(options[opened.count], logger: logger, migratingLater: true) {
                storage in
                try await open(opened + [storage])
            }
        }
        return try await open([])
    }

    /// The store of `deviceId`'s shard.
    func shard(ofDevice deviceId: String) -> any ShardStorage {
        shards[map.shardIndex(ofDevice: deviceId)]
    }

    // MARK: Tokens

    public func deviceId(forToken token: String) async throws -> String? {
        let named = ShardMap.bucket(namedByToken: token).map(map.shardIndex(ofBucket:))
        var order = Array(shards.indices)
        if let named { order = [named] + order.filter { $0 != named } }
        var failure: (any Error)?
        for index in order {
            do {
                if let device = try await shards[index].deviceId(forToken: token) { return device }
            } catch {
                logger.warning("token lookup failed on a shard", metadata: shardMetadata(index, error))
                failure = failure ?? error
            }
        }
        guard let failure else { return nil }
        // Not found, and a shard did not answer: the token may be an operator's (kept in every shard, so any
        // shard that answers knows it), else it may be a device's of the shard that did not answer.
        if (try? await isOperatorToken(token)) == true { return nil }
        throw failure
    }

    public func isOperatorToken(_ token: String) async throws -> Bool {
        var failure: (any Error)?
        for (index, shard) in shards.enumerated() {
            do {
                return try await shard.isOperatorToken(token)
            } catch {
                logger.warning("operator token lookup failed on a shard", metadata: shardMetadata(index, error))
                failure = failure ?? error
            }
        }
        throw failure!  // there is at least one shard, and each threw
    }

    public func issueFirstToken(forDevice deviceId: String, nowMs: Int64) async throws -> String? {
        try await shard(ofDevice: deviceId).issueFirstToken(forDevice: deviceId, nowMs: nowMs)
    }

    /// One call per shard, with its devices, in order.
    public func issueFirstTokens(forDevices deviceIds: [String], nowMs: Int64) async throws -> [String?] {
        var tokens = [String?](repeating: nil, count: deviceIds.count)
        let positions = Dictionary(grouping: deviceIds.indices) { map.shardIndex(ofDevice: deviceIds[$0]) }
        for (index, positions) in positions.sorted(by: { $0.key < $1.key }) {
            let issued = try await shards[index].issueFirstTokens(
                forDevices: positions.map { deviceIds[$0] }, nowMs: nowMs)
            for (position, token) in zip(positions, issued) { tokens[position] = token }
        }
        return tokens
    }

    public func issueToken(forDevice deviceId: String, nowMs: Int64) async throws -> String {
        try await shard(ofDevice: deviceId).issueToken(forDevice: deviceId, nowMs: nowMs)
    }

    /// The same token in every shard; throws when a shard cannot keep it (the token is not shown then, though
    /// the shards that kept it know it).
    public func issueOperatorToken(nowMs: Int64) async throws -> String {
        let token = newBearerToken(forDevice: nil)
        for shard in shards { try await shard.addOperatorToken(token, nowMs: nowMs) }
        return token
    }

    // MARK: A device's data, in its shard

    public func ingest(
        _ batch: LocationBatch, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy
    ) async throws -> BatchAck {
        try await shard(ofDevice: batch.deviceId).ingest(
            batch, encodedSize: encodedSize, nowMs: nowMs, policy: policy)
    }

    public func fixes(deviceId: String, fromMs: Int64, toMs: Int64, limit: Int) async throws -> [StoredFix] {
        try await shard(ofDevice: deviceId).fixes(deviceId: deviceId, fromMs: fromMs, toMs: toMs, limit: limit)
    }

    public func installations(deviceId: String) async throws -> [InstallationRecord] {
        try await shard(ofDevice: deviceId).installations(deviceId: deviceId)
    }

    public func lastAssignment(deviceId: String) async throws -> RegionAssignment? {
        try await shard(ofDevice: deviceId).lastAssignment(deviceId: deviceId)
    }

    public func saveAssignment(_ assignment: RegionAssignment, deviceId: String, nowMs: Int64) async throws {
        try await shard(ofDevice: deviceId).saveAssignment(assignment, deviceId: deviceId, nowMs: nowMs)
    }

    public func erase(deviceId: String, nowMs: Int64) async throws -> RemovedRows {
        try await shard(ofDevice: deviceId).erase(deviceId: deviceId, nowMs: nowMs)
    }

    // MARK: Retention, on every shard

    public func prepareRetention(nowMs: Int64) async throws {
        _ = try await onEveryShard("prepare retention") { shard in
            try await shard.prepareRetention(nowMs: nowMs)
            return RemovedRows()
        }
    }

    /// The sum of the shards' passes; a shard that fails is logged and skipped until the next pass.
    public func removeReceived(
        before receivedBeforeMs: Int64, nowMs: Int64, rowLimit: Int
    ) async throws
        -> RemovedRows
    {
        try await onEveryShard("retention pass") { shard in
            try await shard.removeReceived(before: receivedBeforeMs, nowMs: nowMs, rowLimit: rowLimit)
        }
    }

    /// Runs `operation` on each shard in turn and sums what they removed; a shard that fails is logged and the
    /// others still run. Throws only when every shard failed.
    private func onEveryShard(
        _ what: String, _ operation: (any ShardStorage) async throws -> RemovedRows
    ) async throws -> RemovedRows {
        var removed = RemovedRows()
        var failures: [any Error] = []
        for (index, shard) in shards.enumerated() {
            do {
                removed = removed + (try await operation(shard))
            } catch {
                logger.error("\(what) failed on a shard; the others go on", metadata: shardMetadata(index, error))
                failures.append(error)
            }
        }
        if failures.count == shards.count, let first = failures.first { throw first }
        return removed
    }

    private func shardMetadata(_ index: Int, _ error: any Error) -> Logger.Metadata {
        ["shard": "\(index + 1)", "buckets": "\(map.shards[index].rangeDescription)", "reason": "\(error)"]
    }
}
