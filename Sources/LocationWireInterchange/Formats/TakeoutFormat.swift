import Foundation
import LocationWire
import LocationWireJSON

/// Google Takeout location history, in its three shapes (Location History `Records.json`, Semantic Location
/// History monthly files, and the on-device Timeline export), told apart by the top level. <doc:GoogleTakeout>
/// gives each shape's points, how each value maps to a `LocationFix` field, and what is counted but not imported.
public enum TakeoutFormat {
    /// `activityType` (Semantic, upper case) and `topCandidate.type` (Timeline: upper case on Android, lower case
    /// with spaces on iOS), normalized to upper case with underscores. Types with no MotionActivity case (FLYING,
    /// IN_FERRY, SAILING, SKIING, ...) leave the field unset and are counted as not mapped.
    static let activities: [String: MotionActivity] = [
        "STILL": .still, "WALKING": .walking, "RUNNING": .running, "ON_FOOT": .onFoot, "CYCLING": .cycling,
        "ON_BICYCLE": .cycling, "IN_VEHICLE": .inVehicle, "IN_PASSENGER_VEHICLE": .inVehicle, "IN_BUS": .inVehicle,
        "IN_TRAIN": .inVehicle, "IN_SUBWAY": .inVehicle, "IN_TRAM": .inVehicle, "IN_ROAD_VEHICLE": .inVehicle,
        "IN_RAIL_VEHICLE": .inVehicle, "MOTORCYCLING": .inVehicle, "UNKNOWN_ACTIVITY_TYPE": .unknown,
        "UNKNOWN": .unknown,
    ]
    /// `source` of Records and Timeline `rawSignals`: GPS is satellites, WIFI and CELL are network positioning.
    static let sources: [String: FixSource] = ["GPS": .gnss, "WIFI": .network, "CELL": .network]
    /// The numbers of a Records element.
    static let recordNumbers: NumberKeys = [
        ("accuracy", \.horizontalAccuracyCm, 100), ("altitude", \.altitudeCm, 100),
        ("verticalAccuracy", \.verticalAccuracyCm, 100), ("velocity", \.speedCmS, 100), ("heading", \.courseCdeg, 100),
    ]
    /// The numbers of a Timeline raw signal's `position`.
    static let positionNumbers: NumberKeys = [
        ("accuracyMeters", \.horizontalAccuracyCm, 100), ("altitudeMeters", \.altitudeCm, 100),
        ("speedMetersPerSecond", \.speedCmS, 100),
    ]

    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        // Records' locations (the file that grows to gigabytes) are streamed one at a time; the other members, and
        // a top-level array, are gathered and read as a whole.
        var reading = converter
        defer { converter = reading }
        var members = JSONObject()
        var topLevel: [JSONValue] = []
        var activityFound = false
        let (root, keys) = try JSONFraming.walk(
            input, arrayKeys: ["locations"],
            member: { key, value throws(InterchangeError) in
                members[key] = try JSONInput.document(value.bytes, "\(key) (line \(value.line))")
            },
            element: { key, index, value throws(InterchangeError) in
                guard key == "locations" else {
                    topLevel.append(try JSONInput.document(value.bytes, "[\(index)] (line \(value.line))"))
                    return
                }
                let location = "locations[\(index)]"
                try reading.record(at: location) { converter throws(InterchangeError) in
                    let element = try JSONInput.document(value.bytes, "\(location) (line \(value.line))")
                    try readRecord(element, location, &converter, activityFound: &activityFound)
                }
            })
        if root == .array {
            try readTimelineArray(topLevel, &reading)
            return
        }
        if keys.contains("locations") {
            if activityFound {
                reading.note("\"activity\" of Records (activity recognition with its own times) not used")
            }
            return
        }
        let document = JSONInput(members, "")
        if let objects = try document.array("timelineObjects") {
            try readSemantic(objects, &reading)
        } else if ["semanticSegments", "rawSignals", "userLocationProfile"].contains(where: { has(document, $0) }) {
            if let segments = try document.array("semanticSegments") {
                try readTimeline(segments, "semanticSegments", &reading)
            }
            if let signals = try document.array("rawSignals") { try readRawSignals(signals, &reading) }
        } else {
            throw InterchangeError(
                "",
                "no \"locations\", \"timelineObjects\", \"semanticSegments\" or \"rawSignals\": "
                    + "not Google Takeout location history")
        }
    }

    /// The iOS Timeline export: a top-level array of segments.
    private static func readTimelineArray(
        _ segments: [JSONValue], _ converter: inout PointConverter
    ) throws(InterchangeError) {
        let known = ["startTime", "endTime", "visit", "activity", "timelinePath", "timelineMemory"]
        let isTimeline = segments.contains { element in
            element.object.map { object in known.contains { object[$0] != nil } } ?? false
        }
        guard isTimeline || segments.isEmpty else {
            throw InterchangeError(
                "", "an array without \"startTime\", \"visit\", \"activity\" or \"timelinePath\": not a Timeline export"
            )
        }
        try readTimeline(segments, "", &converter)
    }

    // MARK: - Records.json

    /// One element of Records' `locations`.
    private static func readRecord(
        _ element: JSONValue, _ location: String, _ converter: inout PointConverter, activityFound: inout Bool
    ) throws(InterchangeError) {
        let record = try JSONInput(element, location)
        var point = TrackPoint(location: location)
        point.latitudeE7 = try record.number("latitudeE7")
        point.longitudeE7 = try record.number("longitudeE7")
        point.timeMs = try time(record, "timestamp", &converter)
        try record.read(recordNumbers, into: &point)
        try setSource(record, &point)
        if let tag = try record.number("deviceTag") {
            guard let device = Int64(exactly: tag) else {
                throw InterchangeError(record.path("deviceTag"), "expected an integer, found \(tag)")
            }
            point.device = String(device)
        }
        if has(record, "activity") { activityFound = true }
        try converter.add(point)
    }

    // MARK: - Semantic Location History

    private static func readSemantic(_ objects: [JSONValue], _ converter: inout PointConverter) throws(InterchangeError)
    {
        for (index, element) in objects.enumerated() {
            let location = "timelineObjects[\(index)]"
            guard
                let object = try part(
                    location, &converter,
                    { _ throws(InterchangeError) in
                        try JSONInput(element, location)
                    })
            else { continue }
            if has(object, "activitySegment") {
                if let activity = try part(
                    object.path("activitySegment"), &converter,
                    { _ throws(InterchangeError) in
                        try object.object("activitySegment")
                    })
                {
                    try activitySegment(activity, &converter)
                }
            } else if has(object, "placeVisit") {
                if let visit = try part(
                    object.path("placeVisit"), &converter,
                    { _ throws(InterchangeError) in
                        try object.object("placeVisit")
                    })
                {
                    try placeVisit(visit, &converter)
                }
            } else {
                converter.ignoreRecord("timeline object without an activitySegment or placeVisit", at: location)
            }
        }
    }

    private static func activitySegment(
        _ activity: JSONInput, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        try semanticEnd(activity, "startLocation", "startTimestamp", &converter)
        try rawPath(activity, &converter, motion: true)
        try semanticEnd(activity, "endLocation", "endTimestamp", &converter)
        if has(activity, "waypointPath") {
            let path = activity.path("waypointPath.waypoints")
            let waypoints = try part(path, &converter) { _ throws(InterchangeError) in
                try activity.object("waypointPath")?.array("waypoints")
            }
            for index in (waypoints ?? []).indices {
                converter.ignoreRecord(
                    "waypoint without a time (waypointPath): a road position, not a fix", at: "\(path)[\(index)]")
            }
        }
        if has(activity, "parkingEvent") {
            converter.ignoreRecord(
                "parkingEvent: an inferred parking place at the segment's end", at: activity.path("parkingEvent"))
        }
    }

    /// An activitySegment's `startLocation` or `endLocation`, at the duration's start or end.
    private static func semanticEnd(
        _ activity: JSONInput, _ key: String, _ timeKey: String, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        guard has(activity, key) else { return }
        let location = activity.path(key)
        try converter.record(at: location) { converter throws(InterchangeError) in
            guard let place = try activity.object(key), hasCoordinate(place) else {
                converter.ignoreRecord(
                    "activitySegment startLocation or endLocation without a position", at: location)
                return
            }
            var point = TrackPoint(location: location)
            point.latitudeE7 = try place.number("latitudeE7")
            point.longitudeE7 = try place.number("longitudeE7")
            if let duration = try activity.object("duration") {
                point.timeMs = try time(duration, timeKey, &converter)
            }
            try setMotion(try activity.string("activityType"), &point)
            try converter.add(point)
        }
    }

    /// The fixes of `simplifiedRawPath.points` (in an activitySegment with its activity type).
    private static func rawPath(
        _ owner: JSONInput, _ converter: inout PointConverter, motion: Bool
    ) throws(InterchangeError) {
        guard has(owner, "simplifiedRawPath") else { return }
        let path = owner.path("simplifiedRawPath.points")
        let points = try part(path, &converter) { _ throws(InterchangeError) in
            try owner.object("simplifiedRawPath")?.array("points")
        }
        for (index, element) in (points ?? []).enumerated() {
            let location = "\(path)[\(index)]"
            try converter.record(at: location) { converter throws(InterchangeError) in
                let raw = try JSONInput(element, location)
                var point = TrackPoint(location: location)
                point.latitudeE7 = try raw.number("latE7")
                point.longitudeE7 = try raw.number("lngE7")
                point.horizontalAccuracyCm = try raw.number("accuracyMeters").map { $0 * 100 }
                point.timeMs = try time(raw, "timestamp", &converter)
                if motion { try setMotion(try owner.string("activityType"), &point) }
                try converter.add(point)
            }
        }
    }

    private static func placeVisit(
        _ visit: JSONInput, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        try converter.record(at: visit.location) { converter throws(InterchangeError) in
            guard let place = try visit.object("location"), hasCoordinate(place) else {
                converter.ignoreRecord("placeVisit without a position", at: visit.location)
                return
            }
            var point = TrackPoint(location: visit.location)
            point.reason = .visit
            point.latitudeE7 = try place.number("latitudeE7")
            point.longitudeE7 = try place.number("longitudeE7")
            if let duration = try visit.object("duration") {
                point.timeMs = try time(duration, "startTimestamp", &converter)
            }
            try converter.add(point)
        }
        try rawPath(visit, &converter, motion: false)
        if has(visit, "childVisits") {
            let path = visit.path("childVisits")
            let children = try part(path, &converter) { _ throws(InterchangeError) in try visit.array("childVisits") }
            for index in (children ?? []).indices {
                converter.ignoreRecord(
                    "child visit: a place within a visit that is imported", at: "\(path)[\(index)]")
            }
        }
    }

    // MARK: - Timeline export

    /// Reads the semantic segments.
    private static func readTimeline(
        _ segments: [JSONValue], _ name: String, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        for (index, element) in segments.enumerated() {
            let location = "\(name)[\(index)]"
            guard
                let object = try part(
                    location, &converter,
                    { _ throws(InterchangeError) in
                        try JSONInput(element, location)
                    })
            else { continue }
            var isSegment = false
            if has(object, "timelinePath") {
                isSegment = true
                try timelinePath(object, &converter)
            }
            if has(object, "visit") {
                isSegment = try timelineVisit(object, &converter) || isSegment
            }
            if has(object, "activity") {
                isSegment = true
                for (key, timeKey) in [("start", "startTime"), ("end", "endTime")] {
                    try timelineActivityEnd(object, key, timeKey, &converter)
                }
            }
            if isSegment {
                continue
            } else if has(object, "timelineMemory") {
                converter.ignoreRecord("timelineMemory: a trip summary without positions", at: location)
            } else if !has(object, "visit") {
                converter.ignoreRecord("segment without a timelinePath, visit or activity", at: location)
            }
        }
    }

    private static func timelinePath(
        _ object: JSONInput, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        let path = object.path("timelinePath")
        let points = try part(path, &converter) { _ throws(InterchangeError) in try object.array("timelinePath") }
        for (index, element) in (points ?? []).enumerated() {
            let location = "\(path)[\(index)]"
            try converter.record(at: location) { converter throws(InterchangeError) in
                let entry = try JSONInput(element, location)
                var point = TrackPoint(location: location)
                if let text = try entry.string("point") {
                    (point.latitudeE7, point.longitudeE7) = try position(text, entry.path("point"))
                }
                if has(entry, "time") {
                    point.timeMs = try time(entry, "time", &converter)
                } else if let offset = entry.present("durationMinutesOffsetFromStartTime") {
                    let minutes = try JSONInput.number(
                        offset, entry.path("durationMinutesOffsetFromStartTime"), allowingText: true)
                    point.timeMs = try time(object, "startTime", &converter).map { $0 + minutes * 60_000 }
                }
                try converter.add(point)
            }
        }
    }

    /// A Timeline visit; false for a child visit, which is counted and is not a segment.
    private static func timelineVisit(
        _ object: JSONInput, _ converter: inout PointConverter
    ) throws(InterchangeError) -> Bool {
        let location = object.path("visit")
        var isChild = false
        try converter.record(at: location) { converter throws(InterchangeError) in
            guard let visit = try object.object("visit") else { return }
            if let level = visit.present("hierarchyLevel"),
                try JSONInput.number(level, visit.path("hierarchyLevel"), allowingText: true) > 0
            {
                isChild = true
                converter.ignoreRecord("child visit: a place within a visit that is imported", at: location)
                return
            }
            var found: (value: String, location: String)?
            if let candidate = try visit.object("topCandidate") { found = try positionText(candidate, "placeLocation") }
            guard let text = found else {
                converter.ignoreRecord("visit without a position", at: location)
                return
            }
            var point = TrackPoint(location: location)
            point.reason = .visit
            (point.latitudeE7, point.longitudeE7) = try position(text.value, text.location)
            point.timeMs = try time(object, "startTime", &converter)
            try converter.add(point)
        }
        return !isChild
    }

    private static func timelineActivityEnd(
        _ object: JSONInput, _ key: String, _ timeKey: String, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        let location = object.path("activity.\(key)")
        try converter.record(at: location) { converter throws(InterchangeError) in
            guard let activity = try object.object("activity"), let text = try positionText(activity, key) else {
                return
            }
            var point = TrackPoint(location: location)
            (point.latitudeE7, point.longitudeE7) = try position(text.value, text.location)
            point.timeMs = try time(object, timeKey, &converter)
            try setMotion(try activity.object("topCandidate")?.string("type"), &point)
            try converter.add(point)
        }
    }

    private static func readRawSignals(
        _ signals: [JSONValue], _ converter: inout PointConverter
    ) throws(InterchangeError) {
        for (index, element) in signals.enumerated() {
            let location = "rawSignals[\(index)]"
            guard
                let signal = try part(
                    location, &converter,
                    { _ throws(InterchangeError) in
                        try JSONInput(element, location)
                    })
            else { continue }
            guard has(signal, "position") else {
                let kind = signal.object.keys.sorted().first.map { "\($0) raw signal" } ?? "empty raw signal"
                converter.ignoreRecord("\(kind): not a position", at: location)
                continue
            }
            let positionPath = signal.path("position")
            try converter.record(at: positionPath) { converter throws(InterchangeError) in
                guard let position = try signal.object("position") else { return }
                var point = TrackPoint(location: positionPath)
                var found = try positionText(position, "LatLng")
                if found == nil { found = try positionText(position, "latLng") }
                if let text = found {
                    (point.latitudeE7, point.longitudeE7) = try Self.position(text.value, text.location)
                }
                point.timeMs = try time(position, "timestamp", &converter)
                try position.read(positionNumbers, into: &point)
                try setSource(position, &point)
                try converter.add(point)
            }
        }
    }

    // MARK: - Values

    /// `"48.1234567°, 11.5678901°"` (the degree signs optional) or `"geo:48.1,11.5"`, in 1e-7 degree, exactly as
    /// written (the decimal point moved, not multiplied in binary).
    static func position(
        _ text: String, _ location: String
    ) throws(InterchangeError) -> (latitudeE7: Double, longitudeE7: Double) {
        var body = Substring(text.trimmingASCIIWhitespace())
        if body.hasPrefix("geo:") { body = body.dropFirst(4) }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = e7(parts[0]), let longitude = e7(parts[1]) else {
            throw InterchangeError(
                location, "\"\(text.prefix(40))\" is not a position (\"48.1°, 11.5°\" or \"geo:48.1,11.5\")"
            )
        }
        return (latitude, longitude)
    }

    /// Degrees written as a decimal (`-27.4127738`, `163.5638958°`) in 1e-7 degree; nil for anything else.
    static func e7(_ text: Substring) -> Double? {
        var number = Substring(String(text).trimmingASCIIWhitespace())
        if number.hasSuffix("°") { number = number.dropLast() }
        var negative = false
        if let sign = number.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            number = number.dropFirst()
        }
        let pieces = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = pieces[0]
        let fraction = pieces.count == 2 ? pieces[1] : ""
        let digits = whole + fraction
        guard !whole.isEmpty, pieces.count == 1 || !fraction.isEmpty,
            digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var value: Double
        if digits.count <= 15, let integer = Double(digits) {
            // An integer of 15 digits is exact in a Double; one multiplication or division by a power of ten
            // then gives the Double nearest the decimal.
            let shift = 7 - fraction.count
            value = shift >= 0 ? integer * pow(10, Double(shift)) : integer / pow(10, Double(-shift))
        } else {
            guard let parsed = Double(number) else { return nil }
            value = parsed * 1e7
        }
        return negative ? -value : value
    }

    /// A position's text: `key` as a string, or as an object with a `latLng` string (Android).
    private static func positionText(
        _ object: JSONInput, _ key: String
    ) throws(InterchangeError) -> (value: String, location: String)? {
        guard let value = object.present(key) else { return nil }
        if let text = value.string { return (text, object.path(key)) }
        let nested = try JSONInput(value, object.path(key))
        return try nested.string("latLng").map { ($0, nested.path("latLng")) }
    }

    /// The time of `key` (ISO 8601 text), or of `key + "Ms"` (Unix milliseconds as text or a number), which
    /// comes first when both are present.
    private static func time(
        _ object: JSONInput, _ key: String, _ converter: inout PointConverter
    ) throws(InterchangeError) -> Double? {
        if let value = object.present(key + "Ms") {
            return try JSONInput.number(value, object.path(key + "Ms"), allowingText: true)
        }
        guard let text = try object.string(key) else { return nil }
        guard let milliseconds = converter.time(text, at: object.path(key)) else {
            throw InterchangeError(object.path(key), "\"\(text.prefix(40))\" is not ISO 8601")
        }
        return Double(milliseconds)
    }

    private static func setSource(_ object: JSONInput, _ point: inout TrackPoint) throws(InterchangeError) {
        guard let name = try object.string("source"), name != "UNKNOWN" else { return }
        if let source = sources[name] {
            point.source = source
        } else {
            point.unmapped.append("source")
        }
    }

    private static func setMotion(_ type: String?, _ point: inout TrackPoint) throws(InterchangeError) {
        guard let type else { return }
        if let motion = activities[type.uppercased().replacingOccurrences(of: " ", with: "_")] {
            point.motionActivity = motion
        } else {
            point.unmapped.append("motion_activity")
        }
    }

    /// Whether `key` is present and not null.
    private static func has(_ object: JSONInput, _ key: String) -> Bool {
        object.present(key) != nil
    }

    /// Whether a location object has a coordinate at all (2013 exports write `{}` for an unknown one).
    private static func hasCoordinate(_ place: JSONInput) -> Bool {
        has(place, "latitudeE7") || has(place, "longitudeE7")
    }

    /// A value read with `body`; nil when it is absent, or when it cannot be read, which is counted as an
    /// unreadable record at `location` (with `--strict`, refuses the file).
    private static func part<Value>(
        _ location: String, _ converter: inout PointConverter,
        _ body: (inout PointConverter) throws(InterchangeError) -> Value?
    ) throws(InterchangeError) -> Value? {
        var value: Value?
        try converter.record(at: location) { converter throws(InterchangeError) in value = try body(&converter) }
        return value
    }
}
