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

    /// With every distance threshold moved by `slackM` (see ``RecordingEngine/Settings/init(_:slackM:)``).
    package init(
        policy: TrackingPolicy, fixes: [LocationFix], slackM: Double,
        results: (Int) -> UploadScheduler.AttemptResult
    ) {
        var engine = RecordingEngine(settings: .init(policy, slackM: slackM))
        var scheduler = UploadScheduler(policy: policy)
        var sink = Sink()
        var clock = BootClock()
        for (index, fix) in fixes.enumerated() {
            let now = clock.accept(fix)
            if let now { scheduler.advance(bootId: fix.bootId, to: now, results: results) }
            engine.deliver(fix, index: index, to: &sink)
            if let now {
                for _ in 0..<sink.takeRecordedCount() { scheduler.recorded(at: now) }
                scheduler.settle(at: now, results: results)
            }
        }
        engine.finish(to: &sink)
        if let end = clock.lastMs {
            for _ in 0..<sink.takeRecordedCount() { scheduler.recorded(at: end) }
            scheduler.settle(at: end, results: results)
        }
        for decision in sink.decisions {
            switch decision {
            case .recorded(let index, let reason): recorded.append((index, reason))
            case .dropped(let index, let code): dropped.append((index, code))
            }
        }
        dropped.sort { $0.index < $1.index }
        uploads = scheduler.attempts
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

/// The time a delivered fix gives the upload timer: its `elapsed_realtime_ms` when it passes the clock checks of
/// `§rec-clock` (present, and after the previous fix of its boot), else none.
package struct BootClock: Sendable {
    private var bootId: UInt64?
    package private(set) var lastMs: UInt64?

    package init() {}

    package mutating func accept(_ fix: LocationFix) -> UInt64? {
        guard let elapsed = fix.elapsedRealtimeMs else { return nil }
        if fix.bootId == bootId, let lastMs, elapsed <= lastMs { return nil }
        bootId = fix.bootId
        lastMs = elapsed
        return elapsed
    }
}
