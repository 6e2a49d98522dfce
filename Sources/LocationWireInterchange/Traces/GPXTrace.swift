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
    /// The metres of horizontal accuracy one unit of `<hdop>` stands for: GPX readers' usual user-equivalent range
    /// error, accuracy = hdop × 5 m. The one place this convention is written; import and export use it too.
    public static let metresPerHDOP = 5.0

    public var fixes: [LocationFix] = []
    /// Where the recording stopped and started again: a `LAUNCHED` event at the first fix of each `trkseg` after
    /// the first (`§trace-segments`), so that pictures and measures do not join the segments.
    public var lifecycleEvents: [LifecycleEvent] = []
    /// Track points without a time, which a trace cannot place.
    public var untimedPoints = 0
    /// Every `trkpt` and `rtept` in document order, as written.
    public var points: [Point] = []

    /// One track, route or waypoint as the file writes it: degrees, metres, m/s, UTC milliseconds.
    public struct Point: Sendable, Equatable {
        /// The line of the point's start tag.
        public var line: Int
        public var kind: Kind
        /// The point's `trk` (or `rte`) and `trkseg`, counted from 0 in document order; 0 for a waypoint.
        public var track = 0
        public var segment = 0
        /// `lat` and `lon`; nil when absent or not a number in range (``problem`` says which).
        public var latitude: Double?
        public var longitude: Double?
        /// `<time>` as written, and read to UTC milliseconds (a time without a zone read as UTC); nil when the
        /// point has none, or when it is not a time (``problem`` says so).
        public var timeText: String?
        public var timeMs: Int64?
        /// `<ele>`, metres.
        public var elevationM: Double?
        /// The point's `<name>` (a waypoint's, a route point's), and its `trk`'s or `rte`'s `<name>` when written
        /// before its points.
        public var name: String?
        public var trackName: String?
        /// `<hdop>`, dimensionless; an accuracy of ``GPXTrace/metresPerHDOP`` times this.
        public var hdop: Double?
        /// `<speed>` or an extension's `speed`, metres per second.
        public var speedMS: Double?
        /// `<course>` or an extension's `course`, degrees clockwise from true north.
        public var courseDeg: Double?
        /// The first thing about the point that cannot be read ("lat \"abc\" is not a number"), with the
        /// element it is in; nil when every value reads.
        public var problem: Problem?

        /// `trkpt`, `rtept` or `wpt`.
        public enum Kind: String, Sendable {
            case track = "trkpt"
            case route = "rtept"
            case waypoint = "wpt"
        }

        /// A value that cannot be read: the element or attribute, and what is wrong.
        public struct Problem: Sendable, Equatable {
            /// `lat`, `lon`, `time`, `ele`, `hdop`, `speed`, `course`.
            public var field: String
            public var message: String
        }
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

    /// Reads GPX bytes. Throws ``ReadError`` for XML that does not parse and for a track or route point without
    /// a valid `lat`/`lon`, with a `<time>` that is not ISO 8601, or with an `<ele>`, `<hdop>`, speed or course
    /// that is not a finite number. Waypoints are not part of the trace.
    public init(data: Data, options: Options = Options()) throws {
        let reader = try Self.parse(data, options: options)
        if let bad = reader.points.first(where: { $0.problem != nil && $0.kind != .waypoint }),
            let problem = bad.problem
        {
            throw ReadError(line: bad.line, message: "<\(bad.kind.rawValue)> \(problem.message)")
        }
        fixes = reader.fixes
        untimedPoints = reader.untimedPoints
        points = reader.points.filter { $0.kind != .waypoint }
        // The timed points, in the order of `fixes`: the first of each (track, segment) after the first starts one.
        let timed = points.filter { $0.problem == nil && $0.timeMs != nil && $0.kind != .waypoint }
        var starts: [Int] = []
        for index in timed.indices
        where index == 0
            || (timed[index].track, timed[index].segment) != (timed[index - 1].track, timed[index - 1].segment)
        {
            starts.append(index)
        }
        lifecycleEvents = TraceSegments.markers(times: fixes.map(\.timeMs), starts: starts)
    }

    /// Every `trkpt`, `rtept` and `wpt` of a GPX document in document order, each with its ``Point/problem`` when
    /// a value of it cannot be read, one at a time as the parser finishes each, from a stream of the document's
    /// bytes that starts after `skippedLines` lines of white space: the points of a file of a million are never
    /// held together, nor is the file. Throws ``ReadError`` for XML that does not parse or is not GPX; an error
    /// `body` throws ends the walk and is thrown.
    public static func forEachPoint(
        stream: InputStream, skippedLines: Int = 0, _ body: (Point) throws -> Void
    ) throws {
        try withoutActuallyEscaping(body) { escapable in
            _ = try parse(XMLParser(stream: stream), skippedLines: skippedLines, options: Options(), visit: escapable)
        }
    }

    private static func parse(_ data: Data, options: Options) throws -> Reader {
        // White space before the XML declaration is not well-formed, but common (a file saved with a blank first
        // line); libxml2 then reports an error at the end of the file, which points the wrong way.
        let start = data.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? data.endIndex
        let skippedLines = data[data.startIndex..<start].count { $0 == 0x0A }
        // A stream, not XMLParser(data:): libxml2 takes the data as one chunk and refuses one of hundreds of MB.
        let parser = XMLParser(stream: InputStream(data: start == data.startIndex ? data : Data(data[start...])))
        return try parse(parser, skippedLines: skippedLines, options: options)
    }

    private static func parse(
        _ parser: XMLParser, skippedLines: Int, options: Options, visit: ((Point) throws -> Void)? = nil
    ) throws -> Reader {
        let reader = Reader(options: options)
        reader.visit = visit
        reader.lineOffset = skippedLines
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let error = reader.visitError { throw error }
        if let error = reader.error { throw error }
        guard parsed else {
            throw ReadError(
                line: parser.lineNumber + skippedLines,
                message: "not well-formed XML: \(parser.parserError.map(Self.describe) ?? "?")")
        }
        guard reader.sawGPX else { throw ReadError(line: 1, message: "no <gpx> element: not a GPX file") }
        // Some XMLParser builds (libxml2 recovering) report success for a document that just stops, or that breaks
        // off at a malformed tag; neither may pass as a short track.
        guard reader.closedGPX else {
            throw ReadError(
                line: parser.lineNumber + skippedLines,
                message: "the XML breaks off before </gpx>: the file is truncated, or not well-formed from here")
        }
        return reader
    }

    /// libxml2's error in words: its message when Foundation passes it on, else the error's own description
    /// ("NSXMLParserErrorDomain error 4" says nothing to a user; 4 is an empty document, 5 one that ends early).
    public static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        let known: [Int: String] = [
            4: "the document is empty", 5: "the document ends too early", 9: "a character XML does not allow",
            23: "an element is not closed", 26: "an entity is not defined", 41: "an attribute is not well-formed",
            42: "an attribute appears twice",
            64: "the XML declaration is not at the start of the file",
            73: "a closing tag is missing its >", 76: "a closing tag does not match its opening tag",
        ]
        return known[code].map { "\($0) (libxml2 error \(code))" } ?? "libxml2 error \(code)"
    }

    /// A SAX reader: GPX files of real tracks run to tens of megabytes, and a tree of them is not needed.
    private final class Reader: NSObject, XMLParserDelegate {
        let options: Options
        var fixes: [LocationFix] = []
        var untimedPoints = 0
        var points: [Point] = []
        var error: ReadError?
        /// Set for ``GPXTrace/forEachPoint(_:_:)``: each finished point goes there instead of into ``points``,
        /// and no fixes are made.
        var visit: ((Point) throws -> Void)?
        var visitError: (any Error)?
        var sawGPX = false
        var closedGPX = false
        /// Lines before the part given to the parser.
        var lineOffset = 0
        private var point: Point?
        private var text = ""
        private var firstTimeMs: Int64?
        private let times = ISO8601Time()
        /// The current `trk` or `rte` and `trkseg`, counted from 0; -1 before the first.
        private var track = -1
        private var segment = -1
        /// The current `trk`'s or `rte`'s `<name>`.
        private var trackName: String?

        init(options: Options) {
            self.options = options
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            switch name {
            case "gpx": sawGPX = true
            case "trk", "rte":
                track += 1
                trackName = nil
                segment = name == "rte" ? 0 : -1
            case "trkseg": segment += 1
            default: break
            }
            guard let kind = Point.Kind(rawValue: name) else { return }
            var started = Point(line: parser.lineNumber + lineOffset, kind: kind)
            if kind != .waypoint {
                started.track = max(track, 0)
                started.segment = max(segment, 0)
                started.trackName = trackName
            }
            started.latitude = coordinate(attributes["lat"], "lat", limit: 90, &started)
            started.longitude = coordinate(attributes["lon"], "lon", limit: 180, &started)
            point = started
        }

        /// A `lat` or `lon` attribute in degrees, or nil (and the point's problem) when absent or not in range.
        private func coordinate(_ text: String?, _ name: String, limit: Double, _ point: inout Point) -> Double? {
            guard let text else {
                record(&point, name, "\(name) is missing")
                return nil
            }
            guard let degrees = Double(text.trimmingASCIIWhitespace()), degrees.isFinite,
                abs(degrees) <= limit
            else {
                record(
                    &point, name,
                    "\(name) \"\(text.prefix(40))\" is not a number in -\(Int(limit))...\(Int(limit)) (degrees)")
                return nil
            }
            return degrees
        }

        private func record(_ point: inout Point, _ field: String, _ message: String) {
            if point.problem == nil { point.problem = Point.Problem(field: field, message: message) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
        ) {
            defer { text = "" }
            if name == "gpx" { closedGPX = true }
            let value = text.trimmingASCIIWhitespace()
            guard var current = point else {
                if name == "name" && track >= 0 { trackName = value }
                return
            }
            // Extensions name their elements with a prefix (gpxtpx:speed); the local name is what counts.
            let localName = name.localXMLName
            switch localName {
            case "time":
                current.timeText = value
                current.timeMs = times.milliseconds(value)
                if current.timeMs == nil {
                    record(&current, "time", "<\(name)>\(value.prefix(40))</\(name)> is not an ISO 8601 time")
                }
            case "ele": current.elevationM = number(&current, name, value)
            case "name": current.name = value
            case "hdop": current.hdop = number(&current, name, value)
            case "speed": current.speedMS = number(&current, name, value)
            case "course": current.courseDeg = number(&current, name, value)
            case "trkpt", "rtept", "wpt":
                point = nil
                if let visit {
                    do {
                        try visit(current)
                    } catch {
                        visitError = error
                        parser.abortParsing()
                    }
                } else {
                    finish(current)
                }
                return
            default:
                return
            }
            point = current
        }

        /// Keeps a finished point, and makes the trace's fix of a readable, timed track or route point, as
        /// described on ``GPXTrace``.
        private func finish(_ point: Point) {
            points.append(point)
            guard point.kind != .waypoint, point.problem == nil, let latitude = point.latitude,
                let longitude = point.longitude
            else { return }
            guard let timeMs = point.timeMs else {
                untimedPoints += 1
                return
            }
            var fix = LocationFix()
            fix.latitudeE7 = Int32((latitude * 1e7).rounded())
            fix.longitudeE7 = Int32((longitude * 1e7).rounded())
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
                fix.horizontalAccuracyCm = UInt32((hdop * (GPXTrace.metresPerHDOP * 100)).rounded())
            }
            if let speed = point.speedMS, speed >= 0, speed <= 500 {
                fix.speedCmS = UInt32((speed * 100).rounded())
            }
            fixes.append(fix)
        }

        /// A finite number, or nil and the point's problem naming the element.
        private func number(_ point: inout Point, _ name: String, _ text: String) -> Double? {
            guard let value = Double(text), value.isFinite else {
                let field = name.localXMLName
                record(&point, field, "<\(name)>\(text.prefix(40))</\(name)> is not a finite number")
                return nil
            }
            return value
        }
    }
}
