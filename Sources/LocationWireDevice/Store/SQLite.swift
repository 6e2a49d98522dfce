import CSQLite

/// A failure of the store, in words, with SQLite's result code: what the device reports when its disk fails.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// SQLite's extended result code (`SQLITE_FULL` is 13, `SQLITE_CORRUPT` 11, ...).
    public var code: Int32
    public var message: String
    public var description: String { "store: \(message) (SQLite code \(code))" }

    /// True when the disk is full: the device then discards its oldest fixes (`§sequence-floor`) to go on.
    public var isDiskFull: Bool { code & 0xff == SQLITE_FULL }
}

/// One SQLite connection, used from one thread at a time: the thin layer the store needs and nothing more.
/// Statements are prepared once and kept, so that recording a fix is a bind, a step and a reset.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating) the database file at `path`.
    init(path: String) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw StoreError(code: status, message: "\(path): \(message)")
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
    }

    /// Runs SQL without results (schema, pragmas, transaction control).
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        guard status == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "failed"
            sqlite3_free(error)
            throw StoreError(code: status, message: "\(message) in \(sql.prefix(60))")
        }
    }

    /// Runs a prepared statement with `values` bound to its parameters, and calls `row` for each result row.
    func run(_ sql: String, _ values: [SQLiteValue] = [], row: ((SQLiteRow) throws -> Void)? = nil) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let integer): status = sqlite3_bind_int64(statement, index, integer)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { buffer in
                    // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
                    sqlite3_bind_blob(
                        statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                        unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            try check(status, sql)
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { return try check(status, sql) }
            try row?(SQLiteRow(statement: statement))
        }
    }

    /// Rows the latest INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The single integer a query returns, or nil when it returns no row or NULL.
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64? {
        var result: Int64?
        try run(sql, values) { result = $0.isNull(0) ? nil : $0.integer(0) }
        return result
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
        statements[sql] = statement
        return statement!
    }

    private func check(_ status: Int32, _ sql: String) throws {
        guard status != SQLITE_OK, status != SQLITE_DONE, status != SQLITE_ROW else { return }
        throw StoreError(code: status, message: "\(String(cString: sqlite3_errmsg(handle))) in \(sql.prefix(60))")
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case blob([UInt8])
    case null
}

/// One result row, valid only inside the `row` callback.
struct SQLiteRow {
    let statement: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let base = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }
}
