import LocationWire
import LocationWireGeometry

// The recording engine's memory persists as `locationwire.session.v1.RecordingEngineState`
// (proto/locationwire/session/v1/recording_engine.proto, the format's specification), written and read by the
// project's codec. The engine keeps its memory in this one value, so what is stored is exactly what it decides
// from: `§rec-relaunch` needs nothing else. The policy is configuration and is not persisted.

extension RecordingEngine {
    /// Everything the engine remembers between two fixes: the clock stage's boot, previous fix and t₀, the open
    /// window and its best fix, and the motion state. O(1): four observations at most.
    public struct State: TableCodedMessage {
        // Stage 1, `§rec-clock`. nil before the first fix that passed the clock checks.
        /// The boot of the fixes that passed the clock checks last.
        var bootId: UInt64?
        /// `elapsed_realtime_ms` of the boot's latest fix that passed the clock checks, ms.
        var previousElapsedMs: UInt64?
        /// t₀ of `§rec-duty` and `§rec-window`: the boot's first fix that passed the clock checks, ms.
        var bootStartMs: UInt64?
        // Stage 6, `§rec-window`.
        /// The open window's number k, counted from t₀ in windows of `fix_window_ms`; meaningful while
        /// ``windowBest`` is set.
        var windowIndex: UInt64 = 0
        /// The open window's best fix so far; nil when no window is open.
        var windowBest: Observation?
        // Stage 7, `§rec-motion`.
        /// L: the last recorded fix (a requested fix included).
        var lastRecorded: Observation?
        /// A: the anchor of the stop timeout and the stationary radius.
        var anchor: Observation?
        /// P of `§rec-speed`: the previous fix that reached the motion rules in this boot.
        var previousMotion: Observation?
        /// True when stationary, false when moving.
        var stationary = false
        /// Fields a newer engine wrote: kept and written back.
        public var unknownFields = UnknownFields()

        public init() {}

        public static let fieldTable = FieldTable<State>(
            "locationwire.session.v1.RecordingEngineState",
            [
                .optional(1, "boot_id", .fixed64, \.bootId),
                .optional(2, "previous_elapsed_ms", .uint64, \.previousElapsedMs),
                .optional(3, "boot_start_ms", .uint64, \.bootStartMs),
                .singular(4, "window_index", .uint64, \.windowIndex),
                .optional(5, "window_best", .message, \.windowBest),
                .optional(6, "last_recorded", .message, \.lastRecorded),
                .optional(7, "anchor", .message, \.anchor),
                .optional(8, "previous_motion", .message, \.previousMotion),
                .singular(9, "stationary", .bool, \.stationary),
            ])
    }

    /// What the stages after the filter need of a fix: its delivery index, position, time, speed and accuracy.
    /// Persisted as `locationwire.session.v1.RecordingObservation`; public only as a part of ``State``.
    public struct Observation: TableCodedMessage {
        /// The fix's delivery index, as the caller numbered it (decisions name fixes by it).
        var index: Int
        /// Latitude and longitude as delivered (a missing one reads as 0), with the unit vector the rules measure
        /// from, computed once.
        var point: SpherePoint
        /// `elapsed_realtime_ms`, ms.
        var elapsedMs: UInt64
        /// `speed_cm_s` as delivered; nil when the fix has none (`§rec-speed` then derives it).
        var speedCmS: UInt32?
        /// `horizontal_accuracy_cm`, above 0 (the filter let it through).
        var accuracyCm: UInt32
        public var unknownFields = UnknownFields()

        init(index: Int, point: SpherePoint, elapsedMs: UInt64, speedCmS: UInt32?, accuracyCm: UInt32) {
            self.index = index
            self.point = point
            self.elapsedMs = elapsedMs
            self.speedCmS = speedCmS
            self.accuracyCm = accuracyCm
        }

        public init() {
            self.init(
                index: 0, point: SpherePoint(latitudeE7: 0, longitudeE7: 0), elapsedMs: 0, speedCmS: nil,
                accuracyCm: 0)
        }

        public static let fieldTable = FieldTable<Observation>(
            "locationwire.session.v1.RecordingObservation",
            [
                .singular(1, "delivery_index", .uint64, \.persistedIndex),
                .singular(2, "latitude_e7", .sfixed32, \.latitudeE7),
                .singular(3, "longitude_e7", .sfixed32, \.longitudeE7),
                .singular(4, "elapsed_realtime_ms", .uint64, \.elapsedMs),
                .optional(5, "speed_cm_s", .uint32, \.speedCmS),
                .singular(6, "horizontal_accuracy_cm", .uint32, \.accuracyCm),
            ])

        /// ``index`` as stored, its bit pattern: every stored value reads back and writes back unchanged.
        var persistedIndex: UInt64 {
            get { UInt64(truncatingIfNeeded: index) }
            set { index = Int(truncatingIfNeeded: newValue) }
        }

        var latitudeE7: Int32 {
            get { point.latitudeE7 }
            set { point = SpherePoint(latitudeE7: newValue, longitudeE7: point.longitudeE7) }
        }

        var longitudeE7: Int32 {
            get { point.longitudeE7 }
            set { point = SpherePoint(latitudeE7: point.latitudeE7, longitudeE7: newValue) }
        }

        // The unit vector follows from the coordinates, so they alone decide equality.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.index == rhs.index && lhs.latitudeE7 == rhs.latitudeE7 && lhs.longitudeE7 == rhs.longitudeE7
                && lhs.elapsedMs == rhs.elapsedMs && lhs.speedCmS == rhs.speedCmS && lhs.accuracyCm == rhs.accuracyCm
                && lhs.unknownFields == rhs.unknownFields
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(index)
            hasher.combine(latitudeE7)
            hasher.combine(longitudeE7)
            hasher.combine(elapsedMs)
            hasher.combine(speedCmS)
            hasher.combine(accuracyCm)
            hasher.combine(unknownFields)
        }
    }
}
