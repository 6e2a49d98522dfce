import Foundation
import LocationWire

/// The JSON that location apps send today, for the size comparison only: OwnTracks' one message per fix and
/// Overland's GeoJSON batch, each with the fields and units its real format carries (see
/// shared/reference/location-protocols.md): what a fix lacks is left out (OwnTracks) or sent as -1 (Overland,
/// which always sends every property).
enum JSONStyles {
    /// An OwnTracks `_type=location` message: degrees, epoch seconds, whole metres, km/h, whole degrees.
    static func ownTracksMessage(_ fix: LocationFix) -> String {
        var members = ["\"_type\":\"location\"", "\"tid\":\"lw\"", "\"tst\":\(fix.timeMs / 1000)"]
        if let latitude = fix.latitudeE7 { members.append("\"lat\":\(degrees(latitude))") }
        if let longitude = fix.longitudeE7 { members.append("\"lon\":\(degrees(longitude))") }
        if let accuracy = fix.horizontalAccuracyCm {
            members.append("\"acc\":\(Int((Double(accuracy) / 100).rounded()))")
        }
        if let altitude = fix.altitudeCm { members.append("\"alt\":\(Int((Double(altitude) / 100).rounded()))") }
        if let accuracy = fix.verticalAccuracyCm {
            members.append("\"vac\":\(Int((Double(accuracy) / 100).rounded()))")
        }
        if let speed = fix.speedCmS { members.append("\"vel\":\(Int((Double(speed) * 0.036).rounded()))") }
        if let course = fix.courseCdeg { members.append("\"cog\":\(Int((Double(course) / 100).rounded()))") }
        if let battery = fix.batteryPercent { members.append("\"batt\":\(battery)") }
        switch fix.batteryState {
        case .unplugged: members.append("\"bs\":1")
        case .charging: members.append("\"bs\":2")
        case .full: members.append("\"bs\":3")
        default: break
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// An Overland batch: `{"locations": [Feature...]}` with GeoJSON points and the app's properties.
    static func overlandBatch(_ fixes: [LocationFix]) -> String {
        "{\"locations\":[" + fixes.map(overlandFeature).joined(separator: ",") + "]}"
    }

    private static func overlandFeature(_ fix: LocationFix) -> String {
        func metres(_ centimetres: (some BinaryInteger)?) -> String {
            centimetres.map { decimal(Int64($0), scale: 2) } ?? "-1"
        }
        let coordinates = "[\(fix.longitudeE7.map(degrees) ?? "0"),\(fix.latitudeE7.map(degrees) ?? "0")]"
        let motion: String
        switch fix.motionActivity {
        case .walking: motion = "[\"walking\"]"
        case .running: motion = "[\"running\"]"
        case .cycling: motion = "[\"cycling\"]"
        case .inVehicle: motion = "[\"driving\"]"
        case .still: motion = "[\"stationary\"]"
        default: motion = "[]"
        }
        let batteryState: String
        switch fix.batteryState {
        case .unplugged: batteryState = "unplugged"
        case .charging: batteryState = "charging"
        case .full: batteryState = "full"
        default: batteryState = "unknown"
        }
        let properties = [
            "\"timestamp\":\"\(timestamp(fix.timeMs))\"",
            "\"altitude\":\(metres(fix.altitudeCm))",
            "\"speed\":\(metres(fix.speedCmS))",
            "\"horizontal_accuracy\":\(metres(fix.horizontalAccuracyCm))",
            "\"vertical_accuracy\":\(metres(fix.verticalAccuracyCm))",
            "\"speed_accuracy\":\(metres(fix.speedAccuracyCmS))",
            "\"course\":\(metres(fix.courseCdeg))",
            "\"course_accuracy\":\(metres(fix.courseAccuracyCdeg))",
            "\"motion\":\(motion)",
            "\"battery_state\":\"\(batteryState)\"",
            "\"battery_level\":\(fix.batteryPercent.map { decimal(Int64($0), scale: 2) } ?? "-1")",
            "\"wifi\":\"\"",
            "\"device_id\":\"lw-bench\"",
        ]
        return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(coordinates)},"
            + "\"properties\":{" + properties.joined(separator: ",") + "}}"
    }

    /// Degrees from 1e-7 degree units, with no more digits than needed (45.3806001, 14.1).
    static func degrees(_ e7: Int32) -> String { decimal(Int64(e7), scale: 7) }

    /// `value / 10^scale` in decimal, without trailing zeros.
    static func decimal(_ value: Int64, scale: Int) -> String {
        var power: Int64 = 1
        for _ in 0..<scale { power *= 10 }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        var fraction = String(magnitude % UInt64(power))
        fraction = String(repeating: "0", count: scale - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(magnitude / UInt64(power)) + (fraction.isEmpty ? "" : "." + fraction)
    }

    nonisolated(unsafe) private static let timestampFormatter = ISO8601DateFormatter()

    private static func timestamp(_ milliseconds: Int64) -> String {
        timestampFormatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
