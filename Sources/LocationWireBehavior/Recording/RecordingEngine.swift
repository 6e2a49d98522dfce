import LocationWire
import LocationWireGeometry

/// Why the recording engine dropped a delivered fix: the stable codes of proto/BEHAVIOR.md "Recording", one per
/// stage. A fix the motion rules merely did not record has no code.
public enum DropCode: String, Sendable, CaseIterable {
    /// `§rec-clock`: no `elapsed_realtime_ms`.
    case noElapsedTime = "no-elapsed-time"
    /// `§rec-clock`: not after the previous delivered fix of its boot.
    case notAfterPrevious = "not-after-previous"
    /// `§rec-enabled`.
    case trackingDisabled = "tracking-disabled"
    /// `§rec-duty`.
    case dutyOff = "duty-off"
    /// `§rec-filter`: horizontal accuracy absent, 0 or at least the policy's maximum.
    case accuracy
    /// `§rec-filter`: exactly (0, 0).
    case nullIsland = "null-island"
    /// `§rec-window`: a more accurate fix (or an earlier equal one) won the window.
    case windowNotBest = "window-not-best"
}

/// What the engine decided about one delivered fix, named by its delivery index.
public enum RecordingDecision: Equatable, Sendable {
    case recorded(index: Int, reason: FixReason)
    case dropped(index: Int, code: DropCode)
}

/// Receives the engine's decisions as they are made. The engine is generic over it so that a benchmark's counter
/// and a test's array cost nothing extra.
public protocol RecordingSink {
    mutating func receive(_ decision: RecordingDecision)
}

/// The device's recording engine, exactly as proto/BEHAVIOR.md "Recording" states it: clock checks, tracking
/// switch, duty cycle, accuracy filter, requested fixes, the best fix per window, then the motion rules.
/// Deterministic, and every time comes from the fixes: a fix's monotonic `elapsed_realtime_ms` within its
/// `boot_id`; the wall clock never decides.
public struct RecordingEngine: Sendable {
    /// The policy's values with defaults applied, read once.
    public struct Settings: Sendable {
        public var trackingEnabled: Bool
        public var dutyOnMs: UInt64
        public var dutyOffMs: UInt64
        public var maxHorizontalAccuracyCm: UInt32
        public var windowMs: UInt64
        /// `stationary_radius_m` as a squared unit-sphere chord: within the radius means at most this.
        public var stationaryRadiusSquaredChord: Double
        public var stopTimeoutMs: UInt64
        public var speedThresholdCmS: Double
        /// Added to the distance a derived speed is computed from (a reported speed is an exact integer
        /// comparison, with nothing to nudge).
        var derivedSpeedSlackM: Double = 0
        public var timeIntervalMs: UInt64
        /// `distance_interval_m` as a squared chord: far enough means at least this.
        public var distanceIntervalSquaredChord: Double
        public var heartbeatIntervalMs: UInt64

        /// Moves every distance threshold by this many metres (and the speed threshold by as many cm/s): the
        /// vector generator runs each scenario at ±1 cm and requires the same outputs, so no vector sits on an
        /// edge that last-bit differences in trigonometry could flip (`§distance-tolerance`).
        package init(_ policy: TrackingPolicy, slackM: Double) {
            self.init(policy)
            stationaryRadiusSquaredChord = Sphere.squaredChord(
                spanning: Double(policy.effectiveStationaryRadiusM) + slackM)
            distanceIntervalSquaredChord = Sphere.squaredChord(
                spanning: Double(policy.effectiveDistanceIntervalM) + slackM)
            derivedSpeedSlackM = slackM
        }

        public init(_ policy: TrackingPolicy) {
            trackingEnabled = policy.trackingEnabled ?? true
            let on = UInt64(policy.dutyCycleOnMs ?? 0)
            let off = UInt64(policy.dutyCycleOffMs ?? 0)
            (dutyOnMs, dutyOffMs) = on > 0 && off > 0 ? (on, off) : (0, 0)
            maxHorizontalAccuracyCm = policy.effectiveMaxHorizontalAccuracyCm
            windowMs = UInt64(policy.fixWindowMs ?? 0)
            stationaryRadiusSquaredChord = Sphere.squaredChord(spanning: Double(policy.effectiveStationaryRadiusM))
            stopTimeoutMs = UInt64(policy.effectiveStopTimeoutMs)
            speedThresholdCmS = Double(policy.effectiveSpeedThresholdCmS)
            timeIntervalMs = UInt64(policy.effectiveTimeIntervalMs)
            distanceIntervalSquaredChord = Sphere.squaredChord(spanning: Double(policy.effectiveDistanceIntervalM))
            heartbeatIntervalMs = UInt64(policy.heartbeatIntervalMs ?? 0)
        }
    }

    public let settings: Settings
    /// Everything the engine remembers between fixes (``State``): what an app stores to continue after a kill and
    /// relaunch (`§rec-relaunch`).
    private var state = State()

    public init(policy: TrackingPolicy) {
        settings = Settings(policy)
    }

    /// The delivery index of the fix the open window holds undecided, if any: a device keeps that fix itself,
    /// since a later delivery may record it.
    public var undecidedIndex: Int? { state.windowBest?.index }

    package init(settings: Settings) {
        self.settings = settings
    }

    /// An engine that continues from `state`, the ``persistedState`` of an engine under the same policy: given the
    /// same fixes from then on, it decides exactly as that engine would have (`§rec-relaunch`).
    public init(policy: TrackingPolicy, restoring state: State) {
        self.init(settings: Settings(policy), restoring: state)
    }

    package init(settings: Settings, restoring state: State) {
        self.settings = settings
        self.state = state
    }

    /// What the engine remembers now, O(1) in size: store it (``State/serializedBytes()``) once a fix's decisions
    /// are stored, and restore it with ``init(policy:restoring:)`` after a relaunch.
    public var persistedState: State { state }

    /// The time `fix` gives the upload timer (`§upload-end`): its `elapsed_realtime_ms` when it would pass the clock
    /// checks of `§rec-clock` (present, and after the previous fix of its boot), else nil. Ask before delivering it.
    public func clockTime(of fix: LocationFix) -> UInt64? {
        guard let elapsed = fix.elapsedRealtimeMs else { return nil }
        if fix.bootId == state.bootId, let previous = state.previousElapsedMs, elapsed <= previous { return nil }
        return elapsed
    }

    /// The `elapsed_realtime_ms` of the last fix that passed the clock checks in the current boot; nil before the
    /// first and after ``finish(to:)``.
    public var latestElapsedMs: UInt64? { state.previousElapsedMs }

    /// The fix the OS delivered as the `index`th. Decisions go to `sink`: this fix's own, and, when it closes a
    /// window, the decision on that window's best fix first.
    public mutating func deliver<Sink: RecordingSink>(_ fix: LocationFix, index: Int, to sink: inout Sink) {
        // 1. Clock.
        guard let elapsed = fix.elapsedRealtimeMs else {
            return sink.receive(.dropped(index: index, code: .noElapsedTime))
        }
        if fix.bootId != state.bootId {
            finishBoot(to: &sink)
            state.bootId = fix.bootId
        } else if let previousElapsedMs = state.previousElapsedMs, elapsed <= previousElapsedMs {
            return sink.receive(.dropped(index: index, code: .notAfterPrevious))
        }
        state.previousElapsedMs = elapsed
        let start = state.bootStartMs ?? elapsed
        state.bootStartMs = start
        // 2. Tracking switch.
        guard settings.trackingEnabled else {
            return sink.receive(.dropped(index: index, code: .trackingDisabled))
        }
        // 3. Duty cycle.
        if settings.dutyOnMs > 0, (elapsed - start) % (settings.dutyOnMs + settings.dutyOffMs) >= settings.dutyOnMs {
            return sink.receive(.dropped(index: index, code: .dutyOff))
        }
        // 4. Accuracy filter.
        guard let accuracy = fix.horizontalAccuracyCm, accuracy > 0, accuracy < settings.maxHorizontalAccuracyCm
        else { return sink.receive(.dropped(index: index, code: .accuracy)) }
        let latitude = fix.latitudeE7 ?? 0
        let longitude = fix.longitudeE7 ?? 0
        if latitude == 0 && longitude == 0 { return sink.receive(.dropped(index: index, code: .nullIsland)) }
        let observation = Observation(
            index: index, point: SpherePoint(latitudeE7: latitude, longitudeE7: longitude), elapsedMs: elapsed,
            speedCmS: fix.speedCmS, accuracyCm: accuracy)
        // A fix of a later window that passed the filter closes the open window (`§rec-window`), a requested
        // one included, before it is recorded.
        let window = settings.windowMs > 0 ? (elapsed - start) / settings.windowMs : 0
        if let best = state.windowBest, window != state.windowIndex {
            state.windowBest = nil
            applyMotionRules(best, to: &sink)
        }
        // 5. Requested fixes.
        if Self.isRequested(fix.reason) {
            state.lastRecorded = observation
            return sink.receive(.recorded(index: index, reason: fix.reason))
        }
        // 6. Window.
        guard settings.windowMs > 0 else { return applyMotionRules(observation, to: &sink) }
        if let best = state.windowBest {
            if window == state.windowIndex {
                if accuracy < best.accuracyCm {
                    state.windowBest = observation
                    sink.receive(.dropped(index: best.index, code: .windowNotBest))
                } else {
                    sink.receive(.dropped(index: index, code: .windowNotBest))
                }
                return
            }
        }
        state.windowIndex = window
        state.windowBest = observation
    }

    /// The trace ended: the open window, if any, closes.
    public mutating func finish<Sink: RecordingSink>(to sink: inout Sink) {
        finishBoot(to: &sink)
    }

    /// Whether `reason` is one of `§rec-requested`'s: `REGION_EVENT`, `VISIT`, `SIGNIFICANT_CHANGE`, `MANUAL`,
    /// `SERVER_REQUEST`, `PROVIDER_CHANGE` or `SYSTEM_RELAUNCH`, fixes something other than the motion rules asked
    /// for. They are numbers 6 to 12 of `FixReason`, so a range check does it without hashing, on every fix.
    @inline(__always) public static func isRequested(_ reason: FixReason) -> Bool {
        reason.rawValue >= FixReason.regionEvent.rawValue && reason.rawValue <= FixReason.systemRelaunch.rawValue
    }

    /// A boot ends (a fix of another boot, or the end of the trace): its window closes and every stage forgets.
    private mutating func finishBoot<Sink: RecordingSink>(to sink: inout Sink) {
        if let best = state.windowBest { applyMotionRules(best, to: &sink) }
        state.windowBest = nil
        state.previousElapsedMs = nil
        state.bootStartMs = nil
        state.lastRecorded = nil
        state.anchor = nil
        state.previousMotion = nil
        state.stationary = false
    }

    /// Stage 7, `§rec-motion` and the rules under it.
    private mutating func applyMotionRules<Sink: RecordingSink>(_ fix: Observation, to sink: inout Sink) {
        defer { state.previousMotion = fix }
        guard let anchor = state.anchor, let lastRecorded = state.lastRecorded else {
            // `§rec-first`: also when only requested fixes were recorded so far, the motion rules start here.
            record(fix, .motionStart, to: &sink)
            state.anchor = fix
            return
        }
        let outsideAnchor = fix.point.squaredChord(to: anchor.point) > settings.stationaryRadiusSquaredChord
        if state.stationary {
            if outsideAnchor {
                state.stationary = false
                state.anchor = fix
                record(fix, .motionStart, to: &sink)
            } else if settings.heartbeatIntervalMs > 0,
                fix.elapsedMs.since(lastRecorded.elapsedMs) >= settings.heartbeatIntervalMs
            {
                record(fix, .heartbeat, to: &sink)
            }
            return
        }
        if outsideAnchor {
            state.anchor = fix
        } else if fix.elapsedMs - anchor.elapsedMs >= settings.stopTimeoutMs {
            state.stationary = true
            record(fix, .motionStop, to: &sink)
            return
        }
        if isFast(fix) {
            if fix.elapsedMs.since(lastRecorded.elapsedMs) >= settings.timeIntervalMs {
                record(fix, .periodic, to: &sink)
            }
        } else if fix.point.squaredChord(to: lastRecorded.point) >= settings.distanceIntervalSquaredChord {
            record(fix, .distance, to: &sink)
        }
    }

    /// `§rec-speed`: the fix's own speed, else the speed from the previous fix of the motion rules.
    private func isFast(_ fix: Observation) -> Bool {
        if let speed = fix.speedCmS { return Double(speed) > settings.speedThresholdCmS }
        guard let previous = state.previousMotion, fix.elapsedMs > previous.elapsedMs else { return false }
        let distance = fix.point.distanceM(to: previous.point) + settings.derivedSpeedSlackM
        return distance * 100_000 / Double(fix.elapsedMs - previous.elapsedMs) > settings.speedThresholdCmS
    }

    private mutating func record<Sink: RecordingSink>(
        _ fix: Observation, _ reason: FixReason, to sink: inout Sink
    ) {
        state.lastRecorded = fix
        sink.receive(.recorded(index: fix.index, reason: reason))
    }
}

/// Collects decisions in order; for tests, the testee and the command line.
public struct RecordingLog: RecordingSink, Sendable {
    public private(set) var decisions: [RecordingDecision] = []
    public init() {}
    public mutating func receive(_ decision: RecordingDecision) { decisions.append(decision) }
}

extension UInt64 {
    /// Milliseconds from `earlier` to this time, 0 when `earlier` is later: a requested fix recorded while a
    /// window was open can be later than the window's fix that the motion rules see next (`§rec-stationary`).
    @inlinable func since(_ earlier: UInt64) -> UInt64 { self > earlier ? self - earlier : 0 }
}
