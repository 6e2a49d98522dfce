import Foundation
import LocationWire
import LocationWireBehavior

/// When the store makes what the device recorded durable.
public enum SyncPolicy: Hashable, Sendable, CustomStringConvertible {
    /// Every delivered fix's effects (the fix recorded, its fence events) are committed and synced before
    /// `deliver` returns: an app kill or power loss loses nothing that `deliver` reported recorded.
    case everyDelivery
    /// Commits are grouped: one sync at most every `milliseconds` of real time, and always before an upload
    /// (nothing is sent before it is durable). A power loss, or an app kill, loses at most the deliveries of the
    /// last `milliseconds`: they were never reported recorded, and were never sent.
    case grouped(milliseconds: Int)

    public var description: String {
        switch self {
        case .everyDelivery: "every delivery"
        case .grouped(let milliseconds): "grouped every \(milliseconds) ms"
        }
    }
}

/// The device's durable state in one SQLite database: the recorded items one row each (so recording is an
/// append, `§sequence-consecutive`'s number stored with the item it numbers), and a handful of small state rows
/// (the queue's counters and batches in flight, the engines' state, the regions held) rewritten when they change.
///
/// SQLite runs in WAL mode with `synchronous=FULL`: a commit is durable once it returns. Writes go into one open
/// transaction that ``commit()`` ends; ``SyncPolicy`` decides when the device calls it.
final class DeviceStore {
    /// The small rows, by what they hold.
    enum StateKey: Int64 {
        /// The upload queue's state without its items (`UploadQueue(withoutItemsOf:)`), encoded as
        /// `locationwire.session.v1.UploadQueue`.
        case queue = 1
        /// The regions held: a full RegionAssignment rebuilt from `HeldAssignment`.
        case heldAssignment = 2
        /// The device's own scalars (`DeviceRecord`).
        case device = 3
        /// The fix the recording engine holds undecided (its window's best), a LocationFix.
        case undecidedFix = 4
        /// The engines' persisted states (proto/locationwire/session/v1/: `RecordingEngineState`,
        /// `UploadSchedulerState`, `FenceEngineState`), rewritten when they change.
        case recordingEngine = 5
        case uploadScheduler = 6
        case fenceEngine = 7
    }

    let path: String
    private let database: SQLiteDatabase
    private var inTransaction = false
    /// Commits that ended a transaction: each is one sync of the WAL.
    private(set) var commits = 0

    /// Opens the store in `directory` (created if missing), creating its tables on first use.
    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = (directory as NSString).appendingPathComponent("device.sqlite")
        database = try SQLiteDatabase(path: path)
        try database.execute(
            """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=FULL;
            CREATE TABLE IF NOT EXISTS fix (sequence INTEGER PRIMARY KEY, recorded_boot_id INTEGER NOT NULL,
                recorded_ms INTEGER NOT NULL, bytes BLOB NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS fence_event (sequence INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS lifecycle_event (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS state (key INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
            """)
    }

    // MARK: - Writing (inside the open transaction)

    private func write(_ sql: String, _ values: [SQLiteValue]) throws {
        if !inTransaction {
            try database.execute("BEGIN IMMEDIATE")
            inTransaction = true
        }
        try database.run(sql, values)
    }

    // MARK: - Items (the upload queue's, through `StoredItems`)

    /// The tables of the recorded items, one row each, keyed as the upload queue keys them.
    enum ItemTable: String, CaseIterable {
        case fix
        case fenceEvent = "fence_event"
        case lifecycleEvent = "lifecycle_event"

        var keyColumn: String { self == .lifecycleEvent ? "id" : "sequence" }
    }

    /// The boot and monotonic time (ms) the next fix appended is recorded at: the upload timer's pending time,
    /// which it takes back from the fix's row after a relaunch. The device sets it before recording a fix.
    var timerTimeOfNextFix: (bootId: UInt64, elapsedMs: UInt64) = (0, 0)

    /// Appends an item's row.
    func appendItem(_ table: ItemTable, key: UInt64, bytes: [UInt8]) throws {
        if table == .fix {
            try write(
                "INSERT INTO fix (sequence, recorded_boot_id, recorded_ms, bytes) VALUES (?, ?, ?, ?)",
                [
                    .integer(Int64(bitPattern: key)), .integer(Int64(bitPattern: timerTimeOfNextFix.bootId)),
                    .integer(Int64(bitPattern: timerTimeOfNextFix.elapsedMs)), .blob(bytes),
                ])
        } else {
            try write(
                "INSERT INTO \(table.rawValue) (\(table.keyColumn), bytes) VALUES (?, ?)",
                [.integer(Int64(bitPattern: key)), .blob(bytes)])
        }
    }

    /// Deletes the rows with these keys; returns how many there were.
    func removeItems(_ table: ItemTable, keys: some Sequence<UInt64>) throws -> Int {
        var removed = 0
        for key in keys {
            try write(
                "DELETE FROM \(table.rawValue) WHERE \(table.keyColumn) = ?", [.integer(Int64(bitPattern: key))])
            removed += database.changes
        }
        return removed
    }

    /// The rows' count (a count over the primary key, no decoding).
    func itemCount(_ table: ItemTable) throws -> Int {
        Int(try database.integer("SELECT count(*) FROM \(table.rawValue)") ?? 0)
    }

    /// The lowest key (`ascending`) or the highest.
    func edgeKey(_ table: ItemTable, ascending: Bool) throws -> UInt64? {
        let function = ascending ? "min" : "max"
        return try database.integer("SELECT \(function)(\(table.keyColumn)) FROM \(table.rawValue)")
            .map { UInt64(bitPattern: $0) }
    }

    /// Up to `limit` rows from the oldest (`ascending`) or the newest, key and bytes; `keep` chooses among them
    /// (by key, before the bytes are copied) and may stop the read by returning nil.
    func items(
        _ table: ItemTable, ascending: Bool, limit: Int, keep: (UInt64) -> Bool?
    ) throws -> [(key: UInt64, bytes: [UInt8])] {
        var rows: [(UInt64, [UInt8])] = []
        var done = false
        try withoutActuallyEscaping(keep) { keep in
            try database.run(
                "SELECT \(table.keyColumn), bytes FROM \(table.rawValue) ORDER BY \(table.keyColumn) "
                    + (ascending ? "ASC" : "DESC") + " LIMIT ?", [.integer(Int64(limit))]
            ) { row in
                guard !done else { return }
                let key = UInt64(bitPattern: row.integer(0))
                switch keep(key) {
                case nil: done = true
                case true?: rows.append((key, row.blob(1)))
                case false?: break
                }
            }
        }
        return rows
    }

    /// Every key, ascending.
    func itemKeys(_ table: ItemTable) throws -> [UInt64] {
        var keys: [UInt64] = []
        try database.run("SELECT \(table.keyColumn) FROM \(table.rawValue) ORDER BY \(table.keyColumn)") { row in
            keys.append(UInt64(bitPattern: row.integer(0)))
        }
        return keys
    }

    func put(_ key: StateKey, _ bytes: [UInt8]) throws {
        try write("INSERT OR REPLACE INTO state (key, bytes) VALUES (?, ?)", [.integer(key.rawValue), .blob(bytes)])
    }

    func remove(_ key: StateKey) throws {
        try write("DELETE FROM state WHERE key = ?", [.integer(key.rawValue)])
    }

    /// Ends the open transaction: durable when it returns (WAL, `synchronous=FULL`).
    func commit() throws {
        guard inTransaction else { return }
        try database.execute("COMMIT")
        inTransaction = false
        commits += 1
    }

    /// Caps the database at `pages` pages (SQLite's `max_page_count`, at least the pages in use): past it every write
    /// fails with `SQLITE_FULL`, as on a full disk. Returns the cap in force. For tests of a full disk.
    func limitPages(_ pages: Int) throws -> Int {
        try database.execute("PRAGMA max_page_count = \(pages)")
        return Int(try database.integer("PRAGMA max_page_count") ?? 0)
    }

    /// The pages the database file holds.
    func pageCount() throws -> Int { Int(try database.integer("PRAGMA page_count") ?? 0) }

    /// Ends the open transaction without keeping its writes, after a failed write (SQLite may have rolled it back
    /// itself: after `SQLITE_FULL` its documentation asks for an explicit ROLLBACK, which then finds none).
    func rollback() {
        if inTransaction { try? database.execute("ROLLBACK") }
        inTransaction = false
    }

    // MARK: - Reading (at launch)

    func state(_ key: StateKey) throws -> [UInt8]? {
        var bytes: [UInt8]?
        try database.run("SELECT bytes FROM state WHERE key = ?", [.integer(key.rawValue)]) { bytes = $0.blob(0) }
        return bytes
    }

    /// What the upload timer keeps of every stored fix, ascending by sequence (24 bytes each, read at launch:
    /// the fixes themselves stay on disk). The sequence number stands for the fix's place in the recording order.
    func pendingForTimer() throws -> [UploadScheduler.PendingFix] {
        var result: [UploadScheduler.PendingFix] = []
        try database.run("SELECT sequence, recorded_boot_id, recorded_ms FROM fix ORDER BY sequence") { row in
            result.append(
                UploadScheduler.PendingFix(
                    recorded: Int(row.integer(0)), bootId: UInt64(bitPattern: row.integer(1)),
                    recordedAtMs: UInt64(bitPattern: row.integer(2))))
        }
        return result
    }

}
