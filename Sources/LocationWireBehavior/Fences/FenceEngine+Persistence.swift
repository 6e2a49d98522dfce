import LocationWire

// The fence engine's memory persists as `locationwire.session.v1.FenceEngineState`
// (proto/locationwire/session/v1/fence_engine.proto, the format's specification). The engine keeps its regions in
// parallel arrays laid out for the per-fix loop, so the state is a snapshot of them, at most one entry per armed
// region (a platform arms at most 100). The policy is configuration and is not persisted.

extension FenceEngine {
    /// Everything the engine remembers between two steps (`§fence-relaunch`): the armed regions with each one's
    /// state, pending transition and stay, the gate's previous counted fix, and the event counter.
    public struct State: TableCodedMessage {
        /// The boot of the previous counted fix; nil before the first.
        var bootId: UInt64?
        /// `elapsed_realtime_ms` of the previous counted fix, ms.
        var previousElapsedMs: UInt64?
        /// The `event_sequence` the next event gets (`§fence-order`), at least 1.
        var nextEventSequence: UInt64 = 1
        /// `FenceEvent.assignment_version` of every event.
        var assignmentVersion: UInt64 = 0
        /// The armed regions, in id byte order.
        var regions: [ArmedRegion] = []
        /// Fields a newer engine wrote: kept and written back.
        public var unknownFields = UnknownFields()

        public init() {}

        public static let fieldTable = FieldTable<State>(
            "locationwire.session.v1.FenceEngineState",
            [
                .optional(1, "boot_id", .fixed64, \.bootId),
                .optional(2, "previous_elapsed_ms", .uint64, \.previousElapsedMs),
                .alwaysWritten(3, "next_event_sequence", .uint64, \.nextEventSequence),
                .singular(4, "assignment_version", .uint64, \.assignmentVersion),
                .repeated(5, "regions", .message, \.regions),
            ])
    }

    /// One armed region and what the engine knows of it; `locationwire.session.v1.FenceRegionState`, public only as a
    /// part of ``State``. Times are `elapsed_realtime_ms` of the boot of ``State/bootId``, ms.
    public struct ArmedRegion: TableCodedMessage {
        /// The region as armed.
        var region = Region()
        var side = PersistedSide.unknown
        /// S of a pending transition; nil when none is pending (`§fence-confirm`).
        var pendingSinceMs: UInt64?
        /// When the current stay began (`§fence-dwell`); meaningful while inside.
        var stayStartMs: UInt64 = 0
        /// Whether the current stay has reported its dwell.
        var dwellReported = false
        public var unknownFields = UnknownFields()

        public init() {}

        public static let fieldTable = FieldTable<ArmedRegion>(
            "locationwire.session.v1.FenceRegionState",
            [
                .singular(1, "region", .message, \.region),
                .singular(2, "side", .enumeration, \.side),
                .optional(3, "pending_since_ms", .uint64, \.pendingSinceMs),
                .singular(4, "stay_start_ms", .uint64, \.stayStartMs),
                .singular(5, "dwell_reported", .bool, \.dwellReported),
            ])
    }

    /// ``Side`` as stored: `locationwire.session.v1.FenceRegionSide`. A value without a name reads as unknown.
    struct PersistedSide: LocationWireEnum {
        var rawValue: Int32
        init(rawValue: Int32) { self.rawValue = rawValue }

        static let unknown = PersistedSide(rawValue: 0)
        static let inside = PersistedSide(rawValue: 1)
        static let outside = PersistedSide(rawValue: 2)

        static let schema = EnumSchema(
            "locationwire.session.v1.FenceRegionSide",
            [("FENCE_REGION_SIDE_UNKNOWN", 0), ("FENCE_REGION_SIDE_INSIDE", 1), ("FENCE_REGION_SIDE_OUTSIDE", 2)])

        init(_ side: Side) {
            switch side {
            case .unknown: self = .unknown
            case .inside: self = .inside
            case .outside: self = .outside
            }
        }

        var side: Side {
            switch self {
            case .inside: .inside
            case .outside: .outside
            default: .unknown
            }
        }
    }

    /// What the engine remembers now: store it (``State/serializedBytes()``) once a step's events are stored, and
    /// restore it with ``init(policy:restoring:)`` after a relaunch.
    public var persistedState: State {
        var state = State()
        state.bootId = bootId
        state.previousElapsedMs = previousElapsedMs
        state.nextEventSequence = nextEventSequence
        state.assignmentVersion = assignmentVersion
        state.regions = zip(armed, states).map { armed, known in
            var region = ArmedRegion()
            region.region = armed.region
            region.side = PersistedSide(known.side)
            region.pendingSinceMs = known.pendingSinceMs
            region.stayStartMs = known.stayStartMs
            region.dwellReported = known.dwellReported
            return region
        }
        state.unknownFields = unknownStateFields
        return state
    }

    /// An engine that continues from `state`, the ``persistedState`` of an engine under the same policy: given the
    /// same steps from then on, it reports exactly the events that engine would have (`§fence-relaunch`).
    public init(policy: TrackingPolicy, restoring state: State) {
        self.init(settings: Settings(policy), restoring: state)
    }

    package init(settings: Settings, restoring state: State) {
        self.init(
            settings: settings, assignmentVersion: state.assignmentVersion,
            firstEventSequence: state.nextEventSequence)
        bootId = state.bootId
        previousElapsedMs = state.previousElapsedMs
        unknownStateFields = state.unknownFields
        arm(state.regions.map(\.region))
        for saved in state.regions {
            let slot = insertionPoint(of: saved.region.id)
            // A region that cannot be armed (no circle centre) was never in a stored state; skip it all the same.
            guard slot < armed.count, armed[slot].region == saved.region else { continue }
            states[slot] = RegionState(
                side: saved.side.side, pendingSinceMs: saved.pendingSinceMs, stayStartMs: saved.stayStartMs,
                dwellReported: saved.dwellReported)
        }
    }
}
