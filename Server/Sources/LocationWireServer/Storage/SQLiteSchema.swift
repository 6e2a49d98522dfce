/// The SQLite tables and statements of ``SQLiteStorage``. ``PostgresStorage`` keeps the same tables in its own
/// dialect.
enum SQLiteSchema {
    /// Migration v1: the tables as first released.
    static let create = """
        -- printable_token held the device's first token in clear, the one `serve` printed at every start, and
        -- was NULL for tokens issued later; tokenDigestsOnly removes it.
        CREATE TABLE device_token (
            token_sha256 TEXT PRIMARY KEY NOT NULL,
            device_id TEXT NOT NULL,
            printable_token TEXT,
            created_at_ms INTEGER NOT NULL
        );
        CREATE INDEX device_token_device ON device_token(device_id);
        -- One row per installation: the ledger's InstallationRecord, encoded as
        -- locationwire.session.v1.InstallationRecord (the reference engine's own format).
        CREATE TABLE installation (
            device_id TEXT NOT NULL,
            install_id INTEGER NOT NULL,
            record BLOB NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            PRIMARY KEY (device_id, install_id)
        ) WITHOUT ROWID;
        CREATE TABLE fix (
            device_id TEXT NOT NULL,
            install_id INTEGER NOT NULL,
            sequence INTEGER NOT NULL,
            time_ms INTEGER NOT NULL,
            latitude_e7 INTEGER,
            longitude_e7 INTEGER,
            body BLOB NOT NULL,
            received_at_ms INTEGER NOT NULL,
            PRIMARY KEY (device_id, install_id, sequence)
        ) WITHOUT ROWID;
        CREATE INDEX fix_device_time ON fix(device_id, time_ms);
        CREATE TABLE fence_event (
            device_id TEXT NOT NULL,
            install_id INTEGER NOT NULL,
            event_sequence INTEGER NOT NULL,
            region_id TEXT NOT NULL,
            kind INTEGER NOT NULL,
            body BLOB NOT NULL,
            received_at_ms INTEGER NOT NULL,
            PRIMARY KEY (device_id, install_id, event_sequence)
        ) WITHOUT ROWID;
        CREATE TABLE lifecycle_event (
            device_id TEXT NOT NULL,
            install_id INTEGER NOT NULL,
            kind INTEGER NOT NULL,
            time_ms INTEGER NOT NULL,
            body BLOB NOT NULL,
            received_at_ms INTEGER NOT NULL,
            PRIMARY KEY (device_id, install_id, kind, time_ms)
        ) WITHOUT ROWID;
        CREATE TABLE device_status (
            device_id TEXT NOT NULL,
            install_id INTEGER NOT NULL,
            sent_at_ms INTEGER NOT NULL,
            body BLOB NOT NULL,
            received_at_ms INTEGER NOT NULL,
            PRIMARY KEY (device_id, install_id)
        ) WITHOUT ROWID;
        -- The assignment last sent to each device: the `previous` of §plan-delta.
        CREATE TABLE assignment (
            device_id TEXT PRIMARY KEY NOT NULL,
            body BLOB NOT NULL,
            updated_at_ms INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// Migration v2: only digests of tokens are kept. v1 kept each device's first token in clear, to print it at
    /// every start, so a copy of the database let anyone act as any device. `first_of_device` marks the token
    /// `serve` made (and showed once); the partial unique index keeps it one per device. The table is copied
    /// rather than altered so that the clear tokens leave its pages, which secure_delete (set by the migration)
    /// overwrites with zeros when they are freed.
    static let tokenDigestsOnly = """
        CREATE TABLE device_token_digest (
            token_sha256 TEXT PRIMARY KEY NOT NULL,
            device_id TEXT NOT NULL,
            first_of_device INTEGER NOT NULL DEFAULT 0,
            created_at_ms INTEGER NOT NULL
        );
        INSERT INTO device_token_digest (token_sha256, device_id, first_of_device, created_at_ms)
            SELECT token_sha256, device_id, printable_token IS NOT NULL, created_at_ms FROM device_token;
        DROP TABLE device_token;
        ALTER TABLE device_token_digest RENAME TO device_token;
        CREATE INDEX device_token_device ON device_token(device_id);
        CREATE UNIQUE INDEX device_token_first ON device_token(device_id) WHERE first_of_device;
        """

    /// Migration v3: operator tokens (`§http-erase`), as digests. An operator token erases any device's data
    /// and does nothing else, so it is kept apart from the devices' tokens.
    static let operatorTokens = """
        CREATE TABLE operator_token (
            token_sha256 TEXT PRIMARY KEY NOT NULL,
            created_at_ms INTEGER NOT NULL
        );
        """

    /// What retention finds old rows by (`§http-retention`), made when `serve --retain-days` first runs rather
    /// than by a migration: each index costs every ingest one more B-tree insert per row, which a server that
    /// keeps everything should not pay.
    static let retentionIndexes = """
        CREATE INDEX IF NOT EXISTS fix_received ON fix(received_at_ms);
        CREATE INDEX IF NOT EXISTS fence_event_received ON fence_event(received_at_ms);
        CREATE INDEX IF NOT EXISTS lifecycle_event_received ON lifecycle_event(received_at_ms);
        """

    /// The tables erasure and retention remove rows from, with the key that names one row (for a bounded
    /// delete) and the column that dates it: where each is counted in ``RemovedRows``.
    // A constant: only the key paths stop the compiler from seeing that it is safe to share.
    nonisolated(unsafe) static let itemTables:
        [(table: String, key: String, received: String, count: WritableKeyPath<RemovedRows, Int>)] = [
            ("fix", "device_id, install_id, sequence", "received_at_ms", \.fixes),
            ("fence_event", "device_id, install_id, event_sequence", "received_at_ms", \.fenceEvents),
            ("lifecycle_event", "device_id, install_id, kind, time_ms", "received_at_ms", \.lifecycleEvents),
            ("device_status", "device_id, install_id", "received_at_ms", \.deviceStatuses),
        ]
    /// The assignments an erasure or retention pass empties (``StoredRows/erasedAssignment(_:)``): kept, not
    /// deleted, so that their versions go on.
    static let selectDeviceAssignment = "SELECT device_id, body FROM assignment WHERE device_id = ?"
    static let selectOldAssignments = "SELECT device_id, body FROM assignment WHERE updated_at_ms < ? LIMIT ?"
    static let updateAssignment = "UPDATE assignment SET body = ?, updated_at_ms = ? WHERE device_id = ?"

    static let insertFix = """
        INSERT INTO fix (device_id, install_id, sequence, time_ms, latitude_e7, longitude_e7, body, received_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertFenceEvent = """
        INSERT INTO fence_event (device_id, install_id, event_sequence, region_id, kind, body, received_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    static let insertLifecycleEvent = """
        INSERT INTO lifecycle_event (device_id, install_id, kind, time_ms, body, received_at_ms)
            VALUES (?, ?, ?, ?, ?, ?)
        """
    static let upsertInstallation = """
        INSERT INTO installation (device_id, install_id, record, updated_at_ms) VALUES (?, ?, ?, ?)
        ON CONFLICT (device_id, install_id) DO UPDATE SET record = excluded.record,
            updated_at_ms = excluded.updated_at_ms
        """
    /// Keeps the status of the newest batch by `sent_at_ms` (ties: the later arrival).
    static let upsertDeviceStatus = """
        INSERT INTO device_status (device_id, install_id, sent_at_ms, body, received_at_ms) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (device_id, install_id) DO UPDATE SET sent_at_ms = excluded.sent_at_ms, body = excluded.body,
            received_at_ms = excluded.received_at_ms
        WHERE excluded.sent_at_ms >= device_status.sent_at_ms
        """
    static let upsertAssignment = """
        INSERT INTO assignment (device_id, body, updated_at_ms) VALUES (?, ?, ?)
        ON CONFLICT (device_id) DO UPDATE SET body = excluded.body, updated_at_ms = excluded.updated_at_ms
        """
    static let selectFixes = """
        SELECT install_id, body, received_at_ms FROM fix
        WHERE device_id = ? AND time_ms >= ? AND time_ms < ?
        ORDER BY time_ms, install_id, sequence LIMIT ?
        """
}
