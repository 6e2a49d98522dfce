import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireTestSupport
import Testing

/// `§rec-relaunch`, `§upload-relaunch`, `§fence-relaunch`: the engines' persisted states are complete. Every
/// committed recording and fences vector (real traces, seeded commutes and random walks among them) is run again
/// with the app relaunched at about 40 points spread over it (before every fix or step of a short one), the
/// built-in testee storing its engines as bytes and restoring them from those bytes each time, and must still give
/// its expected response. A slow suite (about 25 s in a debug build, mostly relaunching the recording vectors); the
/// conformance run's relaunch vectors and the device's tests keep relaunches in the quick suite.
@Suite struct RelaunchTests {
    /// The committed vectors of the two families, read once (decoding the files is most of this suite's time).
    static let committed = Result {
        try ["recording", "fences"].map { family in
            let url = RepositoryData.repository.appendingPathComponent("conformance/vectors/\(family).json")
            return (family, try VectorFile.decode(Data(contentsOf: url)).vectors)
        }
    }

    static func vectors(_ family: String) throws -> [Vector] {
        try committed.get().first { $0.0 == family }?.1 ?? []
    }

    @Test("§rec-relaunch, §upload-relaunch: every recording vector, relaunched before each fix, gives its response")
    func recordingRelaunchedBeforeEveryFix() throws {
        try Self.checkRelaunchedEverywhere(RecordingRequest.self, family: "recording") { request in
            request.relaunchBefore = Self.relaunchPoints(0...request.fixes.count)
            return BuiltinTestee().run(request)
        }
    }

    @Test("§fence-relaunch: every fences vector, relaunched before each step, gives its response")
    func fencesRelaunchedBeforeEveryStep() throws {
        try Self.checkRelaunchedEverywhere(FenceRequest.self, family: "fences") { request in
            request.relaunchBefore = Self.relaunchPoints(request.steps.indices)
            return BuiltinTestee().run(request)
        }
    }

    /// About 40 points spread evenly over a scenario, every index of a short one: a relaunch costs a decode and
    /// (for fences) re-arming, so relaunching before every step of every vector would take this suite minutes in a
    /// debug build. The generator's vectors relaunch at the chosen hard points; the spread points find the rest.
    static func relaunchPoints(_ indices: some Collection<Int>) -> [UInt32] {
        let stride = max(1, indices.count / 40)
        return indices.filter { $0 % stride == 0 }.map { UInt32($0) }
    }

    /// Runs every vector of `family` with `relaunchedRun`, which adds the relaunch points and runs the request.
    static func checkRelaunchedEverywhere<Request: BehaviorRequest>(
        _ type: Request.Type, family: String, _ relaunchedRun: (inout Request) -> Request.Response
    ) throws {
        let vectors = try Self.vectors(family)
        #expect(vectors.count > 100)
        for vector in vectors {
            var request = try BehaviorEvaluation.request(Request.self, of: vector)
            var actual = relaunchedRun(&request)
            actual.vectorId = vector.id
            let expected = try BehaviorEvaluation.expectedResponse(Request.self, of: vector)
            let problem = BehaviorEvaluation.judge(vector, expected: expected, actual: actual)
            #expect(problem == nil, "\(vector.id): \(problem ?? "")")
        }
    }

    /// `§relaunch-durability`: a fix whose processing was not made durable before the kill was, for the rules,
    /// never delivered. For each fix k of each trace (about 40 spread over it), the engine stores its state before
    /// k, processes k, is killed before storing again and restores the stored state: what it decides from then on is
    /// what it decides on the trace without k.
    @Test("§relaunch-durability: a fix processed but not stored before the kill counts as never delivered")
    func unstoredFixIsNeverDelivered() throws {
        let ids: Set = [
            "recording.window.best-per-window", "recording.stationary.heartbeat", "recording.window.closes-at-reboot",
        ]
        for vector in try Self.vectors("recording") where ids.contains(vector.id) {
            let request = try BehaviorEvaluation.request(RecordingRequest.self, of: vector)
            let policy = request.policy ?? TrackingPolicy()
            for lost in Self.relaunchPoints(request.fixes.indices).map({ Int($0) }) {
                var withoutIt = RecordingEngine(policy: policy)
                var expected = RecordingLog()
                var engine = RecordingEngine(policy: policy)
                var actual = RecordingLog()
                var stored = engine.persistedState.serializedBytes()
                for (index, fix) in request.fixes.enumerated() {
                    if index != lost { withoutIt.deliver(fix, index: index, to: &expected) }
                    if index == lost {
                        var unstored = RecordingLog()
                        engine.deliver(fix, index: index, to: &unstored)
                        engine = RecordingEngine(
                            policy: policy, restoring: try RecordingEngine.State(serializedBytes: stored))
                    } else {
                        engine.deliver(fix, index: index, to: &actual)
                        stored = engine.persistedState.serializedBytes()
                    }
                }
                withoutIt.finish(to: &expected)
                engine.finish(to: &actual)
                #expect(actual.decisions == expected.decisions, "\(vector.id), fix \(lost) lost")
            }
        }
    }

    @Test("§relaunch-durability: a fence step processed but not stored before the kill counts as never delivered")
    func unstoredFenceFixIsNeverDelivered() throws {
        let ids: Set = ["fences.dwell.after-enter", "fences.transition.default-policy", "fences.reboot.pending-exit"]
        for vector in try Self.vectors("fences") where ids.contains(vector.id) {
            let request = try BehaviorEvaluation.request(FenceRequest.self, of: vector)
            let policy = request.policy ?? TrackingPolicy()
            func fresh() -> FenceEngine {
                var engine = FenceEngine(
                    policy: policy, assignmentVersion: request.assignmentVersion,
                    firstEventSequence: request.firstEventSequence)
                engine.arm(request.regions)
                return engine
            }
            for lost in Self.relaunchPoints(request.steps.indices).map({ Int($0) }) {
                guard case .fix(let lostFix) = request.steps[lost].step else { continue }
                var withoutIt = fresh()
                var expected: [FenceEvent] = []
                var engine = fresh()
                var actual: [FenceEvent] = []
                var stored = engine.persistedState.serializedBytes()
                for (index, step) in request.steps.enumerated() {
                    guard case .fix(let fix) = step.step else { continue }  // these vectors arm nothing later
                    if index != lost { withoutIt.evaluate(fix, into: &expected) }
                    if index == lost {
                        var unstored: [FenceEvent] = []
                        engine.evaluate(lostFix, into: &unstored)
                        engine = FenceEngine(policy: policy, restoring: try FenceEngine.State(serializedBytes: stored))
                    } else {
                        engine.evaluate(fix, into: &actual)
                        stored = engine.persistedState.serializedBytes()
                    }
                }
                #expect(actual == expected, "\(vector.id), step \(lost) lost")
            }
        }
    }

    /// The timer's stored state is O(1): 100,000 fixes pending (every attempt failing) take no more bytes than
    /// one, and the attempts it keeps can be taken away as they come.
    @Test("§upload-relaunch: the upload timer's state stays small however many fixes are pending")
    func uploadSchedulerStateIsConstantInSize() throws {
        var policy = TrackingPolicy()
        policy.maxBatchSize = 1
        var scheduler = UploadScheduler(policy: policy)
        var largest = 0
        var attempts = 0
        for second in 0..<100_000 {
            let now = UInt64(second) * 1_000
            scheduler.advance(bootId: 7, to: now) { _ in .transportFailed }
            scheduler.recorded(at: now)
            scheduler.settle(at: now) { _ in .transportFailed }
            attempts += scheduler.takeAttempts().count
            #expect(scheduler.attempts.isEmpty)
            largest = max(largest, scheduler.persistedState.serializedBytes().count)
        }
        #expect(scheduler.pendingCount == 100_000)
        #expect(attempts > 300)
        #expect(largest < 48, "the stored state grew to \(largest) bytes")
        let restored = UploadScheduler(
            policy: policy,
            restoring: try UploadScheduler.State(serializedBytes: scheduler.persistedState.serializedBytes()),
            pending: scheduler.pendingFixes.reversed())
        #expect(restored.pendingFixes == scheduler.pendingFixes)
        #expect(restored.dueMs == scheduler.dueMs)
    }

    /// A pending fix recorded in an earlier boot counts as recorded at the current boot's start (`§upload-boot`),
    /// whatever time the app stored with it.
    @Test("§upload-relaunch, §upload-boot: a fix of an earlier boot counts as recorded at this boot's start")
    func earlierBootFixesCountFromTheBootStart() throws {
        var scheduler = UploadScheduler(policy: TrackingPolicy())
        scheduler.advance(bootId: 1, to: 5_000) { _ in .succeeded }
        scheduler.advance(bootId: 2, to: 900) { _ in .succeeded }
        let state = try UploadScheduler.State(serializedBytes: scheduler.persistedState.serializedBytes())
        let restored = UploadScheduler(
            policy: TrackingPolicy(), restoring: state,
            pending: [UploadScheduler.PendingFix(recorded: 0, bootId: 1, recordedAtMs: 4_000)])
        #expect(restored.pendingFixes == [UploadScheduler.PendingFix(recorded: 0, bootId: 2, recordedAtMs: 900)])
    }
}
