import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireRandom

/// Family `recording`: which fixes a device records, with which reason, which it drops and why, and when its
/// batches go out (proto/BEHAVIOR.md "Recording" and "Upload scheduling").
enum RecordingFamily: VectorFamily {
    static let name = "recording"
    static let description = """
        A device's recording engine and upload timer (FEATURE_RECORDING, proto/BEHAVIOR.md "Recording" and \
        "Upload scheduling"): fixes as the OS delivers them, under one policy, and the whole outcome: the fixes \
        recorded with their reasons, the fixes dropped with the stage's code, and every upload attempt. Covers \
        the accuracy filter, the clocks, requested fixes, the motion state machine, heartbeats, the best fix per \
        window, the duty cycle, reboots, wall-clock jumps, GPS jumps, urban canyons, tunnels, back-off, real \
        traces and seeded random commutes.
        """

    static var sections: [VectorFamilySection] {
        [
            filter, requested, motion, stationary, window, dutyCycle, clocks, hazards, uploads, realTraces, commutes,
            relaunches,
        ]
    }

    static func policy(_ configure: (inout TrackingPolicy) -> Void = { _ in }) -> TrackingPolicy {
        var policy = TrackingPolicy()
        policy.policyVersion = 1
        configure(&policy)
        return policy
    }

    static func request(
        _ trace: TraceWriter, _ policy: TrackingPolicy? = nil, results: [UploadAttemptResult.Result] = []
    ) -> RecordingRequest {
        var request = RecordingRequest()
        request.policy = policy
        request.fixes = trace.fixes
        request.uploadResults = results.map { UploadAttemptResult($0) }
        return request
    }

    static func add(
        _ builder: inout VectorBuilder, _ id: String, _ rules: [String], _ comment: String, _ request: RecordingRequest
    ) {
        var withoutRelaunches = request
        withoutRelaunches.relaunchBefore = []
        builder.behavior(
            "recording." + id, rules: rules, comment, request, slackRun: { BuiltinTestee().run($0, slackM: $1) },
            equivalent: request.relaunchBefore.isEmpty ? nil : withoutRelaunches)
    }

    /// A walk east at 1.3 m/s, one fix every 10 s (13 m apart): slow, so recorded by distance every fourth fix.
    static func walk(_ count: Int = 12, seed: UInt64 = 1) -> TraceWriter {
        var trace = TraceWriter(seed: seed)
        trace.move(bearing: 90, metres: 13, count: count, stepMs: 10_000)
        return trace
    }

    // MARK: - Stages 1 to 4

    static func filter(_ builder: inout VectorBuilder) {
        var trace = walk()
        trace.fixes[4].horizontalAccuracyCm = nil
        add(
            &builder, "filter.accuracy-absent", ["§rec-filter"],
            "Fix 4 has no horizontal accuracy: dropped (`accuracy`). The distance rule then measures from the last recorded fix, so fix 5 is the next one recorded.",
            request(trace))
        trace = walk()
        trace.fixes[4].horizontalAccuracyCm = 0
        add(
            &builder, "filter.accuracy-zero", ["§rec-filter"], "Fix 4 has accuracy 0: dropped (`accuracy`).",
            request(trace))
        trace = walk()
        trace.fixes[4].horizontalAccuracyCm = 200_000
        trace.fixes[8].horizontalAccuracyCm = 199_999
        add(
            &builder, "filter.accuracy-at-limit", ["§rec-filter"],
            "Default limit 200000 cm: fix 4 at exactly the limit is dropped, fix 8 one centimetre under it passes.",
            request(trace))
        trace = walk()
        for index in [2, 3, 5] { trace.fixes[index].horizontalAccuracyCm = 1_500 }
        add(
            &builder, "filter.policy-limit", ["§rec-filter"],
            "max_horizontal_accuracy_cm 1000: the three fixes with 15 m accuracy are dropped.",
            request(trace, policy { $0.maxHorizontalAccuracyCm = 1_000 }))
        trace = walk()
        trace.fixes[3].latitudeE7 = 0
        trace.fixes[3].longitudeE7 = 0
        trace.fixes[6].latitudeE7 = 0
        trace.fixes[6].longitudeE7 = 0
        trace.fixes[6].horizontalAccuracyCm = 0
        add(
            &builder, "filter.null-island", ["§rec-filter", "§rec-filter-order"],
            "Fix 3 lies at exactly (0, 0): `null-island`. Fix 6 does too but also has accuracy 0: the first stage that drops it names it, `accuracy`.",
            request(trace))
        trace = walk()
        trace.fixes[2].elapsedRealtimeMs = nil
        add(
            &builder, "clock.no-elapsed", ["§rec-clock"],
            "Fix 2 has no elapsed_realtime_ms: the monotonic clock is every rule's clock, so it is dropped (`no-elapsed-time`).",
            request(trace))
        trace = walk()
        trace.fixes[5].elapsedRealtimeMs = trace.fixes[4].elapsedRealtimeMs
        trace.fixes[7].elapsedRealtimeMs = trace.fixes[6].elapsedRealtimeMs! - 1
        add(
            &builder, "clock.not-after-previous", ["§rec-clock"],
            "Fix 5 repeats fix 4's monotonic time and fix 7 is 1 ms before fix 6's: both `not-after-previous`.",
            request(trace))
        trace = walk()
        trace.fixes[3].elapsedRealtimeMs = trace.fixes[2].elapsedRealtimeMs! - 5_000
        trace.fixes[3].horizontalAccuracyCm = nil
        add(
            &builder, "clock.before-filter", ["§rec-clock", "§rec-filter"],
            "Fix 3 is both out of order and without accuracy: the clock stage comes first, `not-after-previous`.",
            request(trace))
        add(
            &builder, "enabled.off", ["§rec-enabled"],
            "tracking_enabled false: every fix is dropped (`tracking-disabled`), nothing is uploaded.",
            request(walk(), policy { $0.trackingEnabled = false }))
        trace = walk()
        trace.fixes[1].elapsedRealtimeMs = nil
        add(
            &builder, "enabled.off-clock-first", ["§rec-enabled", "§rec-clock"],
            "With tracking off, a fix without monotonic time still reports the earlier stage's code, `no-elapsed-time`.",
            request(trace, policy { $0.trackingEnabled = false }))
    }

    // MARK: - Stage 5

    static func requested(_ builder: inout VectorBuilder) {
        let reasons: [(FixReason, String)] = [
            (.regionEvent, "region-event"), (.visit, "visit"), (.significantChange, "significant-change"),
            (.manual, "manual"), (.serverRequest, "server-request"), (.providerChange, "provider-change"),
            (.systemRelaunch, "system-relaunch"),
        ]
        for (reason, name) in reasons {
            var trace = TraceWriter()
            trace.stay(count: 30, stepMs: 20_000, driftM: 5)
            trace.fixes[20].reason = reason
            add(
                &builder, "requested.\(name)", ["§rec-requested", "§rec-stationary"],
                "Standing still: after the stop timeout nothing is recorded, but fix 20 arrives with reason \(reason.name ?? "?") and is recorded at once with that reason.",
                request(trace))
        }
        for (reason, name) in [
            (FixReason.periodic, "periodic"), (.heartbeat, "heartbeat"), (.motionStop, "motion-stop"),
        ] {
            var trace = walk()
            trace.fixes[5].reason = reason
            add(
                &builder, "requested.ignored-\(name)", ["§rec-requested"],
                "Fix 5 arrives with reason \(reason.name ?? "?"), which the motion rules own: the reason is ignored and the fix goes through them like any other.",
                request(trace))
        }
        var trace = walk()
        trace.fixes[0].reason = .manual
        add(
            &builder, "requested.before-first", ["§rec-requested", "§rec-first"],
            "The first fix is a MANUAL one: recorded as such; the motion rules start at fix 1, with MOTION_START, and measure distance from the manual fix.",
            request(trace))
        trace = walk()
        trace.fixes[6].reason = .serverRequest
        trace.fixes[6].horizontalAccuracyCm = 400_000
        add(
            &builder, "requested.filtered", ["§rec-requested", "§rec-filter"],
            "A requested fix still passes the accuracy filter first: fix 6 (SERVER_REQUEST, 4 km accuracy) is dropped.",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 40, stepMs: 1_000)
        trace.fixes[13].reason = .visit
        add(
            &builder, "requested.resets-time-rule", ["§rec-requested", "§rec-stationary"],
            "Driving at 15 m/s: PERIODIC every 10 s, but the VISIT fix at 13 s becomes the last recorded fix, so the next PERIODIC comes 10 s after it.",
            request(trace))
    }

    // MARK: - Stage 7: moving

    static func motion(_ builder: inout VectorBuilder) {
        var trace = TraceWriter()
        trace.move(bearing: 45, metres: 15, count: 35, stepMs: 1_000)
        add(
            &builder, "motion.fast-by-time", ["§rec-first", "§rec-stationary", "§rec-speed"],
            "Driving at 15 m/s with 1 s fixes: the first is MOTION_START, then PERIODIC every 10 s exactly (the time rule is at least time_interval_ms).",
            request(trace))
        add(
            &builder, "motion.fast-custom-interval", ["§rec-stationary"],
            "time_interval_ms 3000 with fixes every second: PERIODIC every third fix.",
            request(trace, policy { $0.timeIntervalMs = 3_000 }))
        trace = TraceWriter()
        trace.move(bearing: 45, metres: 15, count: 30, stepMs: 1_300)
        add(
            &builder, "motion.fast-uneven", ["§rec-stationary"],
            "Fixes every 1.3 s: PERIODIC at the first fix at least 10 s after the last recorded one (10.4 s).",
            request(trace))
        add(
            &builder, "motion.slow-by-distance", ["§rec-stationary", "§rec-speed", "§distance"],
            "Walking at 1.3 m/s, fixes 13 m apart: DISTANCE at the first fix at least 50 m from the last recorded one, every fourth fix (52 m).",
            request(walk(20)))
        add(
            &builder, "motion.distance-zero", ["§rec-stationary"],
            "distance_interval_m 0: every fix of a slow walk is recorded.",
            request(walk(8), policy { $0.distanceIntervalM = 0 }))
        add(
            &builder, "motion.distance-custom", ["§rec-stationary", "§distance"],
            "distance_interval_m 30: DISTANCE every third fix (39 m).",
            request(walk(15), policy { $0.distanceIntervalM = 30 }))
        trace = TraceWriter()
        trace.move(bearing: 180, metres: 30, count: 12, stepMs: 10_000)
        for index in trace.fixes.indices { trace.fixes[index].speedCmS = 300 }
        add(
            &builder, "motion.speed-at-threshold", ["§rec-speed"],
            "Every fix reports exactly 300 cm/s, the threshold: not above it, so slow: DISTANCE every other fix (60 m).",
            request(trace))
        for index in trace.fixes.indices { trace.fixes[index].speedCmS = 301 }
        add(
            &builder, "motion.speed-above-threshold", ["§rec-speed"],
            "The same fixes at 301 cm/s: fast, so PERIODIC every fix (10 s apart).", request(trace))
        trace = TraceWriter()
        trace.move(bearing: 270, metres: 15, count: 30, stepMs: 1_000, withSpeed: false)
        add(
            &builder, "motion.derived-fast", ["§rec-speed"],
            "No speed on any fix: the speed from the previous fix, 15 m in 1 s = 1500 cm/s, is fast: PERIODIC every 10 s. The first fix has no previous one.",
            request(trace))
        add(
            &builder, "motion.derived-slow", ["§rec-speed", "§distance"],
            "A walk without speeds: 13 m in 10 s = 130 cm/s, slow: DISTANCE.",
            request(
                {
                    var trace = TraceWriter()
                    trace.move(bearing: 90, metres: 13, count: 15, stepMs: 10_000, withSpeed: false)
                    return trace
                }()))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 2, count: 10, stepMs: 1_000, withSpeed: false)
        trace.move(bearing: 0, metres: 40, count: 20, stepMs: 1_000, withSpeed: false)
        add(
            &builder, "motion.derived-speeds-up", ["§rec-speed"],
            "Walking at 2 m/s (slow, by distance), then driving at 40 m/s without speeds: fast from the first fix of the drive, by time.",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 5, count: 24, stepMs: 2_000)
        for index in trace.fixes.indices { trace.fixes[index].speedCmS = 400 }
        trace.fixes[4].speedCmS = nil
        trace.fixes[15].speedCmS = nil
        add(
            &builder, "motion.derived-mixed", ["§rec-speed"],
            "Reported speeds of 400 cm/s (fast, by time) except fixes 4 and 15, whose derived speed (5 m in 2 s = 250 cm/s) is slow: they are judged by distance.",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 90, metres: 13, count: 8, stepMs: 10_000)
        trace.fixes[3].horizontalAccuracyCm = 500_000
        trace.fixes[4].speedCmS = nil
        add(
            &builder, "motion.derived-after-drop", ["§rec-speed", "§rec-filter"],
            "Fix 4 has no speed; fix 3 was dropped by the filter, so the derived speed measures from fix 2 (26 m in 20 s).",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 10, metres: 20, count: 30, stepMs: 10_000)
        add(
            &builder, "motion.anchor-moves", ["§rec-stationary", "§rec-motion"],
            "Moving 20 m per fix at 2 m/s with a 25 m stationary radius: each fix is within the radius of the anchor only every other time, so the stop timeout never runs out; DISTANCE every third fix (60 m).",
            request(trace))
    }

    // MARK: - Stage 7: stationary

    static func stationary(_ builder: inout VectorBuilder) {
        var trace = walk(6)
        trace.stay(count: 40, stepMs: 10_000)
        add(
            &builder, "stationary.stop", ["§rec-stationary"],
            "A walk, then standing still with fixes every 10 s: the anchor is the first fix of the stay; the fix 300 s after it is recorded MOTION_STOP; then nothing.",
            request(trace))
        trace = walk(6)
        trace.stay(count: 40, stepMs: 10_000)
        trace.move(bearing: 90, metres: 13, count: 8, stepMs: 10_000)
        add(
            &builder, "stationary.restart", ["§rec-heartbeat", "§rec-stationary"],
            "After the stop, walking on: the first fix more than 25 m from the anchor is MOTION_START, then DISTANCE again.",
            request(trace))
        trace = walk(6)
        trace.stay(count: 60, stepMs: 10_000, driftM: 20)
        add(
            &builder, "stationary.drift", ["§rec-heartbeat", "§rec-stationary"],
            "Standing still with GPS drift of up to 20 m: within the 25 m radius, so the drift never wakes the device (fixes are measured from the anchor, not from each other).",
            request(trace))
        add(
            &builder, "stationary.heartbeat", ["§rec-heartbeat"],
            "heartbeat_interval_ms 60000: while stationary, a HEARTBEAT at the first fix at least 60 s after the last recorded one.",
            request(trace, policy { $0.heartbeatIntervalMs = 60_000 }))
        add(
            &builder, "stationary.heartbeat-zero", ["§rec-heartbeat"],
            "heartbeat_interval_ms 0: no heartbeats.", request(trace, policy { $0.heartbeatIntervalMs = 0 }))
        add(
            &builder, "stationary.stop-timeout-zero", ["§rec-stationary"],
            "stop_timeout_ms 0: the first fix within the radius of the anchor stops the device (MOTION_STOP).",
            request(trace, policy { $0.stopTimeoutMs = 0 }))
        add(
            &builder, "stationary.stop-timeout-custom", ["§rec-stationary"],
            "stop_timeout_ms 60000 and a 50 m radius.",
            request(
                trace,
                policy {
                    $0.stopTimeoutMs = 60_000
                    $0.stationaryRadiusM = 50
                }))
        trace = TraceWriter()
        trace.move(bearing: 200, metres: 0.7, count: 60, stepMs: 10_000)
        add(
            &builder, "stationary.creeping", ["§rec-stationary", "§rec-motion"],
            "Creeping at 7 cm/s: 21 m per 300 s stays within the radius of the anchor, so the device stops; it wakes once the anchor is 25 m away.",
            request(trace))
        trace = walk(4)
        trace.stay(count: 12, stepMs: 30_000)
        trace.fixes[12].horizontalAccuracyCm = 5_000
        trace.teleport(bearing: 0, metres: 0)
        add(
            &builder, "stationary.heartbeat-moving", ["§rec-heartbeat", "§rec-stationary"],
            "heartbeat_interval_ms 20000 with a walk: heartbeats happen only while stationary; moving fixes follow the time or distance rule.",
            request(trace, policy { $0.heartbeatIntervalMs = 20_000 }))
    }

    // MARK: - Stage 6

    static func window(_ builder: inout VectorBuilder) {
        var trace = mixedAccuracyWalk()
        add(
            &builder, "window.best-per-window", ["§rec-window", "§rec-stationary"],
            "fix_window_ms 60000, fixes every 5 s at 3 m/s (the speed threshold, so slow, by distance): one fix per minute goes on, the most accurate; the others are `window-not-best`.",
            request(trace, policy { $0.fixWindowMs = 60_000 }))
        trace = TraceWriter()
        for index in 0..<24 {
            trace.move(bearing: 0, metres: 30, count: 1, stepMs: 5_000)
            trace.fixes[index].horizontalAccuracyCm = 800
        }
        add(
            &builder, "window.ties", ["§rec-window"],
            "Every fix equally accurate: the earliest of each window wins.",
            request(trace, policy { $0.fixWindowMs = 30_000 }))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 30, count: 20, stepMs: 5_000)
        trace.fixes[7].reason = .manual
        trace.fixes[7].horizontalAccuracyCm = 100
        add(
            &builder, "window.requested-bypasses", ["§rec-window", "§rec-requested"],
            "A MANUAL fix inside a window is recorded at once and takes no part in the window, though it is the most accurate.",
            request(trace, policy { $0.fixWindowMs = 30_000 }))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 30, count: 20, stepMs: 5_000)
        trace.fixes[6].reason = .serverRequest
        add(
            &builder, "window.requested-closes", ["§rec-window", "§rec-requested"],
            "The first fix of the second window (30 s) is a SERVER_REQUEST one: it passed the filter, so it closes the first window before it is recorded; the first window's fix is recorded first.",
            request(trace, policy { $0.fixWindowMs = 30_000 }))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 30, count: 9, stepMs: 5_000)
        add(
            &builder, "window.closes-at-end", ["§rec-window"],
            "The last window is still open when the trace ends: it closes then, and its best fix goes through the motion rules.",
            request(trace, policy { $0.fixWindowMs = 20_000 }))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 30, count: 7, stepMs: 5_000)
        trace.reboot()
        trace.move(bearing: 0, metres: 30, count: 7, stepMs: 5_000)
        add(
            &builder, "window.closes-at-reboot", ["§rec-window", "§rec-clock"],
            "A reboot closes the open window (its best fix is recorded under the old boot's state), and windows of the new boot count from its first fix.",
            request(trace, policy { $0.fixWindowMs = 20_000 }))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 30, count: 30, stepMs: 5_000)
        trace.fixes[9].horizontalAccuracyCm = 300_000
        trace.fixes[10].horizontalAccuracyCm = 300_000
        add(
            &builder, "window.filter-first", ["§rec-window", "§rec-filter"],
            "Fixes dropped by the accuracy filter never enter a window, however the window's others compare.",
            request(trace, policy { $0.fixWindowMs = 60_000 }))
        trace = walk(8)
        trace.stay(count: 100, stepMs: 5_000)
        add(
            &builder, "window.with-stop", ["§rec-window", "§rec-stationary", "§rec-heartbeat"],
            "A window of 60 s while walking and then standing: the stop timeout runs on the windows' fixes, and heartbeats come from them.",
            request(
                trace,
                policy {
                    $0.fixWindowMs = 60_000
                    $0.heartbeatIntervalMs = 120_000
                }))
    }

    // MARK: - Stage 3

    static func dutyCycle(_ builder: inout VectorBuilder) {
        var trace = TraceWriter()
        trace.move(bearing: 90, metres: 15, count: 300, stepMs: 1_000)
        add(
            &builder, "duty.on-off", ["§rec-duty"],
            "duty_cycle_on_ms 10000, duty_cycle_off_ms 120000: from the first fix, 10 s on, 120 s off; fixes in the off phases are `duty-off` (the one exactly 10 s after the start of a phase included).",
            request(
                trace,
                policy {
                    $0.dutyCycleOnMs = 10_000
                    $0.dutyCycleOffMs = 120_000
                }))
        add(
            &builder, "duty.off-only", ["§rec-duty"],
            "Only duty_cycle_off_ms set: no duty cycle.", request(trace, policy { $0.dutyCycleOffMs = 120_000 }))
        add(
            &builder, "duty.with-window", ["§rec-duty", "§rec-window"],
            "Duty cycle 20 s on, 40 s off, window 15 s: windows see only the fixes of the on phases.",
            request(
                trace,
                policy {
                    $0.dutyCycleOnMs = 20_000
                    $0.dutyCycleOffMs = 40_000
                    $0.fixWindowMs = 15_000
                }))
        var first = TraceWriter()
        first.move(bearing: 90, metres: 15, count: 100, stepMs: 1_000)
        first.fixes[0].horizontalAccuracyCm = 900_000
        add(
            &builder, "duty.phase-from-first-fix", ["§rec-duty", "§rec-filter"],
            "The cycle starts at the first fix that passes the clock checks, even one the accuracy filter then drops.",
            request(
                first,
                policy {
                    $0.dutyCycleOnMs = 5_000
                    $0.dutyCycleOffMs = 25_000
                }))
        trace = TraceWriter()
        trace.move(bearing: 90, metres: 15, count: 60, stepMs: 1_000)
        trace.reboot(after: 7_000)
        trace.move(bearing: 90, metres: 15, count: 60, stepMs: 1_000)
        add(
            &builder, "duty.reboot", ["§rec-duty", "§rec-clock"],
            "A reboot restarts the cycle at the new boot's first fix.",
            request(
                trace,
                policy {
                    $0.dutyCycleOnMs = 10_000
                    $0.dutyCycleOffMs = 20_000
                }))
    }

    // MARK: - Clocks

    static func clocks(_ builder: inout VectorBuilder) {
        var trace = TraceWriter()
        trace.move(bearing: 30, metres: 15, count: 20, stepMs: 1_000)
        trace.jumpWallClock(-3_600_000)
        trace.move(bearing: 30, metres: 15, count: 20, stepMs: 1_000)
        add(
            &builder, "clock.wall-jump-back", ["§rec-clock"],
            "The wall clock jumps back an hour mid-drive: recording follows the monotonic clock, so PERIODIC stays every 10 s.",
            request(trace))
        trace = walk(8)
        trace.jumpWallClock(86_400_000)
        trace.move(bearing: 90, metres: 13, count: 8, stepMs: 10_000)
        add(
            &builder, "clock.wall-jump-forward", ["§rec-clock"],
            "The wall clock jumps a day ahead mid-walk: nothing changes.", request(trace))
        trace = TraceWriter()
        trace.move(bearing: 30, metres: 15, count: 15, stepMs: 1_000)
        trace.reboot()
        trace.move(bearing: 30, metres: 15, count: 15, stepMs: 1_000)
        add(
            &builder, "clock.reboot", ["§rec-clock", "§rec-first", "§upload-boot"],
            "A reboot mid-drive: a new boot id and a monotonic clock near 0. Every stage forgets: the new boot's first fix is MOTION_START, and the fixes pending from the old boot go at once.",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 30, metres: 15, count: 8, stepMs: 1_000)
        trace.reboot()
        trace.move(bearing: 30, metres: 15, count: 8, stepMs: 1_000)
        trace.reboot(bootId: TraceWriter.bootA)
        trace.move(bearing: 30, metres: 15, count: 8, stepMs: 1_000)
        add(
            &builder, "clock.reboot-twice", ["§rec-clock"],
            "Boots A, B, then A's id again: each change of boot id starts a new boot, even back to an earlier id.",
            request(trace))
        trace = walk(6)
        trace.stay(count: 40, stepMs: 10_000)
        trace.reboot()
        trace.stay(count: 10, stepMs: 10_000)
        add(
            &builder, "clock.reboot-while-stopped", ["§rec-clock", "§rec-first"],
            "Stopped, then a reboot in the same place: the new boot does not know it was stopped, so its first fix is MOTION_START.",
            request(trace))
        trace = walk(10)
        trace.fixes[4].longitudeE7 = nil
        trace.fixes[7].latitudeE7 = nil
        trace.fixes[7].longitudeE7 = nil
        add(
            &builder, "clock.missing-coordinates", ["§rec-clock", "§rec-filter"],
            "A missing coordinate reads as 0: fix 4 (no longitude) lies on the prime meridian, thousands of km away, and is recorded by distance; fix 7 (neither) is at (0, 0): `null-island`.",
            request(trace))
        trace = walk(10)
        trace.fixes[5].elapsedRealtimeMs = nil
        trace.fixes[5].bootId = TraceWriter.bootB
        add(
            &builder, "clock.untimed-other-boot", ["§rec-clock"],
            "Fix 5 claims another boot but has no monotonic time: dropped before it can start a boot.",
            request(trace))
    }

    // MARK: - What real traces do

    static func hazards(_ builder: inout VectorBuilder) {
        var trace = walk(10)
        trace.fix(stepMs: 10_000, speedCmS: 130, offsetM: 600, offsetBearing: 0)
        trace.move(bearing: 90, metres: 13, count: 8, stepMs: 10_000)
        add(
            &builder, "hazard.gps-jump", ["§rec-stationary", "§rec-filter"],
            "One fix 600 m off with a good accuracy (a multipath jump): the filter cannot tell, so it is recorded by distance, and so is the next good fix.",
            request(trace))
        trace = walk(10)
        trace.fix(stepMs: 10_000, speedCmS: 130, accuracyCm: 350_000, offsetM: 2_000)
        trace.move(bearing: 90, metres: 13, count: 8, stepMs: 10_000)
        add(
            &builder, "hazard.accuracy-spike", ["§rec-filter"],
            "One fix 2 km off that says so (3.5 km accuracy): dropped by the filter, nothing else changes.",
            request(trace))
        trace = TraceWriter(seed: 11)
        for _ in 0..<40 {
            trace.teleport(bearing: 90, metres: 8)
            let accuracy = UInt32(trace.random.uniform(4_000, 16_000))
            trace.fix(
                stepMs: 5_000, speedCmS: 160, accuracyCm: accuracy, offsetM: trace.random.uniform(20, 90),
                offsetBearing: trace.random.uniform(0, 360))
        }
        add(
            &builder, "hazard.urban-canyon", ["§rec-filter", "§rec-stationary"],
            "An urban canyon: 40 to 160 m accuracy and fixes 20 to 90 m off. With max_horizontal_accuracy_cm 10000 the worse half is dropped; the rest is recorded by distance, zigzag included.",
            request(trace, policy { $0.maxHorizontalAccuracyCm = 10_000 }))
        trace = TraceWriter()
        trace.move(bearing: 60, metres: 20, count: 20, stepMs: 1_000)
        trace.gap(180_000)
        trace.teleport(bearing: 60, metres: 3_600)
        trace.move(bearing: 60, metres: 20, count: 20, stepMs: 1_000)
        add(
            &builder, "hazard.tunnel", ["§rec-stationary", "§rec-speed"],
            "Driving into a 3-minute tunnel: no fixes, then the first fix after it is recorded PERIODIC at once (more than 10 s since the last).",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 60, metres: 20, count: 20, stepMs: 1_000, withSpeed: false)
        trace.gap(180_000)
        trace.teleport(bearing: 60, metres: 3_600)
        trace.move(bearing: 60, metres: 20, count: 20, stepMs: 1_000, withSpeed: false)
        add(
            &builder, "hazard.tunnel-no-speed", ["§rec-speed"],
            "The same tunnel without speeds: the derived speed across the gap (3.6 km in 181 s) is still fast.",
            request(trace))
    }

    // MARK: - Upload scheduling

    static func uploads(_ builder: inout VectorBuilder) {
        var trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 200, stepMs: 1_000)
        add(
            &builder, "upload.interval", ["§upload-schedule", "§upload-drain"],
            "Driving, PERIODIC every 10 s: an upload every 60 s from the first fix (upload_interval_ms), each taking what is pending.",
            request(trace))
        add(
            &builder, "upload.size", ["§upload-schedule"],
            "max_batch_size 4: an upload as soon as 4 fixes are pending, before the interval.",
            request(trace, policy { $0.maxBatchSize = 4 }))
        add(
            &builder, "upload.age", ["§upload-schedule"],
            "upload_interval_ms 600000 but max_batch_age_ms 25000: an upload when the oldest pending fix is 25 s old.",
            request(
                trace,
                policy {
                    $0.uploadIntervalMs = 600_000
                    $0.maxBatchAgeMs = 25_000
                }))
        trace = walk(6)
        trace.stay(count: 100, stepMs: 10_000)
        add(
            &builder, "upload.nothing-pending", ["§upload-schedule"],
            "Stopped: once the last recorded fix is uploaded nothing is pending, and the timer sends nothing.",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 130, stepMs: 1_000)
        add(
            &builder, "upload.back-off", ["§upload-schedule", "§back-off"],
            "The first four attempts fail: retries after 1, 2, 4 and 8 s; the fifth succeeds and resets the count.",
            request(trace, results: [.transportFailed, .transportFailed, .transportFailed, .transportFailed]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 1_500, stepMs: 1_000)
        add(
            &builder, "upload.back-off-cap", ["§back-off", "§upload-schedule"],
            "Twelve failures in a row: the wait doubles from 1 s up to its cap of 300 s.",
            request(trace, results: Array(repeating: .transportFailed, count: 12)))
        add(
            &builder, "upload.held", ["§upload-schedule"],
            "The first attempt is held with retry_after_ms 45000: the next attempt 45 s later, whatever the interval says.",
            request(trace, results: [.held(retryAfterMs: 45_000)]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 300, stepMs: 1_000)
        add(
            &builder, "upload.drain", ["§upload-drain", "§upload-schedule"],
            "max_batch_size 5; the first attempts fail until 16 fixes are pending: the next upload sends batches of 5, 5, 5 and 1 at the same time.",
            request(
                trace, policy { $0.maxBatchSize = 5 },
                results: [
                    .transportFailed, .transportFailed, .transportFailed, .transportFailed, .transportFailed,
                    .transportFailed, .transportFailed,
                ]))
        add(
            &builder, "upload.drain-fails-midway", ["§upload-drain", "§back-off"],
            "Draining a backlog, the third batch fails: the drain stops there and the rest waits for the back-off.",
            request(
                trace, policy { $0.maxBatchSize = 2 },
                results: [
                    .transportFailed, .transportFailed, .transportFailed, .succeeded, .succeeded,
                    .transportFailed,
                ]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 40, stepMs: 1_000)
        trace.reboot()
        trace.move(bearing: 0, metres: 15, count: 40, stepMs: 1_000)
        add(
            &builder, "upload.reboot-pending", ["§upload-boot"],
            "Fixes pending when the phone reboots survive it, and go at the new boot's first fix.",
            request(trace, policy { $0.uploadIntervalMs = 600_000 }))
        add(
            &builder, "upload.reboot-after-failure", ["§upload-boot", "§back-off"],
            "Failures before a reboot: the new boot tries at once (the old boot's wait means nothing now), and its failure count carries over.",
            request(
                trace, policy { $0.uploadIntervalMs = 30_000 },
                results: [.transportFailed, .transportFailed, .transportFailed, .transportFailed]))
        trace = TraceWriter()
        trace.fix(stepMs: 60_000, speedCmS: 0)
        trace.teleport(bearing: 0, metres: 111)
        trace.fix(stepMs: 60_000, speedCmS: 0)
        trace.reboot(after: 60_000)
        trace.fix(stepMs: 29_500, speedCmS: 0, accuracyCm: 0)
        trace.teleport(bearing: 0, metres: 111)
        trace.fix(stepMs: 10_000, speedCmS: 0)
        trace.teleport(bearing: 0, metres: 111)
        trace.fix(stepMs: 10_000, speedCmS: 0)
        add(
            &builder, "upload.reboot-nothing-pending", ["§upload-boot", "§upload-schedule"],
            "Everything was sent before the reboot, and the new boot's first fix is dropped: nothing is pending at the boot's start, so no upload is due at once; the fixes recorded later wait for the ordinary triggers (an upload never carries a fix recorded after it).",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 12, stepMs: 1_000)
        trace.gap(120_000)
        trace.move(bearing: 0, metres: 15, count: 30, stepMs: 1_000)
        add(
            &builder, "upload.after-quiet", ["§upload-schedule"],
            "Nothing pending when the interval runs out (a gap): the next recorded fix goes at once.",
            request(trace, policy { $0.uploadIntervalMs = 30_000 }))
        // The upload interval would fall due at 60 s; the last fix that gives the timer a time decides whether the
        // run reaches it.
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 55, stepMs: 1_000)
        trace.gap(20_000)
        let noTime = trace.fix()
        trace.fixes[noTime].elapsedRealtimeMs = nil
        add(
            &builder, "upload.end-without-time", ["§upload-end", "§rec-clock"],
            "Driving for 55 s, then, 20 s later, a last fix without elapsed_realtime_ms: it gives the timer no time, so the run ends at 54 s, before the interval's upload at 60 s, and nothing is sent.",
            request(trace))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 55, stepMs: 1_000)
        trace.gap(20_000)
        trace.fix(accuracyCm: 0)
        add(
            &builder, "upload.end-filtered", ["§upload-end", "§rec-filter"],
            "The same drive ending with a fix 20 s later that the accuracy filter drops: it passed the clock checks, so the run reaches its time, and the upload due at 60 s happens then.",
            request(trace))
    }

    // MARK: - Real traces

    static func realTraces(_ builder: inout VectorBuilder) {
        let korita = builder.inputs.korita
        var trace = TraceWriter()
        trace.fixes = korita
        let policies: [(String, String, TrackingPolicy)] = [
            ("default", "the default policy", policy()),
            ("distance-12", "distance_interval_m 12", policy { $0.distanceIntervalM = 12 }),
            (
                "walker", "a walker's policy: threshold 150 cm/s, 30 s, 20 m, stop after 120 s, heartbeat 300 s",
                policy {
                    $0.speedThresholdCmS = 150
                    $0.timeIntervalMs = 30_000
                    $0.distanceIntervalM = 20
                    $0.stopTimeoutMs = 120_000
                    $0.heartbeatIntervalMs = 300_000
                }
            ),
            ("window-60s", "one fix per minute (fix_window_ms 60000)", policy { $0.fixWindowMs = 60_000 }),
            (
                "duty-30-90", "a duty cycle of 30 s on, 90 s off",
                policy {
                    $0.dutyCycleOnMs = 30_000
                    $0.dutyCycleOffMs = 90_000
                }
            ),
            (
                "batches-of-10", "max_batch_size 10 and upload_interval_ms 300000",
                policy {
                    $0.maxBatchSize = 10
                    $0.uploadIntervalMs = 300_000
                    $0.distanceIntervalM = 15
                }
            ),
        ]
        for (name, what, policy) in policies {
            add(
                &builder, "real.korita-\(name)", ["§rec-motion", "§rec-speed", "§upload-schedule"],
                "A real track: \(RealTraces.koritaSource); GPX has no speeds, accuracies or monotonic clock, so the speed is derived, the accuracy is 5 m and the monotonic clock follows the GPX times. Under \(what).",
                request(trace, policy))
        }
        add(
            &builder, "real.korita-failures", ["§back-off", "§upload-drain"],
            "The real track under the default policy, the first five uploads failing.",
            request(trace, results: Array(repeating: .transportFailed, count: 5)))
    }

    // MARK: - Relaunches

    /// `request` with the app killed and relaunched before each of `indices` (`§rec-relaunch`).
    static func relaunching(_ request: RecordingRequest, before indices: [Int]) -> RecordingRequest {
        var request = request
        request.relaunchBefore = indices.map { UInt32($0) }
        return request
    }

    /// 40 fixes 5 s apart at 3 m/s (the speed threshold, so slow), their accuracies varying from 3 to 12 m.
    static func mixedAccuracyWalk() -> TraceWriter {
        var trace = TraceWriter(seed: 7)
        for index in 0..<40 {
            trace.move(bearing: 90, metres: 15, count: 1, stepMs: 5_000)
            trace.fixes[index].horizontalAccuracyCm = [900, 400, 1_200, 400, 700, 300][index % 6] + UInt32(index % 5)
        }
        return trace
    }

    static func relaunches(_ builder: inout VectorBuilder) {
        var trace = mixedAccuracyWalk()
        add(
            &builder, "relaunch.open-window", ["§rec-relaunch", "§rec-window"],
            "window.best-per-window with the app relaunched before fixes 5 and 18, each in the middle of an open window (12 fixes to a window): the window and its best fix so far survive, and the decisions are those without the relaunches.",
            relaunching(request(trace, policy { $0.fixWindowMs = 60_000 }), before: [5, 18]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 30, count: 9, stepMs: 5_000)
        add(
            &builder, "relaunch.at-end", ["§rec-relaunch", "§rec-window"],
            "window.closes-at-end relaunched after the last fix, while the last window is open: the restored engine closes it at the end of the trace as the first would have.",
            relaunching(request(trace, policy { $0.fixWindowMs = 20_000 }), before: [9]))
        trace = walk(6)
        trace.stay(count: 60, stepMs: 10_000)
        add(
            &builder, "relaunch.stationary", ["§rec-relaunch", "§rec-heartbeat", "§rec-stationary"],
            "A walk, then standing still (MOTION_STOP at fix 34, heartbeats from fix 40 every 6 fixes) with heartbeat_interval_ms 60000, relaunched before fixes 38, 44 and 50, while stationary between heartbeats: the anchor, the last recorded fix and the stationary state survive, so the heartbeats keep their times.",
            relaunching(request(trace, policy { $0.heartbeatIntervalMs = 60_000 }), before: [38, 44, 50]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 130, stepMs: 1_000)
        add(
            &builder, "relaunch.back-off", ["§upload-relaunch", "§back-off", "§upload-schedule"],
            "upload.back-off relaunched before fixes 62 and 70, with fixes pending and a back-off in force (the first attempt at 60 s failed, retries at 61, 63, 67 and 75 s): the wait, the failure count and U survive, and the pending fixes keep their record times.",
            relaunching(
                request(trace, results: [.transportFailed, .transportFailed, .transportFailed, .transportFailed]),
                before: [62, 70]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 200, stepMs: 1_000)
        add(
            &builder, "relaunch.held", ["§upload-relaunch", "§upload-schedule"],
            "upload.held relaunched before fixes 80 and 100, during the 45 s wait of a HOLD: the retry time survives.",
            relaunching(request(trace, results: [.held(retryAfterMs: 45_000)]), before: [80, 100]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 30, count: 7, stepMs: 5_000)
        trace.reboot()
        trace.move(bearing: 0, metres: 30, count: 7, stepMs: 5_000)
        add(
            &builder, "relaunch.then-reboot", ["§relaunch-boot", "§rec-relaunch", "§rec-window", "§rec-clock"],
            "window.closes-at-reboot relaunched before fix 7, the new boot's first, while a window is open: the restored engine sees the boot change as the first would have, closes the window and starts afresh.",
            relaunching(request(trace, policy { $0.fixWindowMs = 20_000 }), before: [7]))
        trace = TraceWriter()
        trace.move(bearing: 0, metres: 15, count: 40, stepMs: 1_000)
        trace.reboot()
        trace.move(bearing: 0, metres: 15, count: 40, stepMs: 1_000)
        add(
            &builder, "relaunch.then-reboot-pending", ["§relaunch-boot", "§upload-relaunch", "§upload-boot"],
            "upload.reboot-after-failure relaunched before fix 35 (a back-off in force) and before fix 40, the new boot's first: the pending fixes go at once in the new boot, and the failure count carries over.",
            relaunching(
                request(
                    trace, policy { $0.uploadIntervalMs = 30_000 },
                    results: [.transportFailed, .transportFailed, .transportFailed, .transportFailed]),
                before: [35, 40]))
        trace = TraceWriter()
        trace.fixes = builder.inputs.korita
        add(
            &builder, "relaunch.real-every-third", ["§rec-relaunch", "§upload-relaunch"],
            "real.korita-window-60s with the first five uploads failing, relaunched before every third fix: the decisions and uploads are those without the relaunches.",
            relaunching(
                request(
                    trace, policy { $0.fixWindowMs = 60_000 },
                    results: Array(repeating: .transportFailed, count: 5)),
                before: Array(stride(from: 1, to: trace.fixes.count, by: 3))))
    }

    // MARK: - Seeded random commutes

    static func commutes(_ builder: inout VectorBuilder) {
        for seed in 1...40 {
            var random = SeededRandom(seed: UInt64(seed) &* 0x9E37_79B9)
            var trace = TraceWriter(
                latitude: random.uniform(-60, 60), longitude: random.uniform(-179, 179), seed: UInt64(seed))
            var bearing = random.uniform(0, 360)
            for _ in 0..<(4 + random.index(5)) {
                bearing += random.uniform(-60, 60)
                switch random.index(6) {
                case 0:
                    trace.move(
                        bearing: bearing, metres: random.uniform(10, 30), count: 10 + random.index(40), stepMs: 1_000)
                case 1:
                    trace.move(
                        bearing: bearing, metres: random.uniform(5, 15), count: 5 + random.index(20), stepMs: 10_000,
                        withSpeed: random.index(2) == 0)
                case 2: trace.stay(count: 10 + random.index(50), stepMs: 10_000, driftM: random.uniform(0, 20))
                case 3: trace.gap(UInt64(random.index(300_000)))
                case 4:
                    trace.move(bearing: bearing, metres: random.uniform(1, 8), count: 20, stepMs: 2_000, jitterM: 30)
                default:
                    if random.index(3) == 0 {
                        trace.reboot()
                    } else {
                        trace.jumpWallClock(Int64(random.index(7_200_000)) - 3_600_000)
                    }
                }
            }
            for index in trace.fixes.indices where random.index(12) == 0 {
                trace.fixes[index].horizontalAccuracyCm = UInt32(random.uniform(1, 400_000))
            }
            let policy = policy {
                $0.speedThresholdCmS = UInt32(random.uniform(50, 1_000))
                $0.timeIntervalMs = UInt32(random.uniform(1_000, 60_000))
                $0.distanceIntervalM = UInt32(random.uniform(5, 200))
                $0.stationaryRadiusM = UInt32(random.uniform(10, 100))
                $0.stopTimeoutMs = UInt32(random.uniform(0, 400_000))
                if random.index(2) == 0 { $0.heartbeatIntervalMs = UInt32(random.uniform(30_000, 600_000)) }
                if random.index(3) == 0 { $0.fixWindowMs = UInt32(random.uniform(5_000, 120_000)) }
                if random.index(4) == 0 {
                    $0.dutyCycleOnMs = UInt32(random.uniform(5_000, 60_000))
                    $0.dutyCycleOffMs = UInt32(random.uniform(5_000, 200_000))
                }
                $0.uploadIntervalMs = UInt32(random.uniform(10_000, 300_000))
                $0.maxBatchSize = UInt32(random.uniform(1, 50))
                $0.maxBatchAgeMs = UInt32(random.uniform(5_000, 600_000))
            }
            let results = (0..<random.index(6)).map { _ -> UploadAttemptResult.Result in
                [.transportFailed, .held(retryAfterMs: UInt32(random.uniform(0, 90_000))), .succeeded][random.index(3)]
            }
            add(
                &builder, "commute.seed-\(seed)",
                ["§rec-motion", "§rec-stationary", "§rec-heartbeat", "§rec-window", "§rec-duty", "§upload-schedule"],
                "A seeded random commute (seed \(seed)): drives, walks, stops with drift, gaps, jittery walks, reboots and wall-clock jumps, some fixes with random accuracies, under a random policy and random upload answers.",
                request(trace, policy, results: results))
        }
    }
}
