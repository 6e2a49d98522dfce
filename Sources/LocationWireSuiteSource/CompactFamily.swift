import LocationWire
import LocationWireConformance
import LocationWireInspection
import LocationWireSimulation

/// Family (e): the compact, columnar form of fixes. Rows to the canonical columns (LocationBatch input, the
/// expected CompactFixes), columns to rows (CompactFixes input, the expected rows), and every reconstruction
/// error. Implementations without the compact form opt out.
enum CompactFamily: VectorFamily {
    static let name = "compact"
    static let description = """
        Compact fixes: LocationFix rows to canonical CompactFixes columns (run-length coding only where shorter, \
        presence bitmaps only for partial columns) and back, exactly, with every reconstruction error of \
        compact_fixes.proto, hostile counts and run lengths included.
        """

    static var sections: [VectorFamilySection] { [rowsAndColumns, nonCanonical, errors] }

    /// Rows to columns and back for simulated traces and hand-made edge cases.
    static func rowsAndColumns(_ builder: inout VectorBuilder) {
        var simulatedRows: [(String, [LocationFix])] = []
        for (scenario, seed) in [
            (TraceSimulator.Scenario.walk, 1 as UInt64), (.drive, 2), (.stationary, 3), (.urbanCanyon, 4),
            (.clockJump, 5),
        ] {
            var simulator = TraceSimulator(scenario: scenario, seed: seed)
            simulatedRows.append((scenario.rawValue, simulator.fixes(40)))
        }
        var partial = (0..<10).map { _ in LocationFix() }
        partial[0].speedCmS = 0
        partial[9].speedCmS = 5
        partial[3].isMock = true
        partial[5].pressureHpaBits = 0x7FC0_0001
        var extremes = [LocationFix(), LocationFix(), LocationFix()]
        extremes[0].sequence = .max
        extremes[1].timeMs = .min
        extremes[2].timeMs = .max
        extremes[0].latitudeE7 = .min
        extremes[1].latitudeE7 = .max
        extremes[2].reason = FixReason(rawValue: -1)
        let sampleRow = try! LocationFix(serializedBytes: SampleMessages.full(LocationFix.schema))
        let cases: [(String, [LocationFix], String)] =
            simulatedRows.map { ($0.0, $0.1, "40 simulated \($0.0) fixes at 1 Hz") } + [
                ("empty", [], "no fixes: an empty CompactFixes"),
                ("single-full-fix", [sampleRow], "one fix with every field set"),
                ("partial-presence", partial, "fields present in some fixes only: presence bitmaps"),
                ("extremes", extremes, "64-bit and 32-bit extremes: deltas wrap in 64-bit arithmetic"),
                (
                    "all-defaults", [LocationFix(), LocationFix()],
                    "fixes with nothing set: every column absent, count 2"
                ),
            ]
        for (name, rows, what) in cases {
            var batch = LocationBatch()
            batch.fixes = rows
            let compact = try! CompactFixes(fixes: rows)
            var rowsOnly = LocationBatch()
            rowsOnly.fixes = rows
            let flags =
                ["compact"] + (compact.columns.contains { $0?.runLengths.isEmpty == false } ? ["run-length"] : [])
                + (compact.columns.contains { $0?.presence.isEmpty == false } ? ["presence-bitmap"] : [])
            builder.add(
                Vector(
                    id: "compact.rows-to-columns.\(name)", messageType: VectorBuilder.fullName("LocationBatch"),
                    inputHex: Hex.encode(batch.serializedBytes()), result: .valid,
                    compactHex: Hex.encode(compact.serializedBytes()),
                    flags: flags, comment: "Rows to columns: \(what)."))
            builder.add(
                Vector(
                    id: "compact.columns-to-rows.\(name)", messageType: VectorBuilder.fullName("CompactFixes"),
                    inputHex: Hex.encode(compact.serializedBytes()), result: .valid,
                    rowsHex: Hex.encode(rowsOnly.serializedBytes()),
                    flags: flags, comment: "Columns to rows: \(what)."))
        }
        var unknownRow = LocationFix()
        unknownRow.unknownFields = UnknownFields(rawBytes: [0x98, 0x06, 0x01])
        var unknownBatch = LocationBatch()
        unknownBatch.fixes = [LocationFix(), unknownRow]
        builder.add(
            Vector(
                id: "compact.rows-to-columns.unknown-fields", messageType: VectorBuilder.fullName("LocationBatch"),
                inputHex: Hex.encode(unknownBatch.serializedBytes()), result: .valid,
                compactError: "compact-unknown-fields",
                flags: ["compact", "unknown-fields"],
                comment: "A fix with an unknown field cannot become columns; it stays a row."))
    }

    /// Columns that are valid but not canonical still give the right rows.
    static func nonCanonical(_ builder: inout VectorBuilder) {
        func rowsCase(_ name: String, _ compact: CompactFixes, _ what: String, flags: [String] = []) {
            var batch = LocationBatch()
            batch.fixes = try! compact.fixes()
            builder.add(
                Vector(
                    id: "compact.columns-to-rows.\(name)", messageType: VectorBuilder.fullName("CompactFixes"),
                    inputHex: Hex.encode(compact.serializedBytes()), result: .valid,
                    rowsHex: Hex.encode(batch.serializedBytes()),
                    flags: ["compact"] + flags, comment: what))
        }
        var example = CompactFixes()
        example.count = 4
        example[column: 1] = FixColumn(deltas: [7, 1], runLengths: [1, 3])
        example[column: 8] = FixColumn(deltas: [0, 150], presence: [0b1001])
        rowsCase(
            "spec-worked-example", example,
            "The worked example of proto/README.md: sequences 7, 8, 9, 10; speeds 0, -, -, 150.",
            flags: ["run-length", "presence-bitmap"])
        var runs = CompactFixes()
        runs.count = 3
        runs[column: 2] = FixColumn(deltas: [5, 1, 1], runLengths: [1, 1, 1])
        rowsCase(
            "runs-of-one", runs,
            "Run-length coding with runs of 1 (longer than plain, so not canonical) still reconstructs.",
            flags: ["run-length"])
        var fullBitmap = CompactFixes()
        fullBitmap.count = 3
        fullBitmap[column: 3] = FixColumn(deltas: [1, 1, 1], presence: [0b111])
        rowsCase(
            "full-presence-bitmap", fullBitmap,
            "A presence bitmap with every bit set (not canonical) is consistent and reconstructs.",
            flags: ["presence-bitmap"])
        var zeros = CompactFixes()
        zeros.count = 2
        zeros[column: 13] = FixColumn(deltas: [0, 0])
        rowsCase(
            "explicit-zero-column", zeros,
            "A column of zeros for a field without presence (canonically absent) reconstructs to zeros.")
        var wrap = CompactFixes()
        wrap.count = 2
        wrap[column: 1] = FixColumn(deltas: [-1, 1])
        rowsCase("wrapping-sum", wrap, "sequence deltas -1, +1: 2^64-1 then 0, by wrapping 64-bit arithmetic.")
        var floatBits = CompactFixes()
        floatBits.count = 2
        floatBits[column: 23] = FixColumn(deltas: [Int64(Float(1013.25).bitPattern), 1])
        rowsCase(
            "float-bit-patterns", floatBits, "pressure_hpa holds binary32 bit patterns: 1013.25 and the next float up.")
    }

    static func errors(_ builder: inout VectorBuilder) {
        func errorCase(
            _ name: String, _ compact: CompactFixes, _ code: CompactFixesError.Code, _ what: String,
            flags: [String] = []
        ) {
            do {
                _ = try compact.fixes()
                preconditionFailure("compact.error.\(name): intended \(code), but it reconstructs")
            } catch {
                precondition(error.code == code, "compact.error.\(name): intended \(code), got \(error.code)")
            }
            builder.add(
                Vector(
                    id: "compact.error.\(name)", messageType: VectorBuilder.fullName("CompactFixes"),
                    inputHex: Hex.encode(compact.serializedBytes()), result: .valid, compactError: code.rawValue,
                    flags: ["compact"] + flags, comment: what))
        }
        func compact(_ count: UInt32, _ columns: [Int: FixColumn]) -> CompactFixes {
            var compact = CompactFixes()
            compact.count = count
            for (number, column) in columns { compact[column: number] = column }
            return compact
        }
        errorCase(
            "count-beyond-limit", compact(.max, [:]), .tooManyFixes,
            "count 2^32-1 with no data: a receiver refuses to expand it rather than allocate billions of rows.",
            flags: ["hostile"])
        errorCase(
            "run-lengths-fewer-than-deltas", compact(3, [2: FixColumn(deltas: [1, 2], runLengths: [1])]),
            .runLengthsMismatch,
            "One run length for two deltas.")
        errorCase(
            "run-length-zero", compact(3, [2: FixColumn(deltas: [1, 2], runLengths: [3, 0])]), .runLengthsMismatch,
            "A run length of 0.")
        errorCase(
            "column-too-long", compact(2, [2: FixColumn(deltas: [1, 2, 3])]), .columnTooLong,
            "Three values for two fixes.")
        errorCase(
            "runs-too-long", compact(10, [2: FixColumn(deltas: [1, 1], runLengths: [.max, .max])]), .columnTooLong,
            "Runs claiming 2^33 values for 10 fixes: refused by their sum, before anything is expanded.",
            flags: ["hostile", "run-length"])
        errorCase(
            "partial-without-bitmap", compact(3, [3: FixColumn(deltas: [1, 2])]), .presenceMismatch,
            "Two latitudes for three fixes and no presence bitmap.")
        errorCase(
            "bitmap-on-field-without-presence", compact(2, [1: FixColumn(deltas: [1], presence: [0b01])]),
            .presenceMismatch,
            "A presence bitmap on sequence, which has no presence.", flags: ["presence-bitmap"])
        errorCase(
            "bitmap-wrong-size", compact(3, [3: FixColumn(deltas: [1], presence: [0b001, 0])]), .presenceMismatch,
            "A two-byte bitmap for three fixes.", flags: ["presence-bitmap"])
        errorCase(
            "bitmap-bit-count", compact(3, [3: FixColumn(deltas: [1], presence: [0b011])]), .presenceMismatch,
            "Two bits set for one value.", flags: ["presence-bitmap"])
        errorCase(
            "bitmap-bit-past-count", compact(3, [3: FixColumn(deltas: [1, 1], presence: [0b1001])]), .presenceMismatch,
            "A bit set for a fourth fix of three.", flags: ["presence-bitmap"])
        errorCase(
            "latitude-beyond-int32", compact(1, [3: FixColumn(deltas: [Int64(Int32.max) + 1])]), .valueOutOfRange,
            "A latitude of 2^31: sfixed32 cannot hold it.")
        errorCase(
            "uint32-negative", compact(1, [5: FixColumn(deltas: [-1])]), .valueOutOfRange,
            "A horizontal accuracy of -1: uint32 cannot hold it.")
        errorCase(
            "bool-two", compact(2, [21: FixColumn(deltas: [0, 2])]), .valueOutOfRange, "is_mock = 2: a bool is 0 or 1.")
        errorCase(
            "enum-beyond-int32", compact(1, [13: FixColumn(deltas: [Int64(Int32.min) - 1])]), .valueOutOfRange,
            "A reason below -2^31: enums are 32-bit.")
        errorCase(
            "float-bits-beyond-32", compact(1, [23: FixColumn(deltas: [1 << 32])]), .valueOutOfRange,
            "pressure_hpa bits of 2^32: a binary32 pattern has 32 bits.")
    }
}
