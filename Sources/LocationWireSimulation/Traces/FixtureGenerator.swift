import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireRandom

/// Realistic upload fixtures: a simulated trace put through the normative recording engine and upload timer
/// (proto/BEHAVIOR.md "Recording" and "Upload scheduling", `LocationWireBehavior`) and batched as
/// `§batch-composition` says. `locwire fixtures generate` writes them; the same scenario and seed always give the
/// same bytes.
///
/// Every fix the OS delivers goes through `RecordingEngine`; the recorded ones are numbered and queued, and
/// `UploadScheduler` decides when batches go: each successful attempt becomes a batch whose backlog and live fix
/// are the ones the attempt carried. The offline-backlog scenario has no network for its first half hour (every
/// attempt fails and backs off), then drains the backlog; the clock-jump scenario's wall clock jumps back an
/// hour half way, which the engines, on the monotonic clock, do not notice.
public struct FixtureGenerator {
    public let scenario: TraceSimulator.Scenario
    public let seed: UInt64
    public var policy: TrackingPolicy

    public init(
        scenario: TraceSimulator.Scenario, seed: UInt64, policy: TrackingPolicy = FixtureGenerator.defaultPolicy
    ) {
        self.scenario = scenario
        self.seed = seed
        self.policy = policy
    }

    /// The policy fixtures use: the spec's defaults, with a 30 s upload interval so short traces make several
    /// batches.
    public static var defaultPolicy: TrackingPolicy {
        var policy = TrackingPolicy()
        policy.policyVersion = 1
        policy.uploadIntervalMs = 30_000
        policy.heartbeatIntervalMs = 60_000
        return policy
    }

    /// `count` batches (fewer if the trace ends first; the trace is long enough for typical counts).
    public func batches(count: Int) -> [LocationBatch] {
        var random = SeededRandom(seed: seed ^ 0x5EED_F1C5)
        let deviceId = "fixture-\(scenario.rawValue)-\(String(seed, radix: 16))"
        let bootId = random.next()
        let installId = random.next() | 1
        var simulator = TraceSimulator(scenario: scenario, seed: seed, firstSequence: 1)
        var engine = RecordingEngine(policy: policy)
        var scheduler = UploadScheduler(policy: policy)
        var delivered: [LocationFix] = []
        var recorded: [LocationFix] = []
        var log = RecordingLog()
        var batches: [LocationBatch] = []
        var attemptsSeen = 0
        let maxSeconds = 6 * 3600
        let offlineUntil = scenario == .offlineBacklog ? 1800 : 0
        var lifecycle: [LifecycleEvent] = []
        var second = 0
        while batches.count < count && second < maxSeconds {
            second += 1
            var raw = simulator.nextFix()
            raw.bootId = bootId
            if scenario == .clockJump, second == 900 {
                var event = LifecycleEvent()
                event.kind = .cameToForeground
                event.timeMs = raw.timeMs
                event.elapsedRealtimeMs = raw.elapsedRealtimeMs
                lifecycle.append(event)
            }
            let online = second >= offlineUntil
            let answer: (Int) -> UploadScheduler.AttemptResult = { _ in online ? .succeeded : .transportFailed }
            let now = raw.elapsedRealtimeMs ?? 0
            scheduler.advance(bootId: bootId, to: now, results: answer)
            delivered.append(raw)
            let decided = log.decisions.count
            engine.deliver(raw, index: delivered.count - 1, to: &log)
            for case .recorded(let index, let reason) in log.decisions[decided...] {
                var fix = delivered[index]
                fix.sequence = UInt64(recorded.count + 1)
                fix.reason = reason
                fix.bootId = 0  // the batch's boot (`§item-boot`)
                recorded.append(fix)
                scheduler.recorded(at: now)
            }
            scheduler.settle(at: now, results: answer)
            for attempt in scheduler.attempts[attemptsSeen...] where attempt.succeeded && batches.count < count {
                let carried = attempt.recorded.map { recorded[$0] }
                var batch = LocationBatch()
                batch.deviceId = deviceId
                batch.batchId = random.next() | 1
                batch.installId = installId
                batch.protocolRevision = 1
                batch.bootId = bootId
                batch.sentAtMs = raw.timeMs + 1_500
                batch.sentElapsedRealtimeMs = raw.elapsedRealtimeMs.map { $0 + 1_500 }
                batch.datum = .wgs84
                batch.fixes = Array(carried.dropLast())
                batch.liveFix = carried.last
                // The oldest fix the device still holds is the batch's first: the queue drains oldest first.
                batch.fixSequenceFloor = carried.first?.sequence ?? 0
                batch.deviceStatus = deviceStatus(observedAtMs: batch.sentAtMs)
                batch.lifecycleEvents = lifecycle
                lifecycle.removeAll()
                batches.append(batch)
            }
            attemptsSeen = scheduler.attempts.count
        }
        return batches
    }

    private func deviceStatus(observedAtMs: Int64) -> DeviceStatus {
        var status = DeviceStatus()
        status.observedAtMs = observedAtMs
        status.authorization = .always
        status.accuracy = .precise
        status.locationServicesEnabled = true
        status.backgroundRefreshEnabled = true
        status.lowPowerMode = false
        status.platform = .ios
        status.osVersion = "17.4.1"
        status.appVersion = "1.0.0"
        return status
    }
}
