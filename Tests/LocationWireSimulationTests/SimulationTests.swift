import LocationWireSession
import LocationWireSimulation
import Testing

@testable import LocationWireSimulation

/// The fault simulator: clean engines keep the promise, and a deliberately broken one is caught, minimized and
/// replayed. (CI runs 100,000 sessions through `locwire simulate sessions`; this is the quick check.)
struct SimulationTests {
    @Test("a short campaign over every fault kind breaks no invariant")
    func cleanEnginesKeepThePromise() {
        let totals = SessionCampaign(seed: 42, faults: .all).run(0..<150)
        #expect(totals.violationCount == 0, "\(String(describing: totals.firstFailure))")
        #expect(totals.counts.storedFixes > 1000)
        #expect(totals.counts.rejectedFixes > 0, "defective fixes are refused, not stuck")
        #expect(totals.counts.lostFixes > 0, "reinstalls and full storage lose fixes, which the ledger must show")
    }

    @Test("§ack-scope: the bug of hole 1 is caught, minimized, and the minimized schedule replays it")
    func ackScopeMutantIsCaught() throws {
        var campaign = SessionCampaign(seed: 1, faults: .all)
        campaign.injectedFaults = .ackAppliesToEveryItem
        let totals = campaign.run(0..<100)
        let failure = try #require(totals.firstFailure)
        #expect(failure.violation.invariant == .deletedBeforeStored)
        let schedule = campaign.minimize(seed: failure.seed, invariant: failure.violation.invariant)
        #expect(schedule.count < 20)
        #expect(
            campaign.replay(seed: failure.seed, schedule: schedule).violations.first?.invariant == .deletedBeforeStored)
        // The same schedule with correct engines keeps the promise.
        let clean = SessionCampaign(seed: 1, faults: .all)
        #expect(clean.replay(seed: failure.seed, schedule: schedule).violations.isEmpty)
        // Schedules print and parse back, so a saved failure replays.
        #expect(schedule.compactMap { SessionAction($0.description) } == schedule)
    }
}
