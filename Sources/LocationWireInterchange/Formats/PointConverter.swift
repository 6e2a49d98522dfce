import Foundation
import LocationWireJSON
import LocationWire

/// Where an imported fix came from: its segment and device in the file.
public struct PointOrigin: Sendable, Hashable {
    public var segment: Int
    public var device: String?

    public init(segment: Int = 0, device: String? = nil) {
        self.segment = segment
        self.device = device
    }
}

/// Turns ``TrackPoint``s into LocationFixes: rounds each value to the proto's integer unit, range-checks it and
/// counts what it did in an ``ImportSummary``. The rules, the same for every format:
/// - A point without a time, or with a time outside 2000 ... 2100, is skipped; so is one without a latitude and
///   longitude, with either out of range, or at exactly (0, 0); so is one with a value that cannot be read at
///   all (text where a number belongs). Skipped points are counted with their reason and location, and the
///   import goes on; with ``ImportOptions/strict`` the first one refuses the file instead.
/// - Any other value that is out of the proto's range after rounding (a negative accuracy or speed, which is how
///   iOS writes "invalid"; an accuracy that rounds to 0) is left out of the fix and counted; the fix is imported.
/// - A course of 360 degrees, or one that rounds to 36000, is 0: the same direction.
/// - Sequence numbers are not assigned here (``BatchAssembly`` does, in time order).
///
/// Readers hand it one point (or one record that is not a point) at a time, in file order; it keeps the fixes.
public struct PointConverter {
    public private(set) var summary = ImportSummary()
    /// The fixes made so far, in file order.
    public private(set) var fixes: [LocationFix] = []
    /// Each fix's segment and device (``TrackPoint/segment``, ``TrackPoint/device``), by index in ``fixes``.
    public private(set) var origins: [PointOrigin] = []
    /// The waypoints and route points kept (``mark(_:otherwise:)``), in file order.
    public private(set) var marked: [MarkedPoint] = []
    public let options: ImportOptions
    /// Times as every reader reads them, in the options' zone when the text has none.
    let times: ISO8601Time
    /// Below this the difference between a value and its rounding is the binary representation of a decimal
    /// (1.15 × 100 is 114.99999999999999), not rounding.
    static let representationTolerance = 1e-6
    static let strictRefusal = " (--strict refuses the file at the first point it cannot import)"

    public init(options: ImportOptions = ImportOptions()) {
        self.options = options
        times = ISO8601Time(assumedZone: options.timeZone)
    }

    /// Counts a record that is not a point at all (an OwnTracks card, a GeoJSON polygon): read, then left out.
    /// Never refused, not even with `--strict`: such records are what the format holds besides points.
    public mutating func ignoreRecord(_ what: String, at location: String?) {
        summary.pointsRead += 1
        summary.skip(.notAPoint(what), at: location)
    }

    /// A waypoint or route point: kept when the options ask for its kind (``ImportOptions/keep``), otherwise counted
    /// as a record that is not a point, `what` saying what it is.
    public mutating func mark(_ point: MarkedPoint, otherwise what: String) {
        guard options.keep.contains(point.kind) else { return ignoreRecord(what, at: point.location) }
        summary.pointsRead += 1
        summary.marked[point.kind.rawValue, default: 0] += 1
        marked.append(point)
    }

    /// Counts a point that cannot be imported; with `--strict`, refuses the file instead.
    public mutating func skip(_ reason: SkipReason, at location: String, detail: String? = nil) throws(InterchangeError)
    {
        if options.strict {
            throw InterchangeError(location, (detail ?? reason.text) + Self.strictRefusal, refusedByStrict: true)
        }
        summary.pointsRead += 1
        summary.skip(reason, at: detail.map { "\(location): \($0)" } ?? location)
    }

    /// Reads one record with `body`: a value in it that cannot be read (an ``InterchangeError`` naming it) skips
    /// the record as unreadable, or with `--strict` refuses the file.
    public mutating func record(
        at location: String, _ body: (inout PointConverter) throws(InterchangeError) -> Void
    ) throws(InterchangeError) {
        do {
            try body(&self)
        } catch {
            if options.strict {
                if error.refusedByStrict { throw error }
                throw InterchangeError(error.location, error.message + Self.strictRefusal, refusedByStrict: true)
            }
            let field = error.field ?? error.location.split(separator: ".").last.map(String.init) ?? error.location
            try skip(.unreadable(field.isEmpty ? "record" : field), at: error.location, detail: error.message)
        }
    }

    /// A time as the formats write it (see ``ISO8601Time``), in UTC milliseconds; a time without a zone is noted.
    mutating func time(_ text: String, at location: String) -> Int64? {
        let assumedBefore = times.assumedZoneCount
        let milliseconds = times.milliseconds(text)
        if times.assumedZoneCount != assumedBefore {
            summary.note("time without a zone, read in \(options.zoneName)", at: location)
        }
        return milliseconds
    }

    /// A number that stands for a time, in UTC milliseconds: Unix milliseconds from 1e11 up (1e11 seconds is the
    /// year 5138, 1e11 milliseconds 1973), Unix seconds below. Which one is noted, with the field it was in.
    mutating func unixTime(_ value: Double, field: String, at location: String) -> Double {
        if abs(value) >= 1e11 {
            note("\(field) numbers read as Unix milliseconds (1e11 and above)", at: nil)
            return value
        }
        note("\(field) numbers read as Unix seconds (below 1e11)", at: nil)
        return value * 1000
    }

    /// A time written as ISO 8601 text or as a Unix number (see ``unixTime(_:field:at:)``); nil when it is
    /// neither (the caller decides what that means).
    mutating func time(value: JSONValue, field: String, at location: String) throws(InterchangeError) -> Double? {
        if let text = value.string {
            if let milliseconds = time(text, at: location) { return Double(milliseconds) }
            if let number = Double(text.trimmingASCIIWhitespace()), number.isFinite {
                return unixTime(number, field: field, at: location)
            }
            throw InterchangeError(location, "\"\(text.prefix(40))\" is neither ISO 8601 nor a Unix time")
        }
        return unixTime(try JSONInput.number(value, location), field: field, at: location)
    }

    /// The fixes and their origins, handed over: the converter keeps none, so that the caller owns the only copy
    /// and can put a million fixes in order where they are.
    mutating func takeFixes() -> (fixes: [LocationFix], origins: [PointOrigin]) {
        defer {
            fixes = []
            origins = []
        }
        return (fixes, origins)
    }

    /// Completes the summary with what putting the fixes in time order found.
    mutating func noteOrdering(outOfOrder: Int, sameTime: Int) {
        summary.outOfOrder = outOfOrder
        summary.sameTime = sameTime
    }

    /// Notes something the reader assumed or ignored (a column read as km/h, a column not used).
    mutating func note(_ what: String, at location: String? = nil) { summary.note(what, at: location) }

    /// Converts and keeps `point`, or skips it (counted; with `--strict`, refuses the file).
    public mutating func add(_ point: TrackPoint) throws(InterchangeError) {
        if let fix = try convert(point) {
            fixes.append(fix)
            origins.append(PointOrigin(segment: point.segment, device: point.device))
        }
    }

    /// The fix for `point`, or nil when it is skipped (and counted).
    public mutating func convert(_ point: TrackPoint) throws(InterchangeError) -> LocationFix? {
        let location = point.location
        guard let time = point.timeMs else {
            try skip(.noTime, at: location)
            return nil
        }
        guard let timeMs = round(time, .time) else {
            let asMilliseconds = (time / 1000).rounded()
            try skip(
                Quantity.time.validRange.contains(asMilliseconds) ? .timeLooksLikeMilliseconds : .timeOutOfRange,
                at: location)
            return nil
        }
        guard let latitudeValue = point.latitudeE7, let longitudeValue = point.longitudeE7 else {
            try skip(.noPosition, at: location)
            return nil
        }
        guard let latitude = round(latitudeValue, .latitude), let longitude = round(longitudeValue, .longitude) else {
            try skip(.positionOutOfRange, at: location)
            return nil
        }
        guard latitude != 0 || longitude != 0 else {
            try skip(.nullIsland, at: location)
            return nil
        }
        summary.pointsRead += 1
        var point = point
        if point.horizontalAccuracyCm == nil, let metres = options.defaultAccuracyM {
            point.horizontalAccuracyCm = metres * 100
            summary.note("horizontal accuracy \(metres) m where the file gives none (--default-accuracy-m)")
        }
        var fix = LocationFix()
        fix.timeMs = Int64(timeMs)
        fix.latitudeE7 = Int32(latitude)
        fix.longitudeE7 = Int32(longitude)
        fix.horizontalAccuracyCm = optional(point.horizontalAccuracyCm, .horizontalAccuracy, location).map {
            UInt32($0)
        }
        fix.altitudeCm = optional(point.altitudeCm, .altitude, location).map { Int32($0) }
        fix.verticalAccuracyCm = optional(point.verticalAccuracyCm, .verticalAccuracy, location).map { UInt32($0) }
        fix.speedCmS = optional(point.speedCmS, .speed, location).map { UInt32($0) }
        fix.speedAccuracyCmS = optional(point.speedAccuracyCmS, .speedAccuracy, location).map { UInt32($0) }
        fix.courseCdeg = optional(point.courseCdeg.map { $0 == 36_000 ? 0 : $0 }, .course, location).map {
            UInt32($0)
        }
        fix.courseAccuracyCdeg = optional(point.courseAccuracyCdeg, .courseAccuracy, location).map { UInt32($0) }
        fix.batteryPercent = optional(point.batteryPercent, .batteryPercent, location).map { UInt32($0) }
        fix.motionConfidencePct = optional(point.motionConfidencePct, .motionConfidence, location).map { UInt32($0) }
        fix.floor = optional(point.floor, .floor, location).map { Int32($0) }
        fix.ageMs = optional(point.ageMs, .age, location).map { UInt32($0) }
        fix.ellipsoidalHeightCm = optional(point.ellipsoidalHeightCm, .ellipsoidalHeight, location).map { Int32($0) }
        fix.isMock = point.isMock
        if let pressure = point.pressureHpa {
            // The proto's range, 100 to 1200 hPa, checked on the float that is stored.
            let stored = Float(pressure)
            if stored.isFinite, (100...1200).contains(stored) {
                fix.pressureHpa = stored
            } else {
                summary.drop("pressure_hpa", pressure.isFinite ? "out of range" : "not a number", at: location)
            }
        }
        fix.batteryState = point.batteryState
        fix.motionActivity = point.motionActivity
        fix.reason = point.reason
        fix.source = point.source
        for field in point.unmapped { summary.drop(field, "value not mapped", at: location) }
        for field in point.unreadable { summary.drop(field, "not a number", at: location) }
        summary.imported += 1
        return fix
    }

    /// An optional value: rounded, or nil (and counted) when out of range.
    private mutating func optional(_ value: Double?, _ quantity: Quantity, _ location: String) -> Double? {
        guard let value else { return nil }
        var rounded = round(value, quantity)
        // 359.996 degrees rounds to 36000, which is due north again.
        if rounded == nil, quantity == .course, value.isFinite, value.rounded() == 36_000 { rounded = 0 }
        if rounded == nil {
            summary.drop(quantity.rawValue, value.isFinite ? "out of range" : "not a number", at: location)
        }
        return rounded
    }

    /// The integer nearest `value`, halves away from zero, where a half is the half the file wrote: `70.445` m is
    /// exactly 7044.5 cm, but 70.445 × 100 in binary is 7044.499999999999, which plain rounding takes down. A
    /// product within a few units in the last place of a half is that half (a decimal of 15 significant digits
    /// or fewer cannot be nearer a half without being one).
    static func nearestHalvesAway(_ value: Double) -> Double {
        let whole = value.rounded(.towardZero)
        if abs(abs(value - whole) - 0.5) <= value.ulp * 16 { return whole + (value < 0 ? -1 : 1) }
        return value.rounded()
    }

    /// `value` rounded to the nearest integer (halves away from zero) when that is in the quantity's range;
    /// records the rounding error.
    private mutating func round(_ value: Double, _ quantity: Quantity) -> Double? {
        guard value.isFinite else { return nil }
        let rounded = Self.nearestHalvesAway(value)
        guard quantity.validRange.contains(rounded) else { return nil }
        let error = abs(rounded - value)
        if error > Self.representationTolerance {
            var rounding = summary.rounded[quantity] ?? ImportSummary.Rounding()
            rounding.count += 1
            rounding.largestError = max(rounding.largestError, error)
            summary.rounded[quantity] = rounding
        }
        return rounded
    }
}
