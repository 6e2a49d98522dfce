import Foundation

/// How an import reads what a file leaves open. The same in every format.
public struct ImportOptions: Sendable {
    /// Refuse the file at the first point that cannot be imported, instead of skipping and counting it. Records
    /// that are not points at all (an OwnTracks card, a GeoJSON polygon) are still only counted.
    public var strict = false
    /// The zone a time without one is read in; each such time is counted in the summary's notes.
    public var timeZone = TimeZone(identifier: "UTC")!
    /// The zone's name in messages: UTC for UTC (Foundation calls it GMT).
    var zoneName: String {
        ["GMT", "UTC"].contains(timeZone.identifier) ? "UTC" : timeZone.identifier
    }
    /// Give the batch monotonic times derived from the fixes' times (see ``BatchAssembly``).
    public var elapsedFromTime = false
    /// The horizontal accuracy, metres, of points whose file gives none (GPX without `<hdop>` says nothing of it):
    /// nil leaves it unset. The user's statement, counted in the summary's notes; `simulate` assumes 5 m for GPX.
    public var defaultAccuracyM: Double?
    /// The waypoints and route points to keep (as what they are, not as fixes); the others are counted as records
    /// that are not points.
    public var keep: MarkedKinds = []

    public init(
        strict: Bool = false, timeZone: TimeZone = TimeZone(identifier: "UTC")!, elapsedFromTime: Bool = false,
        defaultAccuracyM: Double? = nil, keep: MarkedKinds = []
    ) {
        self.keep = keep
        self.strict = strict
        self.timeZone = timeZone
        self.elapsedFromTime = elapsedFromTime
        self.defaultAccuracyM = defaultAccuracyM
    }
}

/// Why a point, or a record that is not a point, was not imported. `code` is stable (scripts may match it);
/// `text` says it in words and may carry a detail (the `_type` of an OwnTracks message, the field that could not
/// be read). The summary counts by both.
public struct SkipReason: Hashable, Sendable, Comparable {
    public var code: String
    public var text: String

    public init(code: String, text: String) {
        self.code = code
        self.text = text
    }

    public static let noTime = SkipReason(code: "no-time", text: "no time")
    public static let timeOutOfRange = SkipReason(code: "time-out-of-range", text: "time out of range (2000 ... 2100)")
    /// The time is out of range, but would be in range read as milliseconds: a file that writes Unix
    /// milliseconds where seconds belong.
    public static let timeLooksLikeMilliseconds = SkipReason(
        code: "time-out-of-range",
        text: "time out of range (2000 ... 2100); in range if the number were milliseconds, not seconds")
    public static let noPosition = SkipReason(code: "no-position", text: "no position")
    public static let positionOutOfRange = SkipReason(code: "position-out-of-range", text: "position out of range")
    public static let nullIsland = SkipReason(code: "null-island", text: "position (0, 0), a placeholder")

    /// A value of the point that cannot be read at all (text where a number belongs, a time that is not a time).
    public static func unreadable(_ field: String) -> SkipReason {
        SkipReason(code: "unreadable", text: "unreadable \(field)")
    }

    /// A record that is not a point (counted, and never refused by `--strict`).
    public static func notAPoint(_ what: String) -> SkipReason { SkipReason(code: "not-a-point", text: what) }

    public static func < (lhs: SkipReason, rhs: SkipReason) -> Bool { (lhs.text, lhs.code) < (rhs.text, rhs.code) }
}

/// What an import did with each point: how many were read and imported, why the others were skipped and where,
/// which values were left out, what was assumed, and how much rounding changed the values kept. A point is never
/// invented and never silently dropped: every point read is imported, kept as a marked point (``marked``), or counted
/// under a skip reason.
public struct ImportSummary: Sendable, Equatable {
    /// Points (and other records: an OwnTracks `_type: card`, a GeoJSON polygon) the reader found.
    public var pointsRead = 0
    /// Points that became fixes.
    public var imported = 0
    /// Waypoints and route points kept on request, by kind ("waypoint", "route point"): read, not fixes.
    public internal(set) var marked: [String: Int] = [:]
    /// Points and records left out, by reason.
    public var skipped: [SkipReason: Tally] = [:]
    /// Values left out of otherwise imported points, by "field: reason": the fix is imported without them.
    public var valuesDropped: [String: Tally] = [:]
    /// What the reader assumed where the file does not say ("time without a zone, read in UTC", "time column
    /// read as Unix milliseconds"), and columns it did not use.
    public var notes: [String: Tally] = [:]
    /// Values that rounding changed (by more than 1e-6 of the unit, the binary representation of a decimal), and
    /// the largest change, per proto field.
    public var rounded: [Quantity: Rounding] = [:]
    /// Imported points whose time is earlier than the point before them in the file: sorted into time order.
    public var outOfOrder = 0
    /// Imported points with the same time as the one before them in time order: kept, in file order.
    public var sameTime = 0

    /// A count and where the first few were.
    public struct Tally: Sendable, Equatable {
        public var count = 0
        /// "line 12", "locations[3]": at most ``ImportSummary/locationsKept``, in file order.
        public var first: [String] = []

        mutating func add(_ location: String?) {
            count += 1
            if let location, first.count < ImportSummary.locationsKept { first.append(location) }
        }
    }

    public struct Rounding: Sendable, Equatable {
        public var count = 0
        /// In the field's unit (``Quantity/unit``).
        public var largestError = 0.0
    }

    /// How many locations each tally keeps.
    public static let locationsKept = 5

    public init() {}

    /// The skip counts by reason text, for a quick look.
    public var skippedCounts: [String: Int] {
        Dictionary(uniqueKeysWithValues: skipped.map { ($0.key.text, $0.value.count) })
    }

    /// The dropped-value counts by "field: reason".
    public var valuesDroppedCounts: [String: Int] { valuesDropped.mapValues(\.count) }

    mutating func skip(_ reason: SkipReason, at location: String?) { skipped[reason, default: Tally()].add(location) }
    mutating func drop(_ field: String, _ reason: String, at location: String?) {
        valuesDropped["\(field): \(reason)", default: Tally()].add(location)
    }
    mutating func note(_ what: String, at location: String? = nil) { notes[what, default: Tally()].add(location) }

    /// Lines for standard error.
    public var text: String {
        var lines = ["read \(pointsRead) points, imported \(imported)"]
        for (kind, count) in marked.sorted(by: { $0.key < $1.key }) {
            lines.append("kept \(count) \(kind)\(count == 1 ? "" : "s") (not fixes)")
        }
        func places(_ tally: Tally) -> String {
            guard !tally.first.isEmpty else { return "" }
            return " (first at \(tally.first.joined(separator: "; "))\(tally.count > tally.first.count ? "; ..." : ""))"
        }
        for (reason, tally) in skipped.sorted(by: { $0.key < $1.key }) {
            lines.append("skipped \(tally.count): \(reason.text) [\(reason.code)]\(places(tally))")
        }
        for (what, tally) in valuesDropped.sorted(by: { $0.key < $1.key }) {
            lines.append("value left out \(tally.count)x: \(what)\(places(tally))")
        }
        for (quantity, rounding) in rounded.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "rounded \(rounding.count) \(quantity.rawValue), largest error \(Self.format(rounding.largestError)) "
                    + quantity.unit)
        }
        for (what, tally) in notes.sorted(by: { $0.key < $1.key }) {
            lines.append("note: \(what)" + (tally.count > 1 ? " (\(tally.count)x)" : "") + places(tally))
        }
        if outOfOrder > 0 {
            lines.append("\(outOfOrder) points were earlier than the point before them: sorted by time")
        }
        if sameTime > 0 {
            lines.append("\(sameTime) points have the same time as the point before: kept in file order")
        }
        return lines.joined(separator: "\n")
    }

    /// The summary as JSON-ready values (for `--summary-json`).
    public var jsonObject: [String: Any] {
        func tally(_ tally: Tally) -> [String: Any] { ["count": tally.count, "first": tally.first] }
        return [
            "points_read": pointsRead, "imported": imported, "marked": marked,
            "skipped": Dictionary(
                uniqueKeysWithValues: skipped.map { reason, value in
                    (reason.text, tally(value).merging(["code": reason.code]) { $1 })
                }),
            "values_dropped": valuesDropped.mapValues(tally), "notes": notes.mapValues(tally),
            "out_of_order": outOfOrder, "same_time": sameTime,
            "rounded": Dictionary(
                uniqueKeysWithValues: rounded.map {
                    (
                        $0.key.rawValue,
                        ["count": $0.value.count, "largest_error": $0.value.largestError, "unit": $0.key.unit]
                    )
                }),
        ]
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
