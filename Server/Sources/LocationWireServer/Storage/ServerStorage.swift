import LocationWire
import LocationWireSession

/// What the reference server keeps, whatever holds it: bearer tokens, each installation's ledger record, the
/// stored items, each installation's latest device status, and the last assignment sent to each device.
///
/// Two backends implement it: ``SQLiteStorage`` (GRDB, one file, the default) and ``PostgresStorage``
/// (postgres-nio, shared by several server processes). Both keep the invariant of `§server-durable`: what an
/// ack reports stored is committed before ``ingest(_:encodedSize:nowMs:policy:)`` returns it, and an item row
/// exists for a key exactly when the installation's persisted ledger record lists the key as stored. Both are
/// also the server's ``BearerTokenAuthenticator``, from the digests of the tokens they issue here: checking a
/// token is authentication's business, not this protocol's.
public protocol ServerStorage: Sendable {
    /// Issues the first token of `deviceId`, or nil when it has one already.
    ///
    /// Only a digest of each token is kept (``StoredRows/tokenDigest(_:)``), so a token is shown once, when it
    /// is made, and can never be read back: a copy of the database does not let anyone act as a device. Two
    /// processes sharing a database that ask at once make one first token, not two.
    func issueFirstToken(forDevice deviceId: String, nowMs: Int64) async throws -> String?

    /// ``issueFirstToken(forDevice:nowMs:)`` for each device, in order (a backend may do it in one transaction).
    func issueFirstTokens(forDevices deviceIds: [String], nowMs: Int64) async throws -> [String?]

    /// Issues one more token for `deviceId`, kept as a digest; tokens are 64 lowercase hex digits: the device's
    /// bucket, then 224 random bits (``newBearerToken(forDevice:)``).
    func issueToken(forDevice deviceId: String, nowMs: Int64) async throws -> String

    /// Reads one batch through its installation's ledger and stores what the ledger says to store, in one
    /// transaction; returns the ack only after that transaction committed.
    ///
    /// - Parameters:
    ///   - encodedSize: the batch's size on the wire in bytes, for `TOO_LARGE`.
    ///   - nowMs: the server's clock, UTC ms: `server_time_ms` of the ack and `received_at_ms` of the rows.
    /// - Throws: a storage error, with nothing stored: the caller answers 503 and the device sends again.
    func ingest(
        _ batch: LocationBatch, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy
    ) async throws
        -> BatchAck

    /// The stored fixes of `deviceId` with `time_ms` in `fromMs..<toMs`, by `time_ms`, then install id and
    /// sequence; at most `limit` of them.
    func fixes(deviceId: String, fromMs: Int64, toMs: Int64, limit: Int) async throws -> [StoredFix]

    /// The ledger records of every installation of `deviceId` (`§http-ledger`), in any order.
    func installations(deviceId: String) async throws -> [InstallationRecord]

    /// What `deviceId` holds after the last answer of `/v1/regions`, the `previous` of `§plan-delta`
    /// (`§http-regions-held`); after an erasure, an empty full assignment of the last version.
    func lastAssignment(deviceId: String) async throws -> RegionAssignment?

    /// Records `assignment` as the one last sent to `deviceId`.
    func saveAssignment(_ assignment: RegionAssignment, deviceId: String, nowMs: Int64) async throws

    /// Issues a token for the operator, kept as a digest: it may erase any device's data (`§http-erase`), and
    /// does nothing else.
    func issueOperatorToken(nowMs: Int64) async throws -> String

    /// Erases every stored item of `deviceId` (`§http-erase`): fixes, fence events, lifecycle events, device
    /// statuses and the last assignment, in one transaction that batches of the device wait for. Each
    /// installation's ledger record keeps only its sequence numbers (``StoredRows/erased(_:)``), so a resend of
    /// an erased item is answered `DUPLICATE` and nothing is reported lost. Tokens stay: the device goes on.
    func erase(deviceId: String, nowMs: Int64) async throws -> RemovedRows

    /// One pass of retention (`§http-retention`): removes items received before `receivedBeforeMs`, UTC ms, at
    /// most about `rowLimit` rows per table, so that a pass holds the writer briefly. Ledger records stay, so a
    /// resend of a removed item is `DUPLICATE`. A backend may keep rows longer than asked (PostgreSQL drops
    /// whole days), never shorter.
    func removeReceived(before receivedBeforeMs: Int64, nowMs: Int64, rowLimit: Int) async throws -> RemovedRows

    /// Readies the backend for ``removeReceived(before:nowMs:rowLimit:)``, once, before the first pass: SQLite
    /// makes its indexes by reception time, PostgreSQL its day partitions.
    func prepareRetention(nowMs: Int64) async throws
}

/// Rows an erasure or a retention pass removed, per table.
public struct RemovedRows: Hashable, Sendable, Codable {
    public var fixes = 0
    public var fenceEvents = 0
    public var lifecycleEvents = 0
    public var deviceStatuses = 0
    public var assignments = 0
    /// Partitions dropped whole (PostgreSQL), each counted in ``fixes`` or ``fenceEvents`` too.
    public var partitionsDropped = 0

    public init() {}

    public var total: Int { fixes + fenceEvents + lifecycleEvents + deviceStatuses + assignments }

    public static func + (left: RemovedRows, right: RemovedRows) -> RemovedRows {
        var sum = left
        sum.fixes += right.fixes
        sum.fenceEvents += right.fenceEvents
        sum.lifecycleEvents += right.lifecycleEvents
        sum.deviceStatuses += right.deviceStatuses
        sum.assignments += right.assignments
        sum.partitionsDropped += right.partitionsDropped
        return sum
    }
}

extension ServerStorage {
    /// One call per device.
    public func issueFirstTokens(forDevices deviceIds: [String], nowMs: Int64) async throws -> [String?] {
        var tokens: [String?] = []
        for deviceId in deviceIds { tokens.append(try await issueFirstToken(forDevice: deviceId, nowMs: nowMs)) }
        return tokens
    }
}

/// One fix as stored, for the read-back.
public struct StoredFix: Hashable, Sendable {
    public var installId: UInt64
    public var fix: LocationFix
    /// When the server stored it, UTC ms.
    public var receivedAtMs: Int64

    public init(installId: UInt64, fix: LocationFix, receivedAtMs: Int64) {
        self.installId = installId
        self.fix = fix
        self.receivedAtMs = receivedAtMs
    }
}

/// How many events a backend stores for an installation; inspection for tests.
public struct StoredEventCounts: Hashable, Sendable {
    public var fenceEvents: Int
    public var lifecycleEvents: Int

    public init(fenceEvents: Int, lifecycleEvents: Int) {
        self.fenceEvents = fenceEvents
        self.lifecycleEvents = lifecycleEvents
    }
}

/// The device status a backend keeps for an installation, with the `sent_at_ms` of the batch it came in;
/// inspection for tests.
public struct StoredDeviceStatus: Hashable, Sendable {
    public var sentAtMs: Int64
    public var status: DeviceStatus

    public init(sentAtMs: Int64, status: DeviceStatus) {
        self.sentAtMs = sentAtMs
        self.status = status
    }
}

/// A new bearer token, 64 lowercase hex digits: for a device, its bucket (``ShardMap/bucket(ofDevice:)``) as 8
/// digits, then 28 bytes (224 bits) from the system's cryptographic generator (getrandom on Linux), so that a
/// sharded server finds the token's shard without a shared token store; for the operator (`deviceId` nil), 32
/// random bytes. Every backend issues its tokens here.
func newBearerToken(forDevice deviceId: String?) -> String {
    var generator = SystemRandomNumberGenerator()
    let prefix = deviceId.map { ShardMap.hex(ShardMap.bucket(ofDevice: $0)) } ?? ""
    let randomBytes = deviceId == nil ? 32 : 28
    return prefix + lowercaseHex((0..<randomBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
}

/// Bytes as lowercase hex digits, two per byte.
func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    var text = ""
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return text
}

/// The ledger's answer for one batch and the rows it implies, computed the same way by every backend.
struct LedgerStep {
    var result: IngestResult
    /// The installation's record after the batch; nil when nothing is to be written (`HOLD`, `TOO_LARGE`).
    var record: InstallationRecord?

    /// Runs `batch` through a ledger that holds only its installation's `previous` record. The ledger's answer
    /// for a key depends only on that key's installation, so nothing else needs loading.
    init(
        batch: LocationBatch, previous: InstallationRecord?, encodedSize: Int, nowMs: Int64, policy: IngestLedger.Policy
    ) {
        var ledger = IngestLedger(policy: policy, records: previous.map { [$0] } ?? [])
        result = ledger.ingest(batch, encodedSize: encodedSize, nowMs: nowMs)
        let key = IngestLedger.InstallationKey(deviceId: batch.deviceId, installId: batch.installId)
        // HOLD and TOO_LARGE store nothing, their floors included (§gap-report).
        record = result.ack.outcome == .processed ? ledger.installations[key] : nil
    }
}
