import Foundation

/// `--from auto`: which format a file is, from its content. Only the start is looked at (``prefixBytes``), so a
/// large file costs nothing more to detect than a small one.
///
/// - XML: the root element's name: `gpx` is GPX, `kml` KML, `TrainingCenterDatabase` TCX. A ZIP archive is KMZ.
/// - JSON: the keys near the start: `"locations"` with `"Feature"` is Overland, `"_type"` (or the Recorder API's
///   `"data"` envelope around `"tst"`) is OwnTracks, `"type"` with `"FeatureCollection"` or `"Feature"` is
///   GeoJSON.
/// - JSON of Google Takeout: `"timelineObjects"` (Semantic Location History), `"semanticSegments"` or
///   `"rawSignals"` (the Timeline export), `"locations"` with `"latitudeE7"` (Records), or an array of
///   `"startTime"` segments (the iOS Timeline export).
/// - Lines of `time<TAB>topic<TAB>{json}` are OwnTracks Recorder `.rec` files.
/// - Any other text whose first line has a delimiter is CSV.
public enum FormatDetection {
    /// How much of the start of a file detection reads.
    public static let prefixBytes = 64 * 1024

    /// The format `data` looks like, and the evidence in words ("root element <gpx>"); nil when it looks like
    /// none (binary, or text of one column).
    public static func detect(_ data: Data) -> (format: ImportFormat, evidence: String)? {
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return (.kml, "a ZIP archive, read as KMZ") }
        var prefix = data.prefix(prefixBytes)
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { prefix = prefix.dropFirst(3) }
        guard let first = prefix.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        let text = String(decoding: prefix, as: UTF8.self)
        switch first {
        case UInt8(ascii: "<"):
            switch rootElement(text) {
            case "gpx": return (.gpx, "root element <gpx>")
            case "kml": return (.kml, "root element <kml>")
            case "TrainingCenterDatabase": return (.tcx, "root element <TrainingCenterDatabase>")
            default: return nil
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return json(text)
        default:
            // A CSV's preamble: comment lines before the header.
            let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            let firstLine = lines.first { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") } ?? ""
            let fields = firstLine.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, fields[2].trimmingCharacters(in: .whitespaces).hasPrefix("{"),
                fields[0].first?.isNumber == true
            {
                return (.owntracks, "lines of time<TAB>topic<TAB>{json}, an OwnTracks Recorder .rec file")
            }
            if firstLine.contains(where: { ",;\t|".contains($0) }), !firstLine.contains("\0") {
                return (.csv, "a first line of delimited names")
            }
            return nil
        }
    }

    /// The name of the first element that is not the XML declaration, a comment or a document type.
    private static func rootElement(_ text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("?") || after.hasPrefix("!") {
                guard let close = after.firstIndex(of: ">") else { return nil }
                rest = after[after.index(after: close)...]
                continue
            }
            let name = after.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            // A prefixed root (gpx:gpx) counts by its local name.
            return name.split(separator: ":").last.map(String.init)
        }
        return nil
    }

    /// JSON by the keys and values near its start.
    private static func json(_ text: String) -> (format: ImportFormat, evidence: String)? {
        func has(_ key: String) -> Bool { text.contains("\"\(key)\"") }
        func value(_ key: String, _ value: String) -> Bool {
            text.range(of: "\"\(key)\"\\s*:\\s*\"\(value)\"", options: .regularExpression) != nil
        }
        if has("locations"), value("type", "Feature") { return (.overland, "a \"locations\" array of features") }
        if has("timelineObjects") { return (.takeout, "a \"timelineObjects\" array, Google Semantic Location History") }
        if has("semanticSegments") || has("rawSignals") {
            return (.takeout, "\"semanticSegments\" or \"rawSignals\", a Google Timeline export")
        }
        if has("locations"), has("latitudeE7") {
            return (.takeout, "\"locations\" with \"latitudeE7\", Google Takeout Records")
        }
        if text.first(where: { !$0.isWhitespace }) == "[", has("startTime"),
            has("visit") || has("activity") || has("timelinePath")
        {
            return (
                .takeout, "segments with \"startTime\" and a visit, activity or timelinePath, a Google Timeline export"
            )
        }
        if value("_type", "location") || has("_type") { return (.owntracks, "messages with \"_type\"") }
        if has("data"), has("tst") { return (.owntracks, "the Recorder API's {\"count\", \"data\"} envelope") }
        if value("type", "FeatureCollection") || value("type", "Feature") {
            return (.geojson, "a GeoJSON \"type\"")
        }
        return nil
    }
}
