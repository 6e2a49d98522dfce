import Foundation

/// What an import did with each point: how many were read and imported, why the others were skipped, which values
/// were left out, and how much rounding changed the values kept. A point is never invented and never silently
/// dropped: every point read is either imported or counted under a skip reason.
public struct ImportSummary: Sendable, Equatable {
    /// Points (and other records: an OwnTracks `_type: card`, a GeoJSON polygon) the reader found.
    public var pointsRead = 0
    /// Points that became fixes.
    public var imported = 0
    /// Points left out, by reason ("no time", "position out of range", ...).
    public var skipped: [String: Int] = [:]
    /// Values left out of otherwise imported points, by "field: reason": the fix is imported without them.
    public var valuesDropped: [String: Int] = [:]
    /// Values that rounding changed (by more than 1e-6 of the unit, the binary representation of a decimal), and
    /// the largest change, per proto field.
    public var rounded: [Quantity: Rounding] = [:]
    /// Imported points whose time is earlier than the point before them in the file: sorted into time order.
    public var outOfOrder = 0
    /// Imported points with the same time as the one before them in time order: kept, in file order.
    public var sameTime = 0

    public struct Rounding: Sendable, Equatable {
        public var count = 0
        /// In the field's unit (``Quantity/unit``).
        public var largestError = 0.0
    }

    public init() {}

    mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }
    mutating func drop(_ field: String, _ reason: String) { valuesDropped["\(field): \(reason)", default: 0] += 1 }

    /// Lines for standard error.
    public var text: String {
        var lines = ["read \(pointsRead) points, imported \(imported)"]
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) { lines.append("skipped \(count): \(reason)") }
        for (what, count) in valuesDropped.sorted(by: { $0.key < $1.key }) {
            lines.append("value left out \(count)x: \(what)")
        }
        for (quantity, rounding) in rounded.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "rounded \(rounding.count) \(quantity.rawValue), largest error \(Self.format(rounding.largestError)) "
                    + quantity.unit)
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
        [
            "points_read": pointsRead, "imported": imported, "skipped": skipped, "values_dropped": valuesDropped,
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
