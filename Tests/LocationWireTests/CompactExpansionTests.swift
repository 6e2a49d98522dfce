import LocationWire
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// The fast expansion of a compact batch to rows (`CompactFixes.fixes(limit:)`) must give exactly what the first,
/// column-by-column implementation (`referenceFixes(limit:)`) gives: the same rows, or the same error.
@Suite struct CompactExpansionTests {
    /// A value for a column: in range for every field in a tame batch (0 or 1 for the bool, small and
    /// non-negative otherwise); in a wild batch also the edges of 32-bit types and any 64-bit value, which
    /// usually take a column out of its field's range.
    static func value(_ random: inout SeededRandom, field: LocationFix.Field, wild: Bool) -> Int64 {
        if field == .isMock { return Int64(random.below(wild ? 3 : 2)) }
        switch wild ? random.below(10) : 9 {
        case 0: return Int64(bitPattern: random.next())
        case 1: return [Int64(Int32.max), Int64(Int32.min), Int64(UInt32.max) + 1, -1, 2][random.below(5)]
        default: return Int64(random.below(4) * 250)  // repeats, so that runs occur
        }
    }

    /// A column whose shape fits `fixCount` (plain or run-length coded deltas, with or without presence), and
    /// in a wild batch sometimes does not, so the shape errors are compared too.
    static func column(
        _ random: inout SeededRandom, field: LocationFix.Field, fixCount: Int, wild: Bool
    ) -> FixColumn {
        var marked = Array(0..<fixCount)
        var presence: [UInt8] = []
        if field.declaration.label == .optional, fixCount > 0, random.chance(50) {
            marked = (0..<fixCount).filter { _ in random.chance(60) }
            presence = [UInt8](repeating: 0, count: (fixCount + 7) / 8)
            for fix in marked { presence[fix / 8] |= 1 << UInt8(fix % 8) }
        }
        var steps = marked.count
        if wild, random.chance(5) { steps = max(0, steps + random.below(3) - 1) }  // a shape error
        var previous: Int64 = 0
        let deltas = (0..<steps).map { _ -> Int64 in
            let next = value(&random, field: field, wild: wild)
            defer { previous = next }
            return next &- previous
        }
        guard random.chance(40) else { return FixColumn(deltas: deltas, presence: presence) }
        // Run-length coded: equal neighbours joined, not always into maximal runs (the decoder accepts both).
        var runDeltas: [Int64] = []
        var runLengths: [UInt32] = []
        for delta in deltas {
            if runDeltas.last == delta, random.chance(80) {
                runLengths[runLengths.count - 1] += 1
            } else {
                runDeltas.append(delta)
                runLengths.append(1)
            }
        }
        return FixColumn(deltas: runDeltas, runLengths: runLengths, presence: presence)
    }

    static func randomCompact(seed: UInt64) -> CompactFixes {
        var random = SeededRandom(seed: seed)
        var compact = CompactFixes()
        let wild = random.chance(40)
        // Mostly small; a quarter long enough to span several of the expansion's blocks of 64 rows, so that runs
        // and running sums carry across block boundaries.
        let fixCount = random.chance(25) ? random.below(300) : random.below(70)
        compact.count = UInt32(fixCount)
        for field in LocationFix.Field.allCases where random.chance(70) {
            compact[column: Int(field.number)] = column(&random, field: field, fixCount: fixCount, wild: wild)
        }
        return compact
    }

    static func expansion(
        _ body: () throws(CompactFixesError) -> [LocationFix]
    ) -> Result<
        [LocationFix], CompactFixesError
    > {
        do throws(CompactFixesError) { return .success(try body()) } catch { return .failure(error) }
    }

    @Test func fastExpansionEqualsTheReferenceOnRandomCompactBatches() {
        var expanded = 0
        var refused = 0
        for seed in 0..<3000 as Range<UInt64> {
            let compact = Self.randomCompact(seed: seed)
            let fast = Self.expansion { () throws(CompactFixesError) in try compact.fixes() }
            let reference = Self.expansion { () throws(CompactFixesError) in try compact.referenceFixes() }
            #expect(fast == reference, "seed \(seed)")
            if case .success = reference { expanded += 1 } else { refused += 1 }
        }
        // Both outcomes must be well represented, or the comparison proves little.
        #expect(expanded > 1000)
        #expect(refused > 500)
    }

    @Test func fastExpansionEqualsTheReferenceOnRowsMadeCompact() throws {
        for seed in 0..<100 as Range<UInt64> {
            let rows = try CompactFixesTests.randomRows(seed: seed, count: Int(seed % 41))
            let compact = try CompactFixes(fixes: rows)
            #expect(try compact.fixes() == compact.referenceFixes())
            #expect(try compact.fixes() == rows)
        }
    }
}

extension SeededRandom {
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    fileprivate mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
