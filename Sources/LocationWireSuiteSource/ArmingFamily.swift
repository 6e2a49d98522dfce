import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireRandom

/// Family `arming`: which regions of the set it holds a device arms when its OS slots are fewer
/// (proto/BEHAVIOR.md "Arming (device)").
enum ArmingFamily: VectorFamily {
    static let name = "arming"
    static let description = """
        A device's arming order (FEATURE_ARMING, proto/BEHAVIOR.md "Arming (device)"): the set it holds, its \
        slots, its position and the time, and the ArmedRegions it reports: priority first, then the gap, then the \
        id; the rest fail with SLOT_LIMIT; expired regions and switched-off or expired assignments arm nothing.
        """

    static var sections: [VectorFamilySection] { [order, switches, randomSets] }

    static let now = PlanningFamily.now

    static func request(
        _ regions: [Region], slots: UInt32, at position: (Double, Double)?, version: UInt64 = 7,
        configure: (inout RegionAssignment) -> Void = { _ in }
    ) -> ArmingRequest {
        var assignment = RegionAssignment()
        assignment.assignmentVersion = version
        assignment.issuedAtMs = now - 60_000
        assignment.mode = .fullReplacement
        assignment.regions = regions
        assignment.slotBudget = UInt32(regions.count)
        assignment.datum = .wgs84
        configure(&assignment)
        var request = ArmingRequest()
        request.assignment = assignment
        request.slots = slots
        if let position {
            var fix = LocationFix()
            fix.latitudeE7 = TraceWriter.e7(position.0)
            fix.longitudeE7 = TraceWriter.e7(position.1)
            fix.horizontalAccuracyCm = 1_000
            fix.timeMs = now
            request.position = fix
        }
        request.nowMs = now
        return request
    }

    static func add(
        _ builder: inout VectorBuilder, _ id: String, _ rules: [String], _ comment: String, _ request: ArmingRequest
    ) {
        if let position = request.position {
            var check = PlanningRequest()
            check.catalogue = request.assignment?.regions ?? []
            check.latitudeE7 = position.latitudeE7 ?? 0
            check.longitudeE7 = position.longitudeE7 ?? 0
            PlanningFamily.checkMargins("arming." + id, check)
        }
        builder.behavior("arming." + id, rules: rules, comment, request)
    }

    static let home = (PlanningFamily.latitude, PlanningFamily.longitude)

    static func shops(_ count: Int, seed: UInt64 = 1) -> [Region] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { number in
            PlanningFamily.region(
                "shop:a\(number)", PlanningFamily.near(random.uniform(0, 360), random.uniform(100, 20_000)),
                UInt32(random.uniform(60, 400)), priority: UInt32(random.index(3)))
        }
    }

    static func order(_ builder: inout VectorBuilder) {
        add(
            &builder, "order.ios-20-of-35", ["§arm-order", "§region-gap"],
            "35 regions, 20 iOS slots: by priority, then gap from the device, then id; the other 15 fail with SLOT_LIMIT, in the same order.",
            request(shops(35), slots: 20, at: home))
        add(
            &builder, "order.android-100", ["§arm-order"],
            "The same 35 with Android's 100 slots: all armed, in order.", request(shops(35), slots: 100, at: home))
        add(
            &builder, "order.no-position", ["§arm-order"],
            "No position known: priority, then id.", request(shops(35), slots: 20, at: nil))
        add(
            &builder, "order.reserved-slots", ["§arm-order"],
            "17 slots left (20 minus 3 the app keeps).", request(shops(35), slots: 17, at: home))
        add(
            &builder, "order.zero-slots", ["§arm-order"], "No slot: everything fails.",
            request(shops(6), slots: 0, at: home))
        let inside =
            ["site:c", "site:a", "site:b"].map { PlanningFamily.region($0, home, 500) }
            + [PlanningFamily.region("site:z", PlanningFamily.near(0, 700), 100, priority: 1)]
        add(
            &builder, "order.inside-ties", ["§arm-order"],
            "Three regions around the device (gap 0) and one priority-1 region outside: the priority first, then the three by id.",
            request(inside, slots: 3, at: home))
        var centreless = shops(8)
        centreless[2].circle!.centerLatitudeE7 = nil
        centreless[2].priority = 2
        add(
            &builder, "order.no-centre", ["§arm-order"],
            "shop:a2 has no circle centre: with a position known it has no gap and ranks last among its priority.",
            request(centreless, slots: 5, at: home))
        let dateLine = (0..<10).map { number in
            PlanningFamily.region(
                "reef:a\(number)",
                PlanningFamily.near(Double(number) * 36, 400 + Double(number) * 230, from: (-16.8, 180)), 80)
        }
        add(
            &builder, "order.antimeridian", ["§arm-order", "§distance"],
            "Regions on both sides of the antimeridian, the device on it.",
            request(dateLine, slots: 4, at: (-16.8, 180)))
    }

    static func switches(_ builder: inout VectorBuilder) {
        add(
            &builder, "switch.monitoring-off", ["§arm-order", "§arm-off"],
            "monitoring_enabled false: nothing armed, nothing failed.",
            request(shops(8), slots: 20, at: home) { $0.monitoringEnabled = false })
        add(
            &builder, "switch.monitoring-on", ["§arm-order"], "monitoring_enabled true: as usual.",
            request(shops(8), slots: 5, at: home) { $0.monitoringEnabled = true })
        add(
            &builder, "switch.assignment-expired", ["§arm-order", "§arm-off"],
            "The assignment expired at now: nothing armed.",
            request(shops(8), slots: 20, at: home) { $0.expiresAtMs = now })
        add(
            &builder, "switch.assignment-live", ["§arm-order"], "The assignment expires a minute after now: armed.",
            request(shops(8), slots: 5, at: home) { $0.expiresAtMs = now + 60_000 })
        var expiring = shops(10)
        expiring[0].expiresAtMs = now
        expiring[4].expiresAtMs = now - 1
        expiring[7].expiresAtMs = now + 1
        add(
            &builder, "switch.regions-expired", ["§arm-order"],
            "Two regions expired at or before now: neither armed nor reported; the one expiring a millisecond later is armed.",
            request(expiring, slots: 6, at: home))
    }

    static func randomSets(_ builder: inout VectorBuilder) {
        for seed in 1...16 {
            var random = SeededRandom(seed: UInt64(seed) &* 0xA12_1E5)
            let center = (random.uniform(-70, 70), random.uniform(-179, 179))
            var regions: [Region] = []
            for number in 0..<(5 + random.index(60)) {
                var region = PlanningFamily.region(
                    "site:s\(seed)n\(number)",
                    PlanningFamily.near(random.uniform(0, 360), random.uniform(0, 30_000), from: center),
                    UInt32(random.uniform(50, 3_000)), priority: UInt32(random.index(4)))
                if random.index(8) == 0 { region.expiresAtMs = now + Int64(random.uniform(-600_000, 600_000)) }
                regions.append(region)
            }
            let position =
                random.index(4) == 0
                ? nil : PlanningFamily.near(random.uniform(0, 360), random.uniform(0, 20_000), from: center)
            let slots = UInt32([20, 100, 17, 5, 1][random.index(5)])
            add(
                &builder, "random.seed-\(seed)", ["§arm-order", "§region-gap"],
                "A seeded random set (seed \(seed)): \(regions.count) regions with priorities and some expiries, \(slots) slots, \(position == nil ? "no position" : "a random position").",
                request(regions, slots: slots, at: position))
        }
    }
}
