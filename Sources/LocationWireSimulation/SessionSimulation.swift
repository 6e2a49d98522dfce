import LocationWire
import LocationWireBehavior
import LocationWireRandom
import LocationWireSession

/// An invariant of the promise "nothing lost, nothing doubled" that a run broke, with the step it broke at.
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    public enum Invariant: String, CaseIterable, Sendable {
        /// Every recorded fix is stored exactly once, once the network heals.
        case storedExactlyOnce = "stored-exactly-once"
        /// No fix leaves the device before the server stored it or refused it for a defect.
        case deletedBeforeStored = "deleted-before-stored"
        /// The server never stores one key twice.
        case storedTwice = "stored-twice"
        /// Every gap the ledger reports is a real loss.
        case gapNotLost = "gap-not-lost"
        /// The server refuses only fixes with a defect.
        case refusedWithoutDefect = "refused-without-defect"
    }

    public var invariant: Invariant
    /// Index of the action after which it was found; the schedule's length for the final check.
    public var step: Int
    public var detail: String

    public var description: String { "\(invariant.rawValue) after step \(step): \(detail)" }
}

/// What sessions did, counted; one session's, or a campaign's sum.
public struct SessionCounts: Hashable, Sendable {
    public var recordedFixes = 0
    public var storedFixes = 0
    public var rejectedFixes = 0
    /// Fixes gone with a reinstall or discarded for storage: the losses the promise allows and the ledger shows.
    public var lostFixes = 0
    public var batchesSent = 0
    public var acksIgnored = 0

    public init() {}

    public mutating func add(_ other: SessionCounts) {
        recordedFixes += other.recordedFixes
        storedFixes += other.storedFixes
        rejectedFixes += other.rejectedFixes
        lostFixes += other.lostFixes
        batchesSent += other.batchesSent
        acksIgnored += other.acksIgnored
    }
}

/// What a simulated session did.
public struct SessionReport: Hashable, Sendable {
    public var violations: [InvariantViolation] = []
    public var counts = SessionCounts()
    public var healingSteps = 0
}

/// One device and one server exchanging batches over a faulty network, driven by a schedule, with the promise
/// checked after every step and once more after the network heals.
public struct SessionSimulation {
    /// The schedule's seed-derived setting; everything else follows from the actions.
    public let seed: UInt64
    public let faults: SessionFaults
    package var injectedFaults: InjectedFaults = []

    /// Identifies a fix across installations: the idempotency key of `§fix-key`.
    struct FixKey: Hashable, Comparable {
        var installId: UInt64
        var sequence: UInt64
        static func < (a: Self, b: Self) -> Bool { (a.installId, a.sequence) < (b.installId, b.sequence) }
    }

    static let deviceId = "sim-device"
    static let startMs: Int64 = 1_767_261_600_000

    // Device side.
    var random: SeededRandom
    var queue: UploadQueue
    var trace: TraceSimulator
    /// The normative recording engine (proto/BEHAVIOR.md), fed the trace fix by fix.
    var recorder: RecordingEngine
    var recorderIndex = 0
    var bootId: UInt64
    var bootStartMs: Int64
    var nowMs: Int64
    // Server side.
    var ledger: IngestLedger
    var persistedLedger: [UInt8] = []
    var policyVersion: UInt64 = 1
    // Network: requests to the server, responses to the device.
    var requests: [[UInt8]] = []
    var responses: [[UInt8]] = []
    // The oracle: what really happened.
    var recorded: [FixKey] = []
    var defective = Set<FixKey>()
    var lost = Set<FixKey>()
    var stored = Set<FixKey>()
    var refused = Set<FixKey>()
    /// Fence events, keyed like fixes by installation and event sequence (`§event-key`).
    var recordedEvents: [FixKey] = []
    var lostEvents = Set<FixKey>()
    var storedEvents = Set<FixKey>()
    var report = SessionReport()

    // MARK: - Running

    /// Runs `schedule`, then heals the network and runs to the end.
    public static func run(seed: UInt64, faults: SessionFaults, schedule: [SessionAction]) -> SessionReport {
        run(seed: seed, faults: faults, schedule: schedule, injectedFaults: [])
    }

    /// Runs `schedule` with deliberate engine bugs switched on, then heals the network and runs to the end.
    package static func run(
        seed: UInt64, faults: SessionFaults, schedule: [SessionAction], injectedFaults: InjectedFaults = []
    ) -> SessionReport {
        var simulation = SessionSimulation(seed: seed, faults: faults)
        simulation.injectedFaults = injectedFaults
        return simulation.execute(schedule)
    }

    /// Draws the schedule of the session `seed`: 20 to 140 actions, weighted towards recording and delivery, with
    /// only the enabled fault kinds.
    public static func schedule(seed: UInt64, faults: SessionFaults) -> [SessionAction] {
        var random = SeededRandom(seed: seed ^ 0x5C4E_D01E)
        var actions: [SessionAction] = []
        let length = 20 + random.index(121)
        // A tenth of the sessions start with a long offline backlog: many batches, and TOO_LARGE when enabled.
        if random.index(10) == 0 { actions.append(.record(400 + random.index(800))) }
        var weighted: [(Int, () -> SessionAction)] = [
            (20, { .record(1 + random.index(12)) }),
            (14, { .send }),
            (16, { .deliverRequest(pick: random.index(4)) }),
            (16, { .deliverResponse(pick: random.index(4)) }),
            (3, { .recordEvent }),
            (2, { .recordLifecycle }),
            (3, { .advance(1000 + random.index(120_000)) }),
        ]
        func add(_ fault: SessionFaults, _ weight: Int, _ make: @escaping () -> SessionAction) {
            if faults.contains(fault) { weighted.append((weight, make)) }
        }
        add(
            .loss, 4,
            { random.index(2) == 0 ? .loseRequest(pick: random.index(4)) : .loseResponse(pick: random.index(4)) })
        add(
            .duplication, 4,
            {
                random.index(2) == 0
                    ? .duplicateRequest(pick: random.index(4)) : .duplicateResponse(pick: random.index(4))
            })
        add(.delay, 3, { .timeout })
        add(.appKill, 2, { .killApp })
        add(.reboot, 1, { .reboot })
        add(.serverRestart, 1, { .restartServer })
        add(.policyChange, 2, { .changePolicy(random.index(64)) })
        add(.reinstall, 1, { .reinstall })
        add(.serverHold, 2, { random.index(3) == 0 ? .releaseServer : .holdServer(random.index(3)) })
        add(.tooLarge, 1, { .limitServerBytes })
        add(.defectiveFixes, 2, { .recordDefective })
        add(.storageFull, 1, { .storageFull(1 + random.index(5)) })
        let total = weighted.reduce(0) { $0 + $1.0 }
        while actions.count < length {
            var roll = random.index(total)
            for (weight, make) in weighted {
                if roll < weight {
                    actions.append(make())
                    break
                }
                roll -= weight
            }
        }
        return actions
    }

    public init(seed: UInt64, faults: SessionFaults) {
        self.seed = seed
        self.faults = faults
        self.random = SeededRandom(seed: seed)
        let scenarios: [TraceSimulator.Scenario] = [.walk, .run, .bike, .drive, .urbanCanyon]
        self.trace = TraceSimulator(
            scenario: scenarios[Int(seed % UInt64(scenarios.count))], seed: seed, startTimeMs: Self.startMs)
        var recordingPolicy = TrackingPolicy()
        recordingPolicy.distanceIntervalM = 5
        recordingPolicy.timeIntervalMs = 2000
        self.recorder = RecordingEngine(policy: recordingPolicy)
        self.queue = UploadQueue(deviceId: Self.deviceId, installId: random.next() | 1)
        self.bootId = random.next() | 1
        self.bootStartMs = Self.startMs - 3_600_000
        self.nowMs = Self.startMs
        self.ledger = IngestLedger()
        self.persistedLedger = ledger.serializedBytes()
    }
}
