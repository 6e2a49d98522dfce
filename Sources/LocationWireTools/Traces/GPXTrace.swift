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
public struct GPXTrace: Sendable {
    public var fixes: [LocationFix] = []
    /// Track points without a time, which a trace cannot place.
    public var untimedPoints = 0

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
    /// `lat`/`lon` or with a `<time>` that is not ISO 8601.
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
        // Some XMLParser builds accept a document that just stops; a truncated file must not pass as a short track.
        guard reader.closedGPX else {
            throw ReadError(line: parser.lineNumber, message: "the file ends before </gpx>: truncated")
        }
        fixes = reader.fixes
        untimedPoints = reader.untimedPoints
    }

    /// A SAX reader: GPX files of real tracks run to tens of megabytes, and a tree of them is not needed.
    private final class Reader: NSObject, XMLParserDelegate {
        let options: Options
        var fixes: [LocationFix] = []
        var untimedPoints = 0
        var error: ReadError?
        var sawGPX = false
        var closedGPX = false
        private var point: LocationFix?
        private var pointLine = 0
        private var text = ""
        private var firstTimeMs: Int64?
        private let isoFormatter: ISO8601DateFormatter = {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter
        }()
        private let isoFractionalFormatter: ISO8601DateFormatter = {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter
        }()
        private var hasTime = false

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
            guard let latitude = attributes["lat"].flatMap(Self.e7), abs(latitude) <= 900_000_000,
                let longitude = attributes["lon"].flatMap(Self.e7), abs(longitude) <= 1_800_000_000
            else {
                fail(parser, "<\(name)> needs lat in -90...90 and lon in -180...180 (degrees)")
                return
            }
            var fix = LocationFix()
            fix.latitudeE7 = latitude
            fix.longitudeE7 = longitude
            fix.horizontalAccuracyCm = options.horizontalAccuracyCm
            fix.bootId = options.bootId
            fix.source = .gnss
            point = fix
            pointLine = parser.lineNumber
            hasTime = false
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
            switch name {
            case "time":
                guard let date = isoFormatter.date(from: value) ?? isoFractionalFormatter.date(from: value) else {
                    fail(parser, "<time>\(value)</time> is not an ISO 8601 time")
                    return
                }
                let timeMs = Int64((date.timeIntervalSince1970 * 1000).rounded())
                point?.timeMs = timeMs
                let first = firstTimeMs ?? timeMs
                firstTimeMs = first
                // A time before the first point's (a GPX file need not be ordered) still gets a time; the
                // recording engine then drops it as not after the previous one, as it would on a phone.
                point?.elapsedRealtimeMs = options.firstElapsedMs &+ UInt64(clamping: max(timeMs - first, 0))
                hasTime = true
            case "ele":
                if let metres = Double(value), metres.isFinite, abs(metres) < 20_000_000 {
                    point?.altitudeCm = Int32((metres * 100).rounded())
                }
            case "hdop":
                if let hdop = Double(value), hdop.isFinite, hdop > 0, hdop < 1_000 {
                    point?.horizontalAccuracyCm = UInt32((hdop * 500).rounded())
                }
            case "speed":
                if let speed = Double(value), speed.isFinite, speed >= 0, speed <= 500 {
                    point?.speedCmS = UInt32((speed * 100).rounded())
                }
            case "trkpt", "rtept":
                if hasTime, let point { fixes.append(point) } else { untimedPoints += 1 }
                point = nil
            default:
                break
            }
        }

        private func fail(_ parser: XMLParser, _ message: String) {
            error = ReadError(line: parser.lineNumber, message: message)
            parser.abortParsing()
        }

        /// Decimal degrees to 1e-7 degree, rounded; nil when not a finite number.
        static func e7(_ text: String) -> Int32? {
            guard let degrees = Double(text.trimmingCharacters(in: .whitespaces)), degrees.isFinite,
                abs(degrees) <= 180
            else { return nil }
            return Int32((degrees * 1e7).rounded())
        }
    }
}
