import LocationWire
import LocationWireBehavior
import LocationWireCatalogues
import LocationWireGeometry
import LocationWireRandom
import Testing

/// The region planner (proto/BEHAVIOR.md "Region planning (server)") and the arming order ("Arming (device)"),
/// rule by rule, and the indexed planner against the literal scan on random catalogues.
struct PlanningTests {
    static let now: Int64 = 1_700_000_000_000

    /// A region with a circle at (latitude, longitude) in degrees.
    static func region(
        _ id: String, _ latitude: Double, _ longitude: Double, radiusM: UInt32 = 500, parent: String = "",
        priority: UInt32 = 0, expiresAtMs: Int64 = 0
    ) -> Region {
        var region = Region()
        region.id = id
        region.version = 1
        region.level = parent.isEmpty ? .city : .site
        region.parentId = parent
        region.priority = priority
        region.expiresAtMs = expiresAtMs
        region.notifyOnEntry = true
        region.circle = Circle(
            latitudeE7: RegionCatalogues.e7(latitude), longitudeE7: RegionCatalogues.e7(longitude), radiusM: radiusM)
        return region
    }

    /// Plans with both planners, checks they agree, and returns the assignment.
    static func plan(
        _ catalogue: [Region], at position: (Double, Double), budget: Int, now: Int64 = now,
        previous: RegionAssignment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> RegionAssignment {
        let latitude = RegionCatalogues.e7(position.0)
        let longitude = RegionCatalogues.e7(position.1)
        let indexed = RegionPlanner(catalogue: catalogue).plan(
            latitudeE7: latitude, longitudeE7: longitude, slotBudget: budget, nowMs: now, previous: previous)
        let scanned = RegionPlanner.planByScan(
            catalogue: catalogue, latitudeE7: latitude, longitudeE7: longitude, slotBudget: budget, nowMs: now,
            previous: previous)
        #expect(indexed == scanned, "index and scan disagree", sourceLocation: sourceLocation)
        return indexed
    }

    static func ids(_ assignment: RegionAssignment) -> [String] { assignment.regions.map(\.id) }

    static func gap(_ region: Region, _ position: (Double, Double)) -> Double {
        RegionShape(region)!.gapM(
            SpherePoint(latitudeE7: RegionCatalogues.e7(position.0), longitudeE7: RegionCatalogues.e7(position.1)))
    }

    // MARK: §plan-candidates

    @Test("§plan-candidates: expired regions take no part; expiry at now is expired, 0 and below never expire")
    func liveRegions() {
        let catalogue = [
            Self.region("a:gone", 10, 10.001, expiresAtMs: Self.now),
            Self.region("a:past", 10, 10.002, expiresAtMs: Self.now - 1),
            Self.region("a:later", 10, 10.003, expiresAtMs: Self.now + 1),
            Self.region("a:never", 10, 10.004, expiresAtMs: 0),
            Self.region("a:negative", 10, 10.005, expiresAtMs: -1),
        ]
        let assignment = Self.plan(catalogue, at: (10, 10), budget: 10)
        #expect(Set(Self.ids(assignment)) == ["a:later", "a:never", "a:negative"])
    }

    @Test("§plan-candidates: only roots and children of open regions are visible")
    func visibility() {
        let catalogue = [
            Self.region("city:in", 10, 10, radiusM: 5_000),
            Self.region("site:in-1", 10, 10.01, parent: "city:in"),
            Self.region("city:out", 10, 11, radiusM: 5_000),
            Self.region("site:out-1", 10, 11.01, parent: "city:out"),
            // A parent that names no region: a root.
            Self.region("site:orphan", 10, 10.02, parent: "city:nowhere"),
            // A grandchild of an open region whose parent is not open: not visible.
            Self.region("site:deep", 10, 10.011, parent: "site:in-1"),
        ]
        let assignment = Self.plan(catalogue, at: (10, 10), budget: 10)
        #expect(Set(Self.ids(assignment)) == ["city:in", "site:in-1", "city:out", "site:orphan"])
    }

    @Test("§plan-candidates: a region whose parent expired is a root; a cycle without a root is never visible")
    func expiredParentAndCycle() {
        let catalogue = [
            Self.region("city:old", 10, 10, radiusM: 5_000, expiresAtMs: Self.now - 10),
            Self.region("site:kept", 10, 10.3, parent: "city:old"),
            Self.region("loop:a", 10, 10, radiusM: 5_000, parent: "loop:b"),
            Self.region("loop:b", 10, 10, radiusM: 5_000, parent: "loop:a"),
        ]
        #expect(Self.ids(Self.plan(catalogue, at: (10, 10), budget: 10)) == ["site:kept"])
        // Before the parent expires the child is hidden behind a parent the device is not in.
        let earlier = Self.plan(catalogue, at: (10, 11), budget: 10, now: Self.now - 100)
        #expect(Self.ids(earlier) == ["city:old"])
    }

    @Test(
        "§plan-candidates on an unclean catalogue: the first of a duplicated id, no circle-less regions"
    )
    func uncleanCatalogue() {
        var noCircle = Self.region("city:shapeless", 10, 10)
        noCircle.circle = nil
        let catalogue = [
            Self.region("a:twice", 10, 10, priority: 1), Self.region("a:twice", 10, 10.001, priority: 7),
            noCircle, Self.region("site:under-shapeless", 10, 10.002, parent: "city:shapeless"),
        ]
        let assignment = Self.plan(catalogue, at: (10, 10), budget: 10)
        #expect(Self.ids(assignment) == ["a:twice", "site:under-shapeless"])
        #expect(assignment.regions[0].priority == 1)
    }

    // MARK: §plan-rank

    @Test("§plan-rank: open first, then priority, then gap, then id in byte order; the first N")
    func rankOrder() {
        let catalogue = [
            Self.region("z:open-low", 0, 0, radiusM: 1_000, priority: 0),
            Self.region("a:far-high", 0, 1, priority: 5),
            Self.region("a:near-high", 0, 0.5, priority: 5),
            Self.region("b:near-low", 0, 0.02, priority: 1),
            // Same priority and gap: ids decide by bytes ("B" 0x42 before "a" 0x61).
            Self.region("t:a", 0.2, 0, priority: 1),
            Self.region("t:B", -0.2, 0, priority: 1),
        ]
        #expect(Self.gap(catalogue[4], (0, 0)) == Self.gap(catalogue[5], (0, 0)))
        let assignment = Self.plan(catalogue, at: (0, 0), budget: 6)
        #expect(Self.ids(assignment) == ["z:open-low", "a:near-high", "a:far-high", "b:near-low", "t:B", "t:a"])
        #expect(Self.ids(Self.plan(catalogue, at: (0, 0), budget: 2)) == ["z:open-low", "a:near-high"])
        #expect(Self.ids(Self.plan(catalogue, at: (0, 0), budget: 0)) == [])
    }

    @Test("§plan-rank with §region-inside: a position inside the circle but outside the polygon is not open")
    func polygonDecidesOpen() {
        var shaped = Self.region("city:shaped", 0, 0, radiusM: 10_000)
        var polygon = Polygon()
        // A small triangle north-east of the centre; the centre itself is outside it.
        polygon.latitudesE7 = [RegionCatalogues.e7(0.01), RegionCatalogues.e7(0.05), RegionCatalogues.e7(0.01)]
        polygon.longitudesE7 = [RegionCatalogues.e7(0.01), RegionCatalogues.e7(0.01), RegionCatalogues.e7(0.05)]
        shaped.polygon = polygon
        let catalogue = [shaped, Self.region("site:child", 0.02, 0.02, parent: "city:shaped", priority: 9)]
        let outside = Self.plan(catalogue, at: (0, 0), budget: 5)
        #expect(Self.ids(outside) == ["city:shaped"])
        #expect(outside.regions[0].refineOnEntry)
        let inside = Self.plan(catalogue, at: (0.02, 0.02), budget: 5)
        #expect(Self.ids(inside) == ["site:child", "city:shaped"])  // both open: priority decides
    }

    // MARK: §plan-refine

    @Test("§plan-refine: refine_on_entry exactly for assigned regions with a live child that are not open")
    func refinement() {
        var flagged = Self.region("city:flagged-no-children", 0, 1)
        flagged.refineOnEntry = true
        let catalogue = [
            Self.region("city:here", 0, 0, radiusM: 5_000),
            Self.region("site:here-1", 0, 0.01, parent: "city:here"),
            Self.region("city:there", 0, 0.5, radiusM: 5_000),
            Self.region("site:there-1", 0, 0.51, parent: "city:there"),
            Self.region("city:stale", 0, -0.5, radiusM: 5_000),
            Self.region("site:stale-1", 0, -0.51, parent: "city:stale", expiresAtMs: Self.now),
            flagged,
        ]
        let assignment = Self.plan(catalogue, at: (0, 0), budget: 10)
        let refine = Dictionary(uniqueKeysWithValues: assignment.regions.map { ($0.id, $0.refineOnEntry) })
        #expect(refine["city:here"] == false)  // open
        #expect(refine["city:there"] == true)
        #expect(refine["city:stale"] == false)  // its only child expired
        #expect(refine["city:flagged-no-children"] == false)
        #expect(refine["site:here-1"] == false)
        #expect(assignment.refresh?.onRefineEntry == true)
        // Everything else is copied from the catalogue.
        var copied = assignment.regions.first { $0.id == "city:there" }!
        copied.refineOnEntry = false
        #expect(copied == catalogue[2])

        let onlyOpen = Self.plan(Array(catalogue.prefix(2)), at: (0, 0), budget: 10)
        #expect(onlyOpen.refresh?.onRefineEntry == false)
    }

    // MARK: §plan-refresh

    @Test("§plan-refresh: anchor and half the least left-out gap, clamped to 100 ... 10000000; absent otherwise")
    func refresh() {
        let near = Self.region("a:near", 0, 0.01, radiusM: 100)
        let low = Self.region("a:low-but-nearer", 0, 0.005, radiusM: 100)
        var high = Self.region("a:high-far", 0, 3, radiusM: 100)
        high.priority = 3
        let catalogue = [near, low, high]
        let position = (0.0, 0.0)
        let one = Self.plan(catalogue, at: position, budget: 1)
        #expect(Self.ids(one) == ["a:high-far"])
        // The least gap left out is the low-priority region nearest to the device, not the next in rank.
        let expected = (Self.gap(low, position) / 2).rounded(.down)
        #expect(one.refresh?.refreshDistanceM == UInt32(expected))
        #expect(one.refresh?.anchorLatitudeE7 == 0 && one.refresh?.anchorLongitudeE7 == 0)
        #expect(one.refresh?.minIntervalMs == 0)

        let all = Self.plan(catalogue, at: position, budget: 3)
        #expect(all.refresh?.refreshDistanceM == nil && all.refresh?.anchorLatitudeE7 == nil)
        #expect(all.refresh?.anchorLongitudeE7 == nil)

        // An open region left out: gap 0, clamped up to 100 m.
        let open = [Self.region("a:1", 0, 0, radiusM: 1_000), Self.region("a:2", 0, 0, radiusM: 2_000)]
        #expect(Self.plan(open, at: position, budget: 1).refresh?.refreshDistanceM == 100)
        // Half the globe away, clamped down to 10000 km.
        let antipode = [Self.region("a:1", 0, 0, radiusM: 1), Self.region("a:2", 0, 180, radiusM: 1)]
        #expect(Self.plan(antipode, at: (0, 0.001), budget: 1).refresh?.refreshDistanceM == 10_000_000)
    }

    // MARK: §plan-expiry

    @Test("§plan-expiry: header fields; expiry the earlier of a day later and the first region expiry")
    func header() {
        let catalogue = [
            Self.region("a:1", 0, 0, expiresAtMs: Self.now + 5_000),
            Self.region("a:2", 0, 0.01, expiresAtMs: Self.now + 3_000),
            Self.region("a:3", 0, 0.02, expiresAtMs: Self.now + 1_000),
        ]
        let two = Self.plan(catalogue, at: (0, 0), budget: 2)
        #expect(two.issuedAtMs == Self.now)
        #expect(two.slotBudget == 2)
        #expect(two.datum == .wgs84)
        #expect(two.monitoringEnabled == nil)
        // a:3 is left out, so it does not count.
        #expect(two.expiresAtMs == Self.now + 3_000)
        let forever = Self.plan([Self.region("a:1", 0, 0)], at: (0, 0), budget: 2)
        #expect(forever.expiresAtMs == Self.now + 86_400_000)
        let empty = Self.plan([], at: (0, 0), budget: 20)
        #expect(empty.regions.isEmpty && empty.expiresAtMs == Self.now + 86_400_000)
    }

    // MARK: §plan-delta

    @Test("§plan-delta: full without a usable previous assignment, version 1 or previous + 1")
    func fullWithoutPrevious() {
        let catalogue = [Self.region("a:1", 0, 0), Self.region("a:2", 0, 0.01)]
        let first = Self.plan(catalogue, at: (0, 0), budget: 5)
        #expect(first.mode == .fullReplacement && first.assignmentVersion == 1 && first.baseVersion == 0)
        #expect(Self.ids(first) == ["a:1", "a:2"])
        var delta = first
        delta.mode = .delta
        delta.assignmentVersion = 7
        let afterDelta = Self.plan(catalogue, at: (0, 0), budget: 5, previous: delta)
        #expect(afterDelta.mode == .fullReplacement && afterDelta.assignmentVersion == 8)
        var otherDatum = first
        otherDatum.datum = .gcj02
        let afterDatum = Self.plan(catalogue, at: (0, 0), budget: 5, previous: otherDatum)
        #expect(afterDatum.mode == .fullReplacement && afterDatum.assignmentVersion == 2)
    }

    @Test("§plan-delta: upserts in rank order, removals in byte order, delta only when smaller")
    func delta() {
        let catalogue = (0..<6).map { Self.region("a:\($0)", 0, Double($0) * 0.01, radiusM: 100) }
        let first = Self.plan(catalogue, at: (0, 0), budget: 4)
        #expect(Self.ids(first) == ["a:0", "a:1", "a:2", "a:3"])
        // Unchanged: a delta with nothing in it.
        let same = Self.plan(catalogue, at: (0, 0), budget: 4, previous: first)
        #expect(same.mode == .delta && same.baseVersion == 1 && same.assignmentVersion == 2)
        #expect(same.regions.isEmpty && same.removedRegionIds.isEmpty)
        // Moved a little: a:4 in, a:0 out; a:2 edited.
        var edited = catalogue
        edited[2].version = 2
        let moved = Self.plan(edited, at: (0, 0.025), budget: 4, previous: first)
        #expect(moved.mode == .delta && moved.baseVersion == 1)
        #expect(moved.regions.map(\.id).sorted() == ["a:2", "a:4"])
        #expect(moved.removedRegionIds == ["a:0"])
        #expect(moved.refresh != nil && moved.expiresAtMs == Self.now + 86_400_000)
        // Moved far: everything changes, so the full set is smaller than the change.
        let far = Self.plan(catalogue, at: (0, 0.05), budget: 2, previous: first)
        #expect(far.mode == .fullReplacement && far.assignmentVersion == 2 && far.removedRegionIds.isEmpty)
        #expect(Self.ids(far) == ["a:5", "a:4"])
        // Removals in byte order.
        var previous = first
        previous.regions = ["a:Z", "a:b", "a:A"].map { Self.region($0, 0, 3) } + first.regions
        let removals = Self.plan(catalogue, at: (0, 0), budget: 4, previous: previous)
        #expect(removals.mode == .delta && removals.removedRegionIds == ["a:A", "a:Z", "a:b"])
    }

    // MARK: §arm-order

    static func held(_ regions: [Region], expiresAtMs: Int64 = 0, enabled: Bool? = nil) -> RegionAssignment {
        var assignment = RegionAssignment()
        assignment.assignmentVersion = 9
        assignment.mode = .fullReplacement
        assignment.datum = .wgs84
        assignment.slotBudget = 20
        assignment.expiresAtMs = expiresAtMs
        assignment.monitoringEnabled = enabled
        assignment.regions = regions
        return assignment
    }

    @Test("§arm-order: priority, then gap when the position is known, then id; the rest fail with SLOT_LIMIT")
    func armingOrder() {
        let regions = [
            Self.region("a:far", 0, 1, priority: 1),
            Self.region("a:near", 0, 0.1, priority: 1),
            Self.region("b:high", 0, 2, priority: 4),
            Self.region("a:expired", 0, 0, priority: 9, expiresAtMs: Self.now),
            Self.region("a:A", 0, 3),
        ]
        let position = SpherePoint(latitudeE7: 0, longitudeE7: 0)
        let armed = Arming.arm(Self.held(regions), slots: 2, position: position, nowMs: Self.now)
        #expect(armed.assignmentVersion == 9)
        #expect(armed.regionIds == ["b:high", "a:near"])
        #expect(armed.failedRegionIds == ["a:far", "a:A"])
        #expect(armed.failureReasons == [.slotLimit, .slotLimit])
        // Without a position the id decides among equal priorities.
        let blind = Arming.arm(Self.held(regions), slots: 10, position: nil, nowMs: Self.now)
        #expect(blind.regionIds == ["b:high", "a:far", "a:near", "a:A"])
        #expect(blind.failedRegionIds.isEmpty && blind.failureReasons.isEmpty)
    }

    @Test("§arm-order where the spec is silent: an id held twice is armed once; a region without a circle ranks last")
    func armingUnclean() {
        var noCircle = Self.region("a:0-no-circle", 0, 0)
        noCircle.circle = nil
        let regions = [Self.region("a:1", 0, 1), Self.region("a:1", 0, 2), noCircle, Self.region("a:2", 0, 3)]
        let armed = Arming.arm(
            Self.held(regions), slots: 2, position: SpherePoint(latitudeE7: 0, longitudeE7: 0), nowMs: Self.now)
        #expect(armed.regionIds == ["a:1", "a:2"] && armed.failedRegionIds == ["a:0-no-circle"])
        #expect(
            Arming.arm(Self.held(regions), slots: 5, position: nil, nowMs: Self.now).regionIds == [
                "a:0-no-circle", "a:1", "a:2",
            ])
    }

    @Test("§arm-order: nothing armed when monitoring is off or the assignment expired")
    func armingOff() {
        let regions = [Self.region("a:1", 0, 0)]
        let off = Arming.arm(Self.held(regions, enabled: false), slots: 5, position: nil, nowMs: Self.now)
        #expect(off.regionIds.isEmpty && off.failedRegionIds.isEmpty && off.assignmentVersion == 9)
        let expired = Arming.arm(Self.held(regions, expiresAtMs: Self.now), slots: 5, position: nil, nowMs: Self.now)
        #expect(expired.regionIds.isEmpty && expired.failedRegionIds.isEmpty)
        let on = Arming.arm(
            Self.held(regions, expiresAtMs: Self.now + 1, enabled: true), slots: 5, position: nil, nowMs: Self.now)
        #expect(on.regionIds == ["a:1"])
    }

    // MARK: Index against scan

    @Test("§plan-candidates, §plan-rank, §plan-refresh: the index agrees with the scan on hostile random catalogues")
    func randomAgreement() {
        var random = SeededRandom(seed: 2024)
        // How often the interesting cases came up, so that the agreement means something.
        var opened = 0, deltas = 0, refreshed = 0, refined = 0
        defer {
            #expect(
                opened > 100 && deltas > 50 && refreshed > 100 && refined > 50,
                "\(opened) \(deltas) \(refreshed) \(refined)")
        }
        for round in 0..<30 {
            let (catalogue, anchors) = RegionCatalogues.stress(
                count: 50 + random.index(2_000), nowMs: Self.now, seed: UInt64(round) + 1)
            let planner = RegionPlanner(catalogue: catalogue)
            var previous: RegionAssignment?
            for _ in 0..<25 {
                let anchor = anchors[random.index(anchors.count)]
                let position = RegionCatalogues.destination(
                    from: anchor, bearingDegrees: random.uniform(0, 360), distanceM: random.uniform(0, 70_000))
                let latitude = RegionCatalogues.e7(position.0)
                let longitude = RegionCatalogues.e7(position.1)
                let budget = [0, 1, 3, 20, 100, 1000][random.index(6)]
                let now = Self.now + Int64(random.index(3)) * 50_000_000
                let indexed = planner.plan(
                    latitudeE7: latitude, longitudeE7: longitude, slotBudget: budget, nowMs: now, previous: previous)
                let scanned = RegionPlanner.planByScan(
                    catalogue: catalogue, latitudeE7: latitude, longitudeE7: longitude, slotBudget: budget,
                    nowMs: now, previous: previous)
                #expect(indexed == scanned, "round \(round) at \(position) budget \(budget)")
                if indexed != scanned { return }
                if indexed.regions.contains(where: {
                    RegionShape($0)!.contains(SpherePoint(latitudeE7: latitude, longitudeE7: longitude))
                }) {
                    opened += 1
                }
                if indexed.mode == .delta { deltas += 1 }
                if indexed.refresh?.refreshDistanceM != nil { refreshed += 1 }
                if indexed.refresh?.onRefineEntry == true { refined += 1 }
                if random.index(3) != 0 { previous = indexed.mode == .fullReplacement ? indexed : previous }
            }
        }
    }

    @Test("§plan-rank: many regions sharing one centre (the index's median splits see equal keys)")
    func sharedCentres() {
        let catalogue = (0..<2_000).map {
            Self.region("same:\($0)", -33.86, 151.21, radiusM: UInt32(10 + $0 % 97), priority: UInt32($0 % 3))
        }
        let assignment = Self.plan(catalogue, at: (-33.87, 151.21), budget: 20)
        #expect(assignment.regions.count == 20 && assignment.regions.allSatisfy { $0.priority == 2 })
    }

    @Test("§plan-rank: the index agrees with the scan on a four-level hierarchy and on a flat catalogue")
    func hierarchyAgreement() {
        var random = SeededRandom(seed: 77)
        let hierarchy = RegionCatalogues.hierarchy(counts: [4, 12, 40, 6], seed: 3)
        let flat = RegionCatalogues.flat(count: 5_000, seed: 4)
        for catalogue in [hierarchy, flat] {
            let planner = RegionPlanner(catalogue: catalogue)
            for probe in 0..<60 {
                // Mostly inside some region, so that the hierarchy opens.
                let center = catalogue[random.index(catalogue.count)].circle!
                let position = RegionCatalogues.destination(
                    from: (Double(center.centerLatitudeE7!) / 1e7, Double(center.centerLongitudeE7!) / 1e7),
                    bearingDegrees: random.uniform(0, 360), distanceM: random.uniform(0, probe % 3 == 0 ? 500_000 : 300)
                )
                let latitude = RegionCatalogues.e7(position.0)
                let longitude = RegionCatalogues.e7(position.1)
                let budget = [1, 20, 100][random.index(3)]
                let indexed = planner.plan(
                    latitudeE7: latitude, longitudeE7: longitude, slotBudget: budget, nowMs: Self.now, previous: nil)
                let scanned = RegionPlanner.planByScan(
                    catalogue: catalogue, latitudeE7: latitude, longitudeE7: longitude, slotBudget: budget,
                    nowMs: Self.now, previous: nil)
                #expect(indexed == scanned, "probe \(probe) at \(position) budget \(budget)")
                if indexed != scanned { return }
            }
        }
    }
}
