import Foundation
import LocationWire
import LocationWireFiles
import LocationWireTools

/// GeoJSON (RFC 7946): a FeatureCollection (or a single Feature) of
/// - Point features, one fix each, with `properties.time` (ISO 8601) and any of the ``PointField`` names
///   (`accuracy_m`, `speed_m_s`, `course_deg`, `battery_percent`, `reason`, ...);
/// - LineString features whose `properties.coordinateProperties.times` (as togeojson writes from GPX) or
///   `properties.times` give one ISO 8601 time per coordinate; a LineString without times gives untimed points,
///   which are counted and skipped.
///
/// A position's third number is the altitude in metres (RFC 7946, section 3.1.1). Other geometries are counted
/// as skipped records. Written: a FeatureCollection of Point features, altitude as the third coordinate, the
/// time and the other values as ``PointField`` properties.
public enum GeoJSONFormat {
    public static func read(_ data: Data, _ converter: inout PointConverter) throws(InterchangeError) -> [LocationFix] {
        let root = try JSONInput(try JSONInput.document(data, ""), "")
        let features: [JSONInput]
        switch try root.string("type") {
        case "FeatureCollection":
            guard let list = try root.array("features") else {
                throw InterchangeError("features", "a FeatureCollection needs a \"features\" array")
            }
            var collected: [JSONInput] = []
            for (index, element) in list.enumerated() {
                collected.append(try JSONInput(element, "features[\(index)]"))
            }
            features = collected
        case "Feature": features = [root]
        case let other:
            throw InterchangeError("type", "expected FeatureCollection or Feature, found \(other ?? "none")")
        }
        let times = ISO8601Time()
        var fixes: [LocationFix] = []
        for feature in features {
            let properties = try feature.object("properties")
            let geometry = try feature.object("geometry")
            switch try geometry?.string("type") {
            case "Point":
                var point = TrackPoint(location: feature.location)
                if let coordinates = try pointCoordinates(feature) {
                    point.longitudeE7 = coordinates.longitude * 1e7
                    point.latitudeE7 = coordinates.latitude * 1e7
                    point.altitudeCm = coordinates.altitude.map { $0 * 100 }
                }
                if let properties { try apply(properties, to: &point, times) }
                if let fix = converter.convert(point) { fixes.append(fix) }
            case "LineString":
                guard let geometry, let coordinates = try geometry.array("coordinates") else {
                    throw InterchangeError(feature.path("geometry"), "a LineString needs coordinates")
                }
                var lineTimes = try properties?.object("coordinateProperties")?.array("times")
                if lineTimes == nil { lineTimes = try properties?.array("times") }
                for (index, position) in coordinates.enumerated() {
                    let location = geometry.path("coordinates[\(index)]")
                    var point = TrackPoint(location: location)
                    let parsed = try Self.position(position, location)
                    point.longitudeE7 = parsed.longitude * 1e7
                    point.latitudeE7 = parsed.latitude * 1e7
                    point.altitudeCm = parsed.altitude.map { $0 * 100 }
                    if let lineTimes, index < lineTimes.count {
                        point.timeMs = try time(lineTimes[index], "times[\(index)]", times)
                    }
                    if let fix = converter.convert(point) { fixes.append(fix) }
                }
            case let other:
                converter.skipRecord("geometry \(other ?? "missing") is not a Point or LineString")
            }
        }
        return fixes
    }

    /// A Point feature's [longitude, latitude, altitude?], or nil when it has no geometry.
    static func pointCoordinates(
        _ feature: JSONInput
    ) throws(InterchangeError) -> (longitude: Double, latitude: Double, altitude: Double?)? {
        guard let geometry = try feature.object("geometry") else { return nil }
        let type = try geometry.string("type")
        guard type == "Point" else {
            throw InterchangeError(geometry.path("type"), "expected a Point, found \(type ?? "none")")
        }
        guard let coordinates = try geometry.array("coordinates") else { return nil }
        return try position(coordinates, geometry.path("coordinates"))
    }

    private static func position(
        _ value: Any, _ location: String
    ) throws(InterchangeError) -> (longitude: Double, latitude: Double, altitude: Double?) {
        guard let numbers = value as? [Any], (2...3).contains(numbers.count) else {
            throw InterchangeError(location, "a position is [longitude, latitude] or [longitude, latitude, altitude]")
        }
        return (
            try JSONInput.number(numbers[0], location + "[0]"), try JSONInput.number(numbers[1], location + "[1]"),
            numbers.count == 3 ? try JSONInput.number(numbers[2], location + "[2]") : nil
        )
    }

    private static func time(_ value: Any, _ location: String, _ times: ISO8601Time) throws(InterchangeError) -> Double
    {
        guard let text = value as? String, let milliseconds = times.milliseconds(text) else {
            throw InterchangeError(location, "expected an ISO 8601 time, found \(JSONInput.describe(value))")
        }
        return Double(milliseconds)
    }

    private static func apply(
        _ properties: JSONInput, to point: inout TrackPoint, _ times: ISO8601Time
    ) throws(InterchangeError) {
        for field in PointField.allCases where field != .latitude && field != .longitude {
            guard let value = properties.object[field.rawValue], !(value is NSNull) else { continue }
            let location = properties.path(field.rawValue)
            if field == .time {
                point.timeMs = try time(value, location, times)
            } else if field == .isMock, let flag = JSONInput.boolean(value) {
                point.isMock = flag
            } else if field.isEnum {
                guard let name = value as? String else {
                    throw InterchangeError(location, "expected a name, found \(JSONInput.describe(value))")
                }
                if !field.set(name: name, on: &point) { point.unmapped.append(field.rawValue) }
            } else {
                field.set(try JSONInput.number(value, location), on: &point)
            }
        }
    }

    /// A Point feature for `fix` with the given properties.
    static func pointFeature(_ fix: LocationFix, properties: [String: Any], withAltitude: Bool) -> [String: Any] {
        var coordinates: [Double] = [Double(fix.longitudeE7 ?? 0, per: 1e7), Double(fix.latitudeE7 ?? 0, per: 1e7)]
        if withAltitude, let altitude = fix.altitudeCm { coordinates.append(Double(altitude, per: 100)) }
        return [
            "type": "Feature", "geometry": ["type": "Point", "coordinates": coordinates] as [String: Any],
            "properties": properties,
        ]
    }

    public static func write(_ fixes: [LocationFix]) -> Data {
        let times = ISO8601Time()
        let features = fixes.map { fix in
            var properties: [String: Any] = [PointField.time.rawValue: times.string(milliseconds: fix.timeMs)]
            // The altitude is the position's third coordinate, not also a property.
            for (field, value) in PointField.numbers(of: fix) where field != .altitudeM {
                properties[field.rawValue] = value
            }
            for (field, name) in PointField.names(of: fix) {
                properties[field.rawValue] = field == .isMock ? true : name
            }
            return pointFeature(fix, properties: properties, withAltitude: true)
        }
        return JSONOutput.data(["type": "FeatureCollection", "features": features])
    }
}
