import LocationWireRandom
import LocationWireSession

/// Many simulated sessions, each from its own seed, with their reports summed, and the first failure minimized
/// into a schedule that replays it.
public struct SessionCampaign: Sendable {
    public var seed: UInt64
    public var faults: SessionFaults
    package var injectedFaults: InjectedFaults = []

    public init(seed: UInt64, faults: SessionFaults) {
        self.seed = seed
        self.faults = faults
    }

    /// The seed of session `index`: a SplitMix64 step, so neighbouring sessions are unrelated.
    public func sessionSeed(_ index: Int) -> UInt64 {
        var random = SeededRandom(seed: seed &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(index + 1))
        return random.next()
    }

    /// The sums over a range of sessions.
    public struct Totals: Hashable, Sendable {
        public var sessions = 0
        public var counts = SessionCounts()
        /// Sessions that broke an invariant, by the first invariant each broke.
        public var violations: [InvariantViolation.Invariant: Int] = [:]
        /// The failing session with the lowest index, if any.
        public var firstFailure: Failure?

        public struct Failure: Hashable, Sendable {
            public var index: Int
            public var seed: UInt64
            public var violation: InvariantViolation
        }

        public init() {}

        public var violationCount: Int { violations.values.reduce(0, +) }

        public mutating func add(_ other: Totals) {
            sessions += other.sessions
            counts.add(other.counts)
            violations.merge(other.violations, uniquingKeysWith: +)
            if let theirs = other.firstFailure, firstFailure.map({ theirs.index < $0.index }) ?? true {
                firstFailure = theirs
            }
        }
    }

    /// Runs sessions `range`, calling `progress` every 1000 sessions with the number done.
    public func run(_ range: Range<Int>, progress: (Int) -> Void = { _ in }) -> Totals {
        var totals = Totals()
        for index in range {
            let sessionSeed = sessionSeed(index)
            let schedule = SessionSimulation.schedule(seed: sessionSeed, faults: faults)
            let report = SessionSimulation.run(
                seed: sessionSeed, faults: faults, schedule: schedule, injectedFaults: injectedFaults)
            totals.sessions += 1
            totals.counts.add(report.counts)
            if let violation = report.violations.first {
                totals.violations[violation.invariant, default: 0] += 1
                if totals.firstFailure == nil {
                    totals.firstFailure = Totals.Failure(index: index, seed: sessionSeed, violation: violation)
                }
            }
            if (index - range.lowerBound + 1) % 1000 == 0 { progress(index - range.lowerBound + 1) }
        }
        return totals
    }

    /// The shortest sub-schedule found (by removing ever smaller chunks) that still breaks the same invariant.
    public func minimize(seed sessionSeed: UInt64, invariant: InvariantViolation.Invariant) -> [SessionAction] {
        var schedule = SessionSimulation.schedule(seed: sessionSeed, faults: faults)
        func stillFails(_ candidate: [SessionAction]) -> Bool {
            SessionSimulation.run(
                seed: sessionSeed, faults: faults, schedule: candidate, injectedFaults: injectedFaults
            ).violations.first?.invariant == invariant
        }
        var chunk = max(1, schedule.count / 2)
        var runs = 0
        while chunk >= 1, runs < 5000 {
            var start = 0
            var removedAny = false
            while start < schedule.count, runs < 5000 {
                var candidate = schedule
                candidate.removeSubrange(start..<min(start + chunk, schedule.count))
                runs += 1
                if stillFails(candidate) {
                    schedule = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        return schedule
    }
}

extension SessionCampaign {
    /// Runs one schedule with this campaign's faults and mutant.
    public func replay(seed sessionSeed: UInt64, schedule: [SessionAction]) -> SessionReport {
        SessionSimulation.run(seed: sessionSeed, faults: faults, schedule: schedule, injectedFaults: injectedFaults)
    }
}
