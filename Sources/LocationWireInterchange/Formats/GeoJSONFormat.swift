import Foundation
import LocationWire
import LocationWireJSON

/// GeoJSON (RFC 7946): a FeatureCollection (or a single Feature) of
/// - Point features, one fix each, with the time in the first of `properties.time`, `timestamp`, `datetime`,
///   `when`, `recorded_at`, `date` that is present (ISO 8601 text, or a Unix time in seconds or milliseconds told
///   apart by magnitude), and any of the ``PointField`` names (`accuracy_m`, `speed_m_s`, `course_deg`,
///   `battery_percent`, `reason`, ...);
/// - LineString features whose `properties.coordinateProperties.times` (as togeojson writes from GPX),
///   `properties.coordTimes` (older togeojson) or `properties.times` give one time per coordinate;
/// - MultiLineString features (how togeojson writes a track of several segments), whose times are one array per
///   line in the same properties.
/// A coordinate without a time is counted and skipped; a Point feature without a time is kept as a waypoint
/// (named by its `name` property) when ``ImportOptions/keep`` asks for waypoints. A position's third number is the altitude in metres (RFC
/// 7946, section 3.1.1); numbers written as strings ("15.97") are read as numbers. Other geometries are counted as
/// records that are not points. Written: a FeatureCollection of Point features, altitude as the third coordinate,
/// the time and the other values as ``PointField`` properties.
public enum GeoJSONFormat {
    /// The properties a Point feature's time may be in, in the order they are looked for.
    static let timeKeys = ["time", "timestamp", "datetime", "when", "recorded_at", "date"]
    /// The properties a line's times may be in: a path of keys each.
    static let lineTimeKeys = [["coordinateProperties", "times"], ["coordTimes"], ["times"]]

    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        // The features are streamed, one at a time; a single Feature's members are gathered and read at the end.
        var type: JSONValue?
        var single = JSONObject()
        // Point features share segment 0; each line is a segment of its own, numbered on from 1.
        var lines = 0
        var reading = converter
        defer { converter = reading }
        let (root, keys) = try JSONFraming.walk(
            input, arrayKeys: ["features"],
            member: { key, value throws(InterchangeError) in
                let parsed = try JSONInput.document(value.bytes, "\(key) (line \(value.line))")
                if key == "type" { type = parsed } else { single[key] = parsed }
            },
            element: { _, index, value throws(InterchangeError) in
                let location = "features[\(index)]"
                var object: JSONValue?
                try reading.record(at: location) { _ throws(InterchangeError) in
                    object = try JSONInput.document(value.bytes, "\(location) (line \(value.line))")
                }
                guard let object else { return }
                guard let feature = try? JSONInput(object, location) else {
                    reading.ignoreRecord("a feature that is not an object", at: location)
                    return
                }
                try read(feature, &reading, lines: &lines)
            })
        guard root == .object else { throw InterchangeError("", "a GeoJSON document is an object, not an array") }
        switch type?.string {
        case "FeatureCollection":
            // A "features" array went to the elements; one in `single` is not an array.
            guard keys.contains("features"), single["features"] == nil else {
                throw InterchangeError("features", "a FeatureCollection needs a \"features\" array")
            }
        case "Feature":
            single["type"] = .string("Feature")
            try read(JSONInput(single, ""), &reading, lines: &lines)
        default:
            let found = type?.summary ?? "none"
            throw InterchangeError("type", "expected FeatureCollection or Feature, found \(found)")
        }
    }

    private static func read(
        _ feature: JSONInput, _ converter: inout PointConverter, lines segment: inout Int
    ) throws(InterchangeError) {
        var geometryType: String?
        var lines: [JSONValue] = []
        var properties: JSONInput?
        var geometry: JSONInput?
        try converter.record(at: feature.location) { converter throws(InterchangeError) in
            properties = try feature.object("properties")
            geometry = try feature.object("geometry")
            geometryType = try geometry?.string("type")
        }
        switch geometryType {
        case "Point"
        where converter.options.keep.contains(.waypoints) && !timeKeys.contains { properties?.present($0) != nil }:
            // A Point without a time is a place, not a fix: a waypoint, when they are kept.
            try converter.record(at: feature.location) { converter throws(InterchangeError) in
                guard let coordinates = try pointCoordinates(feature) else {
                    throw InterchangeError(feature.path("geometry"), "a Point needs coordinates", field: "coordinates")
                }
                guard abs(coordinates.latitude) <= 90, abs(coordinates.longitude) <= 180 else {
                    throw InterchangeError(
                        feature.path("geometry.coordinates"), "not a longitude and latitude in range",
                        field: "coordinates")
                }
                converter.mark(
                    MarkedPoint(
                        kind: .waypoint, name: try properties?.string("name"), latitude: coordinates.latitude,
                        longitude: coordinates.longitude, location: feature.location),
                    otherwise: "a Point feature without a time")
            }
            return
        case "Point":
            try converter.record(at: feature.location) { converter throws(InterchangeError) in
                var point = TrackPoint(location: feature.location)
                if let coordinates = try pointCoordinates(feature) {
                    point.longitudeE7 = coordinates.longitude * 1e7
                    point.latitudeE7 = coordinates.latitude * 1e7
                    point.altitudeCm = coordinates.altitude.map { $0 * 100 }
                }
                if let properties { try apply(properties, to: &point, &converter) }
                try converter.add(point)
            }
            return
        case "LineString", "MultiLineString":
            guard let geometry, let coordinates = try? geometry.array("coordinates") else {
                try converter.skip(
                    .unreadable("coordinates"), at: feature.path("geometry"), detail: "a line needs coordinates")
                return
            }
            lines = geometryType == "LineString" ? [.array(coordinates)] : coordinates
        case let other:
            converter.ignoreRecord(
                "geometry \(other ?? "missing") is not a Point, LineString or MultiLineString", at: feature.location)
            return
        }
        guard let geometry else { return }
        let timesFound = lineTimeKeys.lazy.compactMap { keys in
            keys.dropLast().reduce(properties) { object, key in try? object?.object(key) }.flatMap {
                try? $0.array(keys[keys.count - 1])
            }
        }.first
        let isMulti = geometryType == "MultiLineString"
        for (lineIndex, line) in lines.enumerated() {
            let linePath = isMulti ? geometry.path("coordinates[\(lineIndex)]") : geometry.path("coordinates")
            guard let positions = line.array else {
                try converter.skip(.unreadable("coordinates"), at: linePath, detail: "a line is an array of positions")
                continue
            }
            let lineTimes = isMulti ? timesFound?[safe: lineIndex]?.array : timesFound
            segment += 1
            let lineSegment = segment
            for (index, position) in positions.enumerated() {
                let location = "\(linePath)[\(index)]"
                try converter.record(at: location) { converter throws(InterchangeError) in
                    var point = TrackPoint(location: location)
                    point.segment = lineSegment
                    let parsed = try Self.position(position, location)
                    point.longitudeE7 = parsed.longitude * 1e7
                    point.latitudeE7 = parsed.latitude * 1e7
                    point.altitudeCm = parsed.altitude.map { $0 * 100 }
                    if let time = lineTimes?[safe: index]?.nonNull {
                        point.timeMs = try converter.time(value: time, field: "times", at: location + ".time")
                    }
                    try converter.add(point)
                }
            }
        }
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
        return try position(.array(coordinates), geometry.path("coordinates"))
    }

    private static func position(
        _ value: JSONValue, _ location: String
    ) throws(InterchangeError) -> (longitude: Double, latitude: Double, altitude: Double?) {
        guard let numbers = value.array, (2...3).contains(numbers.count) else {
            throw InterchangeError(location, "a position is [longitude, latitude] or [longitude, latitude, altitude]")
        }
        return (
            try JSONInput.number(numbers[0], location + "[0]", allowingText: true),
            try JSONInput.number(numbers[1], location + "[1]", allowingText: true),
            numbers.count == 3 && !numbers[2].isNull
                ? try JSONInput.number(numbers[2], location + "[2]", allowingText: true) : nil
        )
    }

    private static func apply(
        _ properties: JSONInput, to point: inout TrackPoint, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        if let key = timeKeys.first(where: { properties.present($0) != nil }), let value = properties.present(key) {
            point.timeMs = try converter.time(value: value, field: key, at: properties.path(key))
        }
        for field in PointField.allCases where field != .latitude && field != .longitude && field != .time {
            guard let value = properties.present(field.rawValue) else { continue }
            let location = properties.path(field.rawValue)
            if field == .isMock, let flag = value.bool {
                point.isMock = flag
            } else if field.isEnum {
                guard let name = value.string else {
                    throw InterchangeError(location, "expected a name, found \(value.summary)")
                }
                if !field.set(name: name, on: &point) { point.unmapped.append(field.rawValue) }
            } else {
                field.set(try JSONInput.number(value, location, allowingText: true), on: &point)
            }
        }
    }

    /// A Point feature for `fix`: `properties` are JSON text already, in the order given.
    static func pointFeature(_ fix: LocationFix, properties: [(String, String)], withAltitude: Bool) -> String {
        var coordinates = [
            GPXFormat.decimal(Int64(fix.longitudeE7 ?? 0), places: 7),
            GPXFormat.decimal(Int64(fix.latitudeE7 ?? 0), places: 7),
        ]
        if withAltitude, let altitude = fix.altitudeCm {
            coordinates.append(GPXFormat.decimal(Int64(altitude), places: 2))
        }
        return JSONText.object([
            (
                "geometry",
                JSONText.object([
                    ("coordinates", "[" + coordinates.joined(separator: ",") + "]"), ("type", "\"Point\""),
                ])
            ),
            ("properties", JSONText.object(properties)), ("type", "\"Feature\""),
        ])
    }

    /// A FeatureCollection, one feature a line, written as it goes.
    public static func write(_ fixes: some Collection<LocationFix>, to sink: any TextSink) throws {
        let times = ISO8601Time()
        try sink.write("{\"type\":\"FeatureCollection\",\"features\":[\n")
        for (index, fix) in fixes.enumerated() {
            var properties: [(String, String)] = [
                (PointField.time.rawValue, JSONText.string(times.string(milliseconds: fix.timeMs)))
            ]
            // The altitude is the position's third coordinate, not also a property.
            for (field, value) in PointField.decimals(of: fix) where field != .altitudeM {
                properties.append((field.rawValue, value))
            }
            for (field, name) in PointField.names(of: fix) {
                properties.append((field.rawValue, field == .isMock ? "true" : JSONText.string(name)))
            }
            properties.sort { $0.0 < $1.0 }
            try sink.write((index == 0 ? "" : ",\n") + pointFeature(fix, properties: properties, withAltitude: true))
        }
        try sink.write("\n]}\n")
    }
}
