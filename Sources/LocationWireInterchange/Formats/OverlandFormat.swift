import Foundation
import LocationWireJSON
import LocationWire

/// Overland's upload (https://github.com/aaronpk/Overland-iOS): `{"locations": [Feature, ...]}`, each a GeoJSON
/// Point feature whose `properties` hold, in the units of iOS Core Location:
/// | Overland | unit | LocationFix |
/// |---|---|---|
/// | `timestamp` | ISO 8601 | `time_ms` |
/// | `coordinates` | [lon, lat] degrees | `longitude_e7`, `latitude_e7` |
/// | `horizontal_accuracy`, `vertical_accuracy` | m | `horizontal_accuracy_cm`, `vertical_accuracy_cm` |
/// | `altitude` | m | `altitude_cm` |
/// | `speed`, `speed_accuracy` | m/s | `speed_cm_s`, `speed_accuracy_cm_s` |
/// | `course`, `course_accuracy` | degrees | `course_cdeg`, `course_accuracy_cdeg` |
/// | `battery_level` | 0 ... 1 | `battery_percent` (× 100) |
/// | `battery_state` | unknown, unplugged, charging, full | `battery_state` |
/// | `motion` | [stationary, walking, running, cycling, driving] | `motion_activity`: the first name that maps |
///
/// iOS writes -1 for an invalid speed, course or accuracy; such values are left out and counted. Other properties
/// (`wifi`, `device_id`, `pauses`, `activity`, `desired_accuracy`, ...) describe the app and are ignored.
/// Written: the same, with `motion` holding the one activity (ON_FOOT and UNKNOWN have no Overland name and are
/// left out) and `device_id` from the batch.
public enum OverlandFormat {
    static let motions: [String: MotionActivity] = [
        "stationary": .still, "walking": .walking, "running": .running, "cycling": .cycling, "driving": .inVehicle,
    ]
    static let motionNames: [MotionActivity: String] = [
        .still: "stationary", .walking: "walking", .running: "running", .cycling: "cycling", .inVehicle: "driving",
    ]
    /// The table above, for the numbers.
    static let numberKeys: NumberKeys = [
        ("altitude", \.altitudeCm, 100), ("horizontal_accuracy", \.horizontalAccuracyCm, 100),
        ("vertical_accuracy", \.verticalAccuracyCm, 100), ("speed", \.speedCmS, 100),
        ("speed_accuracy", \.speedAccuracyCmS, 100), ("course", \.courseCdeg, 100),
        ("course_accuracy", \.courseAccuracyCdeg, 100), ("battery_level", \.batteryPercent, 100),
    ]
    static let batteryStates: [String: BatteryState] = [
        "unknown": .unspecified, "unplugged": .unplugged, "charging": .charging, "full": .full,
    ]

    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        // The locations are streamed, one at a time.
        var reading = converter
        defer { converter = reading }
        let (root, keys) = try JSONFraming.walk(
            input, arrayKeys: ["locations"],
            member: { key, value throws(InterchangeError) in
                if key == "locations" {
                    throw InterchangeError("locations (line \(value.line))", "expected an array of features")
                }
            },
            element: { _, index, value throws(InterchangeError) in
                let location = "locations[\(index)]"
                try reading.record(at: location) { converter throws(InterchangeError) in
                    let element = try JSONInput.document(value.bytes, "\(location) (line \(value.line))")
                    try converter.add(try point(element, location, &converter))
                }
            })
        guard root == .object, keys.contains("locations") else {
            throw InterchangeError("", "no \"locations\" array: not an Overland upload")
        }
    }

    private static func point(
        _ element: JSONValue, _ location: String, _ converter: inout PointConverter
    ) throws(InterchangeError) -> TrackPoint {
        let feature = try JSONInput(element, location)
        let properties = try feature.object("properties") ?? JSONInput(JSONObject(), feature.path("properties"))
        var point = TrackPoint(location: location)
        if let coordinates = try GeoJSONFormat.pointCoordinates(feature) {
            point.longitudeE7 = coordinates.longitude * 1e7
            point.latitudeE7 = coordinates.latitude * 1e7
            point.altitudeCm = coordinates.altitude.map { $0 * 100 }
        }
        if let timestamp = try properties.string("timestamp") {
            guard let timeMs = converter.time(timestamp, at: properties.path("timestamp")) else {
                throw InterchangeError(properties.path("timestamp"), "\"\(timestamp.prefix(40))\" is not ISO 8601")
            }
            point.timeMs = Double(timeMs)
        }
        try properties.read(numberKeys, into: &point)
        point.device = try properties.string("device_id")
        if let state = try properties.string("battery_state") {
            if let mapped = batteryStates[state] {
                point.batteryState = mapped
            } else {
                point.unmapped.append("battery_state")
            }
        }
        if let motion = try properties.array("motion"), !motion.isEmpty {
            let names = motion.compactMap(\.string)
            if let mapped = names.lazy.compactMap({ motions[$0] }).first {
                point.motionActivity = mapped
            } else {
                point.unmapped.append("motion_activity")
            }
        }
        return point
    }

    /// `{"locations": [...]}`, one feature a line, written as it goes.
    public static func write(_ fixes: some Collection<LocationFix>, deviceId: String, to sink: any TextSink) throws {
        let times = ISO8601Time()
        let device = JSONText.string(deviceId)
        try sink.write("{\"locations\":[\n")
        for (index, fix) in fixes.enumerated() {
            var properties: [(String, String)] = [
                ("timestamp", JSONText.string(times.string(milliseconds: fix.timeMs))), ("device_id", device),
            ]
            func metres(_ key: String, _ value: (some BinaryInteger)?) {
                if let value { properties.append((key, GPXFormat.decimal(Int64(value), places: 2))) }
            }
            metres("altitude", fix.altitudeCm)
            metres("horizontal_accuracy", fix.horizontalAccuracyCm)
            metres("vertical_accuracy", fix.verticalAccuracyCm)
            metres("speed", fix.speedCmS)
            metres("speed_accuracy", fix.speedAccuracyCmS)
            metres("course", fix.courseCdeg)
            metres("course_accuracy", fix.courseAccuracyCdeg)
            metres("battery_level", fix.batteryPercent)  // percent / 100 is the level, 0 ... 1
            if let state = batteryStates.first(where: { $0.value == fix.batteryState && $0.key != "unknown" }) {
                properties.append(("battery_state", JSONText.string(state.key)))
            }
            properties.append(("motion", "[" + (motionNames[fix.motionActivity].map(JSONText.string) ?? "") + "]"))
            properties.sort { $0.0 < $1.0 }
            try sink.write(
                (index == 0 ? "" : ",\n") + GeoJSONFormat.pointFeature(fix, properties: properties, withAltitude: false)
            )
        }
        try sink.write("\n]}\n")
    }
}
