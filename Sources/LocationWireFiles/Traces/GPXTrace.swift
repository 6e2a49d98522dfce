import Foundation
import LocationWire

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A GPX 1.0 or 1.1 track read as the fixes a phone's OS would deliver: every timed `trkpt` (and `rtept`) in
/// document order. GPX carries no accuracy and no monotonic clock, so the reader states them: `elapsed_realtime_ms`
/// counts from the first timed point (plus `firstElapsedMs`), every fix has `horizontalAccuracyCm` unless the point
/// has `<hdop>` (accuracy = hdop × 5 m, the usual user-equivalent range error), and one `bootId`. Points without a
/// `<time>` cannot be timed and are counted in ``untimedPoints``, not returned.
///
/// ``points`` keeps what the file says of every point, timed or not, in the file's units, for readers that convert
/// for themselves (`locwire import`). Speed and course come from GPX 1.0's `<speed>` (m/s) and `<course>` (degrees)
/// and from any extension element of the same local name, such as Garmin's TrackPointExtension v2
/// `gpxtpx:speed` and `gpxtpx:course`.
public struct GPXTrace: Sendable {
    public var fixes: [LocationFix] = []
    /// Track points without a time, which a trace cannot place.
    public var untimedPoints = 0
    /// Every `trkpt` and `rtept` in document order, as written.
    public var points: [Point] = []

    /// One track or route point as the file writes it: degrees, metres, m/s, UTC milliseconds.
    public struct Point: Sendable, Equatable {
        /// The line of the point's start tag.
        public var line: Int
        public var latitude: Double
        public var longitude: Double
        /// `<time>`, read to UTC milliseconds; nil when the point has none.
        public var timeMs: Int64?
        /// `<ele>`, metres.
        public var elevationM: Double?
        /// `<hdop>`, dimensionless.
        public var hdop: Double?
        /// `<speed>` or an extension's `speed`, metres per second.
        public var speedMS: Double?
        /// `<course>` or an extension's `course`, degrees clockwise from true north.
        public var courseDeg: Double?
    }

    /// How the reader fills what GPX lacks.
    public struct Options: Sendable {
        public var horizontalAccuracyCm: UInt32 = 500
        public var bootId: UInt64 = 1
        public var firstElapsedMs: UInt64 = 3_600_000
        public init() {}
    }

    /// A GPX file that does not parse, or a point it cannot read: the line and what is wrong.
    public struct ReadError: Error, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Reads GPX bytes. Throws ``ReadError`` for XML that does not parse and for a point without a valid
    /// `lat`/`lon`, with a `<time>` that is not ISO 8601, or with an `<ele>`, `<hdop>`, speed or course that is
    /// not a finite number.
    public init(data: Data, options: Options = Options()) throws {
        let reader = Reader(options: options)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let error = reader.error { throw error }
        guard parsed else {
            throw ReadError(
                line: parser.lineNumber,
                message: "not well-formed XML: \(parser.parserError.map { "\($0.localizedDescription)" } ?? "?")")
        }
        guard reader.sawGPX else { throw ReadError(line: 1, message: "no <gpx> element: not a GPX file") }
        // Some XMLParser builds (libxml2 recovering) report success for a document that just stops, or that breaks
        // off at a malformed tag; neither may pass as a short track.
        guard reader.closedGPX else {
            throw ReadError(
                line: parser.lineNumber,
                message: "the XML breaks off before </gpx>: the file is truncated, or not well-formed from here")
        }
        fixes = reader.fixes
        untimedPoints = reader.untimedPoints
        points = reader.points
    }

    /// A SAX reader: GPX files of real tracks run to tens of megabytes, and a tree of them is not needed.
    private final class Reader: NSObject, XMLParserDelegate {
        let options: Options
        var fixes: [LocationFix] = []
        var untimedPoints = 0
        var points: [Point] = []
        var error: ReadError?
        var sawGPX = false
        var closedGPX = false
        private var point: Point?
        private var text = ""
        private var firstTimeMs: Int64?
        private let times = ISO8601Time()

        init(options: Options) {
            self.options = options
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            if name == "gpx" { sawGPX = true }
            guard name == "trkpt" || name == "rtept" else { return }
            guard let latitude = attributes["lat"].flatMap(Self.degrees), abs(latitude) <= 90,
                let longitude = attributes["lon"].flatMap(Self.degrees), abs(longitude) <= 180
            else {
                fail(parser, "<\(name)> needs lat in -90...90 and lon in -180...180 (degrees)")
                return
            }
            point = Point(line: parser.lineNumber, latitude: latitude, longitude: longitude)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
        ) {
            defer { text = "" }
            if name == "gpx" { closedGPX = true }
            guard point != nil else { return }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            // Extensions name their elements with a prefix (gpxtpx:speed); the local name is what counts.
            let localName = name.split(separator: ":").last.map(String.init) ?? name
            switch localName {
            case "time":
                guard let timeMs = times.milliseconds(value) else {
                    fail(parser, "<\(name)>\(value)</\(name)> is not an ISO 8601 time")
                    return
                }
                point?.timeMs = timeMs
            case "ele": point?.elevationM = number(parser, name, value)
            case "hdop": point?.hdop = number(parser, name, value)
            case "speed": point?.speedMS = number(parser, name, value)
            case "course": point?.courseDeg = number(parser, name, value)
            case "trkpt", "rtept":
                if let point { finish(point) }
                point = nil
            default:
                break
            }
        }

        /// The trace's fix for a finished point, as described on ``GPXTrace``.
        private func finish(_ point: Point) {
            points.append(point)
            guard let timeMs = point.timeMs else {
                untimedPoints += 1
                return
            }
            var fix = LocationFix()
            fix.latitudeE7 = Int32((point.latitude * 1e7).rounded())
            fix.longitudeE7 = Int32((point.longitude * 1e7).rounded())
            fix.horizontalAccuracyCm = options.horizontalAccuracyCm
            fix.bootId = options.bootId
            fix.source = .gnss
            fix.timeMs = timeMs
            let first = firstTimeMs ?? timeMs
            firstTimeMs = first
            // A time before the first point's (a GPX file need not be ordered) still gets a time; the
            // recording engine then drops it as not after the previous one, as it would on a phone.
            fix.elapsedRealtimeMs = options.firstElapsedMs &+ UInt64(clamping: max(timeMs - first, 0))
            if let metres = point.elevationM, abs(metres) < 20_000_000 {
                fix.altitudeCm = Int32((metres * 100).rounded())
            }
            if let hdop = point.hdop, hdop > 0, hdop < 1_000 {
                fix.horizontalAccuracyCm = UInt32((hdop * 500).rounded())
            }
            if let speed = point.speedMS, speed >= 0, speed <= 500 {
                fix.speedCmS = UInt32((speed * 100).rounded())
            }
            fixes.append(fix)
        }

        /// A finite number, or a failure naming the element.
        private func number(_ parser: XMLParser, _ name: String, _ text: String) -> Double? {
            guard let value = Double(text), value.isFinite else {
                fail(parser, "<\(name)>\(text.prefix(40))</\(name)> is not a finite number")
                return nil
            }
            return value
        }

        private func fail(_ parser: XMLParser, _ message: String) {
            error = ReadError(line: parser.lineNumber, message: message)
            parser.abortParsing()
        }

        /// Decimal degrees; nil when not a finite number.
        static func degrees(_ text: String) -> Double? {
            guard let degrees = Double(text.trimmingCharacters(in: .whitespaces)), degrees.isFinite else { return nil }
            return degrees
        }
    }
}
