import LocationWire

/// The names, units and scales of a point's values in the formats this module defines for itself: the columns of
/// a CSV file and the `properties` of a GeoJSON feature. One table, so that both read and write the same names.
///
/// `time` is ISO 8601 (CSV also takes Unix seconds); `latitude` and `longitude` are degrees; the rest are named
/// with their unit. Enum values are the proto names without the type prefix, in lower case: `battery_state`
/// unplugged, charging, full; `motion_activity` still, walking, running, on_foot, cycling, in_vehicle, unknown;
/// `reason` periodic, distance, motion_start, ...; `source` gnss, network, fused, cached; `is_mock` true or false.
/// Not carried: `elapsed_realtime_ms` and `boot_id` (a monotonic clock means nothing without its boot, and an
/// import has none) and `sequence` (an import numbers the fixes afresh).
public enum PointField: String, CaseIterable, Sendable {
    case time, latitude, longitude
    case accuracyM = "accuracy_m"
    case altitudeM = "altitude_m"
    case verticalAccuracyM = "vertical_accuracy_m"
    case speedMS = "speed_m_s"
    case speedAccuracyMS = "speed_accuracy_m_s"
    case courseDeg = "course_deg"
    case courseAccuracyDeg = "course_accuracy_deg"
    case batteryPercent = "battery_percent"
    case pressureHpa = "pressure_hpa"
    case motionConfidencePct = "motion_confidence_pct"
    case floor
    case ageMs = "age_ms"
    case ellipsoidalHeightM = "ellipsoidal_height_m"
    case isMock = "is_mock"
    case batteryState = "battery_state"
    case motionActivity = "motion_activity"
    case reason, source

    /// The number that turns the field's unit into the proto's (metres to centimetres: 100). Nil for the time
    /// and the enums, which are not plain numbers.
    var scale: Double? {
        switch self {
        case .time, .batteryState, .motionActivity, .reason, .source, .isMock: nil
        case .latitude, .longitude: 1e7
        case .batteryPercent, .pressureHpa, .motionConfidencePct, .floor, .ageMs: 1
        default: 100
        }
    }

    /// Fields written as a name: the enums, and `is_mock` as `true` or `false`.
    var isEnum: Bool { [.batteryState, .motionActivity, .reason, .source, .isMock].contains(self) }

    /// Sets a numeric field (already in the field's unit) on `point`.
    func set(_ value: Double, on point: inout TrackPoint) {
        let scaled = value * (scale ?? 1)
        switch self {
        case .time: point.timeMs = value
        case .latitude: point.latitudeE7 = scaled
        case .longitude: point.longitudeE7 = scaled
        case .accuracyM: point.horizontalAccuracyCm = scaled
        case .altitudeM: point.altitudeCm = scaled
        case .verticalAccuracyM: point.verticalAccuracyCm = scaled
        case .speedMS: point.speedCmS = scaled
        case .speedAccuracyMS: point.speedAccuracyCmS = scaled
        case .courseDeg: point.courseCdeg = scaled
        case .courseAccuracyDeg: point.courseAccuracyCdeg = scaled
        case .batteryPercent: point.batteryPercent = scaled
        case .pressureHpa: point.pressureHpa = scaled
        case .motionConfidencePct: point.motionConfidencePct = scaled
        case .floor: point.floor = scaled
        case .ageMs: point.ageMs = scaled
        case .ellipsoidalHeightM: point.ellipsoidalHeightCm = scaled
        case .batteryState, .motionActivity, .reason, .source, .isMock: break
        }
    }

    /// Sets an enum field from its short name; false when the name is not one of the field's.
    func set(name: String, on point: inout TrackPoint) -> Bool {
        switch self {
        case .batteryState: EnumNames.value(name, as: BatteryState.self).map { point.batteryState = $0 } != nil
        case .motionActivity: EnumNames.value(name, as: MotionActivity.self).map { point.motionActivity = $0 } != nil
        case .reason: EnumNames.value(name, as: FixReason.self).map { point.reason = $0 } != nil
        case .source: EnumNames.value(name, as: FixSource.self).map { point.source = $0 } != nil
        case .isMock: ["true": true, "false": false][name].map { point.isMock = $0 } != nil
        default: false
        }
    }

    /// The numeric fields of `fix` in the fields' units (not the time, latitude or longitude, which every writer
    /// places itself).
    static func numbers(of fix: LocationFix) -> [(PointField, Double)] {
        let values: [(PointField, Int64?)] = [
            (.accuracyM, fix.horizontalAccuracyCm.map(Int64.init)), (.altitudeM, fix.altitudeCm.map(Int64.init)),
            (.verticalAccuracyM, fix.verticalAccuracyCm.map(Int64.init)), (.speedMS, fix.speedCmS.map(Int64.init)),
            (.speedAccuracyMS, fix.speedAccuracyCmS.map(Int64.init)), (.courseDeg, fix.courseCdeg.map(Int64.init)),
            (.courseAccuracyDeg, fix.courseAccuracyCdeg.map(Int64.init)),
            (.batteryPercent, fix.batteryPercent.map(Int64.init)),
            (.motionConfidencePct, fix.motionConfidencePct.map(Int64.init)), (.floor, fix.floor.map(Int64.init)),
            (.ageMs, fix.ageMs.map(Int64.init)), (.ellipsoidalHeightM, fix.ellipsoidalHeightCm.map(Int64.init)),
        ]
        var numbers = values.compactMap { field, value in value.map { (field, Double($0, per: field.scale ?? 1)) } }
        // The float's shortest decimal, which reads back to the same float.
        if let pressure = fix.pressureHpa, let decimal = Double("\(pressure)") {
            numbers.append((.pressureHpa, decimal))
        }
        return numbers
    }

    /// The numeric fields of `fix` as exact decimal text in the fields' units (`altitude_m` 12.5 for 1250 cm),
    /// which reads back to the same integers: the writers' form of ``numbers(of:)``.
    static func decimals(of fix: LocationFix) -> [(PointField, String)] {
        numbers(of: fix).map { field, value in
            guard field != .pressureHpa, let scale = field.scale else { return (field, "\(value)") }
            let places = scale == 1e7 ? 7 : scale == 100 ? 2 : 0
            return (field, GPXFormat.decimal(Int64((value * scale).rounded()), places: places))
        }
    }

    /// The enum fields of `fix` that are set, by short name.
    static func names(of fix: LocationFix) -> [(PointField, String)] {
        var names: [(PointField, String)] = []
        if fix.batteryState != .unspecified, let name = EnumNames.name(fix.batteryState) {
            names.append((.batteryState, name))
        }
        if fix.motionActivity != .unspecified, let name = EnumNames.name(fix.motionActivity) {
            names.append((.motionActivity, name))
        }
        if fix.reason != .unspecified, let name = EnumNames.name(fix.reason) { names.append((.reason, name)) }
        if fix.source != .unspecified, let name = EnumNames.name(fix.source) { names.append((.source, name)) }
        if fix.isMock { names.append((.isMock, "true")) }
        return names
    }
}
