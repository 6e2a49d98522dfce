import Foundation

/// The PostgreSQL tables and statements of ``PostgresStorage``: the tables of ``SQLiteSchema`` in PostgreSQL's
/// dialect (BIGINT for SQLite's 64-bit INTEGER, INTEGER for the 32-bit enum values and coordinates, BYTEA for
/// BLOB), with three differences, two for several server processes sharing one database, one for TEXT:
///
/// - `installation.record` may be NULL: a placeholder row inserted only so that a batch's transaction can lock
///   its installation before the installation has a ledger record (see ``lockInstallations``). NULL reads as "no
///   record yet", exactly as the absent row does in SQLite.
/// - `device_token` has a partial unique index on `first_of_device`, so that two servers started at once make
///   one first token per device, not two.
/// - `fence_event.region_id` has U+FFFD where the wire string has U+0000, which TEXT cannot hold
///   (``textColumn(_:)``); `body` keeps the exact event.
///
/// Statements are one per string: postgres-nio's extended query protocol takes one statement at a time.
enum PostgresSchema {
    /// The key of the session-level advisory lock held while the schema is created or migrated, so that two
    /// processes starting at once do not race on `CREATE TABLE IF NOT EXISTS` (which is not safe concurrently).
    /// Any fixed number works; this one is "LocWire" in ASCII.
    static let migrationLockKey: Int64 = 0x4C6F_6357_6972_65

    /// One migration per change, applied in order and recorded in `schema_migration`; a migration once released
    /// is never edited.
    static let migrations: [(version: String, statements: [String])] = [
        (
            "v1",
            [
                // printable_token held the device's first token in clear, the one `serve` printed at every
                // start, and was NULL for tokens issued later; v2 removes it.
                """
                CREATE TABLE device_token (
                    token_sha256 TEXT PRIMARY KEY NOT NULL,
                    device_id TEXT NOT NULL,
                    printable_token TEXT,
                    created_at_ms BIGINT NOT NULL
                )
                """,
                "CREATE INDEX device_token_device ON device_token(device_id)",
                "CREATE UNIQUE INDEX device_token_printable ON device_token(device_id) WHERE printable_token IS NOT NULL",
                // One row per installation: the ledger's InstallationRecord, encoded as
                // locationwire.session.v1.InstallationRecord; NULL for the placeholder that only carries the lock.
                """
                CREATE TABLE installation (
                    device_id TEXT NOT NULL,
                    install_id BIGINT NOT NULL,
                    record BYTEA,
                    updated_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (device_id, install_id)
                )
                """,
                """
                CREATE TABLE fix (
                    device_id TEXT NOT NULL,
                    install_id BIGINT NOT NULL,
                    sequence BIGINT NOT NULL,
                    time_ms BIGINT NOT NULL,
                    latitude_e7 INTEGER,
                    longitude_e7 INTEGER,
                    body BYTEA NOT NULL,
                    received_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (device_id, install_id, sequence)
                )
                """,
                "CREATE INDEX fix_device_time ON fix(device_id, time_ms)",
                """
                CREATE TABLE fence_event (
                    device_id TEXT NOT NULL,
                    install_id BIGINT NOT NULL,
                    event_sequence BIGINT NOT NULL,
                    region_id TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    body BYTEA NOT NULL,
                    received_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (device_id, install_id, event_sequence)
                )
                """,
                """
                CREATE TABLE lifecycle_event (
                    device_id TEXT NOT NULL,
                    install_id BIGINT NOT NULL,
                    kind INTEGER NOT NULL,
                    time_ms BIGINT NOT NULL,
                    body BYTEA NOT NULL,
                    received_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (device_id, install_id, kind, time_ms)
                )
                """,
                """
                CREATE TABLE device_status (
                    device_id TEXT NOT NULL,
                    install_id BIGINT NOT NULL,
                    sent_at_ms BIGINT NOT NULL,
                    body BYTEA NOT NULL,
                    received_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (device_id, install_id)
                )
                """,
                // The assignment last sent to each device: the `previous` of §plan-delta.
                """
                CREATE TABLE assignment (
                    device_id TEXT PRIMARY KEY NOT NULL,
                    body BYTEA NOT NULL,
                    updated_at_ms BIGINT NOT NULL
                )
                """,
            ]
        ),
        (
            // v1 kept each device's first token in clear, to print it at every start; a copy of the database
            // then let anyone act as any device. Now only digests are kept, and `first_of_device` marks the
            // token `serve` made (and showed once). The clear tokens are overwritten before the column goes, so
            // that no live row holds them; dead row versions keep them until VACUUM reclaims them.
            "v2-token-digests-only",
            [
                "ALTER TABLE device_token ADD COLUMN first_of_device BOOLEAN NOT NULL DEFAULT FALSE",
                "UPDATE device_token SET first_of_device = (printable_token IS NOT NULL), printable_token = NULL",
                "DROP INDEX device_token_printable",
                "ALTER TABLE device_token DROP COLUMN printable_token",
                "CREATE UNIQUE INDEX device_token_first ON device_token(device_id) WHERE first_of_device",
            ]
        ),
        (
            // Operator tokens (§http-erase), as digests. And retention at scale (§http-retention): fixes and
            // fence events are partitioned by the day they were received, so that a day past retention is
            // dropped whole instead of deleted row by row. A partitioned table's key must hold the partition
            // column, so (device, installation, sequence) is no longer unique by itself: the ledger, which
            // decides what is stored, keeps it unique, as it always did. Rows from before go to the default
            // partition, which retention deletes from row by row. `PostgresStorage.preparePartitions` makes the
            // days' partitions ahead of time.
            "v3-operator-tokens-and-day-partitions",
            [
                "CREATE TABLE operator_token (token_sha256 TEXT PRIMARY KEY NOT NULL, created_at_ms BIGINT NOT NULL)",
                "ALTER TABLE fix RENAME TO fix_v2",
                "ALTER INDEX fix_pkey RENAME TO fix_v2_pkey",
                "ALTER INDEX fix_device_time RENAME TO fix_v2_device_time",
                """
                CREATE TABLE fix (
                    device_id TEXT NOT NULL,
                    install_id BIGINT NOT NULL,
                    sequence BIGINT NOT NULL,
                    time_ms BIGINT NOT NULL,
                    latitude_e7 INTEGER,
                    longitude_e7 INTEGER,
                    body BYTEA NOT NULL,
                    received_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (device_id, install_id, sequence, received_at_ms)
                ) PARTITION BY RANGE (received_at_ms)
                """,
                "CREATE TABLE fix_default PARTITION OF fix DEFAULT",
                dayPartitionsForRows(of: "fix", in: "fix_v2"),
                "INSERT INTO fix SELECT * FROM fix_v2",
                "DROP TABLE fix_v2",
                "CREATE INDEX fix_device_time ON fix(device_id, time_ms)",
                "ALTER TABLE fence_event RENAME TO fence_event_v2",
                "ALTER INDEX fence_event_pkey RENAME TO fence_event_v2_pkey",
                """
                CREATE TABLE fence_event (
                    device_id TEXT NOT NULL,
                    install_id BIGINT NOT NULL,
                    event_sequence BIGINT NOT NULL,
                    region_id TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    body BYTEA NOT NULL,
                    received_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (device_id, install_id, event_sequence, received_at_ms)
                ) PARTITION BY RANGE (received_at_ms)
                """,
                "CREATE TABLE fence_event_default PARTITION OF fence_event DEFAULT",
                dayPartitionsForRows(of: "fence_event", in: "fence_event_v2"),
                "INSERT INTO fence_event SELECT * FROM fence_event_v2",
                "DROP TABLE fence_event_v2",
            ]
        ),
        (
            // Every table of device data keyed by device_id first, so that Citus can distribute the schema by
            // device_id unchanged (Server/README.md, "Shards"). Citus wants every unique index to hold the
            // distribution column, so the digest's index, used by the token lookup, is no longer unique: a
            // SHA-256 of 224 random bits does not repeat. The key's first column serves the device's lookups that
            // device_token_device served.
            "v4-device-token-keyed-by-device",
            [
                "ALTER TABLE device_token DROP CONSTRAINT device_token_pkey",
                "ALTER TABLE device_token ADD PRIMARY KEY (device_id, token_sha256)",
                "CREATE INDEX device_token_digest ON device_token(token_sha256)",
                "DROP INDEX device_token_device",
            ]
        ),
    ]

    /// A statement that makes the day partition (``dayPartitionName(_:day:)``) of every day `source`'s rows were
    /// received on, so that moving them into `table` fills days, not the default partition.
    static func dayPartitionsForRows(of table: String, in source: String) -> String {
        """
        DO $$
        DECLARE day BIGINT;
        BEGIN
            FOR day IN SELECT DISTINCT floor(received_at_ms / 86400000.0)::BIGINT FROM \(source) LOOP
                EXECUTE format('CREATE TABLE %I PARTITION OF \(table) FOR VALUES FROM (%s) TO (%s)',
                    '\(table)_d' || to_char(to_timestamp(day * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD'),
                    day * 86400000, (day + 1) * 86400000);
            END LOOP;
        END $$
        """
    }

    static let millisecondsPerDay: Int64 = 86_400_000

    /// The name of `table`'s partition for the UTC day `day` (days since 1970-01-01): `fix_d20261127`.
    static func dayPartitionName(_ table: String, day: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(day * 86_400))
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(table)_d\(padded(parts.year!, 4))\(padded(parts.month!, 2))\(padded(parts.day!, 2))"
    }

    /// The UTC day of a partition named by ``dayPartitionName(_:day:)``, or nil for any other name.
    static func day(ofPartition name: String, table: String) -> Int64? {
        let prefix = "\(table)_d"
        guard name.hasPrefix(prefix), name.count == prefix.count + 8,
            let number = Int(name.dropFirst(prefix.count))
        else { return nil }
        var components = DateComponents()
        components.year = number / 10_000
        components.month = number / 100 % 100
        components.day = number % 100
        components.timeZone = TimeZone(identifier: "UTC")
        guard let date = Calendar(identifier: .gregorian).date(from: components) else { return nil }
        return Int64(date.timeIntervalSince1970) / 86_400
    }

    static let createMigrationTable = """
        CREATE TABLE IF NOT EXISTS schema_migration (version TEXT PRIMARY KEY NOT NULL, applied_at_ms BIGINT NOT NULL)
        """

    /// Coordinates are optional in a fix and PostgreSQL arrays bound by postgres-nio cannot hold NULL, so the
    /// bulk insert carries them as BIGINT with this value, which no Int32 coordinate can take, for "absent".
    static let absentCoordinate = Int64.min

    /// A wire string as a TEXT column's value. PostgreSQL's TEXT cannot hold U+0000, which a protobuf string
    /// may carry; refusing the row would answer 503 to that batch for ever, so the query column gets U+FFFD in
    /// its place. The item's `body` keeps the exact string.
    static func textColumn(_ string: String) -> String {
        guard string.unicodeScalars.contains("\u{0}") else { return string }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: string.unicodeScalars.lazy.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 })
        return String(scalars)
    }

    // MARK: Ingest, in the order one group's transaction runs them (PostgresStorage.commit(_:))

    /// Makes sure every installation of a group has a row to lock (a NULL placeholder when it has no record yet),
    /// inserted in key order; when another transaction is inserting one of the rows, this waits for it to finish.
    /// `$1`, `$2`: the installations' device ids and install ids; `$3`: the time, UTC ms.
    static let insertInstallationPlaceholders = """
        INSERT INTO installation (device_id, install_id, record, updated_at_ms)
        SELECT installation_key.device_id, installation_key.install_id, NULL, $3
        FROM UNNEST($1::TEXT[], $2::BIGINT[]) AS installation_key(device_id, install_id)
        ORDER BY installation_key.device_id, installation_key.install_id
        ON CONFLICT (device_id, install_id) DO NOTHING
        """
    /// Locks the group's installation rows until COMMIT, in key order (as ``lockDeviceInstallations`` does, so
    /// that two groups, or a group and an erasure, never wait for each other in a cycle): every other batch of
    /// these installations, from any server process, waits here, then reads the record this transaction commits
    /// (READ COMMITTED re-reads a locked row once its lock is released).
    static let lockInstallations = """
        SELECT installation.device_id, installation.install_id, installation.record FROM installation
        JOIN UNNEST($1::TEXT[], $2::BIGINT[]) AS installation_key(device_id, install_id)
            ON installation.device_id = installation_key.device_id
            AND installation.install_id = installation_key.install_id
        ORDER BY installation.device_id, installation.install_id
        FOR UPDATE OF installation
        """
    /// An installation's record, outside ingest (erasure keeps only its sequence numbers).
    static let updateInstallation = """
        UPDATE installation SET record = $3, updated_at_ms = $4 WHERE device_id = $1 AND install_id = $2
        """
    /// Everything a group stores, in one statement whatever the group's size: each table's rows as parallel
    /// arrays unnested into rows (``PostgresGroupRows`` binds them in this order), so that the round trips of a
    /// group grow with neither its batches nor their fixes. Data-modifying CTEs run to completion whether or not
    /// the final SELECT reads them; it returns how many installation records were updated and fixes inserted,
    /// which must be how many were sent.
    ///
    /// Plain INSERTs, as in SQLite: the ledger said these keys are new, so a conflict means the ledger and the
    /// tables disagree, and it throws. A device status is kept when its batch's `sent_at_ms` is the newest (ties:
    /// the later arrival), so that a backlog sent late does not overwrite a newer status.
    static let writeGroup = """
        WITH installations AS (
            UPDATE installation SET record = item.record, updated_at_ms = item.updated_at_ms
            FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::BYTEA[], $4::BIGINT[])
                AS item(device_id, install_id, record, updated_at_ms)
            WHERE installation.device_id = item.device_id AND installation.install_id = item.install_id
            RETURNING 1
        ), fixes AS (
            INSERT INTO fix (device_id, install_id, sequence, time_ms, latitude_e7, longitude_e7, body, received_at_ms)
            SELECT item.device_id, item.install_id, item.sequence, item.time_ms,
                NULLIF(item.latitude_e7, \(absentCoordinate))::INTEGER,
                NULLIF(item.longitude_e7, \(absentCoordinate))::INTEGER, item.body, item.received_at_ms
            FROM UNNEST($5::TEXT[], $6::BIGINT[], $7::BIGINT[], $8::BIGINT[], $9::BIGINT[], $10::BIGINT[],
                $11::BYTEA[], $12::BIGINT[])
                AS item(device_id, install_id, sequence, time_ms, latitude_e7, longitude_e7, body, received_at_ms)
            RETURNING 1
        ), fence_events AS (
            INSERT INTO fence_event (device_id, install_id, event_sequence, region_id, kind, body, received_at_ms)
            SELECT * FROM UNNEST($13::TEXT[], $14::BIGINT[], $15::BIGINT[], $16::TEXT[], $17::INTEGER[],
                $18::BYTEA[], $19::BIGINT[])
            RETURNING 1
        ), lifecycle_events AS (
            INSERT INTO lifecycle_event (device_id, install_id, kind, time_ms, body, received_at_ms)
            SELECT * FROM UNNEST($20::TEXT[], $21::BIGINT[], $22::INTEGER[], $23::BIGINT[], $24::BYTEA[], $25::BIGINT[])
            RETURNING 1
        ), statuses AS (
            INSERT INTO device_status (device_id, install_id, sent_at_ms, body, received_at_ms)
            SELECT * FROM UNNEST($26::TEXT[], $27::BIGINT[], $28::BIGINT[], $29::BYTEA[], $30::BIGINT[])
            ON CONFLICT (device_id, install_id) DO UPDATE SET sent_at_ms = excluded.sent_at_ms, body = excluded.body,
                received_at_ms = excluded.received_at_ms
            WHERE excluded.sent_at_ms >= device_status.sent_at_ms
            RETURNING 1
        )
        SELECT (SELECT COUNT(*) FROM installations), (SELECT COUNT(*) FROM fixes)
        """

    // MARK: Tokens, assignments, read-back

    static let selectDeviceForToken = "SELECT device_id FROM device_token WHERE token_sha256 = $1"
    /// Inserts the digest `$1` as the device's first token unless it has one, returning the digest only when
    /// inserted: the partial unique index makes a concurrent second insert for the same device wait, then do
    /// nothing.
    static let insertFirstToken = """
        INSERT INTO device_token (token_sha256, device_id, first_of_device, created_at_ms) VALUES ($1, $2, TRUE, $3)
        ON CONFLICT (device_id) WHERE first_of_device DO NOTHING
        RETURNING token_sha256
        """
    static let insertToken = """
        INSERT INTO device_token (token_sha256, device_id, created_at_ms) VALUES ($1, $2, $3)
        """
    static let upsertAssignment = """
        INSERT INTO assignment (device_id, body, updated_at_ms) VALUES ($1, $2, $3)
        ON CONFLICT (device_id) DO UPDATE SET body = excluded.body, updated_at_ms = excluded.updated_at_ms
        """
    static let selectAssignment = "SELECT body FROM assignment WHERE device_id = $1"

    // MARK: Operator tokens, erasure and retention

    static let insertOperatorToken = "INSERT INTO operator_token (token_sha256, created_at_ms) VALUES ($1, $2)"
    static let selectOperatorToken = "SELECT 1::BIGINT FROM operator_token WHERE token_sha256 = $1"
    /// Every installation of the device, locked in key order (as ``lockInstallations``): its batches wait until
    /// the erasure commits.
    static let lockDeviceInstallations = """
        SELECT install_id, record FROM installation WHERE device_id = $1 ORDER BY install_id FOR UPDATE
        """
    /// The tables erasure and retention remove from, the column that dates a row, and where each is counted;
    /// `partitioned` for the tables partitioned by day.
    nonisolated(unsafe) static let itemTables:
        [(table: String, received: String, partitioned: Bool, count: WritableKeyPath<RemovedRows, Int>)] = [
            ("fix", "received_at_ms", true, \.fixes),
            ("fence_event", "received_at_ms", true, \.fenceEvents),
            ("lifecycle_event", "received_at_ms", false, \.lifecycleEvents),
            ("device_status", "received_at_ms", false, \.deviceStatuses),
        ]
    /// The assignments an erasure or retention pass empties (``StoredRows/erasedAssignment(_:)``), locked: kept,
    /// not deleted, so that their versions go on.
    static let selectDeviceAssignment = "SELECT device_id, body FROM assignment WHERE device_id = $1 FOR UPDATE"
    static let selectOldAssignments = """
        SELECT device_id, body FROM assignment WHERE updated_at_ms < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
        """
    static let updateAssignment = "UPDATE assignment SET body = $2, updated_at_ms = $3 WHERE device_id = $1"
    static let selectInstallationRecords = "SELECT record FROM installation WHERE device_id = $1"
    static func deleteDeviceRows(_ table: String) -> String {
        "WITH removed AS (DELETE FROM \(table) WHERE device_id = $1 RETURNING 1) SELECT COUNT(*) FROM removed"
    }
    /// At most `$2` rows of `table` (not partitioned, or one partition) received before `$1`.
    static func deleteOldRows(_ table: String, received: String) -> String {
        """
        WITH removed AS (
            DELETE FROM \(table) WHERE ctid IN (SELECT ctid FROM \(table) WHERE \(received) < $1 LIMIT $2)
            RETURNING 1)
        SELECT COUNT(*) FROM removed
        """
    }
    /// The partitions of `$1` (a table name, found through the search path), by name.
    static let selectPartitions = """
        SELECT child.relname::TEXT FROM pg_inherits
        JOIN pg_class child ON child.oid = pg_inherits.inhrelid
        WHERE pg_inherits.inhparent = to_regclass($1)
        """
    static let selectFixes = """
        SELECT install_id, body, received_at_ms FROM fix
        WHERE device_id = $1 AND time_ms >= $2 AND time_ms < $3
        ORDER BY time_ms, install_id, sequence LIMIT $4
        """
    static let countFixes = "SELECT COUNT(*) FROM fix WHERE device_id = $1 AND install_id = $2"
    static let countFenceEvents = "SELECT COUNT(*) FROM fence_event WHERE device_id = $1 AND install_id = $2"
    static let countLifecycleEvents = "SELECT COUNT(*) FROM lifecycle_event WHERE device_id = $1 AND install_id = $2"
    static let selectDeviceStatus =
        "SELECT sent_at_ms, body FROM device_status WHERE device_id = $1 AND install_id = $2"
}
