import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireGeometry
import LocationWireInterchange

/// Everything a map picture shows, in coordinates: the track, the regions, the markers, and the words around
/// them. ``SVGMap`` draws it; the builders here turn messages into it.
public struct TrackPicture: Sendable {
    /// One fix with a position.
    public struct Point: Sendable, Equatable {
        /// The fix's place in the input (0-based), counting the fixes without position too.
        public var index: Int
        public var latitude: Double
        public var longitude: Double
        public var timeMs: Int64
        /// The fix's own speed field, m/s.
        public var speedMS: Double?
        public var accuracyM: Double?
        public var reason: FixReason
    }

    /// What a marker stands for; each kind has its own shape.
    public enum MarkerKind: String, Sendable {
        case enter, exit, dwell, state, recorded, dropped
    }

    /// Which side of a comparison a marker is on: a plain picture has only `.events`.
    public enum Layer: String, Sendable {
        case events, expected, actual
    }

    /// An event or a recorded fix, placed on the map.
    public struct Marker: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var kind: MarkerKind
        public var layer: Layer
        /// True when the other side of a comparison has no equal marker.
        public var differs = false
        /// The hover text: one fact per line.
        public var details: [String]
    }

    public var title: String
    public var caption: [String] = []
    public var points: [Point] = []
    /// Indices into ``points`` that start a new line: the track is not drawn from the point before to these
    /// (`§trace-segments`, and time gaps longer than the picture's limit).
    public var breaks: Set<Int> = []
    /// Fixes of the input that have no latitude or longitude: counted, not drawn.
    public var skippedWithoutPosition = 0
    public var regions: [Region] = []
    public var markers: [Marker] = []
    public var coloring: TrackColoring = .speed

    public init(title: String) {
        self.title = title
    }

    /// The track of `fixes`: those with a position, in order; the others are counted in ``skippedWithoutPosition``.
    /// The line breaks where `lifecycleEvents` break the trace into segments and at time gaps longer than `gapMs`
    /// (``TraceSegments``).
    public mutating func setTrack(
        _ fixes: [LocationFix], lifecycleEvents: [LifecycleEvent] = [], gapMs: Int64? = nil
    ) {
        points = []
        breaks = []
        skippedWithoutPosition = 0
        var fixBreaks = TraceSegments.breaks(
            times: fixes.map(\.timeMs), lifecycleEvents: lifecycleEvents, gapMs: gapMs)[...]
        for (index, fix) in fixes.enumerated() {
            guard let latitude = fix.latitudeE7, let longitude = fix.longitudeE7 else {
                skippedWithoutPosition += 1
                continue
            }
            // A break between the previous drawn fix and this one (fixes without a position in between included).
            var broken = false
            while let next = fixBreaks.first, next <= index {
                broken = true
                fixBreaks = fixBreaks.dropFirst()
            }
            if broken && !points.isEmpty { breaks.insert(points.count) }
            points.append(
                Point(
                    index: index, latitude: Double(latitude) * 1e-7, longitude: Double(longitude) * 1e-7,
                    timeMs: fix.timeMs, speedMS: fix.speedCmS.map { Double($0) / 100 },
                    accuracyM: fix.horizontalAccuracyCm.map { Double($0) / 100 }, reason: fix.reason))
        }
    }

    /// The speed of the segment from point `index - 1` to `index`, m/s: the mean of the two fixes' speed fields
    /// when both have one, else distance over time, else nil.
    public func segmentSpeedMS(endingAt index: Int) -> Double? {
        let (from, to) = (points[index - 1], points[index])
        if let a = from.speedMS, let b = to.speedMS { return (a + b) / 2 }
        let seconds = Double(to.timeMs - from.timeMs) / 1000
        guard seconds > 0 else { return nil }
        return Self.distanceM(from, to) / seconds
    }

    /// The colour of the segment ending at point `index` (≥ 1), and of the fix dot at `index`.
    public func color(ofPoint index: Int) -> String {
        switch coloring {
        case .reason: return Palette.color(reason: points[index].reason)
        case .speed:
            if index == 0 { return points.count > 1 ? color(ofPoint: 1) : Palette.color(speedMS: points[0].speedMS) }
            return Palette.color(speedMS: segmentSpeedMS(endingAt: index))
        }
    }

    public var legend: [LegendEntry] {
        switch coloring {
        case .speed: Palette.speedLegend
        case .reason: Palette.reasonLegend(Set(points.map(\.reason)))
        }
    }

    /// Great-circle metres between two points, on the spec's sphere.
    static func distanceM(_ a: Point, _ b: Point) -> Double {
        Sphere.distanceM(
            latitudeE7: Int32(a.latitude * 1e7), longitudeE7: Int32(a.longitude * 1e7),
            latitudeE7: Int32(b.latitude * 1e7), longitudeE7: Int32(b.longitude * 1e7))
    }

    /// The track's length, metres: the lines drawn, not the jumps across ``breaks``.
    public var lengthM: Double {
        points.indices.dropFirst().reduce(0) { total, index in
            breaks.contains(index) ? total : total + Self.distanceM(points[index - 1], points[index])
        }
    }

    /// Adds fence events as markers. An event without a trigger fix is placed at the track point nearest in
    /// time to its detection, and says so; with no track either, it is left out and the caption says how many.
    public mutating func addEvents(_ events: [FenceEvent], layer: Layer, differing: Set<Int> = []) {
        var unplaced = 0
        for (number, event) in events.enumerated() {
            var details = [
                "\(layer == .events ? "event" : layer.rawValue) #\(event.eventSequence): \(Self.label(event.kind))",
                "region \(event.regionId)", "detected \(Self.time(event.detectedAtMs))",
            ]
            if let dwell = event.dwellMs { details.append("dwell \(dwell / 1000) s") }
            let position: (Double, Double)?
            if let fix = event.triggerFix, let latitude = fix.latitudeE7, let longitude = fix.longitudeE7 {
                position = (Double(latitude) * 1e-7, Double(longitude) * 1e-7)
            } else if let nearest = points.min(by: {
                abs($0.timeMs - event.detectedAtMs) < abs($1.timeMs - event.detectedAtMs)
            }) {
                position = (nearest.latitude, nearest.longitude)
                details.append("no trigger fix: placed at the fix nearest in time")
            } else {
                position = nil
            }
            guard let (latitude, longitude) = position else {
                unplaced += 1
                continue
            }
            if differing.contains(number) { details.append("not on the other side") }
            markers.append(
                Marker(
                    latitude: latitude, longitude: longitude, kind: Self.markerKind(event.kind), layer: layer,
                    differs: differing.contains(number), details: details))
        }
        if unplaced > 0 { caption.append("\(unplaced) \(layer.rawValue) events have no position and are not drawn") }
    }

    static func markerKind(_ kind: FenceEventKind) -> MarkerKind {
        switch kind {
        case .enter: .enter
        case .exit: .exit
        case .dwell: .dwell
        default: .state
        }
    }

    static func label(_ kind: FenceEventKind) -> String {
        (kind.name ?? "kind \(kind.rawValue)").replacingOccurrences(of: "FENCE_EVENT_KIND_", with: "").lowercased()
    }

    /// UTC, to the second: "2026-03-01 08:00:05Z". Computed by hand (days to civil date, H. Hinnant's
    /// algorithm): a DateFormatter per fix costs seconds on a long track, and one shared is not Sendable.
    public static func time(_ ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(
            format: "%04lld-%02lld-%02lld %02lld:%02lld:%02lldZ", year, month, day, second / 3600, second / 60 % 60,
            second % 60)
    }

    /// The hover text of a point.
    func details(ofPoint point: Point, speed: Double?) -> [String] {
        var lines = [
            "fix \(point.index + 1)", "\(Self.time(point.timeMs))",
            String(format: "%.6f, %.6f", point.latitude, point.longitude),
        ]
        if let speed { lines.append(String(format: "%.1f km/h", speed * 3.6)) }
        if let accuracy = point.accuracyM { lines.append(String(format: "accuracy %.0f m", accuracy)) }
        if point.reason != .unspecified { lines.append("reason \(Palette.label(point.reason))") }
        return lines
    }

    /// Every coordinate the picture must show: the points, the markers and each region's extent. Longitudes are
    /// unwrapped when that makes the box narrower, so a track across the antimeridian is one piece.
    func extent() -> [(latitude: Double, longitude: Double)] {
        var all = points.map { (latitude: $0.latitude, longitude: $0.longitude) }
        all += markers.map { (latitude: $0.latitude, longitude: $0.longitude) }
        for region in regions {
            if let circle = region.circle, let latitude = circle.centerLatitudeE7,
                let longitude = circle.centerLongitudeE7
            {
                let (lat, lon) = (Double(latitude) * 1e-7, Double(longitude) * 1e-7)
                let degrees = Double(circle.radiusM) / Sphere.radiusM * 180 / .pi
                let across = degrees / max(cos(lat * .pi / 180), 0.01)
                all += [(lat - degrees, lon - across), (lat + degrees, lon + across)]
            }
            for (latitude, longitude) in Self.vertices(region.polygon) { all.append((latitude, longitude)) }
        }
        return all
    }

    /// A polygon's vertices in degrees; extra values in the longer array are ignored.
    static func vertices(_ polygon: Polygon?) -> [(Double, Double)] {
        guard let polygon else { return [] }
        return zip(polygon.latitudesE7, polygon.longitudesE7).map { (Double($0) * 1e-7, Double($1) * 1e-7) }
    }

    /// Whether longitudes east of 180 read better: the box of the eastern-shifted values is narrower.
    static func shouldUnwrap(_ longitudes: [Double]) -> Bool {
        guard let low = longitudes.min(), let high = longitudes.max(), high - low > 180 else { return false }
        let shifted = longitudes.map { $0 < 0 ? $0 + 360 : $0 }
        return shifted.max()! - shifted.min()! < high - low
    }
}
