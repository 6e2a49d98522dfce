import LocationWire

/// A whole trace through the recording engine and the upload timer together, as the `recording` conformance
/// family, `locwire simulate record` and the fixture generator run it.
public struct RecordingRun: Sendable {
    /// The fixes recorded, in the order recorded: delivery indices and reasons.
    public var recorded: [(index: Int, reason: FixReason)] = []
    /// The fixes dropped, by delivery index, with the stage's code.
    public var dropped: [(index: Int, code: DropCode)] = []
    /// Every upload attempt, in order.
    public var uploads: [UploadScheduler.Attempt] = []

    /// Runs `fixes` (as delivered) under `policy`; attempt n ends as `results(n)`.
    public init(
        policy: TrackingPolicy, fixes: [LocationFix],
        results: (Int) -> UploadScheduler.AttemptResult = { _ in .succeeded }
    ) {
        self.init(policy: policy, fixes: fixes, slackM: 0, results: results)
    }

    /// With every distance threshold moved by `slackM` (see ``RecordingEngine/Settings/init(_:slackM:)``), and the
    /// app killed and relaunched before each delivery index in `relaunchBefore` (an index at or past the last fix
    /// relaunches before the trace ends): there the engine and the timer are stored as bytes, dropped, and
    /// restored from those bytes, as `§rec-relaunch` and `§upload-relaunch` say a device does. The outcome must be
    /// the same as without relaunches; the vector generator checks it.
    package init(
        policy: TrackingPolicy, fixes: [LocationFix], slackM: Double, relaunchBefore: Set<Int> = [],
        results: (Int) -> UploadScheduler.AttemptResult
    ) {
        var device = Device(settings: .init(policy, slackM: slackM), policy: policy)
        var sink = Sink()
        for (index, fix) in fixes.enumerated() {
            if relaunchBefore.contains(index) { device.relaunch() }
            let now = device.engine.clockTime(of: fix)
            if let now { device.scheduler.advance(bootId: fix.bootId, to: now, results: results) }
            device.engine.deliver(fix, index: index, to: &sink)
            if let now {
                for _ in 0..<sink.takeRecordedCount() { device.recorded(bootId: fix.bootId, at: now) }
                device.scheduler.settle(at: now, results: results)
            }
            device.storeAttempts()
        }
        if relaunchBefore.contains(where: { $0 >= fixes.count }) { device.relaunch() }
        // `§upload-end`: the trace ends at the last fix that passed the clock checks.
        let end = device.engine.latestElapsedMs
        device.engine.finish(to: &sink)
        if let end, let bootId = device.bootId {
            for _ in 0..<sink.takeRecordedCount() { device.recorded(bootId: bootId, at: end) }
            device.scheduler.settle(at: end, results: results)
        }
        device.storeAttempts()
        for decision in sink.decisions {
            switch decision {
            case .recorded(let index, let reason): recorded.append((index, reason))
            case .dropped(let index, let code): dropped.append((index, code))
            }
        }
        dropped.sort { $0.index < $1.index }
        uploads = device.uploads
    }

    /// The device around the engines, as the reference device library keeps it: the engines, and what it stores
    /// beside their persisted states, the attempts made and each pending fix's record time.
    private struct Device {
        let policy: TrackingPolicy
        let settings: RecordingEngine.Settings
        var engine: RecordingEngine
        var scheduler: UploadScheduler
        /// Every attempt, in order (taken from the timer after each fix).
        var uploads: [UploadScheduler.Attempt] = []
        /// The pending fixes, by recording-order place: what a device stores with each fix.
        var pending: [Int: UploadScheduler.PendingFix] = [:]

        init(settings: RecordingEngine.Settings, policy: TrackingPolicy) {
            self.policy = policy
            self.settings = settings
            engine = RecordingEngine(settings: settings)
            scheduler = UploadScheduler(policy: policy)
        }

        /// The boot of the last fix that passed the clock checks.
        var bootId: UInt64? { engine.persistedState.bootId }

        mutating func recorded(bootId: UInt64, at elapsedMs: UInt64) {
            let place = scheduler.persistedState.recordedCount
            pending[place] = UploadScheduler.PendingFix(recorded: place, bootId: bootId, recordedAtMs: elapsedMs)
            scheduler.recorded(at: elapsedMs)
        }

        /// Takes the timer's new attempts; a successful one deletes its fixes.
        mutating func storeAttempts() {
            for attempt in scheduler.takeAttempts() {
                uploads.append(attempt)
                if attempt.succeeded { for place in attempt.recorded { pending[place] = nil } }
            }
        }

        /// The app is killed and relaunched: only bytes and the stored pending fixes survive.
        mutating func relaunch() {
            do {
                let engineBytes = engine.persistedState.serializedBytes()
                let schedulerBytes = scheduler.persistedState.serializedBytes()
                engine = RecordingEngine(
                    settings: settings, restoring: try RecordingEngine.State(serializedBytes: engineBytes))
                scheduler = UploadScheduler(
                    policy: policy, restoring: try UploadScheduler.State(serializedBytes: schedulerBytes),
                    pending: Array(pending.values))
            } catch {
                preconditionFailure("a persisted state does not decode: \(error)")
            }
        }
    }

    /// Decisions in order, and how many recordings the timer has not yet heard of.
    private struct Sink: RecordingSink {
        var decisions: [RecordingDecision] = []
        var unannounced = 0
        mutating func receive(_ decision: RecordingDecision) {
            decisions.append(decision)
            if case .recorded = decision { unannounced += 1 }
        }
        mutating func takeRecordedCount() -> Int {
            defer { unannounced = 0 }
            return unannounced
        }
    }
}
