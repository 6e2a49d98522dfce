import Foundation

/// ISO 8601 / RFC 3339 times as the track formats write them (GPX `<time>`, Overland `timestamp`, GeoJSON and CSV
/// `time`), read to and written from UTC milliseconds since the Unix epoch. Whole seconds and fractions are both
/// accepted, with `Z` or a numeric offset (`+02:00`, and `+0200` as Overland writes it). One reader per thread:
/// Foundation's formatters are not Sendable.
public final class ISO8601Time {
    private let whole: ISO8601DateFormatter
    private let fractional: ISO8601DateFormatter

    public init() {
        whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    /// The time in UTC milliseconds, or nil when `text` is not an ISO 8601 date and time with a zone. Fractions
    /// finer than a millisecond are rounded to the nearest millisecond (Foundation's formatter keeps no more).
    public func milliseconds(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Foundation's formatter reads a time at the start of a longer text and ignores the rest
        // ("2024-05-04T08:10:00Z,45,15" is a date to it); only the characters of a time may be there.
        guard trimmed.count <= 40, trimmed.last.map({ $0 == "Z" || $0 == "z" || $0.isASCII && $0.isNumber }) == true,
            trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "-:.+TtZz".contains($0)) })
        else { return nil }
        guard let date = whole.date(from: trimmed) ?? fractional.date(from: trimmed) else { return nil }
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return nil }
        return Int64(milliseconds)
    }

    /// `2024-05-01T10:00:00Z`, or `2024-05-01T10:00:00.123Z` when the time has milliseconds.
    public func string(milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return milliseconds % 1000 == 0 ? whole.string(from: date) : fractional.string(from: date)
    }
}
