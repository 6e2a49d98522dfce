import LocationWire

/// Turns ``TrackPoint``s into LocationFixes: rounds each value to the proto's integer unit, range-checks it and
/// counts what it did in an ``ImportSummary``. The rules, the same for every format:
/// - A point without a time, or with a time outside 2000 ... 2100, is skipped; so is one without a latitude and
///   longitude, with either out of range, or at exactly (0, 0).
/// - Any other value that is out of the proto's range after rounding (a negative accuracy or speed, which is how
///   iOS writes "invalid"; an accuracy that rounds to 0) is left out of the fix and counted; the fix is imported.
/// - A course of 360 degrees, or one that rounds to 36000, is 0: the same direction.
/// - Sequence numbers are not assigned here (``BatchAssembly`` does, in time order).
public struct PointConverter {
    public private(set) var summary = ImportSummary()
    /// Below this the difference between a value and its rounding is the binary representation of a decimal
    /// (1.15 × 100 is 114.99999999999999), not rounding.
    static let representationTolerance = 1e-6

    public init() {}

    /// Counts a record that is not a point at all (an OwnTracks card, a GeoJSON polygon): read, then skipped.
    public mutating func skipRecord(_ reason: String) {
        summary.pointsRead += 1
        summary.skip(reason)
    }

    /// The fix for `point`, or nil when it is skipped (and counted).
    public mutating func convert(_ point: TrackPoint) -> LocationFix? {
        summary.pointsRead += 1
        guard let time = point.timeMs else {
            summary.skip("no time")
            return nil
        }
        guard let timeMs = round(time, .time) else {
            summary.skip("time out of range (2000 ... 2100)")
            return nil
        }
        guard let latitudeValue = point.latitudeE7, let longitudeValue = point.longitudeE7 else {
            summary.skip("no position")
            return nil
        }
        guard let latitude = round(latitudeValue, .latitude), let longitude = round(longitudeValue, .longitude) else {
            summary.skip("position out of range")
            return nil
        }
        guard latitude != 0 || longitude != 0 else {
            summary.skip("position (0, 0), a placeholder")
            return nil
        }
        var fix = LocationFix()
        fix.timeMs = Int64(timeMs)
        fix.latitudeE7 = Int32(latitude)
        fix.longitudeE7 = Int32(longitude)
        fix.horizontalAccuracyCm = optional(point.horizontalAccuracyCm, .horizontalAccuracy).map { UInt32($0) }
        fix.altitudeCm = optional(point.altitudeCm, .altitude).map { Int32($0) }
        fix.verticalAccuracyCm = optional(point.verticalAccuracyCm, .verticalAccuracy).map { UInt32($0) }
        fix.speedCmS = optional(point.speedCmS, .speed).map { UInt32($0) }
        fix.speedAccuracyCmS = optional(point.speedAccuracyCmS, .speedAccuracy).map { UInt32($0) }
        fix.courseCdeg = optional(point.courseCdeg.map { $0 == 36_000 ? 0 : $0 }, .course).map { UInt32($0) }
        fix.courseAccuracyCdeg = optional(point.courseAccuracyCdeg, .courseAccuracy).map { UInt32($0) }
        fix.batteryPercent = optional(point.batteryPercent, .batteryPercent).map { UInt32($0) }
        fix.motionConfidencePct = optional(point.motionConfidencePct, .motionConfidence).map { UInt32($0) }
        fix.floor = optional(point.floor, .floor).map { Int32($0) }
        fix.ageMs = optional(point.ageMs, .age).map { UInt32($0) }
        fix.ellipsoidalHeightCm = optional(point.ellipsoidalHeightCm, .ellipsoidalHeight).map { Int32($0) }
        fix.isMock = point.isMock
        if let pressure = point.pressureHpa {
            // The proto's range, 100 to 1200 hPa, checked on the float that is stored.
            let stored = Float(pressure)
            if stored.isFinite, (100...1200).contains(stored) {
                fix.pressureHpa = stored
            } else {
                summary.drop("pressure_hpa", pressure.isFinite ? "out of range" : "not a number")
            }
        }
        fix.batteryState = point.batteryState
        fix.motionActivity = point.motionActivity
        fix.reason = point.reason
        fix.source = point.source
        for field in point.unmapped { summary.drop(field, "value not mapped") }
        summary.imported += 1
        return fix
    }

    /// An optional value: rounded, or nil (and counted) when out of range.
    private mutating func optional(_ value: Double?, _ quantity: Quantity) -> Double? {
        guard let value else { return nil }
        var rounded = round(value, quantity)
        // 359.996 degrees rounds to 36000, which is due north again.
        if rounded == nil, quantity == .course, value.isFinite, value.rounded() == 36_000 { rounded = 0 }
        if rounded == nil {
            summary.drop(quantity.rawValue, value.isFinite ? "out of range" : "not a number")
        }
        return rounded
    }

    /// `value` rounded to the nearest integer (halves away from zero) when that is in the quantity's range;
    /// records the rounding error.
    private mutating func round(_ value: Double, _ quantity: Quantity) -> Double? {
        guard value.isFinite else { return nil }
        let rounded = value.rounded()
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
