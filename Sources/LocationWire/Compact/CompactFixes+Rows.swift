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
        if let fieldNumber { place += " in column \(LocationFix.schema.field(number: UInt32(fieldNumber))?.name ?? "\(fieldNumber)")" }
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
            throw CompactFixesError(code: .countOverflow, message: "\(fixes.count) fixes do not fit a count")
        }
        if let index = fixes.firstIndex(where: { !$0.unknownFields.isEmpty }) {
            throw CompactFixesError(
                code: .unknownFields, fixIndex: index, message: "the fix carries unknown fields; send it as a row")
        }
        count = UInt32(fixes.count)
        var values: [Int64] = []
        values.reserveCapacity(fixes.count)
        var presence: [UInt8] = []
        for column in FixColumnKind.allColumns {
            values.removeAll(keepingCapacity: true)
            presence = [UInt8](repeating: 0, count: (fixes.count + 7) / 8)
            var anyNonZero = false
            for (index, fix) in fixes.enumerated() {
                if let value = column.value(of: fix) {
                    values.append(value)
                    presence[index / 8] |= 1 << UInt8(index % 8)
                    anyNonZero = anyNonZero || value != 0
                }
            }
            if values.isEmpty || (!column.hasPresence && !anyNonZero) { continue }
            var encoded = FixColumn.canonical(values: values)
            if column.hasPresence, values.count < fixes.count { encoded.presence = presence }
            self[column: column.fieldNumber] = encoded
        }
    }

    /// Reconstructs the fixes, following the rule in `proto/locationwire/v1/compact_fixes.proto` exactly.
    /// Refuses to expand more than `limit` fixes, checked before anything is allocated.
    public func fixes(limit: Int = CompactFixes.defaultFixLimit) throws(CompactFixesError) -> [LocationFix] {
        let fixCount = Int(count)
        guard fixCount <= limit else {
            throw CompactFixesError(
                code: .tooManyFixes, message: "count \(fixCount) exceeds the limit of \(limit) fixes")
        }
        // Check every column before allocating the rows, so malformed input costs no memory.
        for column in FixColumnKind.allColumns {
            if let encoded = self[column: column.fieldNumber] {
                try encoded.checkShape(fixCount: fixCount, column: column)
            }
        }
        var fixes = [LocationFix](repeating: LocationFix(), count: fixCount)
        var values: [Int64] = []
        for column in FixColumnKind.allColumns {
            guard let encoded = self[column: column.fieldNumber] else { continue }
            values.removeAll(keepingCapacity: true)
            encoded.expandValues(into: &values)
            if values.isEmpty { continue }
            if encoded.presence.isEmpty {
                for index in 0..<fixCount {
                    try column.assign(values[index], to: &fixes[index], fixIndex: index)
                }
            } else {
                var next = 0
                for index in 0..<fixCount where encoded.presence[index / 8] & (1 << UInt8(index % 8)) != 0 {
                    try column.assign(values[next], to: &fixes[index], fixIndex: index)
                    next += 1
                }
            }
        }
        return fixes
    }
}

extension FixColumn {
    /// The canonical column for `values` (all present): plain deltas, or run-length coded deltas when that is
    /// strictly shorter on the wire.
    static func canonical(values: [Int64]) -> FixColumn {
        var deltas: [Int64] = []
        deltas.reserveCapacity(values.count)
        var previous: Int64 = 0
        for value in values {
            deltas.append(value &- previous)
            previous = value
        }
        var runDeltas: [Int64] = []
        var runLengths: [UInt32] = []
        for delta in deltas {
            if runDeltas.last == delta, runLengths[runLengths.count - 1] < UInt32.max {
                runLengths[runLengths.count - 1] += 1
            } else {
                runDeltas.append(delta)
                runLengths.append(1)
            }
        }
        let plainSize = packedSize(deltas.lazy.map { ZigZag.encode($0) })
        let runSize = packedSize(runDeltas.lazy.map { ZigZag.encode($0) }) + packedSize(runLengths.lazy.map { UInt64($0) })
        if runSize < plainSize {
            return FixColumn(deltas: runDeltas, runLengths: runLengths)
        }
        return FixColumn(deltas: deltas)
    }

    /// Bytes a packed field of these varints takes: key, length, payload; 0 when empty.
    private static func packedSize(_ values: some Sequence<UInt64>) -> Int {
        var payload = 0
        for value in values { payload += Varint.encodedSize(of: value) }
        return payload == 0 ? 0 : 1 + Varint.encodedSize(of: UInt64(payload)) + payload
    }

    /// The number of steps (values) the column expands to, or an error when its shape is invalid.
    func checkShape(fixCount: Int, column: FixColumnKind) throws(CompactFixesError) {
        var steps = deltas.count
        if !runLengths.isEmpty {
            guard runLengths.count == deltas.count else {
                throw CompactFixesError(
                    code: .runLengthsMismatch, fieldNumber: column.fieldNumber,
                    message: "\(runLengths.count) run lengths for \(deltas.count) deltas")
            }
            steps = 0
            for length in runLengths {
                guard length > 0 else {
                    throw CompactFixesError(
                        code: .runLengthsMismatch, fieldNumber: column.fieldNumber, message: "a run length is 0")
                }
                steps += Int(length)
                // Checked on every run so that a hostile run length cannot make the sum overflow.
                guard steps <= fixCount else { break }
            }
        }
        guard steps <= fixCount else {
            throw CompactFixesError(
                code: .columnTooLong, fieldNumber: column.fieldNumber,
                message: "the column holds more values than the \(fixCount) fixes")
        }
        if presence.isEmpty {
            guard steps == 0 || steps == fixCount else {
                throw CompactFixesError(
                    code: .presenceMismatch, fieldNumber: column.fieldNumber,
                    message: "\(steps) values for \(fixCount) fixes but no presence bitmap")
            }
            return
        }
        guard column.hasPresence else {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.fieldNumber,
                message: "the field has no presence, so its column must not carry a presence bitmap")
        }
        guard presence.count == (fixCount + 7) / 8 else {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.fieldNumber,
                message: "presence has \(presence.count) bytes, \(fixCount) fixes need \((fixCount + 7) / 8)")
        }
        var setBits = 0
        for byte in presence { setBits += byte.nonzeroBitCount }
        if fixCount % 8 != 0, presence[presence.count - 1] >> UInt8(fixCount % 8) != 0 {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.fieldNumber, message: "presence has bits set past the last fix")
        }
        guard setBits == steps else {
            throw CompactFixesError(
                code: .presenceMismatch, fieldNumber: column.fieldNumber,
                message: "presence marks \(setBits) fixes but the column holds \(steps) values")
        }
    }

    /// Appends the column's values to `values`: expands runs, then sums deltas with wrapping 64-bit arithmetic.
    /// The shape must have been checked.
    func expandValues(into values: inout [Int64]) {
        var current: Int64 = 0
        if runLengths.isEmpty {
            values.reserveCapacity(deltas.count)
            for delta in deltas {
                current = current &+ delta
                values.append(current)
            }
        } else {
            for (delta, length) in zip(deltas, runLengths) {
                for _ in 0..<length {
                    current = current &+ delta
                    values.append(current)
                }
            }
        }
    }
}

/// How each LocationFix field maps to a column of 64-bit integers.
struct FixColumnKind: Sendable {
    /// The LocationFix field number, which is also the column's field number in CompactFixes.
    let fieldNumber: Int
    /// Explicit presence (the column may carry a presence bitmap).
    let hasPresence: Bool

    static let allColumns: [FixColumnKind] = (1...CompactFixes.columnCount).map { number in
        FixColumnKind(
            fieldNumber: number, hasPresence: LocationFix.schema.field(number: UInt32(number))?.label == .optional)
    }

    /// The field's value as a column integer: 64-bit unsigned fields and the float by bit pattern; nil when the
    /// field is absent (explicit presence only; implicit fields always have a value).
    func value(of fix: LocationFix) -> Int64? {
        switch fieldNumber {
        case 1: Int64(bitPattern: fix.sequence)
        case 2: fix.timeMs
        case 3: fix.latitudeE7.map(Int64.init)
        case 4: fix.longitudeE7.map(Int64.init)
        case 5: fix.horizontalAccuracyCm.map(Int64.init)
        case 6: fix.altitudeCm.map(Int64.init)
        case 7: fix.verticalAccuracyCm.map(Int64.init)
        case 8: fix.speedCmS.map(Int64.init)
        case 9: fix.speedAccuracyCmS.map(Int64.init)
        case 10: fix.courseCdeg.map(Int64.init)
        case 11: fix.courseAccuracyCdeg.map(Int64.init)
        case 12: fix.elapsedRealtimeMs.map { Int64(bitPattern: $0) }
        case 13: Int64(fix.reason.rawValue)
        case 14: Int64(fix.source.rawValue)
        case 15: fix.batteryPercent.map(Int64.init)
        case 16: Int64(fix.batteryState.rawValue)
        case 17: Int64(fix.motionActivity.rawValue)
        case 18: fix.motionConfidencePct.map(Int64.init)
        case 19: fix.floor.map(Int64.init)
        case 20: fix.ageMs.map(Int64.init)
        case 21: fix.isMock ? 1 : 0
        case 22: fix.ellipsoidalHeightCm.map(Int64.init)
        case 23: fix.pressureHpaBits.map(Int64.init)
        default: nil
        }
    }

    /// Stores a column integer into the fix, checking that it fits the field's type.
    func assign(_ value: Int64, to fix: inout LocationFix, fixIndex: Int) throws(CompactFixesError) {
        func signed32() throws(CompactFixesError) -> Int32 {
            guard let narrow = Int32(exactly: value) else { throw outOfRange(value, fixIndex: fixIndex) }
            return narrow
        }
        func unsigned32() throws(CompactFixesError) -> UInt32 {
            guard let narrow = UInt32(exactly: value) else { throw outOfRange(value, fixIndex: fixIndex) }
            return narrow
        }
        switch fieldNumber {
        case 1: fix.sequence = UInt64(bitPattern: value)
        case 2: fix.timeMs = value
        case 3: fix.latitudeE7 = try signed32()
        case 4: fix.longitudeE7 = try signed32()
        case 5: fix.horizontalAccuracyCm = try unsigned32()
        case 6: fix.altitudeCm = try signed32()
        case 7: fix.verticalAccuracyCm = try unsigned32()
        case 8: fix.speedCmS = try unsigned32()
        case 9: fix.speedAccuracyCmS = try unsigned32()
        case 10: fix.courseCdeg = try unsigned32()
        case 11: fix.courseAccuracyCdeg = try unsigned32()
        case 12: fix.elapsedRealtimeMs = UInt64(bitPattern: value)
        case 13: fix.reason = FixReason(rawValue: try signed32())
        case 14: fix.source = FixSource(rawValue: try signed32())
        case 15: fix.batteryPercent = try unsigned32()
        case 16: fix.batteryState = BatteryState(rawValue: try signed32())
        case 17: fix.motionActivity = MotionActivity(rawValue: try signed32())
        case 18: fix.motionConfidencePct = try unsigned32()
        case 19: fix.floor = try signed32()
        case 20: fix.ageMs = try unsigned32()
        case 21:
            guard value == 0 || value == 1 else { throw outOfRange(value, fixIndex: fixIndex) }
            fix.isMock = value == 1
        case 22: fix.ellipsoidalHeightCm = try signed32()
        case 23: fix.pressureHpaBits = try unsigned32()
        default: break
        }
    }

    private func outOfRange(_ value: Int64, fixIndex: Int) -> CompactFixesError {
        CompactFixesError(
            code: .valueOutOfRange, fieldNumber: fieldNumber, fixIndex: fixIndex,
            message: "\(value) does not fit the field's type")
    }
}
