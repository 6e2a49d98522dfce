import LocationWire

/// One point of a foreign track as a format reader found it, already scaled to the units of
/// `proto/locationwire/v1/location_fix.proto` but not yet rounded or range-checked: that is ``PointConverter``'s
/// job, so that every format rounds, checks and counts the same way. Readers only multiply (km/h to cm/s is
/// `× 100000 / 3600`, metres to centimetres `× 100`) and map names to enum values.
public struct TrackPoint: Sendable, Equatable {
    /// Where the point is in its file, for messages: "line 12", "locations[3]", "features[0].coordinates[5]".
    public var location: String
    /// The point's segment, counted in file order: points of one segment were recorded in one go (a GPX
    /// `trkseg`, a GeoJSON line, a KML track, a TCX lap); a new segment means the recording stopped and started
    /// again. Formats without segments leave every point in segment 0.
    public var segment = 0
    /// The device that recorded the point, when a file holds several (OwnTracks `tid` or topic, Overland
    /// `device_id`); nil when the file does not say.
    public var device: String?
    /// UTC milliseconds since the Unix epoch.
    public var timeMs: Double?
    /// 1e-7 degree.
    public var latitudeE7: Double?
    public var longitudeE7: Double?
    /// Centimetres, centimetres per second and 0.01 degree: the proto's units.
    public var horizontalAccuracyCm: Double?
    public var altitudeCm: Double?
    public var verticalAccuracyCm: Double?
    public var speedCmS: Double?
    public var speedAccuracyCmS: Double?
    public var courseCdeg: Double?
    public var courseAccuracyCdeg: Double?
    /// Percent, 0 to 100.
    public var batteryPercent: Double?
    /// Hectopascal. Stored as a binary32 float, so it is not rounded to an integer.
    public var pressureHpa: Double?
    /// Percent, the building floor, milliseconds and centimetres: the proto's units.
    public var motionConfidencePct: Double?
    public var floor: Double?
    public var ageMs: Double?
    public var ellipsoidalHeightCm: Double?
    public var isMock = false
    public var batteryState: BatteryState = .unspecified
    public var motionActivity: MotionActivity = .unspecified
    public var reason: FixReason = .unspecified
    public var source: FixSource = .unspecified
    /// Values the reader found but could not map (an unknown trigger letter, motion name or battery state):
    /// the field stays unset and the summary counts each under its field name.
    public var unmapped: [String] = []
    /// Optional values that could not be read at all (`NaN`, text in a number's place), by field name: left out
    /// of the fix and counted.
    public var unreadable: [String] = []

    public init(location: String) {
        self.location = location
    }
}

/// The quantities a ``TrackPoint`` carries, with the proto field each becomes, its unit and the range the proto
/// allows. One table, so that the converter, the summary and the writers agree.
public enum Quantity: String, CaseIterable, Sendable, Comparable {
    case time = "time_ms"
    case latitude = "latitude_e7"
    case longitude = "longitude_e7"
    case horizontalAccuracy = "horizontal_accuracy_cm"
    case altitude = "altitude_cm"
    case verticalAccuracy = "vertical_accuracy_cm"
    case speed = "speed_cm_s"
    case speedAccuracy = "speed_accuracy_cm_s"
    case course = "course_cdeg"
    case courseAccuracy = "course_accuracy_cdeg"
    case batteryPercent = "battery_percent"
    case motionConfidence = "motion_confidence_pct"
    case floor = "floor"
    case age = "age_ms"
    case ellipsoidalHeight = "ellipsoidal_height_cm"

    /// The proto field's unit, as the summary prints it.
    public var unit: String {
        switch self {
        case .time, .age: "ms"
        case .latitude, .longitude: "1e-7 deg"
        case .horizontalAccuracy, .altitude, .verticalAccuracy, .ellipsoidalHeight: "cm"
        case .speed, .speedAccuracy: "cm/s"
        case .course, .courseAccuracy: "0.01 deg"
        case .batteryPercent, .motionConfidence: "%"
        case .floor: "floor"
        }
    }

    /// The values `location_fix.proto` allows, after rounding. Accuracies must be greater than 0 (iOS writes -1
    /// for "invalid").
    public var validRange: ClosedRange<Double> {
        switch self {
        case .time: 946_684_800_000...4_102_444_799_999
        case .latitude: -900_000_000...900_000_000
        case .longitude: -1_800_000_000...1_800_000_000
        case .horizontalAccuracy, .verticalAccuracy, .speedAccuracy: 1...Double(UInt32.max)
        case .altitude, .ellipsoidalHeight: -1_000_000...10_000_000
        case .age: 0...Double(UInt32.max)
        case .floor: -200...300
        case .speed: 0...50_000
        case .course: 0...35_999
        case .courseAccuracy: 1...18_000
        case .batteryPercent, .motionConfidence: 0...100
        }
    }

    public static func < (lhs: Quantity, rhs: Quantity) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Short lower-case names of enum values for CSV cells and GeoJSON properties: the proto name without its type
/// prefix (`FIX_REASON_PERIODIC` is `periodic`, `MOTION_ACTIVITY_IN_VEHICLE` is `in_vehicle`).
enum EnumNames {
    static func name<Value: LocationWireEnum>(_ value: Value) -> String? {
        let values = Value.schema.values
        guard let prefix = values.first?.name.dropLast("UNSPECIFIED".count),
            let match = values.first(where: { $0.number == value.rawValue })
        else { return nil }
        return match.name.dropFirst(prefix.count).lowercased()
    }

    static func value<Value: LocationWireEnum>(_ name: String, as type: Value.Type) -> Value? {
        let values = Value.schema.values
        guard let prefix = values.first?.name.dropLast("UNSPECIFIED".count) else { return nil }
        let wanted = prefix + name.uppercased()
        return values.first(where: { $0.name == wanted }).map { Value(rawValue: $0.number) }
    }
}
