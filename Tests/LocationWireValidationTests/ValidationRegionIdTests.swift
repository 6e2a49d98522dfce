import LocationWire
import LocationWireRandom
import LocationWireSuiteSource
import LocationWireValidation
import Testing

/// The rules that look regions up by id (`duplicate-region-id`, the parent's level, `region-removed-and-upserted`)
/// against a model that uses a dictionary, as the rules did before their fingerprint scan: small and large
/// assignments (the scan stops at 64 regions), and ids equal as strings but not as bytes.
@Suite struct ValidationRegionIdTests {
    /// "b:K" and "b:\u{212A}" (KELVIN SIGN) are equal strings, as are the two spellings of "c:é".
    static let pool = ["a:1", "a:2", "b:K", "b:\u{212A}", "c:\u{E9}", "c:e\u{301}", "d:3", ""]

    @Test(arguments: [0, 1, 2, 5, 20, 63, 64, 65, 90])
    func lookupsMatchADictionary(regionCount: Int) {
        var random = SeededRandom(seed: 77 + UInt64(regionCount))
        for _ in 0..<30 {
            var assignment = Valid.assignment
            assignment.mode = .delta
            assignment.baseVersion = 1
            assignment.slotBudget = 1000
            // Mostly ASCII pools, so that the scan runs; sometimes the whole pool.
            let pool = random.index(3) == 0 ? Self.pool : ["a:1", "a:2", "d:3", ""]
            assignment.regions = (0..<regionCount).map { _ in
                var region = Valid.region(pool[random.index(pool.count)])
                region.parentId = pool[random.index(pool.count)]
                return region
            }
            assignment.removedRegionIds = (0..<random.index(4)).map { _ in pool[random.index(pool.count)] }
            let found = Set(
                assignment.validate().filter {
                    [.duplicateRegionId, .parentLevelNotCoarser, .regionRemovedAndUpserted].contains($0.code)
                }.map { "\($0.code) \($0.path)" })
            #expect(found == Self.model(assignment))
        }
    }

    /// An assignment skips the check of a parent id equal to the previous well-formed one: its `parent_id`
    /// violations must be exactly those of its regions validated one by one, with well-formed and malformed parent
    /// ids repeated, alternating and equal as strings but not as bytes.
    @Test func parentIdChecksMatchRegionsAlone() {
        let pool = ["a:1", "a:1", "Bad", "Bad", "b:K", "b:\u{212A}", "x y:z", "c:e\u{301}", ""]
        var random = SeededRandom(seed: 391)
        for _ in 0..<200 {
            var assignment = Valid.assignment
            assignment.slotBudget = 1000
            assignment.regions = (0..<random.index(12)).map { index in
                var region = Valid.region("r:\(index)")
                region.parentId = pool[random.index(pool.count)]
                return region
            }
            let found = assignment.validate().filter { $0.path.description.hasSuffix(".parent_id") }
                .map { "\($0.code) \($0.path)" }
            let alone = assignment.regions.enumerated().flatMap { index, region in
                region.validate().filter { $0.path.description.hasSuffix(".parent_id") }.map {
                    "\($0.code) RegionAssignment.regions[\(index)].\($0.path.description.dropFirst("Region.".count))"
                }
            }
            #expect(found == alone)
        }
    }

    /// Every region is at level SITE, so each one whose parent is found breaks `parent-level-not-coarser`.
    static func model(_ assignment: RegionAssignment) -> Set<String> {
        var expected: Set<String> = []
        var lastIndexById: [String: Int] = [:]
        for (index, region) in assignment.regions.enumerated() {
            if lastIndexById[region.id] != nil {
                expected.insert("\(Violation.Code.duplicateRegionId) RegionAssignment.regions[\(index)].id")
            }
            lastIndexById[region.id] = index
        }
        for (index, region) in assignment.regions.enumerated()
        where !region.parentId.isEmpty && region.parentId != region.id && lastIndexById[region.parentId] != nil {
            expected.insert(
                "\(Violation.Code.parentLevelNotCoarser) RegionAssignment.regions[\(index)].parent_id")
        }
        var removed: Set<String> = []
        for (index, id) in assignment.removedRegionIds.enumerated() {
            if lastIndexById[id] != nil {
                expected.insert(
                    "\(Violation.Code.regionRemovedAndUpserted) RegionAssignment.removed_region_ids[\(index)]")
            }
            if !removed.insert(id).inserted {
                expected.insert("\(Violation.Code.duplicateRegionId) RegionAssignment.removed_region_ids[\(index)]")
            }
        }
        return expected
    }
}
