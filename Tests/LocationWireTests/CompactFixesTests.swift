import LocationWire
import LocationWireSimulation
import LocationWireTestSupport
import Testing

@Suite struct CompactFixesTests {
    /// Random rows from the schema (every field, extreme values, random presence), without unknown fields.
    static func randomRows(seed: UInt64, count: Int) throws -> [LocationFix] {
        var random = RandomCanonicalMessages(seed: seed)
        return try (0..<count).map { _ in try LocationFix(serializedBytes: random.message(LocationFix.schema)) }
    }

    @Test func rowsSurviveTheCompactFormExactly() throws {
        for seed in 0..<200 as Range<UInt64> {
            let rows = try Self.randomRows(seed: seed, count: Int(seed % 23))
            let compact = try CompactFixes(fixes: rows)
            #expect(try compact.fixes() == rows)
            // Through the wire, too.
            let decoded = try CompactFixes(serializedBytes: compact.serializedBytes())
            #expect(decoded == compact)
            #expect(try decoded.fixes() == rows)
        }
    }

    // §compact-canonical: equal fixes give equal bytes.
    @Test func theCanonicalFormIsAFunctionOfTheRows() throws {
        for seed in 1000..<1100 as Range<UInt64> {
            let rows = try Self.randomRows(seed: seed, count: 12)
            let compact = try CompactFixes(fixes: rows)
            #expect(try CompactFixes(fixes: compact.fixes()).serializedBytes() == compact.serializedBytes())
        }
    }

    // §compact-canonical: run lengths only where they save bytes, and then maximal runs.
    @Test func constantStepsAreRunLengthCodedAndJitteryOnesAreNot() throws {
        let rows = (0..<100).map { index -> LocationFix in
            var fix = LocationFix()
            fix.sequence = 1000 + UInt64(index)
            fix.timeMs = 1_700_000_000_000 + Int64(index) * 1000
            fix.latitudeE7 = 450_000_000 + Int32(index * index % 97)
            return fix
        }
        let compact = try CompactFixes(fixes: rows)
        #expect(compact[column: 1] == FixColumn(deltas: [1000, 1], runLengths: [1, 99]))
        #expect(compact[column: 2] == FixColumn(deltas: [1_700_000_000_000, 1000], runLengths: [1, 99]))
        #expect(compact[column: 3]?.runLengths == [])
        #expect(compact[column: 4] == nil, "no fix has a longitude")
        #expect(compact[column: 21] == nil, "is_mock is false everywhere")
    }

    @Test func partialPresenceGetsABitmap() throws {
        var rows = (0..<10).map { _ in LocationFix() }
        rows[0].speedCmS = 0
        rows[9].speedCmS = 5
        let compact = try CompactFixes(fixes: rows)
        #expect(compact[column: 8] == FixColumn(deltas: [0, 5], presence: [0x01, 0x02]))
        #expect(try compact.fixes() == rows)
    }

    @Test func theWorkedExampleOfTheSpecReconstructs() throws {
        // proto/README.md: count 4; sequence runs [7 x1, 1 x3]; speed deltas [0, 150] with presence 0b1001.
        var compact = CompactFixes()
        compact.count = 4
        compact[column: 1] = FixColumn(deltas: [7, 1], runLengths: [1, 3])
        compact[column: 8] = FixColumn(deltas: [0, 150], presence: [0b1001])
        let rows = try compact.fixes()
        #expect(rows.map(\.sequence) == [7, 8, 9, 10])
        #expect(rows.map(\.speedCmS) == [0, nil, nil, 150])
    }

    @Test func sixtyFourBitValuesWrapExactly() throws {
        var rows = [LocationFix(), LocationFix(), LocationFix()]
        rows[0].sequence = .max
        rows[1].sequence = 0
        rows[2].sequence = 1 << 63
        rows[0].timeMs = .min
        rows[1].timeMs = .max
        rows[2].timeMs = -1
        #expect(try CompactFixes(fixes: rows).fixes() == rows)
    }

    @Test func fixesWithUnknownFieldsStayRows() throws {
        let fix = try LocationFix(serializedBytes: bytes("0801 9a0601ff"))
        #expect(throws: CompactFixesError.self) { try CompactFixes(fixes: [fix]) }
    }

    private func reconstructionError(
        _ compact: CompactFixes, limit: Int = CompactFixes.defaultFixLimit
    ) -> CompactFixesError.Code? {
        do {
            _ = try compact.fixes(limit: limit)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func malformedColumnsAreRejected() {
        var compact = CompactFixes()
        compact.count = 3
        compact[column: 1] = FixColumn(deltas: [1, 2], runLengths: [1])
        #expect(reconstructionError(compact) == .runLengthsMismatch)
        compact[column: 1] = FixColumn(deltas: [1, 2], runLengths: [1, 0])
        #expect(reconstructionError(compact) == .runLengthsMismatch)
        compact[column: 1] = FixColumn(deltas: [1, 2, 3, 4])
        #expect(reconstructionError(compact) == .columnTooLong)
        compact[column: 1] = FixColumn(deltas: [1, 2])
        #expect(reconstructionError(compact) == .presenceMismatch, "2 of 3 values and no bitmap")
        compact[column: 1] = FixColumn(deltas: [1, 2], presence: [0b011])
        #expect(reconstructionError(compact) == .presenceMismatch, "sequence has no presence")
        compact[column: 1] = nil
        compact[column: 3] = FixColumn(deltas: [1, 2], presence: [0b111])
        #expect(reconstructionError(compact) == .presenceMismatch, "three bits, two values")
        compact[column: 3] = FixColumn(deltas: [1, 2], presence: [0b1011])
        #expect(reconstructionError(compact) == .presenceMismatch, "a bit past the last fix")
        compact[column: 3] = FixColumn(deltas: [1, 2], presence: [0b011, 0])
        #expect(reconstructionError(compact) == .presenceMismatch, "bitmap too long")
        compact[column: 3] = FixColumn(deltas: [Int64(Int32.max), 1], presence: [0b011])
        #expect(reconstructionError(compact) == .valueOutOfRange)
        compact[column: 3] = nil
        compact[column: 21] = FixColumn(deltas: [0, 2, -1])
        #expect(reconstructionError(compact) == .valueOutOfRange, "a bool is 0 or 1")
    }

    @Test func hostileCountsAndRunsAllocateNothing() {
        var compact = CompactFixes()
        compact.count = .max
        #expect(reconstructionError(compact) == .tooManyFixes)
        compact.count = 10
        // Runs that claim billions of values are refused by their sum, before any value is expanded.
        compact[column: 2] = FixColumn(deltas: [1, 1, 1], runLengths: [.max, .max, .max])
        #expect(reconstructionError(compact) == .columnTooLong)
        #expect(reconstructionError(CompactFixes(), limit: 0) == nil)
    }

    /// The compact form's size target: at most 12 bytes a fix on a 1 Hz walking trace. Measured on the
    /// simulator's walking scenario with every field a phone reports (the row form of the same fixes takes about
    /// 62 bytes a fix, more than the 40 to 56 of a seven-field row because it carries the clock, battery and
    /// motion fields too).
    @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
    func aWalkingTraceTakesAtMostTwelveBytesAFix(seed: UInt64) throws {
        var simulator = TraceSimulator(scenario: .walk, seed: seed)
        let rows = simulator.fixes(1000)
        var rowBatch = LocationBatch()
        rowBatch.fixes = rows
        var compactBatch = LocationBatch()
        compactBatch.compactFixes = try CompactFixes(fixes: rows)
        let rowBytesPerFix = Double(rowBatch.serializedSize) / 1000
        let compactBytesPerFix = Double(compactBatch.serializedSize) / 1000
        #expect(rowBytesPerFix > 5 * compactBytesPerFix, "row form: \(rowBytesPerFix) B/fix")
        #expect(compactBytesPerFix <= 12, "compact form: \(compactBytesPerFix) B/fix")
        #expect(try compactBatch.compactFixes!.fixes() == rows)
    }
}
