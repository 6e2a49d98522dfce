import Foundation
import LocationWire

/// GPX 1.0 and 1.1, read by `GPXTrace` (FoundationXML's XMLParser) and converted here:
/// | GPX | unit | LocationFix |
/// |---|---|---|
/// | `lat`, `lon` | degrees | `latitude_e7`, `longitude_e7` |
/// | `<time>` | ISO 8601 | `time_ms` |
/// | `<ele>` | m | `altitude_cm` |
/// | `<hdop>` | dimensionless | `horizontal_accuracy_cm` = hdop × 5 m (the usual user-equivalent range error) |
/// | `<speed>`, `gpxtpx:speed` | m/s | `speed_cm_s` |
/// | `<course>`, `gpxtpx:course` | degrees | `course_cdeg` |
///
/// GPX says nothing of accuracy without `<hdop>`, nor of battery, motion or why a point was recorded; those stay
/// unset (never a default). Track points without `<time>`, or with a value that cannot be read (`lat="abc"`, a
/// latitude of 95, no `lat`, a `<time>` that is not a time), are counted and skipped; a `<time>` without a zone is
/// read in the import's zone. Route points (`<rtept>`, a plan) and waypoints (`<wpt>`, places) are not recorded
/// fixes: they are counted, or kept as ``MarkedPoint``s when ``ImportOptions/keep`` asks for them.
/// Written: GPX 1.1, one `trk` with a `trkseg` per recording segment of the batch (`§trace-segments`), so that
/// segments survive the round trip; `hdop` = accuracy / 5 m, speed and course in Garmin's TrackPointExtension v2.
public enum GPXFormat {
    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        // Segments numbered in file order over (trk, trkseg): an empty trkseg takes no number.
        var segments: [Int: Int] = [:]
        var reading = converter
        defer { converter = reading }
        let blank = input.leadingWhitespace()
        let stream = input.stream(droppingFirst: blank.bytes)
        do {
            try GPXTrace.forEachPoint(stream: stream, skippedLines: blank.lines) { gpxPoint in
                try add(gpxPoint, &reading, &segments)
            }
        } catch let error as InterchangeError {
            throw error
        } catch let error as GPXTrace.ReadError {
            // A stream that failed (a gzip file cut short) is what went wrong, not the XML it left unfinished.
            if let failure = stream.streamError as? InterchangeError { throw failure }
            throw InterchangeError("line \(error.line)", error.message)
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw InterchangeError("", "\(error)")
        }
    }

    /// One point of the file, to the converter.
    private static func add(
        _ gpxPoint: GPXTrace.Point, _ converter: inout PointConverter, _ segments: inout [Int: Int]
    ) throws(InterchangeError) {
        let location = "line \(gpxPoint.line)"
        let marked: (kind: MarkedPoint.Kind, what: String)? =
            switch gpxPoint.kind {
            case .track: nil
            case .route: (.routePoint, "route point (<rtept>): a planned route, not a recorded fix")
            case .waypoint: (.waypoint, "waypoint (<wpt>): a marked place, not a recorded fix")
            }
        if let marked {
            // Kept on request (its position must read then), otherwise counted.
            guard converter.options.keep.contains(marked.kind) else {
                return converter.ignoreRecord(marked.what, at: location)
            }
            guard let latitude = gpxPoint.latitude, let longitude = gpxPoint.longitude else {
                let problem = gpxPoint.problem.map { ($0.field, $0.message) } ?? ("lat", "no position")
                return try converter.skip(.unreadable(problem.0), at: location, detail: problem.1)
            }
            converter.mark(
                MarkedPoint(
                    kind: marked.kind, name: gpxPoint.name, latitude: latitude, longitude: longitude,
                    route: gpxPoint.track, routeName: gpxPoint.trackName, location: location),
                otherwise: marked.what)
            return
        }
        if let problem = gpxPoint.problem {
            try converter.skip(.unreadable(problem.field), at: location, detail: problem.message)
            return
        }
        var point = TrackPoint(location: location)
        let key = gpxPoint.track << 32 | gpxPoint.segment
        point.segment = segments[key] ?? segments.count
        segments[key] = point.segment
        point.timeMs = gpxPoint.timeText.flatMap { converter.time($0, at: location) }.map(Double.init)
        point.latitudeE7 = gpxPoint.latitude.map { $0 * 1e7 }
        point.longitudeE7 = gpxPoint.longitude.map { $0 * 1e7 }
        point.altitudeCm = gpxPoint.elevationM.map { $0 * 100 }
        point.horizontalAccuracyCm = gpxPoint.hdop.map { $0 * GPXTrace.metresPerHDOP * 100 }
        point.speedCmS = gpxPoint.speedMS.map { $0 * 100 }
        point.courseCdeg = gpxPoint.courseDeg.map { $0 * 100 }
        try converter.add(point)
    }

    /// GPX 1.1: one `trk`, and one `trkseg` for each recording segment (`breaks`: the fix indices that start a
    /// new one, `TraceSegments`).
    public static func write(
        _ fixes: some Collection<LocationFix>, name: String, breaks: [Int] = [], to sink: any TextSink
    ) throws {
        let breakSet = Set(breaks)
        let times = ISO8601Time()
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="locwire" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
              <trk>
                <name>\(escape(name))</name>
                <trkseg>

            """
        for (index, fix) in fixes.enumerated() {
            // Handed on a point at a time: the whole document is never held.
            try sink.write(text)
            text = ""
            if breakSet.contains(index) { text += "    </trkseg>\n    <trkseg>\n" }
            let latitude = decimal(Int64(fix.latitudeE7 ?? 0), places: 7)
            let longitude = decimal(Int64(fix.longitudeE7 ?? 0), places: 7)
            text += "      <trkpt lat=\"\(latitude)\" lon=\"\(longitude)\">"
            // Child order is the schema's: ele, time, ..., hdop, ..., extensions.
            if let altitude = fix.altitudeCm { text += "<ele>\(decimal(Int64(altitude), places: 2))</ele>" }
            text += "<time>\(times.string(milliseconds: fix.timeMs))</time>"
            if let accuracy = fix.horizontalAccuracyCm {
                // hdop = accuracy / 500 cm = accuracy × 2 / 1000 (GPXTrace.metresPerHDOP is 5 m).
                text += "<hdop>\(decimal(Int64(accuracy) * 2, places: 3))</hdop>"
            }
            if fix.speedCmS != nil || fix.courseCdeg != nil {
                text += "<extensions><gpxtpx:TrackPointExtension>"
                if let speed = fix.speedCmS {
                    text += "<gpxtpx:speed>\(decimal(Int64(speed), places: 2))</gpxtpx:speed>"
                }
                if let course = fix.courseCdeg {
                    text += "<gpxtpx:course>\(decimal(Int64(course), places: 2))</gpxtpx:course>"
                }
                text += "</gpxtpx:TrackPointExtension></extensions>"
            }
            text += "</trkpt>\n"
        }
        text += "    </trkseg>\n  </trk>\n</gpx>\n"
        try sink.write(text)
    }

    /// `value` × 10^-places as xsd:decimal text, which GPX's numbers are: exact digits from the integer, never an
    /// exponent (a Double prints 1e-07 for the latitude 0.0000001, which xsd:decimal does not allow).
    package static func decimal(_ value: Int64, places: Int) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
        let whole = padded.dropLast(places)
        var fraction = padded.suffix(places)
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return (value < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// XML text escaping for the track name (the device id, which may hold any UTF-8): markup characters
    /// escaped, and control characters, which XML 1.0 does not allow at all, left out.
    static func escape(_ text: String) -> String {
        let allowed = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" }))
        return allowed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
