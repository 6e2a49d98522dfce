import Foundation
import LocationWire
import LocationWireFiles
import ZIPFoundation

/// KML 2.2 (and KMZ, a ZIP holding it: `doc.kml`, else its first `.kml`), read through ``XMLDocumentReader``:
/// | KML | unit | LocationFix |
/// |---|---|---|
/// | `gx:Track`: `<when>` and `<gx:coord>` pairs, in order (grouped or interleaved) | ISO 8601; lon lat alt in degrees and m | `time_ms`, `longitude_e7`, `latitude_e7`, `altitude_cm` |
/// | `gx:Track`'s `<gx:SimpleArrayData name="speed">` (OpenTracks) | m/s | `speed_cm_s` |
/// | a `Placemark`'s `Point` with `<TimeStamp><when>` (or `<TimeSpan><begin>`) | lon,lat,alt | one fix |
/// | a `Placemark`'s `LineString` `<coordinates>` with `<TimeSpan>` | lon,lat,alt tuples | the first at `begin`, the last at `end` |
///
/// Each `gx:Track` (also each of a `gx:MultiTrack`) and each `LineString` is a recording segment. A `<gx:coord/>`
/// left empty is a point without a position, and a `LineString`'s coordinates between its first and last have no
/// time: both are counted and skipped, as times are never spread over a line (that would invent them). Other
/// geometries (`Polygon`), and the start, end, statistics and waypoint markers My Tracks and OpenTracks write as
/// `Point` placemarks (`styleUrl` `#start`, `#end`, `#statistics`, `#waypoint`), are counted as records that are
/// not points. When ``ImportOptions/keep`` asks for waypoints, the `#waypoint` markers and every `Point` placemark
/// without a time (and not a marker) are kept as waypoints, with the placemark's `<name>`.
public enum KMLFormat {
    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        let document =
            input.prefix(4).starts(with: [0x50, 0x4B, 0x03, 0x04]) ? ImportInput(try kml(of: input.bytes())) : input
        var state = State()
        var converterCopy = converter
        defer { converter = converterCopy }
        let root = try XMLDocumentReader.walk(
            document,
            start: { name, attributes, line throws(InterchangeError) in
                state.start(name, attributes, line)
            },
            end: { name, text, line throws(InterchangeError) in
                try state.end(name, text, line, &converterCopy)
            })
        guard root == "kml" else {
            throw InterchangeError("line 1", "the root element is <\(root ?? "none")>, not <kml>: not a KML file")
        }
    }

    /// The KML document of `data`: `data` itself, or the `.kml` inside a KMZ (a ZIP archive).
    static func kml(of data: Data) throws(InterchangeError) -> Data {
        guard data.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return data }
        do {
            let archive = try Archive(data: data, accessMode: .read)
            let entries = archive.filter { $0.type == .file && $0.path.lowercased().hasSuffix(".kml") }
            guard let entry = entries.first(where: { $0.path.lowercased() == "doc.kml" }) ?? entries.first else {
                throw InterchangeError("", "a ZIP archive without a .kml file: not a KMZ")
            }
            // A bound on what is unpacked: a small archive may claim or hold a huge document.
            guard entry.uncompressedSize <= UInt64(FileAccessLimit.unpackedBytes) else {
                throw InterchangeError(entry.path, "unpacks to \(entry.uncompressedSize) bytes, more than this reads")
            }
            var document = Data()
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard document.count + chunk.count <= FileAccessLimit.unpackedBytes else {
                    throw InterchangeError(entry.path, "unpacks to more bytes than this reads")
                }
                document.append(chunk)
            }
            return document
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw InterchangeError("", "a ZIP archive that does not unpack: \(error)")
        }
    }

    /// What the walk has seen so far.
    private struct State {
        /// The styles My Tracks and OpenTracks give the Point placemarks that mark a track's start and end, its
        /// statistics and the user's waypoints: places on the track, not fixes of their own.
        static let markerStyles: Set<String> = ["#start", "#end", "#statistics", "#waypoint"]

        var segment = -1
        // gx:Track
        var inTrack = false
        /// A track's times and places as read, kept small until the track ends (a track of a million points
        /// holds them all): a time in milliseconds, the text only when it is not a time; a place as numbers.
        var whens: [(milliseconds: Int64?, unreadable: String?, line: Int)] = []
        var coords: [(place: Place?, unreadable: String?, line: Int)] = []
        var arrayName: String?
        var speeds: [Double?] = []
        // Placemark
        var placemarkLine = 0
        var timeStamp: String?
        var begin: String?
        var endTime: String?
        var pointCoordinates: (text: String, line: Int)?
        var lineCoordinates: (text: String, line: Int)?
        var geometry: String?
        var style: String?
        /// The placemark's `<name>`.
        var placemarkName: String?

        mutating func start(_ name: String, _ attributes: [String: String], _ line: Int) {
            switch name {
            case "Track":
                inTrack = true
                whens = []
                coords = []
                speeds = []
            case "SimpleArrayData": arrayName = attributes["name"]
            case "Placemark":
                placemarkLine = line
                timeStamp = nil
                begin = nil
                endTime = nil
                pointCoordinates = nil
                lineCoordinates = nil
                geometry = nil
                style = nil
                placemarkName = nil
            case "Point", "LineString", "Polygon", "LinearRing", "Model":
                if !inTrack && geometry == nil { geometry = name }
            default: break
            }
        }

        mutating func end(
            _ name: String, _ text: String, _ line: Int, _ converter: inout PointConverter
        ) throws(InterchangeError) {
            switch name {
            case "when" where inTrack:
                let milliseconds = converter.time(text, at: "line \(line)")
                whens.append((milliseconds, milliseconds == nil ? text : nil, line))
            case "when": timeStamp = text
            case "coord" where inTrack:
                let place = text.isEmpty ? nil : Place(text.split(whereSeparator: \.isWhitespace))
                coords.append((place, place == nil && !text.isEmpty ? text : nil, line))
            case "value" where inTrack && arrayName == "speed": speeds.append(Double(text))
            case "SimpleArrayData": arrayName = nil
            case "styleUrl": style = text
            case "name" where !inTrack && geometry == nil: placemarkName = text
            case "begin": begin = text
            case "end": endTime = text
            case "coordinates" where geometry == "Point": pointCoordinates = (text, line)
            case "coordinates" where geometry == "LineString": lineCoordinates = (text, line)
            case "Track":
                inTrack = false
                segment += 1
                try emitTrack(&converter)
            case "Placemark": try emitPlacemark(&converter)
            default: break
            }
        }

        private func emitTrack(_ converter: inout PointConverter) throws(InterchangeError) {
            for index in 0..<max(whens.count, coords.count) {
                let line = coords[safe: index]?.line ?? whens[safe: index]?.line ?? placemarkLine
                let location = "line \(line)"
                try converter.record(at: location) { converter throws(InterchangeError) in
                    var point = TrackPoint(location: location)
                    point.segment = segment
                    if let when = whens[safe: index] {
                        guard let time = when.milliseconds else {
                            throw InterchangeError(
                                location, "<when>\((when.unreadable ?? "").prefix(40))</when> is not an ISO 8601 time",
                                field: "when")
                        }
                        point.timeMs = Double(time)
                    }
                    if let coord = coords[safe: index] {
                        if let unreadable = coord.unreadable {
                            throw InterchangeError(
                                location, "\"\(unreadable.prefix(60))\" is not longitude, latitude[, altitude]",
                                field: "gx:coord")
                        }
                        coord.place?.set(on: &point)
                    }
                    if let speed = speeds[safe: index] ?? nil { point.speedCmS = speed * 100 }
                    try converter.add(point)
                }
            }
        }

        private mutating func emitPlacemark(_ converter: inout PointConverter) throws(InterchangeError) {
            let location = "line \(placemarkLine)"
            let keepsWaypoints = converter.options.keep.contains(.waypoints)
            let isMarker = style.map(Self.markerStyles.contains) ?? false
            let isUntimed = timeStamp == nil && begin == nil
            // A place the user marked: My Tracks' and OpenTracks' waypoint markers, or, when waypoints are kept, any
            // Point placemark without a time that is not a marker.
            if let (text, line) = pointCoordinates, style == "#waypoint" || (keepsWaypoints && isUntimed && !isMarker) {
                let what = "a \(style ?? "Point") marker placemark, not a recorded fix"
                guard keepsWaypoints else { return converter.ignoreRecord(what, at: location) }
                guard let place = Place(text.split(separator: ",")), abs(place.latitude) <= 90,
                    abs(place.longitude) <= 180
                else {
                    return try converter.skip(
                        .unreadable("coordinates"), at: "line \(line)",
                        detail: "\"\(text.prefix(40))\" is not longitude,latitude[,altitude] in range")
                }
                converter.mark(
                    MarkedPoint(
                        kind: .waypoint, name: placemarkName, latitude: place.latitude, longitude: place.longitude,
                        location: "line \(line)"),
                    otherwise: what)
            } else if pointCoordinates != nil, let style, Self.markerStyles.contains(style) {
                converter.ignoreRecord("a \(style) marker placemark, not a recorded fix", at: location)
            } else if let (text, line) = pointCoordinates {
                let pointLocation = "line \(line)"
                try converter.record(at: pointLocation) { converter throws(InterchangeError) in
                    var point = TrackPoint(location: pointLocation)
                    point.segment = max(segment, 0)
                    try place(text.split(separator: ","), "coordinates", pointLocation, &point)
                    if let when = timeStamp ?? begin {
                        guard let time = converter.time(when, at: pointLocation) else {
                            throw InterchangeError(
                                pointLocation, "\"\(when.prefix(40))\" is not an ISO 8601 time", field: "when")
                        }
                        point.timeMs = Double(time)
                    }
                    try converter.add(point)
                }
            } else if let (text, line) = lineCoordinates {
                segment += 1
                let tuples = text.split(whereSeparator: \.isWhitespace)
                for (index, tuple) in tuples.enumerated() {
                    let tupleLocation = "line \(line), coordinate \(index + 1)"
                    let isFirst = index == 0
                    let isLast = index == tuples.count - 1
                    guard isFirst || isLast else {
                        try converter.skip(
                            SkipReason(
                                code: "no-time",
                                text: "no time (a LineString's TimeSpan dates only its first and last coordinate)"),
                            at: tupleLocation)
                        continue
                    }
                    try converter.record(at: tupleLocation) { converter throws(InterchangeError) in
                        var point = TrackPoint(location: tupleLocation)
                        point.segment = segment
                        try place(tuple.split(separator: ","), "coordinates", tupleLocation, &point)
                        if let when = isFirst ? begin : endTime, let time = converter.time(when, at: tupleLocation) {
                            point.timeMs = Double(time)
                        }
                        try converter.add(point)
                    }
                }
            } else if let geometry {
                converter.ignoreRecord("a <\(geometry)> placemark: not a track", at: location)
            }
        }

        /// Longitude, latitude and altitude from a tuple's numbers (degrees, degrees, metres).
        private func place(
            _ numbers: [Substring], _ field: String, _ location: String, _ point: inout TrackPoint
        ) throws(InterchangeError) {
            guard let place = Place(numbers) else {
                throw InterchangeError(
                    location, "\"\(numbers.joined(separator: " ").prefix(60))\" is not longitude, latitude[, altitude]",
                    field: field)
            }
            place.set(on: &point)
        }
    }

    /// A position as KML writes it: longitude and latitude in degrees, and the altitude in metres.
    struct Place {
        var longitude: Double
        var latitude: Double
        var altitude: Double?

        /// Nil unless `numbers` are two or three finite numbers.
        init?(_ numbers: [Substring]) {
            let values = numbers.map { Double(String($0).trimmingASCIIWhitespace()) }
            guard (2...3).contains(values.count), let longitude = values[0], let latitude = values[1],
                longitude.isFinite, latitude.isFinite
            else { return nil }
            self.longitude = longitude
            self.latitude = latitude
            altitude = values.count == 3 ? values[2] : nil
        }

        func set(on point: inout TrackPoint) {
            point.longitudeE7 = longitude * 1e7
            point.latitudeE7 = latitude * 1e7
            point.altitudeCm = altitude.map { $0 * 100 }
        }
    }
}

/// Bounds on what a reader unpacks from a compressed input.
enum FileAccessLimit {
    /// 1 GiB: more than any track this reads whole.
    static let unpackedBytes = 1 << 30
}
