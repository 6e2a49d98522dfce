import Foundation
import LocationWire

/// Realistic upload fixtures: a simulated trace put through the TrackingPolicy reporting rules and batched as an
/// app would batch it. `locwire fixtures generate` writes them; the same scenario and seed always give the same
/// bytes.
///
/// Recording (tracking_policy.proto): fixes failing the accuracy filter are dropped; while moving faster than the
/// speed threshold a fix is recorded when the time interval has passed, slower when it lies the distance
/// interval from the last recorded one; once the device stayed within the stationary radius for the stop timeout
/// it records a MOTION_STOP fix, then nothing (but heartbeats) until it leaves the radius (MOTION_START).
/// Uploading: a batch goes out every upload interval, or as soon as max_batch_size fixes wait; the newest fix
/// travels as the live fix. The offline-backlog scenario has no network for its first half and then drains
/// the backlog in full batches; the clock-jump scenario's wall clock jumps back an hour half way.
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
        var recorder = Recorder(policy: policy)
        var queue: [LocationFix] = []
        var batches: [LocationBatch] = []
        var lastUpload = 0
        let maxSeconds = 6 * 3600
        let offlineUntil = scenario == .offlineBacklog ? 1800 : 0
        var lifecycle: [LifecycleEvent] = []
        var second = 0
        while batches.count < count && second < maxSeconds {
            second += 1
            let raw = simulator.nextFix()
            if scenario == .clockJump, second == 900 {
                var event = LifecycleEvent()
                event.kind = .cameToForeground
                event.timeMs = raw.timeMs
                event.elapsedRealtimeMs = raw.elapsedRealtimeMs
                lifecycle.append(event)
            }
            if var recorded = recorder.consider(raw) {
                recorded.sequence = recorder.nextSequence()
                queue.append(recorded)
            }
            let online = second >= offlineUntil
            let dueByTime = second - lastUpload >= Int(policy.effectiveUploadIntervalMs / 1000)
            let dueBySize = queue.count >= Int(policy.effectiveMaxBatchSize)
            guard online, !queue.isEmpty, dueByTime || dueBySize else { continue }
            // Drain: full batches while the backlog exceeds a batch (offline recovery), then the rest.
            while !queue.isEmpty && batches.count < count {
                let take = min(queue.count, Int(policy.effectiveMaxBatchSize))
                var fixes = Array(queue.prefix(take))
                queue.removeFirst(take)
                var batch = LocationBatch()
                batch.deviceId = deviceId
                batch.batchId = random.next() | 1
                batch.installId = installId
                batch.protocolRevision = 1
                batch.bootId = bootId
                batch.sentAtMs = raw.timeMs + 1_500
                batch.sentElapsedRealtimeMs = raw.elapsedRealtimeMs.map { $0 + 1_500 }
                batch.datum = .wgs84
                if queue.isEmpty, fixes.count > 1 { batch.liveFix = fixes.removeLast() }
                batch.fixes = fixes
                // Everything below the first fix sent has been acknowledged: the queue drains oldest first.
                batch.fixSequenceFloor = fixes.first?.sequence ?? batch.liveFix?.sequence ?? 0
                batch.deviceStatus = deviceStatus(observedAtMs: batch.sentAtMs)
                batch.lifecycleEvents = lifecycle
                lifecycle.removeAll()
                batches.append(batch)
                if !dueBySize { break }
            }
            lastUpload = second
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

    /// The reporting rules, applied fix by fix.
    package struct Recorder {
        let policy: TrackingPolicy
        var last: LocationFix?
        var sequence: UInt64 = 0
        var anchor: LocationFix?
        var anchorSince: Int64 = 0
        var stationary = false
        var lastHeartbeat: Int64 = 0

        package init(policy: TrackingPolicy) {
            self.policy = policy
        }

        mutating func nextSequence() -> UInt64 {
            sequence += 1
            return sequence
        }

        /// The fix to record, with its reason, or nil.
        package mutating func consider(_ fix: LocationFix) -> LocationFix? {
            guard let accuracy = fix.horizontalAccuracyCm, accuracy > 0,
                accuracy < policy.effectiveMaxHorizontalAccuracyCm,
                !(fix.latitudeE7 == 0 && fix.longitudeE7 == 0)
            else { return nil }
            var recorded = fix
            // Stationary detection: within the radius of an anchor for the stop timeout.
            if let anchor, Self.distanceM(anchor, fix) <= Double(policy.effectiveStationaryRadiusM) {
                if !stationary, fix.elapsedMs - anchorSince >= Int64(policy.effectiveStopTimeoutMs) {
                    stationary = true
                    lastHeartbeat = fix.elapsedMs
                    recorded.reason = .motionStop
                    last = recorded
                    return recorded
                }
            } else {
                anchor = fix
                anchorSince = fix.elapsedMs
                if stationary {
                    stationary = false
                    recorded.reason = .motionStart
                    last = recorded
                    return recorded
                }
            }
            if stationary {
                let heartbeat = Int64(policy.heartbeatIntervalMs ?? 0)
                guard heartbeat > 0, fix.elapsedMs - lastHeartbeat >= heartbeat else { return nil }
                lastHeartbeat = fix.elapsedMs
                recorded.reason = .heartbeat
                last = recorded
                return recorded
            }
            guard let last else {
                recorded.reason = .periodic
                self.last = recorded
                return recorded
            }
            let fast = (fix.speedCmS ?? 0) > policy.effectiveSpeedThresholdCmS
            if fast {
                guard fix.elapsedMs - last.elapsedMs >= Int64(policy.effectiveTimeIntervalMs) else { return nil }
                recorded.reason = .periodic
            } else {
                guard Self.distanceM(last, fix) >= Double(policy.effectiveDistanceIntervalM) else { return nil }
                recorded.reason = .distance
            }
            self.last = recorded
            return recorded
        }

        package static func distanceM(_ a: LocationFix, _ b: LocationFix) -> Double {
            let latitude = Double(a.latitudeE7 ?? 0) * 1e-7 * .pi / 180
            // Differences in Int64: two longitudes can be 3.6e9 units apart, beyond Int32.
            let north = Double(Int64(b.latitudeE7 ?? 0) - Int64(a.latitudeE7 ?? 0)) * 1e-7 * 111_132
            let east = Double(Int64(b.longitudeE7 ?? 0) - Int64(a.longitudeE7 ?? 0)) * 1e-7 * 111_320 * cos(latitude)
            return (north * north + east * east).squareRoot()
        }
    }
}

extension LocationFix {
    /// The monotonic clock in ms, 0 when absent: the recorder measures intervals on it, never on the wall clock.
    fileprivate var elapsedMs: Int64 { Int64(elapsedRealtimeMs ?? 0) }
}
