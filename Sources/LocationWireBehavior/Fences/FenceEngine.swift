import LocationWire
import LocationWireGeometry

/// The device's fence engine, exactly as proto/BEHAVIOR.md "Fences" states it: each counted fix against the armed
/// regions, with state reports after arming, hysteresis and a confirmation time against boundary jitter,
/// dwell, expiry, and a fixed order for the events of one fix. Deterministic; every time comes from the fixes.
public struct FenceEngine: Sendable {
    /// The policy's fence fields with defaults applied.
    public struct Settings: Sendable {
        /// `fence_hysteresis_m`.
        public var hysteresisM: Double
        /// `fence_confirm_ms`.
        public var confirmMs: UInt64
        /// `fence_max_accuracy_cm`: fixes this inaccurate or worse do not count.
        public var maxAccuracyCm: UInt32

        /// Moves every region's edge and the hysteresis by this many metres, for the vector generator's edge
        /// check (`§distance-tolerance`).
        package var slackM: Double = 0

        public init(_ policy: TrackingPolicy) {
            hysteresisM = Double(policy.effectiveFenceHysteresisM)
            confirmMs = UInt64(policy.effectiveFenceConfirmMs)
            maxAccuracyCm = policy.effectiveFenceMaxAccuracyCm
        }
    }

    enum Side: Sendable { case unknown, inside, outside }

    /// One armed region, as armed.
    struct Armed: Sendable {
        let region: Region
        let shape: RegionShape
    }

    /// What the per-fix loop reads of one armed region, without references: copying it costs no retain, and
    /// the loop runs once per fix and region (20 M times a second is the target).
    struct Hot: Sendable {
        let x: Double
        let y: Double
        let z: Double
        let radiusSquaredChord: Double
        /// For a region without polygon: the squared chord of radius + hysteresis, beyond which a fix is on the
        /// outer side (`§fence-hysteresis` without a square root per check).
        let exitSquaredChord: Double
        let hasPolygon: Bool
        let notifyOnEntry: Bool
        let notifyOnExit: Bool
        let notifyOnDwell: Bool
        let loiteringDelayMs: UInt64

        init(_ armed: Armed, hysteresisM: Double) {
            x = armed.shape.center.x
            y = armed.shape.center.y
            z = armed.shape.center.z
            radiusSquaredChord = armed.shape.radiusSquaredChord
            exitSquaredChord = Sphere.squaredChord(spanning: armed.shape.radiusM + hysteresisM)
            hasPolygon = armed.shape.hasPolygon
            notifyOnEntry = armed.region.notifyOnEntry
            notifyOnExit = armed.region.notifyOnExit
            notifyOnDwell = armed.region.notifyOnDwell
            loiteringDelayMs = UInt64(armed.region.loiteringDelayMs)
        }
    }

    /// What the engine knows of one armed region; kept apart from ``Armed`` so the hot loop writes only this.
    struct RegionState: Sendable {
        var side: Side = .unknown
        /// Start S of a pending transition: its fix's elapsed time.
        var pendingSinceMs: UInt64?
        /// When the current stay began (`§fence-dwell`), and whether it has reported its dwell.
        var stayStartMs: UInt64 = 0
        var dwellReported = false
    }

    public let settings: Settings
    /// FenceEvent.assignment_version of every event.
    public var assignmentVersion: UInt64
    /// The next event_sequence to give (`§fence-order`).
    public private(set) var nextEventSequence: UInt64
    /// Armed regions in id byte order, which is the order of events of one kind; `hot` and `states` run
    /// parallel.
    private(set) var armed: [Armed] = []
    private var hot: [Hot] = []
    var states: [RegionState] = []
    /// The least `expires_at_ms` above 0 among the armed regions: no fix before it needs the expiry scan.
    private var earliestExpiryMs = Int64.max
    /// The boot of the previous counted fix, and its `elapsed_realtime_ms` (`§fence-gate`).
    var bootId: UInt64?
    var previousElapsedMs: UInt64?
    /// Fields of a restored ``State`` that a newer engine wrote: written back by ``persistedState``.
    var unknownStateFields = UnknownFields()

    public init(policy: TrackingPolicy, assignmentVersion: UInt64 = 0, firstEventSequence: UInt64 = 1) {
        self.init(
            settings: Settings(policy), assignmentVersion: assignmentVersion, firstEventSequence: firstEventSequence)
    }

    package init(settings: Settings, assignmentVersion: UInt64, firstEventSequence: UInt64) {
        self.settings = settings
        self.assignmentVersion = assignmentVersion
        nextEventSequence = max(firstEventSequence, 1)
    }

    /// The ids armed now, in byte order.
    public var armedRegionIds: [String] { armed.map(\.region.id) }

    /// Arms `regions`; an id already armed is replaced, and unless the definition is identical its state becomes
    /// unknown. A region without a circle centre cannot be tested and is not armed.
    public mutating func arm(_ regions: [Region]) {
        for region in regions {
            guard let shape = RegionShape(region, radiusSlackM: settings.slackM) else { continue }
            let position = insertionPoint(of: region.id)
            if position < armed.count, armed[position].region.id == region.id {
                if armed[position].region == region { continue }
                armed.remove(at: position)
                hot.remove(at: position)
                states.remove(at: position)
            }
            let entry = Armed(region: region, shape: shape)
            armed.insert(entry, at: position)
            hot.insert(Hot(entry, hysteresisM: settings.hysteresisM), at: position)
            states.insert(RegionState(), at: position)
        }
        updateEarliestExpiry()
    }

    private mutating func updateEarliestExpiry() {
        earliestExpiryMs = armed.lazy.map(\.region.expiresAtMs).filter { $0 > 0 }.min() ?? .max
    }

    /// The regions an assignment puts in the fence engine (`§fence-assignment`): none when `monitoring_enabled` is
    /// false; otherwise `regions` (the assignment's, or a reader's checked copy of them), each expiring at the
    /// earlier of its own `expires_at_ms` and the assignment's, 0 being no expiry. `§fence-expiry` then disarms
    /// them all, silently, once the assignment has expired.
    public static func regions(_ regions: [Region], armedBy assignment: RegionAssignment) -> [Region] {
        if assignment.monitoringEnabled == false { return [] }
        let assignmentExpiryMs = assignment.expiresAtMs
        guard assignmentExpiryMs > 0 else { return regions }
        return regions.map { region in
            var region = region
            if region.expiresAtMs <= 0 || region.expiresAtMs > assignmentExpiryMs {
                region.expiresAtMs = assignmentExpiryMs
            }
            return region
        }
    }

    /// Disarms the regions with these ids; an id not armed is ignored. A disarmed region reports nothing.
    public mutating func disarm(_ ids: [String]) {
        let gone = Set(ids)
        removeArmed { gone.contains($0.region.id) }
    }

    private mutating func removeArmed(where condition: (Armed) -> Bool) {
        for slot in armed.indices.reversed() where condition(armed[slot]) {
            armed.remove(at: slot)
            hot.remove(at: slot)
            states.remove(at: slot)
        }
        updateEarliestExpiry()
    }

    /// Evaluates one delivered fix; its events, in order and numbered, are appended to `events`.
    public mutating func evaluate(_ fix: LocationFix, into events: inout [FenceEvent]) {
        // `§fence-gate`.
        guard let elapsed = fix.elapsedRealtimeMs else { return }
        let newBoot = fix.bootId != bootId
        if !newBoot, let previousElapsedMs, elapsed <= previousElapsedMs { return }
        guard let accuracy = fix.horizontalAccuracyCm, accuracy > 0, accuracy < settings.maxAccuracyCm else { return }
        let latitude = fix.latitudeE7 ?? 0
        let longitude = fix.longitudeE7 ?? 0
        guard latitude != 0 || longitude != 0 else { return }
        if newBoot {
            if bootId != nil { forgetStates() }
            bootId = fix.bootId
        }
        previousElapsedMs = elapsed
        // `§fence-expiry`: a wall-clock time, compared with the fix's wall clock.
        if fix.timeMs >= earliestExpiryMs {
            removeArmed { $0.region.expiresAtMs > 0 && $0.region.expiresAtMs <= fix.timeMs }
        }

        let point = SpherePoint(latitudeE7: latitude, longitudeE7: longitude)
        var found = FoundEvents()
        let settings = self.settings
        armed.withUnsafeBufferPointer { armed in
            hot.withUnsafeBufferPointer { hot in
                states.withUnsafeMutableBufferPointer { states in
                    for slot in 0..<hot.count {
                        Self.evaluate(
                            hot[slot], armed, &states[slot], slot: slot, point: point, elapsed: elapsed, settings,
                            &found)
                    }
                }
            }
        }
        guard !found.isEmpty else { return }
        for (kind, slot, since) in found.inOrder {
            events.append(event(kind, for: armed[slot].region, fix: fix, since: since))
        }
    }

    /// The events of one fix, collected by kind so they come out as `§fence-order` says.
    private struct FoundEvents {
        var states: [(FenceEventKind, Int, UInt64)] = []
        var exits: [(FenceEventKind, Int, UInt64)] = []
        var enters: [(FenceEventKind, Int, UInt64)] = []
        var dwells: [(FenceEventKind, Int, UInt64)] = []
        var isEmpty: Bool { states.isEmpty && exits.isEmpty && enters.isEmpty && dwells.isEmpty }
        var inOrder: [(FenceEventKind, Int, UInt64)] { states + exits + enters + dwells }
    }

    @inline(__always)
    private static func evaluate(
        _ hot: Hot, _ armed: UnsafeBufferPointer<Armed>, _ region: inout RegionState, slot: Int, point: SpherePoint,
        elapsed: UInt64, _ settings: Settings, _ found: inout FoundEvents
    ) {
        let dx = point.x - hot.x
        let dy = point.y - hot.y
        let dz = point.z - hot.z
        let squaredChord = dx * dx + dy * dy + dz * dz
        let inside =
            squaredChord <= hot.radiusSquaredChord && (!hot.hasPolygon || armed[slot].shape.containsInPolygon(point))
        switch region.side {
        case .unknown:
            // `§fence-state-report`.
            region.side = inside ? .inside : .outside
            found.states.append((inside ? .stateInside : .stateOutside, slot, elapsed))
            if inside { beginStay(&region, at: elapsed) }
        case .inside, .outside:
            // `§fence-hysteresis`, `§fence-confirm`.
            let otherSide: Bool
            if region.side == .outside {
                otherSide = inside
            } else if inside {
                otherSide = false
            } else if hot.hasPolygon {
                otherSide =
                    armed[slot].shape.distancePastBoundaryM(point) >= settings.hysteresisM + settings.slackM
            } else {
                otherSide = squaredChord >= hot.exitSquaredChord
            }
            if otherSide {
                let since = region.pendingSinceMs ?? elapsed
                region.pendingSinceMs = since
                if elapsed - since >= settings.confirmMs {
                    region.pendingSinceMs = nil
                    if region.side == .outside {
                        region.side = .inside
                        beginStay(&region, at: since)
                        if hot.notifyOnEntry { found.enters.append((.enter, slot, since)) }
                    } else {
                        region.side = .outside
                        if hot.notifyOnExit { found.exits.append((.exit, slot, since)) }
                    }
                }
            } else {
                region.pendingSinceMs = nil
            }
        }
        // `§fence-dwell`; not on a fix that continues an exit pending since an earlier one (`§fence-dwell-pending`):
        // were it confirmed, the stay ended before this fix.
        if region.side == .inside, (region.pendingSinceMs ?? elapsed) == elapsed, hot.notifyOnDwell,
            !region.dwellReported,
            elapsed - region.stayStartMs >= hot.loiteringDelayMs
        {
            region.dwellReported = true
            found.dwells.append((.dwell, slot, region.stayStartMs))
        }
    }

    private static func beginStay(_ region: inout RegionState, at elapsed: UInt64) {
        region.stayStartMs = elapsed
        region.dwellReported = false
    }

    /// A new boot: the OS forgot its regions, so every state is unknown again.
    private mutating func forgetStates() {
        for slot in states.indices { states[slot] = RegionState() }
    }

    /// `§fence-event`. `since` is S of a transition or the stay start of a dwell.
    private mutating func event(
        _ kind: FenceEventKind, for region: Region, fix: LocationFix, since: UInt64
    )
        -> FenceEvent
    {
        var event = FenceEvent()
        event.eventSequence = nextEventSequence
        nextEventSequence &+= 1
        event.regionId = region.id
        event.regionVersion = region.version
        event.assignmentVersion = assignmentVersion
        event.kind = kind
        event.source = .appHitTest
        event.triggerFix = fix
        event.detectedAtMs = fix.timeMs
        let elapsed = fix.elapsedRealtimeMs ?? 0
        event.detectedElapsedRealtimeMs = elapsed
        event.bootId = fix.bootId
        switch kind {
        case .enter, .exit:
            let (time, overflow) = fix.timeMs.subtractingReportingOverflow(Int64(clamping: elapsed - since))
            event.osEventTimeMs = overflow ? fix.timeMs : time
        case .dwell:
            event.osEventTimeMs = fix.timeMs
            event.dwellMs = UInt32(clamping: elapsed - since)
        default:
            event.osEventTimeMs = fix.timeMs
        }
        return event
    }

    /// Where `id` is or would go in the byte order of ids.
    func insertionPoint(of id: String) -> Int {
        var low = 0
        var high = armed.count
        while low < high {
            let middle = (low + high) / 2
            if armed[middle].region.id.utf8.lexicographicallyPrecedes(id.utf8) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
