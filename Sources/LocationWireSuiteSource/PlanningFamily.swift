import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireGeometry
import LocationWireRandom

/// Family `planning`: the assignment a server plans from a catalogue, a position, a budget and the time
/// (proto/BEHAVIOR.md "Region planning (server)").
enum PlanningFamily: VectorFamily {
    static let name = "planning"
    static let description = """
        A server's region planner (FEATURE_PLANNING, proto/BEHAVIOR.md "Region planning (server)"): a catalogue \
        with its hierarchy, a device position, a slot budget, the time and the previous assignment, and the whole \
        RegionAssignment the server answers: live regions, roots, open and visible regions, the rank (open, \
        priority, gap, id), refine_on_entry, the refresh anchor and distance, expiry, and full or delta. Flat and \
        four-level catalogues, more regions than slots, polygons, the antimeridian, high latitudes, seeded \
        random catalogues.
        """

    static var sections: [VectorFamilySection] { [basics, hierarchy, refresh, expiry, deltas, geography, randomPlans] }

    static let now: Int64 = 1_772_352_000_000
    static let latitude = 45.81
    static let longitude = 15.98

    static func request(
        _ catalogue: [Region], at position: (Double, Double), budget: UInt32, now: Int64 = now,
        previous: RegionAssignment? = nil
    ) -> PlanningRequest {
        var request = PlanningRequest()
        request.catalogue = catalogue
        request.latitudeE7 = TraceWriter.e7(position.0)
        request.longitudeE7 = TraceWriter.e7(position.1)
        request.slotBudget = budget
        request.nowMs = now
        request.previous = previous
        return request
    }

    /// A point `metres` from the home position along `bearing`.
    static func near(
        _ bearing: Double, _ metres: Double, from origin: (Double, Double) = (latitude, longitude)
    )
        -> (Double, Double)
    {
        TraceWriter.destination(latitude: origin.0, longitude: origin.1, bearing: bearing, metres: metres)
    }

    static func region(
        _ id: String, _ at: (Double, Double), _ radiusM: UInt32, level: RegionLevel = .site, parent: String = "",
        priority: UInt32 = 0, expiresAtMs: Int64 = 0
    ) -> Region {
        RegionWriter.circle(
            id, latitude: at.0, longitude: at.1, radiusM: radiusM, level: level, priority: priority, parent: parent,
            expiresAtMs: expiresAtMs)
    }

    static func add(
        _ builder: inout VectorBuilder, _ id: String, _ rules: [String], _ comment: String, _ request: PlanningRequest
    ) {
        checkMargins(id, request)
        builder.behavior("planning." + id, rules: rules, comment, request)
    }

    /// `§distance-tolerance` for planning: no live region's circle edge within 1 cm of the position, and no two
    /// positive gaps within 1 cm of each other, so floating-point noise cannot reorder or reopen anything.
    static func checkMargins(_ id: String, _ request: PlanningRequest) {
        let point = SpherePoint(latitudeE7: request.latitudeE7, longitudeE7: request.longitudeE7)
        var gaps: [Double] = []
        var seen: Set<String> = []
        // Only each id's first region takes part (`§plan-candidates`).
        for region in request.catalogue where seen.insert(region.id).inserted {
            guard let shape = RegionShape(region) else { continue }
            let edge = point.distanceM(to: shape.center) - shape.radiusM
            precondition(abs(edge) > 0.01, "\(id): the position is within 1 cm of \(region.id)'s circle; move it")
            if edge > 0 { gaps.append(edge) }
        }
        gaps.sort()
        for (a, b) in zip(gaps, gaps.dropFirst()) {
            precondition(b - a > 0.01 || b == a && a == 0, "\(id): two gaps within 1 cm (\(a), \(b)); move a region")
        }
    }

    /// A four-level catalogue around home: 3 provinces × 3 cities × 3 districts × 4 sites, nested so each child
    /// lies within its parent; ids say where each sits.
    static func fourLevels(siteRadius: UInt32 = 120) -> [Region] {
        var regions: [Region] = []
        for p in 0..<3 {
            let province = near(Double(p) * 120 + 10, p == 0 ? 0 : 160_000)
            let provinceId = "province:p\(p)"
            regions.append(region(provinceId, province, 60_000, level: .province))
            for c in 0..<3 {
                let city = near(Double(c) * 120 + 35, c == 0 ? 3_000 : 25_000, from: province)
                let cityId = "city:p\(p)c\(c)"
                regions.append(region(cityId, city, 12_000, level: .city, parent: provinceId))
                for d in 0..<3 {
                    let district = near(Double(d) * 120 + 70, d == 0 ? 500 : 5_500, from: city)
                    let districtId = "district:p\(p)c\(c)d\(d)"
                    regions.append(region(districtId, district, 3_000, level: .district, parent: cityId))
                    for s in 0..<4 {
                        let site = near(Double(s) * 90 + 20, Double(400 + s * 450), from: district)
                        regions.append(
                            region(
                                "shop:p\(p)c\(c)d\(d)s\(s)", site, siteRadius, parent: districtId,
                                priority: UInt32(s % 2)))
                    }
                }
            }
        }
        return regions
    }

    // MARK: -

    static func basics(_ builder: inout VectorBuilder) {
        let flat = (0..<30).map { number in
            region(
                "shop:f\(number)", near(Double(number) * 47, 300 + Double(number) * 173), 80 + UInt32(number % 5) * 20)
        }
        add(
            &builder, "rank.nearest", ["§plan-rank", "§region-gap", "§plan-candidates"],
            "Thirty shops, all roots, none containing the device: the five with the least gap (distance to the circle), nearest first.",
            request(flat, at: (latitude, longitude), budget: 5))
        add(
            &builder, "rank.budget-covers-all", ["§plan-rank", "§plan-refresh"],
            "A budget of 40 for 30 regions: all of them, and no refresh distance since nothing was left out.",
            request(flat, at: (latitude, longitude), budget: 40))
        var prioritized = flat
        prioritized[29].priority = 5
        prioritized[20].priority = 3
        add(
            &builder, "rank.priority-first", ["§plan-rank"],
            "The two farthest shops have priorities 5 and 3: they come first, before nearer ones of priority 0.",
            request(prioritized, at: (latitude, longitude), budget: 5))
        var duplicated = flat
        duplicated[0].expiresAtMs = now - 1
        var copy = flat[0]
        copy.version = 2
        duplicated.append(copy)
        duplicated[5].circle!.centerLatitudeE7 = nil
        add(
            &builder, "catalogue.first-of-each-id", ["§plan-candidates"],
            "shop:f0 occurs twice, first expired: an id counts once, as its first region, so shop:f0 takes no part at all; shop:f5 has no circle centre and takes no part either.",
            request(duplicated, at: (latitude, longitude), budget: 5))
        let same = ["shop:c", "shop:a", "shop:d", "shop:b"].map { region($0, (latitude, longitude), 300) }
        add(
            &builder, "rank.ties-by-id", ["§plan-rank"],
            "Four regions with the same circle around the device (gap 0, all open): by id.",
            request(same, at: (latitude, longitude), budget: 3))
        add(
            &builder, "rank.budget-one", ["§plan-rank"], "A budget of one slot.",
            request(flat, at: (latitude, longitude), budget: 1))
        var inside = flat
        inside.append(region("area:home", (latitude, longitude), 2_000, level: .district))
        inside.append(region("shop:vip", near(200, 9_000), 100, priority: 9))
        add(
            &builder, "rank.open-before-priority", ["§plan-rank", "§plan-candidates"],
            "The device is inside area:home (open): it comes first, even before the priority-9 shop 9 km away.",
            request(inside, at: (latitude, longitude), budget: 4))
    }

    static func hierarchy(_ builder: inout VectorBuilder) {
        let catalogue = fourLevels()
        let home = (latitude, longitude)
        let district = catalogue.first { $0.id == "district:p0c0d0" }!
        let districtCenter = (
            Double(district.circle!.centerLatitudeE7!) * 1e-7, Double(district.circle!.centerLongitudeE7!) * 1e-7
        )
        add(
            &builder, "hierarchy.in-district", ["§plan-candidates", "§plan-rank", "§plan-refine"],
            "A four-level catalogue (3 provinces × 3 cities × 3 districts × 4 shops, 120 regions); the device is in province p0, city p0c0 and district p0c0d0: those three open, first; then the visible regions (roots, p0's cities, p0c0's districts, p0c0d0's shops) by priority and gap. Unopened parents get refine_on_entry.",
            request(catalogue, at: near(10, 50, from: districtCenter), budget: 20))
        add(
            &builder, "hierarchy.ios-budget-short",
            ["§plan-candidates", "§plan-rank", "§plan-refine", "§plan-refresh"],
            "The same with 8 slots: the open chain, then the best of the rest; the coarse parents that make it carry refine_on_entry, and the refresh distance is half the gap to the nearest left out.",
            request(catalogue, at: near(10, 50, from: districtCenter), budget: 8))
        add(
            &builder, "hierarchy.outside-all", ["§plan-candidates", "§plan-refine"],
            "Far from every province: only the three roots are visible, each with refine_on_entry.",
            request(catalogue, at: near(300, 400_000, from: home), budget: 20))
        let city = catalogue.first { $0.id == "city:p1c2" }!
        let cityCenter = (Double(city.circle!.centerLatitudeE7!) * 1e-7, Double(city.circle!.centerLongitudeE7!) * 1e-7)
        add(
            &builder, "hierarchy.in-city-between-districts", ["§plan-candidates", "§plan-refine"],
            "Inside province p1 and city p1c2 but in no district: the city's districts are visible (with refine_on_entry), their shops are not.",
            request(catalogue, at: near(233, 9_130, from: cityCenter), budget: 20))
        var orphans = catalogue
        orphans.removeAll { $0.id == "city:p0c0" }
        add(
            &builder, "hierarchy.missing-parent", ["§plan-candidates"],
            "city:p0c0 is missing from the catalogue: its districts name a parent that is not there, so they are roots.",
            request(orphans, at: near(10, 50, from: districtCenter), budget: 12))
        var expiredParent = catalogue
        for index in expiredParent.indices where expiredParent[index].id == "province:p0" {
            expiredParent[index].expiresAtMs = now - 1
        }
        add(
            &builder, "hierarchy.expired-parent", ["§plan-candidates"],
            "province:p0 has expired: not live, so its cities become roots.",
            request(expiredParent, at: near(10, 50, from: districtCenter), budget: 12))
        var polygonParent = catalogue
        for index in polygonParent.indices where polygonParent[index].id == "district:p0c0d0" {
            let shape = RegionWriter.regularPolygon(
                "district:p0c0d0", latitude: districtCenter.0, longitude: districtCenter.1, radiusM: 2_900, sides: 3)
            polygonParent[index].polygon = shape.polygon
        }
        add(
            &builder, "hierarchy.polygon-not-open", ["§plan-candidates", "§region-inside", "§polygon-inside"],
            "district:p0c0d0 becomes a triangle; the device is within its circle but outside the triangle, so the district is not open and its shops stay hidden (it gets refine_on_entry).",
            request(polygonParent, at: near(190, 2_600, from: districtCenter), budget: 20))
        // Invalid parents (`parent-is-self`, and cycles no single region shows): the device stands inside every
        // region here, so only the tree decides which of them it is given.
        let here = (latitude, longitude)
        let parentDistrict = region("district:d", here, 3_000, level: .district)
        let shop = region("shop:s", near(45, 300), 200, parent: "district:d")
        var selfParent = [parentDistrict, shop]
        selfParent.append(region("shop:self", near(135, 200), 400, parent: "shop:self"))
        selfParent.append(region("shop:under-self", near(135, 210), 100, parent: "shop:self"))
        add(
            &builder, "hierarchy.self-parent", ["§plan-parent-cycle", "§plan-candidates"],
            "shop:self is its own parent: no root, and no visible region's child, so neither it nor shop:under-self is a candidate although the device is inside both; nothing is left out, so no refresh distance.",
            request(selfParent, at: here, budget: 10))
        var cycle = [parentDistrict, shop]
        cycle.append(region("shop:x", near(225, 200), 400, parent: "shop:y"))
        cycle.append(region("shop:y", near(225, 210), 450, parent: "shop:x"))
        cycle.append(region("shop:under-x", near(225, 220), 100, parent: "shop:x"))
        add(
            &builder, "hierarchy.parent-cycle", ["§plan-parent-cycle", "§plan-candidates"],
            "shop:x and shop:y name each other as parent: the cycle and shop:under-x below it are never visible.",
            request(cycle, at: here, budget: 10))
        for index in cycle.indices where cycle[index].id == "shop:y" { cycle[index].expiresAtMs = now - 1 }
        add(
            &builder, "hierarchy.cycle-broken-by-expiry", ["§plan-parent-cycle", "§plan-candidates", "§plan-refine"],
            "The same cycle with shop:y expired: shop:x's parent is not live, so shop:x is a root, open, and shop:under-x is visible.",
            request(cycle, at: here, budget: 10))
    }

    static func refresh(_ builder: inout VectorBuilder) {
        let ring = (0..<6).map { number in
            region("shop:r\(number)", near(Double(number) * 60, 1_000 + Double(number) * 777), 50)
        }
        add(
            &builder, "refresh.half-gap", ["§plan-refresh"],
            "Six shops, budget 3: the nearest left out is 3381 m beyond its circle; the refresh distance is half of it, rounded down, around the device.",
            request(ring, at: (latitude, longitude), budget: 3))
        let close = [region("shop:near", near(0, 200), 50), region("shop:next", near(90, 230), 50)]
        add(
            &builder, "refresh.floor-100", ["§plan-refresh"],
            "Budget 1: the one left out is 180 m beyond its circle; half is 90 m, raised to the 100 m floor.",
            request(close, at: (latitude, longitude), budget: 1))
        let quarter = [region("shop:home", near(0, 10), 50), region("shop:faraway", near(90, 10_000_000), 50)]
        add(
            &builder, "refresh.far", ["§plan-refresh"],
            "Budget 1, the one left out is 10,000 km away: the refresh distance is half of its gap.",
            request(quarter, at: (latitude, longitude), budget: 1))
        let antipode = [
            region("shop:home", near(0, 10), 50),
            region("shop:antipode", near(90, 1_000, from: (-latitude, longitude - 180)), 50),
        ]
        add(
            &builder, "refresh.cap", ["§plan-refresh"],
            "Budget 1, the one left out 1 km from the antipode: half its gap is above 10,000,000 m, so the cap holds.",
            request(antipode, at: (latitude, longitude), budget: 1))
        add(
            &builder, "refresh.nothing-left-out", ["§plan-refresh"],
            "Everything fits: no refresh distance and no anchor.", request(close, at: (latitude, longitude), budget: 2))
    }

    static func expiry(_ builder: inout VectorBuilder) {
        let shops = (0..<8).map { (number: Int) -> Region in
            let expiry: Int64 = number % 3 == 0 ? 0 : now + Int64(number) * 3_600_000
            let at = near(Double(number) * 45, 400 + Double(number) * 311)
            return region("shop:e\(number)", at, 60, expiresAtMs: expiry)
        }
        add(
            &builder, "expiry.earliest-region", ["§plan-expiry"],
            "The assignment expires at the earliest expiry among the assigned regions (within the day).",
            request(shops, at: (latitude, longitude), budget: 5))
        add(
            &builder, "expiry.one-day", ["§plan-expiry"],
            "No assigned region expires: the assignment expires a day after now.",
            request(shops.filter { $0.expiresAtMs == 0 }, at: (latitude, longitude), budget: 5))
        var gone = shops
        gone[0].expiresAtMs = now
        gone[3].expiresAtMs = now - 60_000
        add(
            &builder, "expiry.expired-not-live", ["§plan-candidates", "§plan-expiry"],
            "Two shops expire at or before now: not live, never assigned.",
            request(gone, at: (latitude, longitude), budget: 8))
        add(
            &builder, "expiry.later-than-a-day", ["§plan-expiry"],
            "Regions expiring in two days: the day cap wins.",
            request(
                shops.map {
                    var region = $0
                    region.expiresAtMs = now + 172_800_000
                    return region
                },
                at: (latitude, longitude), budget: 8))
    }

    static func deltas(_ builder: inout VectorBuilder) {
        let catalogue = (0..<25).map { number in
            region("shop:d\(number)", near(Double(number) * 31, 250 + Double(number) * 211), 70)
        }
        let base = reference(request(catalogue, at: (latitude, longitude), budget: 10))
        add(
            &builder, "delta.first", ["§plan-delta"],
            "No previous assignment: a FULL_REPLACEMENT of version 1, regions in rank order.",
            request(catalogue, at: (latitude, longitude), budget: 10))
        let moved = near(45, 900)
        add(
            &builder, "delta.small-move", ["§plan-delta"],
            "The device moved 900 m: a few regions change, fewer than the assigned ones, so a DELTA on the previous version with the upserts in rank order and the removals by id.",
            request(catalogue, at: moved, budget: 10, previous: base))
        add(
            &builder, "delta.same-place", ["§plan-delta"],
            "Nothing changed: an empty DELTA (no upserts, no removals) with the next version.",
            request(catalogue, at: (latitude, longitude), budget: 10, previous: base))
        add(
            &builder, "delta.far-move", ["§plan-delta"],
            "The device moved 8 km: most regions change, so upserts and removals are not fewer than the assigned regions: a FULL_REPLACEMENT with the next version.",
            request(catalogue, at: near(200, 8_000), budget: 10, previous: base))
        add(
            &builder, "delta.medium-move", ["§plan-delta"],
            "The device moved 4 km: four regions change (eight upserts and removals, fewer than ten), still a DELTA.",
            request(catalogue, at: near(200, 4_000), budget: 10, previous: base))
        var edited = catalogue
        edited[0].version = 2
        edited[0].name = "renamed"
        add(
            &builder, "delta.edited-region", ["§plan-delta"],
            "One assigned region got a new version in the catalogue: it is an upsert.",
            request(edited, at: (latitude, longitude), budget: 10, previous: base))
        var previousDelta = base
        previousDelta.mode = .delta
        previousDelta.baseVersion = 1
        previousDelta.assignmentVersion = 2
        add(
            &builder, "delta.previous-was-delta", ["§plan-delta"],
            "The previous assignment is itself a DELTA: its set is unknown, so a FULL_REPLACEMENT.",
            request(catalogue, at: (latitude, longitude), budget: 10, previous: previousDelta))
        var unstated = base
        unstated.datum = .unspecified
        add(
            &builder, "delta.previous-datum-unstated", ["§plan-delta"],
            "The previous assignment states no datum, which reads as WGS84 (§datum-default): a DELTA on it.",
            request(catalogue, at: moved, budget: 10, previous: unstated))
        var gcj = base
        gcj.datum = .gcj02
        add(
            &builder, "delta.previous-other-datum", ["§plan-delta"],
            "The previous assignment is in GCJ02: a FULL_REPLACEMENT in WGS84.",
            request(catalogue, at: (latitude, longitude), budget: 10, previous: gcj))
        var versioned = base
        versioned.assignmentVersion = 41
        add(
            &builder, "delta.version-follows", ["§plan-delta"],
            "The previous assignment has version 41: the answer has 42.",
            request(catalogue, at: moved, budget: 10, previous: versioned))
    }

    static func geography(_ builder: inout VectorBuilder) {
        let fiji = (0..<12).map { number in
            region("reef:f\(number)", near(Double(number) * 30, 500 + Double(number) * 390, from: (-16.8, 179.999)), 90)
        }
        add(
            &builder, "geo.antimeridian", ["§plan-rank", "§distance", "§region-gap"],
            "Regions on both sides of the antimeridian, the device on it: gaps measured across it.",
            request(fiji, at: (-16.8, 179.999), budget: 6))
        let svalbard = (0..<12).map { number in
            region("hut:s\(number)", near(Double(number) * 30, 800 + Double(number) * 520, from: (78.9, 16.0)), 150)
        }
        add(
            &builder, "geo.high-latitude", ["§plan-rank", "§distance"],
            "Huts at 79° N: a degree of longitude is 21 km there; gaps are on the sphere.",
            request(svalbard, at: (78.9, 16.0), budget: 6))
        let pole = (0..<8).map { number in
            region("station:n\(number)", near(Double(number) * 45, 2_000 + Double(number) * 300, from: (89.99, 0)), 300)
        }
        add(
            &builder, "geo.pole", ["§plan-rank", "§distance"],
            "Stations around the north pole, longitudes all round.", request(pole, at: (89.99, 0), budget: 4))
    }

    static func randomPlans(_ builder: inout VectorBuilder) {
        for seed in 1...24 {
            var random = SeededRandom(seed: UInt64(seed) &* 0xA11_CE5)
            let center = (random.uniform(-65, 65), random.uniform(-179, 179))
            var catalogue: [Region] = []
            for p in 0..<(1 + random.index(3)) {
                let province = near(random.uniform(0, 360), random.uniform(0, 20_000), from: center)
                let provinceId = "province:s\(seed)p\(p)"
                catalogue.append(
                    region(
                        provinceId, province, UInt32(random.uniform(25_000, 40_000)), level: .province,
                        priority: UInt32(random.index(2))))
                for c in 0..<(1 + random.index(4)) {
                    let city = near(random.uniform(0, 360), random.uniform(0, 12_000), from: province)
                    let cityId = "city:s\(seed)p\(p)c\(c)"
                    catalogue.append(
                        region(cityId, city, UInt32(random.uniform(4_000, 9_000)), level: .city, parent: provinceId))
                    for s in 0..<(random.index(12)) {
                        let site = near(random.uniform(0, 360), random.uniform(0, 3_500), from: city)
                        catalogue.append(
                            region(
                                "shop:s\(seed)p\(p)c\(c)s\(s)", site, UInt32(random.uniform(40, 400)), parent: cityId,
                                priority: UInt32(random.index(3)),
                                expiresAtMs: random.index(5) == 0
                                    ? now + Int64(random.uniform(-3_600_000, 7_200_000)) : 0))
                    }
                }
            }
            for s in 0..<random.index(10) {
                catalogue.append(
                    region(
                        "poi:s\(seed)x\(s)", near(random.uniform(0, 360), random.uniform(0, 30_000), from: center),
                        UInt32(random.uniform(50, 2_000)), priority: UInt32(random.index(4))))
            }
            let position = near(random.uniform(0, 360), random.uniform(0, 15_000), from: center)
            let budget = UInt32(1 + random.index(25))
            var previous: RegionAssignment?
            if random.index(2) == 0 {
                previous = reference(
                    request(
                        catalogue, at: near(random.uniform(0, 360), random.uniform(0, 3_000), from: position),
                        budget: budget))
            }
            add(
                &builder, "random.seed-\(seed)",
                ["§plan-candidates", "§plan-rank", "§plan-refine", "§plan-refresh", "§plan-expiry", "§plan-delta"],
                "A seeded random catalogue (seed \(seed)): \(catalogue.count) regions in up to three levels with priorities and expiries, a random position and budget (\(budget))\(previous == nil ? "" : ", and the assignment planned at a nearby position as the previous one").",
                request(catalogue, at: position, budget: budget, previous: previous))
        }
    }

    /// The reference planner's answer, to serve as a previous assignment.
    static func reference(_ request: PlanningRequest) -> RegionAssignment {
        VectorBuilder.reference(request).assignment ?? RegionAssignment()
    }
}
