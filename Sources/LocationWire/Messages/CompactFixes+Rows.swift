/// Why a CompactFixes could not be converted to or from rows.
public struct CompactFixesError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// `count` exceeds the limit the caller is prepared to expand.
        public static let tooManyFixes = Code("compact-too-many-fixes")
        /// `run_lengths` is not empty but has another length than `deltas`, or holds a 0.
        public static let runLengthsMismatch = Code("compact-run-lengths-mismatch")
        /// A column holds more values than there are fixes.
        public static let columnTooLong = Code("compact-column-too-long")
        /// The presence bitmap does not match the column (wrong size, wrong number of set bits, bits set past
        /// `count`, a bitmap on a field without presence, or no bitmap for a partial column).
        public static let presenceMismatch = Code("compact-presence-mismatch")
        /// A reconstructed value does not fit the field's type.
        public static let valueOutOfRange = Code("compact-value-out-of-range")
        /// A fix carries unknown fields, which the compact form cannot hold.
        public static let unknownFields = Code("compact-unknown-fields")
        /// More fixes than a `count` field can say (2^32 - 1).
        public static let countOverflow = Code("compact-count-overflow")

        public static let all: [Code] = [
            .tooManyFixes, .runLengthsMismatch, .columnTooLong, .presenceMismatch, .valueOutOfRange,
            .unknownFields, .countOverflow,
        ]
    }

    public let code: Code
    /// The LocationFix field number of the column at fault, or nil for the message as a whole.
    public let fieldNumber: Int?
    /// The fix at fault, when one is.
    public let fixIndex: Int?
    public let message: String

    public init(code: Code, fieldNumber: Int? = nil, fixIndex: Int? = nil, message: String) {
        self.code = code
        self.fieldNumber = fieldNumber
        self.fixIndex = fixIndex
        self.message = message
    }

    public var description: String {
        var place = ""
        if let fieldNumber {
            place +=
                " in column \(LocationFix.schema.field(number: UInt32(fieldNumber))?.name ?? "\(fieldNumber)")"
        }
        if let fixIndex { place += " at fix \(fixIndex)" }
        return "\(code)\(place): \(message)"
    }
}

extension CompactFixes {
    /// The default for ``fixes(limit:)``: the most fixes expanded from one CompactFixes.
    public static let defaultFixLimit = 1_000_000

    /// The canonical compact form of `fixes` (`proto/locationwire/v1/compact_fixes.proto` defines it):
    /// equal fixes always give equal bytes. Throws for fixes with unknown fields, which columns cannot hold.
    public init(fixes: [LocationFix]) throws(CompactFixesError) {
        self.init()
        guard fixes.count <= Int(UInt32.max) else {
            throw CompactFixesError(
                code: .countOverflow, message: "\(fixes.count) fixes do not fit a count")
        }
        if let index = fixes.firstIndex(where: { !$0.unknownFields.isEmpty }) {
            throw CompactFixesError(
                code: .unknownFields, fixIndex: index,
                message: "the fix carries unknown fields; send it as a row")
        }
        count = UInt32(fixes.count)
        let fixCount = fixes.count
        // One buffer of values and one bitmap, reused for every column and written through pointers: appending to
        // arrays checked their uniqueness on every value, and `for fix in fixes` copied every fix once per
        // column (184 bytes, its unknown fields retained and released).
        var values = [Int64](repeating: 0, count: fixCount)
        var presence = [UInt8](repeating: 0, count: (fixCount + 7) / 8)
        for column in CompactFixes.columnFields {
            var valueCount = 0
            var anyNonZero = false
            let encoded: FixColumn? = fixes.withUnsafeBufferPointer { rows in
                values.withUnsafeMutableBufferPointer { values in
                    presence.withUnsafeMutableBufferPointer { presence in
                        presence.update(repeating: 0)
                        for index in 0..<fixCount {
                            guard let value = rows[index].columnValue(column) else { continue }
                            values[valueCount] = value
                            valueCount += 1
                            presence[index >> 3] |= 1 << UInt8(index & 7)
                            anyNonZero = anyNonZero || value != 0
                        }
                    }
                    if valueCount == 0 || (!column.hasPresence && !anyNonZero) { return nil }
                    return FixColumn.canonical(values: UnsafeBufferPointer(rebasing: values[0..<valueCount]))
                }
            }
            guard var encoded else { continue }
            if column.hasPresence, valueCount < fixCount { encoded.presence = presence }
            self[column: column.columnNumber] = encoded
        }
    }

    /// Reconstructs the fixes, following the rule in `proto/locationwire/v1/compact_fixes.proto` exactly.
    /// Refuses to expand more than `limit` fixes, checked before anything is allocated.
    public func fixes(
        limit: Int = CompactFixes.defaultFixLimit
    ) throws(CompactFixesError)
        -> [LocationFix]
    {
        let fixCount = try checkedFixCount(limit: limit)
        // The fast expansion gives up only on a value that does not fit its field; the reference then finds the
        // first such value, in the order the spec names, and throws its error.
        if let rows = expandedRows(fixCount: fixCount) { return rows }
        return try referenceRows(fixCount: fixCount)
    }

    /// The first implementation of ``fixes(limit:)``, simple and column by column: it builds every row empty,
    /// then stores each column's values into it with a range check per value. Kept as the reference the fast
    /// expansion is tested against (`CompactExpansionTests`), and to name the first value out of range.
    package func referenceFixes(limit: Int = CompactFixes.defaultFixLimit) throws(CompactFixesError) -> [LocationFix] {
        try referenceRows(fixCount: try checkedFixCount(limit: limit))
    }

    /// `count`, once it is within `limit` and every column's shape fits it (run lengths, value count, presence).
    private func checkedFixCount(limit: Int) throws(CompactFixesError) -> Int {
        let fixCount = Int(count)
        guard fixCount <= limit else {
            throw CompactFixesError(
                code: .tooManyFixes, message: "count \(fixCount) exceeds the limit of \(limit) fixes")
        }
        // Check every column before allocating the rows, so malformed input costs no memory.
        for column in CompactFixes.columnFields {
            if let encoded = self[column: column.columnNumber] {
                try encoded.checkShape(fixCount: fixCount, column: column)
            }
        }
        return fixCount
    }

    private func referenceRows(fixCount: Int) throws(CompactFixesError) -> [LocationFix] {
        // Rows start empty and are initialized in place (Array(repeating:) would copy a template row through
        // the generic value witness, which costs more than the columns' own work).
        var failure: CompactFixesError?
        let fixes = [LocationFix](unsafeUninitializedCapacity: fixCount) { buffer, initialized in
            for index in 0..<fixCount { (buffer.baseAddress! + index).initialize(to: LocationFix()) }
            initialized = fixCount
            let rows = UnsafeMutableBufferPointer(rebasing: buffer[0..<fixCount])
            do throws(CompactFixesError) {
                for column in CompactFixes.columnFields {
                    guard let encoded = self[column: column.columnNumber], !encoded.deltas.isEmpty else {
                        continue
                    }
                    try LocationFix.fillColumn(column, of: rows, from: encoded)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return fixes
    }

    /// How many rows the expansion fills at a time: 64 rows of 184 bytes (11.5 KiB) stay in the first-level data
    /// cache while every column stores into them. Filling the whole batch one column at a time instead streamed
    /// all its rows through the cache once per column, and ran at half the instructions per cycle of decoding.
    static let expansionBlockRows = 64

    /// The rows, column by column like the reference but without its per-value work, and a block of
    /// ``expansionBlockRows`` rows at a time: each block's rows are built empty, then every column without a
    /// presence bitmap (plain or run-length coded: nearly every column of a trace) stores its next values into
    /// them, summed, range-checked and stored in one loop specialized for the field
    /// (``LocationFix/storeColumn(_:of:count:_:)``), the check or-ing misfits together and testing them once per
    /// block. A column with a bitmap is then expanded over the whole batch into a scratch buffer of running sums
    /// and moved to the fixes the bitmap marks. Nil when a value does not fit its field (the caller then lets
    /// ``referenceRows(fixCount:)`` name it; the rows built so far are dropped). Every column's shape has been
    /// checked against `fixCount` (``FixColumn/checkShape(fixCount:column:)``): that keeps the scratch writes,
    /// the cursors' reads and the row stores in bounds.
    private func expandedRows(fixCount: Int) -> [LocationFix]? {
        guard fixCount > 0 else { return [] }
        var cursors: [ColumnCursor] = []
        var marked: [(field: LocationFix.Field, column: FixColumn)] = []
        for field in Self.columnFields {
            guard let column = self[column: field.columnNumber], !column.deltas.isEmpty else { continue }
            if column.presence.isEmpty {
                cursors.append(ColumnCursor(field: field, column: column))
            } else {
                marked.append((field, column))
            }
        }
        var scratch: UnsafeMutablePointer<Int64>?
        defer { scratch?.deallocate() }
        var fits = true
        let rows = [LocationFix](unsafeUninitializedCapacity: fixCount) { buffer, initialized in
            let rows = buffer.baseAddress!
            var start = 0
            while start < fixCount {
                let count = Swift.min(Self.expansionBlockRows, fixCount - start)
                for index in start..<(start + count) { (rows + index).initialize(to: LocationFix()) }
                for index in cursors.indices {
                    let blockFits = cursors[index].store(into: rows + start, count: count)
                    fits = fits && blockFits
                }
                start += count
            }
            initialized = fixCount
            for (field, column) in marked where fits {
                if scratch == nil { scratch = .allocate(capacity: fixCount) }
                let values = scratch!
                let valueCount = column.writeRunningSums(to: values)
                // Values to the fixes the bitmap marks, then each run of marked fixes stores its own.
                column.scatter(values, valueCount: valueCount)
                column.forEachMarkedRun(fixCount: fixCount) { start, length in
                    let runFits = LocationFix.storeColumn(field, of: rows + start, count: length) {
                        values[start + $0]
                    }
                    fits = fits && runFits
                }
            }
        }
        return fits ? rows : nil
    }
}

/// Where the expansion stands in a column without a presence bitmap, between blocks of rows: the running sum,
/// and the next delta (a plain column, one delta a fix) or the current run and the values left in it (a
/// run-length coded column).
private struct ColumnCursor {
    let field: LocationFix.Field
    /// Holds the column's arrays for the expansion.
    let column: FixColumn
    var current: Int64 = 0
    var next = 0
    var left: UInt32

    init(field: LocationFix.Field, column: FixColumn) {
        self.field = field
        self.column = column
        self.left = column.runLengths.first ?? 0
    }

    /// Stores the column's next `count` values into the rows at `rows`; false when one does not fit the field.
    /// Wrapping arithmetic and unchecked reads: the column's shape was checked (its deltas, or its runs, cover
    /// every fix, and no run is empty), so neither overflows nor reads past the end.
    mutating func store(into rows: UnsafeMutablePointer<LocationFix>, count: Int) -> Bool {
        var current = self.current
        var next = self.next
        var left = self.left
        let field = self.field
        let deltas = column.deltas
        let fits: Bool
        if column.runLengths.isEmpty {
            fits = deltas.withUnsafeBufferPointer { deltas in
                LocationFix.storeColumn(field, of: rows, count: count) { index in
                    current = current &+ deltas[next &+ index]
                    return current
                }
            }
            next &+= count
        } else {
            let runLengths = column.runLengths
            fits = deltas.withUnsafeBufferPointer { deltas in
                runLengths.withUnsafeBufferPointer { lengths in
                    LocationFix.storeColumn(field, of: rows, count: count) { _ in
                        if left == 0 {
                            next &+= 1
                            left = lengths[next]
                        }
                        left &-= 1
                        current = current &+ deltas[next]
                        return current
                    }
                }
            }
        }
        self.current = current
        self.next = next
        self.left = left
        return fits
    }
}

extension FixColumn {
    /// The canonical column for `values` (all present): plain deltas, or run-length coded deltas when that is
    /// strictly shorter on the wire.
    static func canonical(values: UnsafeBufferPointer<Int64>) -> FixColumn {
        let count = values.count
        let deltas = [Int64](unsafeUninitializedCapacity: count) { deltas, initialized in
            var previous: Int64 = 0
            for index in 0..<count {
                deltas[index] = values[index] &- previous
                previous = values[index]
            }
            initialized = count
        }
        // The sizes of both forms, without building the run form: maximal runs of equal deltas, each at most
        // UInt32.max long.
        var plainPayload = 0
        var runDeltaPayload = 0
        var runLengthPayload = 0
        deltas.withUnsafeBufferPointer { deltas in
            for delta in deltas { plainPayload += Varint.encodedSize(of: ZigZag.encode(delta)) }
            var start = 0
            while start < count {
                let end = runEnd(deltas, from: start)
                runDeltaPayload += Varint.encodedSize(of: ZigZag.encode(deltas[start]))
                runLengthPayload += Varint.encodedSize(of: UInt64(end - start))
                start = end
            }
        }
        guard
            packedSize(payload: runDeltaPayload) + packedSize(payload: runLengthPayload)
                < packedSize(payload: plainPayload)
        else { return FixColumn(deltas: deltas) }
        var runDeltas: [Int64] = []
        var runLengths: [UInt32] = []
        deltas.withUnsafeBufferPointer { deltas in
            var start = 0
            while start < count {
                let end = runEnd(deltas, from: start)
                runDeltas.append(deltas[start])
                runLengths.append(UInt32(end - start))
                start = end
            }
        }
        return FixColumn(deltas: runDeltas, runLengths: runLengths)
    }

    /// The end of the run of deltas equal to `deltas[start]`, at most UInt32.max long.
    @inline(__always)
    private static func runEnd(_ deltas: UnsafeBufferPointer<Int64>, from start: Int) -> Int {
        var end = start + 1
        while end < deltas.count, deltas[end] == deltas[start], end - start < Int(UInt32.max) { end += 1 }
        return end
    }

    /// Bytes a packed field with a payload of `payload` bytes takes: key, length, payload; 0 when empty.
    private static func packedSize(payload: Int) -> Int {
        payload == 0 ? 0 : 1 + Varint.encodedSize(of: UInt64(payload)) + payload
    }

    /// The number of steps (values) the column expands to, or an error when its shape is invalid.
    func checkShape(fixCount: Int, column: LocationFix.Field) throws(CompactFixesError) {
        var steps = deltas.count
        if !runLengths.isEmpty {
            guard runLengths.count == deltas.count else {
                throw CompactFixesError(
                    code: .runLengthsMismatch, fieldNumber: column.columnNumber,
                    message: "\(runLengths.count) run lengths for \(deltas.count) deltas")
            }
            steps = 0
            // Every run length is checked for a 0 before the column's length is judged (the spec's order: run
            // lengths, length, presence). Once the sum is past fixCount it stops growing, so hostile run lengths
            // cannot make it overflow.
            for length in runLengths {
                guard length > 0 else {
                    throw CompactFixesError(
                        code: .runLengthsMismatch, fieldNumber: column.columnNumber,
                        message: "a run length is 0")
                }
                if steps <= fixCount { steps += Int(length) }
            }
        }
        guard steps <= fixCount else {
            throw CompactFixesError(
                code: .columnTooLong, fieldNumber: column.columnNumber,
                message: "the column holds more values than the \(fixCount) fixes")
        }
        if presence.isEmpty {
            guard steps == 0 || steps == fixCount else {
                throw CompactFixesError(
                    code: .presenceMismatch, fieldNumber: column.columnNumber,
                    message: "\(steps) values for \(fixCount) fixes but no presence bitmap")
            }
            return
        }
        guard column.hasPresence else {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.columnNumber,
                message: "the field has no presence, so its column must not carry a presence bitmap")
        }
        guard presence.count == (fixCount + 7) / 8 else {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.columnNumber,
                message:
                    "presence has \(presence.count) bytes, \(fixCount) fixes need \((fixCount + 7) / 8)")
        }
        var setBits = 0
        for byte in presence { setBits += byte.nonzeroBitCount }
        if fixCount % 8 != 0, presence[presence.count - 1] >> UInt8(fixCount % 8) != 0 {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.columnNumber,
                message: "presence has bits set past the last fix")
        }
        guard setBits == steps else {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.columnNumber,
                message: "presence marks \(setBits) fixes but the column holds \(steps) values")
        }
    }

    /// Calls `body` with (fix index, value) for every value of the column, in order: expands runs, sums deltas
    /// with wrapping 64-bit arithmetic, and places the k-th value at the k-th fix the presence bitmap marks (every
    /// fix when it is empty). Each value is converted to `Value`, the type of `field`; one that does not fit is
    /// an error. The shape must have been checked.
    @inline(__always)
    func forEachValue<Value: CompactColumnValue>(
        of field: LocationFix.Field, as _: Value.Type, _ body: (_ fixIndex: Int, _ value: Value) -> Void
    ) throws(CompactFixesError) {
        var current: Int64 = 0
        var presenceByte = 0
        var pendingBits: UInt8 = presence.first ?? 0
        var next = 0
        // The fix the next value belongs to.
        @inline(__always) func nextFix() -> Int {
            if presence.isEmpty {
                defer { next += 1 }
                return next
            }
            while pendingBits == 0 {
                presenceByte += 1
                pendingBits = presence[presenceByte]
            }
            let bit = pendingBits.trailingZeroBitCount
            pendingBits &= pendingBits &- 1
            return presenceByte * 8 + bit
        }
        @inline(__always) func emit(_ value: Int64) throws(CompactFixesError) {
            let fixIndex = nextFix()
            guard let converted = Value(columnValue: value) else {
                throw CompactFixesError(
                    code: .valueOutOfRange, fieldNumber: field.columnNumber, fixIndex: fixIndex,
                    message: "\(value) does not fit the field's type")
            }
            body(fixIndex, converted)
        }
        if runLengths.isEmpty {
            for delta in deltas {
                current = current &+ delta
                try emit(current)
            }
        } else {
            for (delta, length) in zip(deltas, runLengths) {
                for _ in 0..<length {
                    current = current &+ delta
                    try emit(current)
                }
            }
        }
    }
}

extension FixColumn {
    /// Writes the column's values (the running sums of its deltas, runs expanded) to `values` and returns how
    /// many: `checkShape` has bounded that by the fix count, the space `values` has.
    func writeRunningSums(to values: UnsafeMutablePointer<Int64>) -> Int {
        var current: Int64 = 0
        var written = 0
        deltas.withUnsafeBufferPointer { deltas in
            if runLengths.isEmpty {
                for delta in deltas {
                    current = current &+ delta
                    values[written] = current
                    written += 1
                }
                return
            }
            runLengths.withUnsafeBufferPointer { lengths in
                for run in 0..<deltas.count {
                    let delta = deltas[run]
                    for _ in 0..<lengths[run] {
                        current = current &+ delta
                        values[written] = current
                        written += 1
                    }
                }
            }
        }
        return written
    }

    /// Moves the `valueCount` values at the start of `values` to the indices of the fixes the presence bitmap
    /// marks. The k-th marked fix is at or after index k, so moving from the last value down never overwrites a
    /// value not yet moved. `checkShape` has checked that the bitmap marks exactly `valueCount` fixes, all
    /// within the fix count.
    func scatter(_ values: UnsafeMutablePointer<Int64>, valueCount: Int) {
        var next = valueCount
        presence.withUnsafeBufferPointer { presence in
            var byteIndex = presence.count
            while byteIndex > 0 {
                byteIndex -= 1
                var bits = presence[byteIndex]
                while bits != 0 {
                    let bit = 7 - bits.leadingZeroBitCount
                    bits &= ~(1 << UInt8(bit))
                    let fix = byteIndex * 8 + bit
                    next -= 1
                    values[fix] = values[next]
                }
            }
        }
    }
}

extension FixColumn {
    /// Calls `body` with each maximal run of consecutive fixes the presence bitmap marks: (first fix, length).
    func forEachMarkedRun(fixCount: Int, _ body: (Int, Int) -> Void) {
        presence.withUnsafeBufferPointer { presence in
            var fix = 0
            while fix < fixCount {
                guard presence[fix >> 3] & (1 << UInt8(fix & 7)) != 0 else {
                    fix += 1
                    continue
                }
                let start = fix
                while fix < fixCount, presence[fix >> 3] & (1 << UInt8(fix & 7)) != 0 { fix += 1 }
                body(start, fix - start)
            }
        }
    }
}

extension LocationFix.Field {
    /// The field number of the field's column in ``CompactFixes``: the same as in ``LocationFix``.
    var columnNumber: Int { Int(number) }

    /// Whether the field has explicit presence, so that its column may carry a presence bitmap.
    var hasPresence: Bool { declaration.label == .optional }
}

extension CompactFixes {
    /// Every column, in field-number order (`allCases` would build a new array at every use).
    static let columnFields = LocationFix.Field.allCases
}

/// A type a column value (64-bit integer) converts to: a LocationFix field's Swift type, or the type its bit
/// pattern is carried in.
protocol CompactColumnValue {
    /// The value, or nil when `columnValue` is out of the type's range.
    init?(columnValue: Int64)
}

extension Int64: CompactColumnValue {
    @inline(__always) init?(columnValue: Int64) { self = columnValue }
}

extension Int32: CompactColumnValue {
    @inline(__always) init?(columnValue: Int64) { self.init(exactly: columnValue) }
}

extension UInt32: CompactColumnValue {
    @inline(__always) init?(columnValue: Int64) { self.init(exactly: columnValue) }
}

extension Bool: CompactColumnValue {
    /// 0 or 1; anything else is out of range.
    @inline(__always) init?(columnValue: Int64) {
        guard columnValue == 0 || columnValue == 1 else { return nil }
        self = columnValue == 1
    }
}
