import LocationWire
import LocationWireBehavior
import LocationWireGeometry
import LocationWireSimulation
import LocationWireValidation
import Testing

/// The fixture generator: deterministic, valid, and faithful to the TrackingPolicy reporting rules.
@Suite struct FixtureTests {
    @Test(arguments: TraceSimulator.Scenario.allCases)
    func fixturesAreDeterministicAndValid(scenario: TraceSimulator.Scenario) {
        let first = FixtureGenerator(scenario: scenario, seed: 11).batches(count: 6)
        let second = FixtureGenerator(scenario: scenario, seed: 11).batches(count: 6)
        #expect(first == second)
        #expect(first.count == 6)
        for batch in first {
            #expect(batch.validate().isEmpty, "\(scenario): \(batch.validate())")
        }
        // Sequence numbers continue across batches, the live fix above each batch's backlog.
        let sequences = first.flatMap { $0.fixes.map(\.sequence) + ($0.liveFix.map { [$0.sequence] } ?? []) }
        #expect(sequences == Array(1...UInt64(sequences.count)))
        #expect(FixtureGenerator(scenario: scenario, seed: 12).batches(count: 6) != first)
    }

    /// Below the speed threshold fixes are recorded by distance: consecutive recorded fixes lie 50 m apart.
    @Test func walkingIsRecordedByDistance() {
        let fixes = FixtureGenerator(scenario: .walk, seed: 3).batches(count: 20).flatMap {
            $0.fixes + ($0.liveFix.map { [$0] } ?? [])
        }
        let byDistance = zip(fixes, fixes.dropFirst()).filter { $0.1.reason == .distance }
        #expect(byDistance.count > 10)
        for (previous, next) in byDistance {
            #expect(Self.distanceM(previous, next) >= 50)
        }
    }

    /// Above it, by time: at least 10 s apart on the monotonic clock.
    @Test func drivingIsRecordedByTime() {
        let fixes = FixtureGenerator(scenario: .drive, seed: 3).batches(count: 10).flatMap {
            $0.fixes + ($0.liveFix.map { [$0] } ?? [])
        }
        let byTime = zip(fixes, fixes.dropFirst()).filter { $0.1.reason == .periodic }
        #expect(byTime.count > 5)
        for (previous, next) in byTime {
            #expect(next.elapsedRealtimeMs! - previous.elapsedRealtimeMs! >= 10_000)
        }
    }

    @Test func aStationaryDeviceStopsAndSendsHeartbeats() {
        let fixes = FixtureGenerator(scenario: .stationary, seed: 3).batches(count: 12).flatMap {
            $0.fixes + ($0.liveFix.map { [$0] } ?? [])
        }
        #expect(fixes.contains { $0.reason == .motionStop })
        #expect(fixes.filter { $0.reason == .heartbeat }.count >= 2)
    }

    @Test func anOfflineBacklogArrivesLater() {
        let batches = FixtureGenerator(scenario: .offlineBacklog, seed: 3).batches(count: 3)
        let first = batches[0]
        #expect(first.fixes.count > 20, "half an hour of fixes waits for the network")
        #expect(first.sentAtMs - first.fixes[0].timeMs > 20 * 60_000)
    }

    @Test func theClockJumpShowsInWallTimeButNotInMonotonicTime() {
        let fixes = FixtureGenerator(scenario: .clockJump, seed: 3).batches(count: 60).flatMap {
            $0.fixes + ($0.liveFix.map { [$0] } ?? [])
        }
        let jump = zip(fixes, fixes.dropFirst()).first { $0.1.timeMs < $0.0.timeMs }
        #expect(jump != nil, "the wall clock goes back")
        if let (before, after) = jump {
            #expect(after.elapsedRealtimeMs! > before.elapsedRealtimeMs!)
        }
    }

    /// Fixtures come from the normative engine: the accuracy filter (`§rec-filter`) holds in every batch.
    @Test func theAccuracyFilterDropsBadFixes() {
        var engine = RecordingEngine(policy: FixtureGenerator.defaultPolicy)
        var log = RecordingLog()
        // A fix of a walk one second into the monotonic clock; the accuracy and the position vary below.
        var fix = LocationFix()
        fix.sequence = 1
        fix.timeMs = 1_700_000_001_000
        fix.elapsedRealtimeMs = 1_000
        fix.latitudeE7 = 450_000_000
        fix.longitudeE7 = 90_000_000
        for accuracy: UInt32? in [200_000, 0, nil] {
            fix.horizontalAccuracyCm = accuracy
            engine.deliver(fix, index: log.decisions.count, to: &log)
            fix.elapsedRealtimeMs! += 1_000
        }
        fix.horizontalAccuracyCm = 500
        fix.latitudeE7 = 0
        fix.longitudeE7 = 0
        engine.deliver(fix, index: 3, to: &log)
        fix.elapsedRealtimeMs! += 1_000
        fix.latitudeE7 = 1
        engine.deliver(fix, index: 4, to: &log)
        #expect(
            log.decisions == [
                .dropped(index: 0, code: .accuracy), .dropped(index: 1, code: .accuracy),
                .dropped(index: 2, code: .accuracy), .dropped(index: 3, code: .nullIsland),
                .recorded(index: 4, reason: .motionStart),
            ])
    }

    static func distanceM(_ a: LocationFix, _ b: LocationFix) -> Double {
        Sphere.distanceM(
            latitudeE7: a.latitudeE7!, longitudeE7: a.longitudeE7!, latitudeE7: b.latitudeE7!,
            longitudeE7: b.longitudeE7!)
    }
}
