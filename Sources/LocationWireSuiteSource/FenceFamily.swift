import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireRandom

/// Family `fences`: which fence events a device reports from a trace against its armed regions
/// (proto/BEHAVIOR.md "Fences", with the geometry of "Geometry").
enum FenceFamily: VectorFamily {
    static let name = "fences"
    static let description = """
        A device's fence engine (FEATURE_FENCES, proto/BEHAVIOR.md "Fences"): regions armed, a trace of fixes and \
        arming changes, and every event reported, field for field: state reports after arming, enter and exit \
        with hysteresis and a confirmation time, dwell, the accuracy gate, expiry and disarming, reboots, the \
        order of events in one fix and their numbering. Circles and polygons, boundary jitter, GPS jumps, \
        accuracy spikes, tunnels, wall-clock jumps, adjacent and nested regions, regions smaller than the fix \
        accuracy, the antimeridian and the poles, real traces and seeded random ones.
        """

    static var sections: [VectorFamilySection] {
        [
            states, transitions, hysteresis, dwell, order, polygons, arming, clocks, realTraces, randomTraces,
            relaunches,
        ]
    }

    /// The centre most scenarios use, and the bearing of their walks (east).
    static let centerLatitude = 45.380
    static let centerLongitude = 14.145

    static func policy(_ configure: (inout TrackingPolicy) -> Void = { _ in }) -> TrackingPolicy {
        var policy = TrackingPolicy()
        policy.policyVersion = 1
        configure(&policy)
        return policy
    }

    static func site(_ radiusM: UInt32 = 200, id: String = "site:depot", dwellMs: UInt32? = nil) -> Region {
        RegionWriter.circle(
            id, latitude: centerLatitude, longitude: centerLongitude, radiusM: radiusM, dwellMs: dwellMs)
    }

    /// A trace starting `metres` west of the centre, heading east.
    static func west(_ metres: Double, seed: UInt64 = 1) -> TraceWriter {
        var trace = TraceWriter(latitude: centerLatitude, longitude: centerLongitude, seed: seed)
        trace.teleport(bearing: 270, metres: metres)
        return trace
    }

    static func request(
        _ trace: TraceWriter, _ regions: [Region], _ policy: TrackingPolicy? = nil,
        arming: [Int: FenceArming] = [:], firstEventSequence: UInt64 = 0, assignmentVersion: UInt64 = 0
    ) -> FenceRequest {
        var request = FenceRequest()
        request.policy = policy
        request.regions = regions
        for (index, fix) in trace.fixes.enumerated() {
            if let arm = arming[index] { request.steps.append(FenceStep(.arm(arm))) }
            request.steps.append(FenceStep(.fix(fix)))
        }
        request.firstEventSequence = firstEventSequence
        request.assignmentVersion = assignmentVersion
        return request
    }

    static func arm(_ regions: [Region] = [], disarm: [String] = []) -> FenceArming {
        var arming = FenceArming()
        arming.regions = regions
        arming.disarmRegionIds = disarm
        return arming
    }

    static func add(
        _ builder: inout VectorBuilder, _ id: String, _ rules: [String], _ comment: String, _ request: FenceRequest
    ) {
        var withoutRelaunches = request
        withoutRelaunches.relaunchBefore = []
        builder.behavior(
            "fences." + id, rules: rules, comment, request, slackRun: { BuiltinTestee().run($0, slackM: $1) },
            equivalent: request.relaunchBefore.isEmpty ? nil : withoutRelaunches)
    }

    /// A walk through the 200 m site: from 600 m west to 700 m east at 1.5 m/s, a fix every 5 s.
    static func walkThrough(seed: UInt64 = 1) -> TraceWriter {
        var trace = west(600, seed: seed)
        trace.move(bearing: 90, metres: 7.5, count: 175, stepMs: 5_000)
        return trace
    }

    // MARK: - State reports

    static func states(_ builder: inout VectorBuilder) {
        add(
            &builder, "state.outside", ["§fence-state-report", "§fence-event", "§region-inside"],
            "The first counted fix finds the region unknown and reports STATE_OUTSIDE; the walk then enters and leaves.",
            request(walkThrough(), [site()]))
        var trace = west(50)
        trace.move(bearing: 90, metres: 7.5, count: 20, stepMs: 5_000)
        add(
            &builder, "state.inside", ["§fence-state-report"],
            "Armed while already inside: STATE_INSIDE at the first fix (iOS would send no enter).",
            request(trace, [site()]))
        var quiet = site()
        quiet.notifyOnEntry = false
        quiet.notifyOnExit = false
        quiet.notifyOnDwell = true
        quiet.loiteringDelayMs = 3_600_000
        add(
            &builder, "state.whatever-the-flags", ["§fence-state-report"],
            "A region that notifies only on dwell (an hour): the state report comes anyway; entry and exit change its state silently.",
            request(walkThrough(), [quiet]))
        trace = west(50)
        trace.fixes = []
        trace.fix(accuracyCm: 25_000)
        trace.fix(accuracyCm: 12_000)
        trace.move(bearing: 90, metres: 5, count: 6, stepMs: 5_000)
        add(
            &builder, "state.first-counted-fix", ["§fence-state-report", "§fence-gate"],
            "The first two fixes are too inaccurate to count (250 m and 120 m, limit 100 m): the state report waits for the first counted fix.",
            request(trace, [site()]))
        trace = west(50)
        trace.stay(count: 3, stepMs: 5_000)
        let four = [
            site(id: "site:d"), site(400, id: "site:a"),
            RegionWriter.circle("site:c", latitude: centerLatitude + 0.01, longitude: centerLongitude, radiusM: 300),
            RegionWriter.circle("site:b", latitude: centerLatitude, longitude: centerLongitude - 0.02, radiusM: 150),
        ]
        add(
            &builder, "state.many-regions", ["§fence-state-report", "§fence-order"],
            "Four regions, two containing the first fix: four state reports in region id order.",
            request(trace, four))
    }

    // MARK: - Transitions

    static func transitions(_ builder: inout VectorBuilder) {
        add(
            &builder, "transition.default-policy", ["§fence-confirm", "§fence-hysteresis", "§fence-event"],
            "The default policy (hysteresis 200 m, confirm 20 s): ENTER 20 s after the first fix inside, with os_event_time_ms at that first fix; EXIT once 200 m past the boundary for 20 s.",
            request(walkThrough(), [site()]))
        add(
            &builder, "transition.confirm-zero", ["§fence-confirm"],
            "fence_confirm_ms 0: each transition is confirmed by its first fix on the other side.",
            request(walkThrough(), [site()], policy { $0.fenceConfirmMs = 0 }))
        add(
            &builder, "transition.confirm-60s", ["§fence-confirm"],
            "fence_confirm_ms 60000: 60 s on the other side.",
            request(walkThrough(), [site()], policy { $0.fenceConfirmMs = 60_000 }))
        var trace = west(400)
        trace.move(bearing: 90, metres: 1, count: 1, stepMs: 10_000)
        trace.teleport(bearing: 90, metres: 400)
        trace.stay(count: 4, stepMs: 10_000)
        add(
            &builder, "transition.confirm-exact", ["§fence-confirm"],
            "Inside at 0, 10 and 20 s: the fix exactly 20 s after the first confirms (at least fence_confirm_ms).",
            request(trace, [site()]))
        trace = west(300)
        trace.move(bearing: 90, metres: 15, count: 40, stepMs: 1_000)
        add(
            &builder, "transition.quick-pass", ["§fence-confirm"],
            "Driving at 15 m/s through a 50 m region: inside for 6 s, less than the confirm time, so neither ENTER nor EXIT; the state stays outside.",
            request(trace, [site(50)]))
        trace = west(500)
        trace.move(bearing: 90, metres: 10, count: 10, stepMs: 5_000)
        trace.fix(stepMs: 5_000, offsetM: 400, offsetBearing: 90)
        trace.move(bearing: 90, metres: 0, count: 10, stepMs: 5_000)
        add(
            &builder, "transition.gps-jump", ["§fence-confirm"],
            "One fix 400 m off (a GPS jump with a good accuracy) lands inside: it starts a transition that the next fix cancels: no ENTER.",
            request(trace, [site()]))
        trace = walkThrough()
        for index in stride(from: 60, to: 70, by: 2) { trace.fixes[index].horizontalAccuracyCm = 50_000 }
        add(
            &builder, "transition.accuracy-spike", ["§fence-gate", "§fence-confirm"],
            "Every other fix around the entry has a 500 m accuracy: they do not count, neither confirming nor cancelling; the good ones confirm.",
            request(trace, [site()]))
        trace = walkThrough()
        for index in trace.fixes.indices where index % 3 == 0 { trace.fixes[index].horizontalAccuracyCm = 10_000 }
        for index in trace.fixes.indices where index % 3 == 1 { trace.fixes[index].horizontalAccuracyCm = 9_999 }
        add(
            &builder, "transition.accuracy-at-limit", ["§fence-gate"],
            "Fixes at exactly fence_max_accuracy_cm (10000) do not count; 9999 do.", request(trace, [site()]))
        add(
            &builder, "transition.accuracy-policy", ["§fence-gate"],
            "fence_max_accuracy_cm 2000: the walk's 5 m fixes count, the same trace with 25 m fixes would not.",
            request(walkThrough(), [site()], policy { $0.fenceMaxAccuracyCm = 2_000 }))
        trace = walkThrough()
        for index in trace.fixes.indices { trace.fixes[index].horizontalAccuracyCm = 8_000 }
        add(
            &builder, "transition.region-smaller-than-accuracy", ["§fence-gate", "§region-inside"],
            "A 33 m region, fixes with an 80 m accuracy: the point decides, not the accuracy circle, so the walk still enters and leaves.",
            request(trace, [site(33)], policy { $0.fenceHysteresisM = 50 }))
        var entryOnly = site()
        entryOnly.notifyOnExit = false
        add(
            &builder, "transition.entry-only", ["§fence-confirm"],
            "A region without notify_on_exit: ENTER is reported; the exit changes the state silently.",
            request(walkThrough(), [entryOnly]))
        var exitOnly = site()
        exitOnly.notifyOnEntry = false
        add(
            &builder, "transition.exit-only", ["§fence-confirm"], "notify_on_exit only: EXIT alone.",
            request(walkThrough(), [exitOnly]))
        trace = walkThrough()
        trace.move(bearing: 270, metres: 7.5, count: 175, stepMs: 5_000)
        add(
            &builder, "transition.there-and-back", ["§fence-confirm", "§fence-hysteresis"],
            "Through and back again: ENTER, EXIT, ENTER, EXIT.", request(trace, [site()]))
        trace = west(255)
        trace.move(bearing: 90, metres: 10, count: 10, stepMs: 5_000)
        trace.gap(300_000)
        trace.teleport(bearing: 90, metres: 900)
        trace.move(bearing: 90, metres: 10, count: 10, stepMs: 5_000)
        add(
            &builder, "transition.tunnel", ["§fence-confirm", "§fence-hysteresis"],
            "Inside, then five minutes without fixes (a tunnel), then far outside: the exit starts at the first fix after the gap and is confirmed 20 s later.",
            request(trace, [site()], policy { $0.fenceConfirmMs = 20_000 }))
        trace = west(500, seed: 3)
        for _ in 0..<60 {
            trace.teleport(bearing: 90, metres: 8)
            let accuracy = UInt32(trace.random.uniform(3_000, 20_000))
            trace.fix(
                stepMs: 5_000, accuracyCm: accuracy, offsetM: trace.random.uniform(10, 80),
                offsetBearing: trace.random.uniform(0, 360))
        }
        add(
            &builder, "transition.urban-canyon", ["§fence-gate", "§fence-confirm"],
            "An urban canyon: 30 to 200 m accuracies, fixes 10 to 80 m off. Only fixes better than 100 m count.",
            request(trace, [site(120)], policy { $0.fenceHysteresisM = 60 }))
    }

    // MARK: - Hysteresis

    static func hysteresis(_ builder: inout VectorBuilder) {
        var trace = west(0)
        trace.stay(count: 3, stepMs: 5_000)
        trace.move(bearing: 90, metres: 9.7, count: 33, stepMs: 5_000)
        trace.stay(count: 20, stepMs: 5_000)
        add(
            &builder, "hysteresis.band", ["§fence-hysteresis"],
            "From the centre to 120 m past the boundary of a 200 m region and staying there: within the 200 m hysteresis band, so no EXIT however long.",
            request(trace, [site()]))
        add(
            &builder, "hysteresis.custom", ["§fence-hysteresis"],
            "The same trace with fence_hysteresis_m 100: now it leaves.",
            request(trace, [site()], policy { $0.fenceHysteresisM = 100 }))
        add(
            &builder, "hysteresis.zero", ["§fence-hysteresis"],
            "fence_hysteresis_m 0: any fix outside is on the other side.",
            request(walkThrough(), [site()], policy { $0.fenceHysteresisM = 0 }))
        /// Standing on the north boundary, each fix up to 30 m off, alternately outwards and inwards.
        func jitter(_ trace: inout TraceWriter) {
            trace.latitude = centerLatitude
            trace.longitude = centerLongitude
            trace.teleport(bearing: 0, metres: 200)
            for step in 0..<120 {
                trace.fix(stepMs: 5_000, offsetM: trace.random.uniform(3, 30), offsetBearing: step % 2 == 0 ? 0 : 180)
            }
        }
        trace = west(0, seed: 5)
        trace.stay(count: 3, stepMs: 5_000)
        jitter(&trace)
        add(
            &builder, "hysteresis.boundary-jitter-inside", ["§fence-hysteresis", "§fence-confirm"],
            "Inside, then standing on the boundary with jitter of up to 30 m each way: the outside fixes are in the 200 m band, so no EXIT.",
            request(trace, [site()]))
        trace = west(0, seed: 6)
        trace.teleport(bearing: 0, metres: 400)
        trace.stay(count: 3, stepMs: 5_000)
        jitter(&trace)
        add(
            &builder, "hysteresis.boundary-jitter-outside", ["§fence-confirm"],
            "Outside, then the same jitter with hysteresis 0: inside fixes alternate with outside ones, so no entry is ever confirmed.",
            request(trace, [site()], policy { $0.fenceHysteresisM = 0 }))
        trace = west(0)
        trace.stay(count: 2, stepMs: 5_000)
        trace.teleport(bearing: 90, metres: 500)
        trace.fix(stepMs: 5_000)
        trace.teleport(bearing: 270, metres: 500)
        trace.stay(count: 10, stepMs: 5_000)
        add(
            &builder, "hysteresis.exit-and-back-in-window", ["§fence-confirm", "§fence-hysteresis"],
            "Inside, one fix 300 m out, back in: the exit is pending for one fix and cancelled; no EXIT.",
            request(trace, [site()]))
    }

    // MARK: - Dwell

    static func dwell(_ builder: inout VectorBuilder) {
        var trace = enteringToStay()
        add(
            &builder, "dwell.after-enter", ["§fence-dwell", "§fence-event"],
            "loitering_delay_ms 120000: DWELL at the first fix 120 s after the stay began (the entry's first inside fix), with dwell_ms.",
            request(trace, [site(dwellMs: 120_000)]))
        trace = west(0)
        trace.stay(count: 30, stepMs: 10_000, driftM: 20)
        add(
            &builder, "dwell.after-state-inside", ["§fence-dwell", "§fence-state-report"],
            "Armed inside: the stay begins at the STATE_INSIDE fix; DWELL exactly 60 s later (at least loitering_delay_ms).",
            request(trace, [site(dwellMs: 60_000)]))
        add(
            &builder, "dwell.same-fix-as-enter", ["§fence-dwell", "§fence-order"],
            "loitering_delay_ms 10000 with a 20 s confirm time: the ENTER and the DWELL come from the same fix, ENTER first; dwell_ms is 20 s.",
            request(walkThrough(), [site(dwellMs: 10_000)]))
        add(
            &builder, "dwell.leaves-first", ["§fence-dwell"],
            "loitering_delay_ms 600000: the walk leaves before it, so no DWELL.",
            request(walkThrough(), [site(dwellMs: 600_000)]))
        trace = west(0)
        trace.stay(count: 20, stepMs: 10_000)
        trace.teleport(bearing: 90, metres: 800)
        trace.stay(count: 10, stepMs: 10_000)
        trace.teleport(bearing: 270, metres: 800)
        trace.stay(count: 20, stepMs: 10_000)
        add(
            &builder, "dwell.once-per-stay", ["§fence-dwell"],
            "DWELL once per stay: after 60 s of the first stay, and again after 60 s of the second, after an exit and an entry.",
            request(trace, [site(dwellMs: 60_000)]))
        // Inside from 0 to 50 s, then 400 m past the boundary at 60 s (S of an exit) and 70 s: a DWELL due at S
        // may come (were the exit confirmed, the stay ended there), one due later must wait.
        trace = west(0)
        trace.stay(count: 6, stepMs: 10_000)
        trace.teleport(bearing: 90, metres: 600)
        trace.stay(count: 2, stepMs: 10_000)
        var back = trace
        back.teleport(bearing: 270, metres: 600)
        back.stay(count: 3, stepMs: 10_000)
        trace.stay(count: 2, stepMs: 10_000)
        add(
            &builder, "dwell.on-exit-start", ["§fence-dwell-pending", "§fence-dwell", "§fence-confirm"],
            "loitering_delay_ms 60000, due at 60 s, the fix that starts a pending exit 400 m past the boundary: it reports the DWELL (dwell_ms 60 s); the EXIT confirmed at 80 s has os_event_time_ms at that fix, so the stay lasted the dwell.",
            request(trace, [site(dwellMs: 60_000)]))
        add(
            &builder, "dwell.not-while-exit-pending", ["§fence-dwell-pending", "§fence-dwell", "§fence-confirm"],
            "loitering_delay_ms 65000: due at 70 s, a fix that continues the exit pending since 60 s, so no DWELL there. The fix at 80 s is back inside and cancels the exit: DWELL there, dwell_ms 80 s.",
            request(back, [site(dwellMs: 65_000)]))
        add(
            &builder, "dwell.exit-confirmed-first", ["§fence-dwell-pending", "§fence-dwell", "§fence-confirm"],
            "loitering_delay_ms 65000, and the device stays out: the exit pending since 60 s is confirmed at 80 s, so the stay ended at 60 s, short of the delay: EXIT, and no DWELL.",
            request(trace, [site(dwellMs: 65_000)]))
        // loitering_delay_ms 0 is invalid for a dwell region, but the rule still reads: the stay's first fix is
        // already 0 ms into it.
        trace = west(0)
        trace.stay(count: 6, stepMs: 10_000, driftM: 20)
        add(
            &builder, "dwell.zero-delay-state-inside", ["§fence-dwell-zero", "§fence-dwell", "§fence-order"],
            "loitering_delay_ms 0, armed inside: the first fix reports STATE_INSIDE and then DWELL with dwell_ms 0; no second DWELL in the stay.",
            request(trace, [site(dwellMs: 0)]))
        add(
            &builder, "dwell.zero-delay-enter", ["§fence-dwell-zero", "§fence-dwell", "§fence-event"],
            "loitering_delay_ms 0 on the walk through the site: the fix that confirms the ENTER reports the DWELL too, with dwell_ms 20 s (the stay began at S).",
            request(walkThrough(), [site(dwellMs: 0)]))
    }

    // MARK: - Order and neighbours

    static func order(_ builder: inout VectorBuilder) {
        let west = RegionWriter.circle(
            "site:b-west", latitude: centerLatitude, longitude: centerLongitude - 0.003, radiusM: 110)
        let east = RegionWriter.circle(
            "site:a-east", latitude: centerLatitude, longitude: centerLongitude + 0.003, radiusM: 110)
        var trace = TraceWriter(latitude: centerLatitude, longitude: centerLongitude - 0.003)
        trace.stay(count: 2, stepMs: 5_000)
        trace.teleport(bearing: 90, metres: 470)
        trace.stay(count: 3, stepMs: 5_000)
        add(
            &builder, "order.adjacent", ["§fence-order"],
            "Two adjacent regions; one fix moves from the western to the eastern one (confirm 0, hysteresis 0): EXIT of site:b-west before ENTER of site:a-east, kinds before ids.",
            request(
                trace, [west, east],
                policy {
                    $0.fenceConfirmMs = 0
                    $0.fenceHysteresisM = 0
                }))
        let district = RegionWriter.circle(
            "district:old-town", latitude: centerLatitude, longitude: centerLongitude, radiusM: 1_500, level: .district)
        let shop = RegionWriter.circle(
            "shop:42", latitude: centerLatitude, longitude: centerLongitude + 0.001, radiusM: 60,
            parent: "district:old-town")
        trace = TraceWriter(latitude: centerLatitude, longitude: centerLongitude)
        trace.teleport(bearing: 270, metres: 2_500)
        trace.move(bearing: 90, metres: 12, count: 400, stepMs: 5_000)
        add(
            &builder, "order.nested", ["§fence-order", "§fence-confirm"],
            "A shop inside a district: the walk enters the district, then the shop, leaves the shop, later the district.",
            request(trace, [district, shop], policy { $0.fenceHysteresisM = 50 }))
        let regions = ["site:c", "site:a", "site:b"].map {
            RegionWriter.circle($0, latitude: centerLatitude, longitude: centerLongitude, radiusM: 155)
        }
        add(
            &builder, "order.same-fix-by-id", ["§fence-order"],
            "Three regions with the same circle: their events of one fix come in id order, site:a, site:b, site:c.",
            request(walkThrough(), regions))
        add(
            &builder, "order.sequence-numbers", ["§fence-order", "§fence-event"],
            "first_event_sequence 41 and assignment_version 7: events are numbered 41, 42, ... and carry version 7.",
            request(walkThrough(), regions, firstEventSequence: 41, assignmentVersion: 7))
    }

    // MARK: - Polygons, the antimeridian, the poles

    static func polygons(_ builder: inout VectorBuilder) {
        // An L: a 400 m square without its north-east quarter.
        func corner(_ north: Double, _ east: Double) -> (Double, Double) {
            let (lat, _) = TraceWriter.destination(
                latitude: centerLatitude, longitude: centerLongitude, bearing: 0, metres: north)
            let (_, lon) = TraceWriter.destination(
                latitude: centerLatitude, longitude: centerLongitude, bearing: 90, metres: east)
            return (lat, lon)
        }
        let ell = RegionWriter.polygon(
            "site:l-yard",
            [corner(-200, -200), corner(-200, 200), corner(0, 200), corner(0, 0), corner(200, 0), corner(200, -200)])
        var trace = TraceWriter(latitude: centerLatitude, longitude: centerLongitude)
        trace.teleport(bearing: 0, metres: 100)
        trace.teleport(bearing: 90, metres: 600)
        trace.move(bearing: 270, metres: 7, count: 160, stepMs: 5_000)
        add(
            &builder, "polygon.l-shape", ["§polygon-inside", "§region-inside", "§fence-confirm"],
            "An L-shaped yard: the walk 100 m north of the centre crosses the missing quarter (inside the circle, outside the polygon) before entering the western arm.",
            request(trace, [ell], policy { $0.fenceHysteresisM = 30 }))
        // The same walk backwards, with the clocks running forwards again.
        var reversed = trace
        reversed.fixes.reverse()
        var elapsed: UInt64 = 5_000_000
        var time = TraceWriter.start
        for index in reversed.fixes.indices {
            reversed.fixes[index].elapsedRealtimeMs = elapsed
            reversed.fixes[index].timeMs = time
            elapsed += 5_000
            time += 5_000
        }
        add(
            &builder, "polygon.edge-distance", ["§boundary-distance", "§fence-hysteresis"],
            "Leaving the L through the notch: the distance past the boundary is measured to the nearest edge in the tangent plane, not to the circle.",
            request(
                reversed, [ell], policy { $0.fenceHysteresisM = 80 }))
        // A 2 km square around a 200 m circle: every vertex lies outside the circle (invalid, polygon-outside-circle),
        // so the region is the circle, and the circle's term of the distance past the boundary decides the exit.
        var square = site(200, id: "site:square-yard")
        square.polygon =
            RegionWriter.polygon(
                "", [corner(-1_000, -1_000), corner(-1_000, 1_000), corner(1_000, 1_000), corner(1_000, -1_000)]
            ).polygon
        trace = west(3)
        trace.stay(count: 3, stepMs: 5_000)
        trace.move(bearing: 90, metres: 10, count: 35, stepMs: 5_000)
        trace.stay(count: 24, stepMs: 5_000)
        trace.move(bearing: 90, metres: 10, count: 35, stepMs: 5_000)
        trace.stay(count: 6, stepMs: 5_000)
        add(
            &builder, "polygon.vertex-outside-circle",
            ["§boundary-outside-circle", "§boundary-distance", "§fence-hysteresis"],
            "A 200 m circle inside a 2 km square polygon. The device walks from the centre to 347 m east and waits there 2 min, 147 m past the circle but 653 m inside the square: less than the 200 m hysteresis past the region, so no EXIT (the square's edges alone would say 653 m). Walking on, it is 207 m past the circle at 407 m, and the EXIT follows 20 s later.",
            request(trace, [square]))
        var farVertex = site(200, id: "site:far-vertex")
        farVertex.polygon =
            RegionWriter.polygon("", [corner(300, -300), corner(300, 300), (-centerLatitude, centerLongitude - 180)])
            .polygon
        add(
            &builder, "polygon.far-hemisphere-vertex", ["§polygon-unprojectable", "§polygon-inside"],
            "A triangle with a vertex at the centre's antipode, which the tangent plane cannot hold: the polygon is ignored, and the walk enters and leaves the 200 m circle as if it had none.",
            request(walkThrough(), [farVertex]))
        let hexagon = RegionWriter.regularPolygon(
            "site:hex", latitude: centerLatitude, longitude: centerLongitude, radiusM: 250, sides: 6, rotation: 15,
            dwellMs: 60_000)
        add(
            &builder, "polygon.hexagon-dwell", ["§polygon-inside", "§fence-dwell"],
            "A hexagon with dwell: the walk through it enters, dwells and leaves.",
            request(walkThrough(), [hexagon], policy { $0.fenceConfirmMs = 10_000 }))
        // The antimeridian: a square straddling 180°.
        let fiji = RegionWriter.polygon(
            "island:taveuni-east", [(-16.85, 179.99), (-16.85, -179.99), (-16.87, -179.99), (-16.87, 179.99)])
        trace = TraceWriter(latitude: -16.86, longitude: 179.97)
        trace.move(bearing: 90, metres: 40, count: 160, stepMs: 5_000)
        add(
            &builder, "polygon.antimeridian", ["§polygon-inside", "§region-inside", "§distance"],
            "A polygon straddling the antimeridian, crossed eastwards from 179.97° to -179.97°: the gnomonic test has no seam there.",
            request(trace, [fiji], policy { $0.fenceHysteresisM = 100 }))
        let pole = RegionWriter.regularPolygon(
            "station:north-pole", latitude: 89.995, longitude: 0, radiusM: 600, sides: 5)
        trace = TraceWriter(latitude: 89.98, longitude: 0)
        trace.move(bearing: 0, metres: 20, count: 90, stepMs: 5_000)
        // Past the pole the longitude is 180° and going on means heading south.
        trace.move(bearing: 180, metres: 20, count: 110, stepMs: 5_000)
        add(
            &builder, "polygon.pole", ["§polygon-inside", "§distance"],
            "A pentagon around a centre 556 m from the north pole, holding the pole; the walk crosses the pole (longitudes flip by 180°) and leaves on the other side.",
            request(trace, [pole], policy { $0.fenceHysteresisM = 100 }))
        trace = TraceWriter(latitude: 78.22, longitude: 15.60)
        trace.move(bearing: 45, metres: 10, count: 120, stepMs: 5_000)
        add(
            &builder, "circle.high-latitude", ["§region-inside", "§distance"],
            "A circle in Longyearbyen (78° N), where a degree of longitude is 23 km: distances on the sphere, not in degrees.",
            request(
                trace, [RegionWriter.circle("site:longyearbyen", latitude: 78.2235, longitude: 15.6135, radiusM: 250)],
                policy { $0.fenceHysteresisM = 80 }))
        trace = TraceWriter(latitude: 0.001, longitude: 179.998)
        trace.move(bearing: 90, metres: 15, count: 40, stepMs: 5_000)
        add(
            &builder, "circle.antimeridian", ["§region-inside", "§distance"],
            "A circle centred on the antimeridian at the equator, crossed eastwards.",
            request(
                trace, [RegionWriter.circle("buoy:date-line", latitude: 0.001, longitude: 180, radiusM: 150)],
                policy { $0.fenceHysteresisM = 50 }))
    }

    // MARK: - Arming, disarming, expiry

    static func arming(_ builder: inout VectorBuilder) {
        var expiring = site()
        expiring.expiresAtMs = TraceWriter.start + 300_000
        add(
            &builder, "expiry.while-inside", ["§fence-expiry"],
            "The region expires (wall clock) while the walk is inside: disarmed silently, no EXIT, nothing after.",
            request(walkThrough(), [expiring]))
        // An assignment that expires 5 minutes in, holding the site (no expiry of its own) and a second region
        // expiring earlier still; FenceRequest has no assignment, so the regions carry what it gives them.
        var assignment = RegionAssignment()
        assignment.expiresAtMs = TraceWriter.start + 300_000
        var early = site(400, id: "site:early")
        early.expiresAtMs = TraceWriter.start + 240_000
        add(
            &builder, "expiry.assignment", ["§fence-assignment", "§fence-expiry"],
            "The assignment expires 300 s in, while the walk is inside site:depot, which has no expiry of its own: it expires with the assignment, silently. site:early (its own expiry 240 s) keeps the earlier time.",
            request(walkThrough(), FenceEngine.regions([site(), early], armedBy: assignment)))
        assignment.monitoringEnabled = false
        add(
            &builder, "expiry.monitoring-off", ["§fence-assignment"],
            "monitoring_enabled false: the assignment arms nothing, so the walk reports nothing, not even state reports.",
            request(walkThrough(), FenceEngine.regions([site(), early], armedBy: assignment)))
        var ignored = walkThrough()
        ignored.fixes[40].timeMs += 86_400_000
        ignored.fixes[40].horizontalAccuracyCm = 50_000
        add(
            &builder, "expiry.uncounted-fix", ["§fence-expiry", "§fence-gate"],
            "Fix 40 does not count (500 m accuracy) and carries a wall clock a day ahead: expiry is checked only before a counted fix, so the region stays armed and the walk enters and leaves it.",
            request(ignored, [expiring]))
        var trace = walkThrough()
        for index in 50..<trace.fixes.count { trace.fixes[index].timeMs += 86_400_000 }
        expiring.expiresAtMs = TraceWriter.start + 3_600_000
        add(
            &builder, "expiry.wall-clock-jump", ["§fence-expiry"],
            "The wall clock jumps a day ahead at fix 50: expiry is a wall-clock time, so the region expires then.",
            request(trace, [expiring]))
        add(
            &builder, "arming.disarm", ["§fence-expiry", "§fence-state-report"],
            "Disarmed at fix 90, while inside: no EXIT, nothing more.",
            request(walkThrough(), [site()], arming: [90: arm(disarm: ["site:depot", "site:never-armed"])]))
        add(
            &builder, "arming.rearm-same", ["§fence-state-report"],
            "Re-armed at fix 90 with the identical definition: its state stays, no new state report.",
            request(walkThrough(), [site()], arming: [90: arm([site()])]))
        var newer = site(255)
        newer.version = 2
        add(
            &builder, "arming.rearm-new-version", ["§fence-state-report"],
            "Re-armed at fix 90 with version 2 (255 m): the state becomes unknown; the next fix reports STATE_INSIDE.",
            request(walkThrough(), [site()], arming: [90: arm([newer])]))
        add(
            &builder, "arming.disarm-and-arm-one-step", ["§fence-state-report"],
            "One step disarms site:depot and arms it again with the same definition: disarms first, then arms, so it ends armed and unknown, and the next fix reports its state again.",
            request(walkThrough(), [site()], arming: [90: arm([site()], disarm: ["site:depot"])]))
        var degenerate = site()
        var line = Polygon()
        line.latitudesE7 = [453_790_000, 453_810_000]
        line.longitudesE7 = [141_440_000, 141_460_000]
        degenerate.polygon = line
        add(
            &builder, "polygon.degenerate", ["§polygon-inside", "§region-inside"],
            "A polygon of two vertices (invalid, but possible on the wire) is ignored: the region is its circle, and the walk enters and leaves it.",
            request(walkThrough(), [degenerate]))
        var noCentre = site(id: "site:no-centre")
        noCentre.circle!.centerLongitudeE7 = nil
        add(
            &builder, "arming.no-centre", ["§fence-state-report"],
            "A region without a circle centre cannot be armed: it reports nothing; the other region works as usual.",
            request(walkThrough(), [noCentre, site()]))
        add(
            &builder, "arming.mid-trace", ["§fence-state-report", "§fence-confirm"],
            "Nothing armed at first; the site is armed at fix 60, while inside: STATE_INSIDE, then an EXIT.",
            request(walkThrough(), [], arming: [60: arm([site()])]))
    }

    // MARK: - Clocks and reboots

    /// `request` with the app killed and relaunched before each of the steps `indices` (`§fence-relaunch`).
    static func relaunching(_ request: FenceRequest, before indices: [Int]) -> FenceRequest {
        var request = request
        request.relaunchBefore = indices.map { UInt32($0) }
        return request
    }

    static func relaunches(_ builder: inout VectorBuilder) {
        var trace = leavingTheSite(fixesOutside: 8)
        add(
            &builder, "relaunch.pending-exit", ["§fence-relaunch", "§fence-confirm"],
            "Inside, then 600 m east: an exit is pending from fix 4 and confirmed 20 s later at fix 8. The app is relaunched before fixes 5 and 7, while it is pending: its start S survives, so the EXIT comes at fix 8 with os_event_time_ms at fix 4.",
            relaunching(request(trace, [site()]), before: [5, 7]))
        trace = leavingTheSite(fixesOutside: 2)
        trace.reboot(after: 10_000)
        trace.stay(count: 10, stepMs: 5_000)
        add(
            &builder, "relaunch.then-reboot", ["§relaunch-boot", "§fence-relaunch", "§fence-state-report"],
            "reboot.pending-exit relaunched before fix 5 (an exit pending) and before fix 6, the new boot's first: the restored engine sees the boot change, forgets the pending exit and reports STATE_OUTSIDE.",
            relaunching(request(trace, [site()]), before: [5, 6]))
        trace = enteringToStay()
        add(
            &builder, "relaunch.dwell-wait", ["§fence-relaunch", "§fence-dwell"],
            "dwell.after-enter relaunched before fixes 22 (an entry pending), 30 and 40 (inside, waiting for the 120 s loitering delay): the stay start survives, so the DWELL comes at the same fix with the same dwell_ms.",
            relaunching(request(trace, [site(dwellMs: 120_000)]), before: [22, 30, 40]))
        let walk = request(
            walkThrough(), [site(dwellMs: 10_000)],
            arming: [60: arm([site(300, id: "site:yard")]), 120: arm(disarm: ["site:depot"])],
            firstEventSequence: 40, assignmentVersion: 3)
        add(
            &builder, "relaunch.every-step", ["§fence-relaunch", "§fence-order"],
            "A walk through the site with a dwell and arming changes, relaunched before every step: the events and their sequence numbers are those without the relaunches.",
            relaunching(walk, before: Array(walk.steps.indices)))
    }

    /// Inside the site (4 fixes, STATE_INSIDE at the first), then 600 m east: `fixesOutside` fixes, 5 s apart, far
    /// enough past the boundary to start an exit.
    static func leavingTheSite(fixesOutside: Int) -> TraceWriter {
        var trace = west(0)
        trace.stay(count: 4, stepMs: 5_000)
        trace.teleport(bearing: 90, metres: 600)
        trace.stay(count: fixesOutside, stepMs: 5_000)
        return trace
    }

    /// From 405 m west into the site at 2 m/s (the entry's first inside fix is fix 20), then 300 s standing in it
    /// with 20 m of drift.
    static func enteringToStay() -> TraceWriter {
        var trace = west(405)
        trace.move(bearing: 90, metres: 10, count: 40, stepMs: 5_000)
        trace.stay(count: 60, stepMs: 5_000, driftM: 20)
        return trace
    }

    static func clocks(_ builder: inout VectorBuilder) {
        var trace = west(0)
        trace.stay(count: 10, stepMs: 5_000)
        trace.reboot()
        trace.stay(count: 10, stepMs: 5_000)
        add(
            &builder, "reboot.inside", ["§fence-state-report"],
            "A reboot inside the region: the OS forgot it, so the new boot's first fix reports STATE_INSIDE again.",
            request(trace, [site(dwellMs: 30_000)]))
        trace = leavingTheSite(fixesOutside: 2)
        trace.reboot(after: 10_000)
        trace.stay(count: 10, stepMs: 5_000)
        add(
            &builder, "reboot.pending-exit", ["§fence-state-report", "§fence-confirm"],
            "An exit pending at the reboot is forgotten: the new boot reports STATE_OUTSIDE instead of an EXIT.",
            request(trace, [site()]))
        trace = walkThrough()
        for index in 66..<trace.fixes.count { trace.fixes[index].timeMs -= 3_600_000 }
        add(
            &builder, "clock.wall-jump-back", ["§fence-event", "§fence-confirm"],
            "The wall clock jumps back an hour during the entry's confirmation: os_event_time_ms is computed on the monotonic clock from the confirming fix, so it stays before detected_at_ms.",
            request(trace, [site()]))
        trace = walkThrough()
        trace.fixes[66].elapsedRealtimeMs = nil
        trace.fixes[67].elapsedRealtimeMs = trace.fixes[65].elapsedRealtimeMs
        add(
            &builder, "clock.uncounted", ["§fence-gate"],
            "A fix without monotonic time and one not after the previous counted fix: neither counts.",
            request(trace, [site()]))
        // A region on the equator, and a device 1.1 km north of it whose fixes lose their latitude: read as 0, they
        // put the device inside.
        trace = TraceWriter(latitude: 0.01, longitude: centerLongitude)
        trace.stay(count: 3, stepMs: 5_000)
        let firstWithoutLatitude = trace.fixes.count
        trace.stay(count: 6, stepMs: 5_000)
        for index in firstWithoutLatitude..<trace.fixes.count { trace.fixes[index].latitudeE7 = nil }
        let equator = RegionWriter.circle("site:equator", latitude: 0, longitude: centerLongitude, radiusM: 200)
        add(
            &builder, "clock.missing-latitude", ["§fence-missing-coordinate", "§fence-gate"],
            "1.1 km north of a region on the equator: STATE_OUTSIDE; then the fixes lose their latitude, which reads as 0, and the region is entered.",
            request(trace, [equator]))
    }

    // MARK: - Real traces

    static func realTraces(_ builder: inout VectorBuilder) {
        let korita = builder.inputs.korita
        var trace = TraceWriter()
        trace.fixes = korita
        func around(_ index: Int) -> (Double, Double) {
            (Double(korita[index].latitudeE7!) * 1e-7, Double(korita[index].longitudeE7!) * 1e-7)
        }
        let (startLatitude, startLongitude) = around(0)
        let regions = [
            RegionWriter.circle(
                "trail:start", latitude: startLatitude, longitude: startLongitude, radiusM: 300, dwellMs: 120_000),
            RegionWriter.circle("trail:ridge", latitude: around(150).0, longitude: around(150).1, radiusM: 200),
            RegionWriter.circle(
                "trail:spring", latitude: around(300).0 + 0.001, longitude: around(300).1, radiusM: 250,
                dwellMs: 300_000),
            RegionWriter.regularPolygon(
                "trail:meadow", latitude: around(420).0, longitude: around(420).1, radiusM: 350, sides: 7),
            RegionWriter.circle(
                "trail:summit-area", latitude: around(250).0, longitude: around(250).1, radiusM: 2_000, level: .district
            ),
        ]
        add(
            &builder, "real.korita-default",
            ["§fence-confirm", "§fence-hysteresis", "§fence-dwell", "§fence-state-report"],
            "A real track: \(RealTraces.koritaSource), against five regions placed along it (circles, a heptagon, a large area), under the default fence policy.",
            request(trace, regions))
        add(
            &builder, "real.korita-tight", ["§fence-confirm", "§fence-hysteresis"],
            "The same track and regions with hysteresis 25 m and confirm 0: the jitter of a real GPS track at the boundaries shows.",
            request(
                trace, regions,
                policy {
                    $0.fenceHysteresisM = 25
                    $0.fenceConfirmMs = 0
                }))
        add(
            &builder, "real.korita-slow-confirm", ["§fence-confirm"],
            "The same with confirm 60 s: transitions shorter than a minute disappear.",
            request(trace, regions, policy { $0.fenceConfirmMs = 60_000 }))
        var meadowVersion2 = regions[3]
        meadowVersion2.version = 2
        add(
            &builder, "real.korita-rearm", ["§fence-state-report", "§fence-expiry"],
            "The same, with the regions re-armed at point 200 (ridge and spring disarmed, the meadow at version 2).",
            request(
                trace, regions,
                arming: [
                    200: arm(
                        [
                            meadowVersion2
                        ], disarm: ["trail:ridge", "trail:spring"])
                ]))
    }

    // MARK: - Seeded random traces

    static func randomTraces(_ builder: inout VectorBuilder) {
        for seed in 1...64 {
            var random = SeededRandom(seed: UInt64(seed) &* 0xF3C3_5A1D)
            let latitude = random.uniform(-70, 70)
            let longitude = random.uniform(-179.9, 179.9)
            var trace = TraceWriter(latitude: latitude, longitude: longitude, seed: UInt64(seed))
            var regions: [Region] = []
            for number in 0..<(2 + random.index(10)) {
                let (lat, lon) = TraceWriter.destination(
                    latitude: latitude, longitude: longitude, bearing: random.uniform(0, 360),
                    metres: random.uniform(0, 1_500))
                let id = "site:r\(seed)-\(number)"
                var region =
                    random.index(3) == 0
                    ? RegionWriter.regularPolygon(
                        id, latitude: lat, longitude: lon, radiusM: random.uniform(60, 500), sides: 3 + random.index(9),
                        rotation: random.uniform(0, 360))
                    : RegionWriter.circle(id, latitude: lat, longitude: lon, radiusM: UInt32(random.uniform(40, 600)))
                region.notifyOnEntry = random.index(4) != 0
                region.notifyOnExit = random.index(4) != 0
                if random.index(3) == 0 {
                    region.notifyOnDwell = true
                    region.loiteringDelayMs = UInt32(random.uniform(1_000, 300_000))
                }
                if !region.notifyOnEntry && !region.notifyOnExit && !region.notifyOnDwell { region.notifyOnExit = true }
                if random.index(6) == 0 {
                    region.expiresAtMs = TraceWriter.start + Int64(random.uniform(60_000, 3_600_000))
                }
                regions.append(region)
            }
            var bearing = random.uniform(0, 360)
            for _ in 0..<(4 + random.index(6)) {
                bearing += random.uniform(-90, 90)
                switch random.index(6) {
                case 0:
                    trace.move(
                        bearing: bearing, metres: random.uniform(5, 20), count: 10 + random.index(40), stepMs: 5_000)
                case 1:
                    trace.move(
                        bearing: bearing, metres: random.uniform(0.5, 2), count: 10 + random.index(40), stepMs: 2_000,
                        jitterM: 40)
                case 2: trace.stay(count: 10 + random.index(40), stepMs: 10_000, driftM: random.uniform(0, 40))
                case 3: trace.gap(UInt64(random.index(600_000)))
                case 4:
                    trace.move(
                        bearing: bearing, metres: random.uniform(20, 40), count: 10 + random.index(30), stepMs: 1_000)
                default:
                    if random.index(2) == 0 {
                        trace.reboot()
                    } else {
                        trace.jumpWallClock(Int64(random.index(3_600_000)) - 1_800_000)
                    }
                }
            }
            for index in trace.fixes.indices where random.index(10) == 0 {
                trace.fixes[index].horizontalAccuracyCm = UInt32(random.uniform(1, 50_000))
            }
            var arming: [Int: FenceArming] = [:]
            if random.index(3) == 0, trace.fixes.count > 10, let victim = regions.randomElement(using: &random) {
                arming[random.index(trace.fixes.count)] = arm(disarm: [victim.id])
            }
            let policy = policy {
                $0.fenceHysteresisM = UInt32(random.uniform(0, 300))
                $0.fenceConfirmMs = UInt32(random.uniform(0, 60_000))
                $0.fenceMaxAccuracyCm = UInt32(random.uniform(2_000, 30_000))
            }
            add(
                &builder, "random.seed-\(seed)",
                [
                    "§fence-confirm", "§fence-hysteresis", "§fence-dwell", "§fence-gate", "§fence-expiry",
                    "§polygon-inside",
                ],
                "A seeded random trace (seed \(seed)) against \(regions.count) random circles and polygons: walks, jittery wandering, stops with drift, gaps, drives, reboots and wall-clock jumps, random accuracies, a random policy.",
                request(trace, regions, policy, arming: arming, firstEventSequence: UInt64(random.index(1_000))))
        }
    }
}
