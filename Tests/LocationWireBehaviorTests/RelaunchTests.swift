import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireTestSupport
import Testing

/// `§rec-relaunch`, `§upload-relaunch`, `§fence-relaunch`: the engines' persisted states are complete. Every
/// committed recording and fences vector (real traces, seeded commutes and random walks among them) is run again
/// with the app relaunched before every fix or step, the built-in testee storing its engines as bytes and restoring
/// them from those bytes each time, and must still give its expected response.
@Suite struct RelaunchTests {
    static func vectors(_ family: String) throws -> [Vector] {
        let url = RepositoryData.repository.appendingPathComponent("conformance/vectors/\(family).json")
        return try VectorFile.decode(Data(contentsOf: url)).vectors
    }

    @Test("§rec-relaunch, §upload-relaunch: every recording vector, relaunched before every fix, gives its response")
    func recordingRelaunchedBeforeEveryFix() throws {
        try Self.checkRelaunchedEverywhere(RecordingRequest.self, family: "recording") { request in
            request.relaunchBefore = (0...request.fixes.count).map { UInt32($0) }
            return BuiltinTestee().run(request)
        }
    }

    @Test("§fence-relaunch: every fences vector, relaunched before every step, gives its response")
    func fencesRelaunchedBeforeEveryStep() throws {
        try Self.checkRelaunchedEverywhere(FenceRequest.self, family: "fences") { request in
            request.relaunchBefore = request.steps.indices.map { UInt32($0) }
            return BuiltinTestee().run(request)
        }
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
