import LocationWire
import LocationWireSession
import Testing

/// Applying assignments on the device, rule by rule.
struct HeldAssignmentTests {
    static func region(_ id: String, parent: String = "") -> Region {
        var region = Region()
        region.id = id
        region.parentId = parent
        return region
    }

    static func full(_ version: UInt64, _ ids: [String], budget: UInt32 = 20) -> RegionAssignment {
        var assignment = RegionAssignment()
        assignment.assignmentVersion = version
        assignment.mode = .fullReplacement
        assignment.regions = ids.map { region($0) }
        assignment.slotBudget = budget
        assignment.datum = .wgs84
        assignment.expiresAtMs = 1_000 * Int64(version)
        return assignment
    }

    static func delta(
        _ version: UInt64, base: UInt64, upsert: [String] = [], remove: [String] = [], budget: UInt32 = 20
    ) -> RegionAssignment {
        var assignment = full(version, upsert, budget: budget)
        assignment.mode = .delta
        assignment.baseVersion = base
        assignment.removedRegionIds = remove
        return assignment
    }

    @Test("§assignment-stale: a version not above the held one is ignored, whatever its mode")
    func staleIsIgnored() {
        var held = HeldAssignment()
        #expect(held.apply(Self.full(5, ["a:1"])) == nil)
        #expect(held.apply(Self.full(5, ["a:2"])) == .stale)
        #expect(held.apply(Self.full(4, ["a:2"])) == .stale)
        #expect(held.apply(Self.delta(3, base: 2, upsert: ["a:2"])) == .stale)
        #expect(Set(held.regions.keys) == ["a:1"])
    }

    @Test("§delta-base: a delta applies only to the version held; otherwise a full assignment is requested")
    func deltaBase() {
        var held = HeldAssignment()
        #expect(held.apply(Self.delta(2, base: 1, upsert: ["a:1"])) == .baseNotHeld)
        #expect(held.apply(Self.full(1, ["a:1", "a:2"])) == nil)
        #expect(held.apply(Self.delta(3, base: 2, upsert: ["a:3"])) == .baseNotHeld)
        #expect(HeldAssignment.Refusal.baseNotHeld.requestsFullAssignment)
        #expect(held.apply(Self.delta(2, base: 1, upsert: ["a:3"], remove: ["a:1"])) == nil)
        #expect(Set(held.regions.keys) == ["a:2", "a:3"])
    }

    @Test("§delta-header: a delta replaces expiry, budget and refresh, inherits monitoring, keeps the datum")
    func deltaHeader() {
        var held = HeldAssignment()
        var first = Self.full(1, ["a:1"])
        first.monitoringEnabled = false
        var refresh = RefreshPolicy()
        refresh.minIntervalMs = 60_000
        first.refresh = refresh
        #expect(held.apply(first) == nil)
        var delta = Self.delta(2, base: 1, upsert: ["a:2"], budget: 5)
        delta.expiresAtMs = 0
        #expect(held.apply(delta) == nil)
        #expect(held.expiresAtMs == 0, "not inherited: 0 means no expiry")
        #expect(held.slotBudget == 5)
        #expect(held.refresh == nil, "not inherited: the delta has none")
        #expect(held.monitoringEnabled == false, "inherited when absent")
        var otherDatum = Self.delta(3, base: 2, upsert: ["a:3"])
        otherDatum.datum = .gcj02
        #expect(held.apply(otherDatum) == .datumChanged)
        #expect(held.version == 2)
    }

    @Test("§delta-budget: a delta that would hold more regions than its budget is refused as a whole")
    func deltaBudget() {
        var held = HeldAssignment()
        #expect(held.apply(Self.full(1, ["a:1", "a:2"], budget: 3)) == nil)
        #expect(held.apply(Self.delta(2, base: 1, upsert: ["a:3", "a:4"], budget: 3)) == .overBudget)
        #expect(held.regions.count == 2 && held.version == 1)
        #expect(held.apply(Self.delta(2, base: 1, upsert: ["a:3", "a:4"], remove: ["a:1"], budget: 3)) == nil)
    }

    @Test("§refine-parent: the parent stays armed only if the refinement keeps it")
    func refinementParent() {
        var held = HeldAssignment()
        #expect(held.apply(Self.full(1, ["city:x"])) == nil)
        // A delta that adds the children keeps the parent; a full answer without it drops it.
        #expect(held.apply(Self.delta(2, base: 1, upsert: ["site:1", "site:2"])) == nil)
        #expect(held.regions["city:x"] != nil)
        #expect(held.apply(Self.full(3, ["site:1", "site:2"])) == nil)
        #expect(held.regions["city:x"] == nil)
    }
}
