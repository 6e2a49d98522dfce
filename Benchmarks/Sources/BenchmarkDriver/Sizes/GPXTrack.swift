import Foundation
import LocationWire
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads the track points of a GPX 1.0/1.1 file as fixes: position, elevation and time, which is all a GPX
/// track point carries. Points without a time are skipped (a fix needs one).
final class GPXTrack: NSObject, XMLParserDelegate {
    private(set) var fixes: [LocationFix] = []
    private(set) var pointsWithoutTime = 0
    private var current: LocationFix?
    private var currentHasTime = false
    private var text = ""
    private let timeFormatter = ISO8601DateFormatter()

    static func read(_ url: URL) throws -> GPXTrack {
        let track = GPXTrack()
        guard let parser = XMLParser(contentsOf: url) else { throw BenchmarkError("cannot read \(url.path)") }
        parser.delegate = track
        guard parser.parse() else {
            throw BenchmarkError("\(url.path) is not valid XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return track
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        text = ""
        guard element == "trkpt" else { return }
        var fix = LocationFix()
        fix.latitudeE7 = Double(attributes["lat"] ?? "").map { Int32(($0 * 1e7).rounded()) }
        fix.longitudeE7 = Double(attributes["lon"] ?? "").map { Int32(($0 * 1e7).rounded()) }
        current = fix
        currentHasTime = false
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        guard current != nil else { return }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch element {
        case "ele":
            current!.altitudeCm = Double(value).map { Int32(($0 * 100).rounded()) }
        case "time":
            if let date = timeFormatter.date(from: value) {
                current!.timeMs = Int64((date.timeIntervalSince1970 * 1000).rounded())
                currentHasTime = true
            }
        case "trkpt":
            if currentHasTime {
                current!.sequence = UInt64(fixes.count + 1)
                fixes.append(current!)
            } else {
                pointsWithoutTime += 1
            }
            current = nil
        default:
            break
        }
    }
}
