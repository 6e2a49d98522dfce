import Foundation
import LocationWire

/// Garmin's Training Center XML (TCX 2), read through ``XMLDocumentReader``:
/// | TCX `Trackpoint` | unit | LocationFix |
/// |---|---|---|
/// | `Time` | ISO 8601 | `time_ms` |
/// | `Position/LatitudeDegrees`, `LongitudeDegrees` | degrees | `latitude_e7`, `longitude_e7` |
/// | `AltitudeMeters` | m | `altitude_cm` |
/// | `Extensions/TPX/Speed` (ActivityExtension v2) | m/s | `speed_cm_s` |
///
/// Each `Track` of an `Activity` is a recording segment (Garmin starts a new one after a pause). A trackpoint
/// without a `Position` (a heart-rate sample while the GPS had no fix) is counted and skipped. The `Trackpoint`s of
/// a `Course` are a planned route and its `CoursePoint`s marked places, not recorded fixes: counted, or kept as
/// route points and waypoints (with the course's and the point's `Name`) when ``ImportOptions/keep`` asks. Heart rate, cadence, power and
/// distance have no field in a fix and are not read.
public enum TCXFormat {
    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        var state = State()
        var converterCopy = converter
        defer { converter = converterCopy }
        let root = try XMLDocumentReader.walk(
            input,
            start: { name, _, line throws(InterchangeError) in
                state.start(name, line)
            },
            end: { name, text, _ throws(InterchangeError) in
                try state.end(name, text, &converterCopy)
            })
        guard root == "TrainingCenterDatabase" else {
            throw InterchangeError(
                "line 1", "the root element is <\(root ?? "none")>, not <TrainingCenterDatabase>: not a TCX file")
        }
    }

    private struct State {
        /// The table above, for the numbers: the element, the ``TrackPoint`` value it sets, and the factor to the
        /// proto's unit.
        static let numbers: [String: (any WritableKeyPath<TrackPoint, Double?> & Sendable, Double)] = [
            "LatitudeDegrees": (\.latitudeE7, 1e7), "LongitudeDegrees": (\.longitudeE7, 1e7),
            "AltitudeMeters": (\.altitudeCm, 100), "Speed": (\.speedCmS, 100),
        ]

        var segment = -1
        var inCourse = false
        /// The current `Course`, counted from 0, and its `Name`.
        var course = -1
        var courseName: String?
        var point: TrackPoint?
        /// The current point is a `CoursePoint`, and its `Name`.
        var isCoursePoint = false
        var pointName: String?
        var timeText: String?

        mutating func start(_ name: String, _ line: Int) {
            switch name {
            case "Course":
                inCourse = true
                course += 1
                courseName = nil
            case "Track" where !inCourse: segment += 1
            case "Trackpoint", "CoursePoint":
                point = TrackPoint(location: "line \(line)")
                point?.segment = max(segment, 0)
                isCoursePoint = name == "CoursePoint"
                pointName = nil
                timeText = nil
            default: break
            }
        }

        mutating func end(_ name: String, _ text: String, _ converter: inout PointConverter) throws(InterchangeError) {
            guard point != nil else {
                if name == "Course" { inCourse = false }
                if name == "Name" && inCourse { courseName = text }
                return
            }
            switch name {
            case "Time": timeText = text
            case "Name": pointName = text
            case _ where Self.numbers[name] != nil:
                guard let (field, scale) = Self.numbers[name] else { return }
                let value = number(text, name)
                point?[keyPath: field] = value.map { $0 * scale }
            case "CoursePoint":
                guard let finished = point else { return }
                point = nil
                try mark(
                    finished, .waypoint, "course point (<CoursePoint>): a marked place, not a recorded fix", &converter)
            case "Trackpoint":
                guard var finished = point else { return }
                point = nil
                let location = finished.location
                if inCourse {
                    return try mark(
                        finished, .routePoint, "a <Course>'s trackpoint: a planned route, not a recorded fix",
                        &converter)
                }
                let time = timeText
                try converter.record(at: location) { converter throws(InterchangeError) in
                    if let time {
                        guard let milliseconds = converter.time(time, at: location) else {
                            throw InterchangeError(
                                location, "<Time>\(time.prefix(40))</Time> is not an ISO 8601 time", field: "Time")
                        }
                        finished.timeMs = Double(milliseconds)
                    }
                    try converter.add(finished)
                }
            default: break
            }
        }

        /// A course's trackpoint or course point: kept when asked for (its position must read then), else counted.
        private func mark(
            _ point: TrackPoint, _ kind: MarkedPoint.Kind, _ what: String, _ converter: inout PointConverter
        ) throws(InterchangeError) {
            guard converter.options.keep.contains(kind) else { return converter.ignoreRecord(what, at: point.location) }
            guard let latitudeE7 = point.latitudeE7, let longitudeE7 = point.longitudeE7, abs(latitudeE7) <= 90e7,
                abs(longitudeE7) <= 180e7
            else {
                return try converter.skip(.unreadable("Position"), at: point.location, detail: "no position in range")
            }
            converter.mark(
                MarkedPoint(
                    kind: kind, name: kind == .waypoint ? pointName : nil, latitude: latitudeE7 / 1e7,
                    longitude: longitudeE7 / 1e7, route: course, routeName: courseName, location: point.location),
                otherwise: what)
        }

        /// A value that must be a finite number; an unreadable one is noted on the point, which is then skipped.
        private mutating func number(_ text: String, _ name: String) -> Double? {
            guard let value = Double(text), value.isFinite else {
                point?.unreadable.append(name)
                return nil
            }
            return value
        }
    }
}
