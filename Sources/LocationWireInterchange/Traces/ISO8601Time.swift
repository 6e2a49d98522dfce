import Foundation

/// ISO 8601 / RFC 3339 times as the track formats write them (GPX `<time>`, Overland `timestamp`, KML `<when>`,
/// GeoJSON and CSV `time`), read to and written from UTC milliseconds since the Unix epoch.
///
/// Read: a date `YYYY-MM-DD` (or `YYYY/MM/DD`, as loggers' CSV write it), `T`, `t` or one space, `hh:mm` or
/// `hh:mm:ss`, an optional fraction of any length (rounded to the nearest millisecond), then a zone: `Z`, `z`, or
/// a numeric offset `+02:00`, `+0200` (as Overland writes it) or `+02`. A time without a zone (GPX 1.0 files and
/// loggers' CSV often have one) is read in ``assumedZone`` and counted in ``assumedZoneCount``: without a zone
/// there is no right answer, so the caller chooses the zone and says so. Anything else (trailing text, a month 13,
/// 24:00, a leap second, a year before 1 or after 9999) is not a time: nil.
///
/// Parsed by hand, not by `ISO8601DateFormatter`: the formatter reads a time at the start of a longer text and
/// ignores the rest, cannot say whether a zone was given, and costs several microseconds a call, which a
/// million-point file notices. Writing still uses the formatter. One instance per thread.
public final class ISO8601Time {
    private let whole: ISO8601DateFormatter
    private let fractional: ISO8601DateFormatter
    /// The zone a time without one is read in (UTC unless the caller says otherwise).
    public let assumedZone: TimeZone
    /// How many times were read without a zone, in ``assumedZone``.
    public private(set) var assumedZoneCount = 0

    public init(assumedZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.assumedZone = assumedZone
        whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    /// The time in UTC milliseconds, or nil when `text` is not a date and time as described on the type. White
    /// space around it is ignored.
    public func milliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { milliseconds(utf8: $0) }
    }

    /// ``milliseconds(_:)`` on UTF-8 bytes.
    public func milliseconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var scanner = Scanner(bytes)
        scanner.skipSpaces()
        guard let year = scanner.digits(4), let dateSeparator = scanner.oneOf("-/"), let month = scanner.digits(2),
            scanner.oneOf(dateSeparator == UInt8(ascii: "-") ? "-" : "/") != nil, let day = scanner.digits(2),
            scanner.oneOf("Tt ") != nil, let hour = scanner.digits(2), scanner.oneOf(":") != nil,
            let minute = scanner.digits(2)
        else { return nil }
        var second = 0
        var fractionMs = 0.0
        if scanner.oneOf(":") != nil {
            guard let seconds = scanner.digits(2) else { return nil }
            second = seconds
            if scanner.oneOf(".,") != nil {
                var scale = 100.0
                var any = false
                while let digit = scanner.digit() {
                    fractionMs += Double(digit) * scale
                    scale /= 10
                    any = true
                }
                guard any else { return nil }
            }
        }
        guard year >= 1, (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let local =
            (Self.daysFromCivil(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second))
            * 1000 + Int64(fractionMs.rounded())
        let offsetSeconds: Int
        if scanner.oneOf("Zz") != nil {
            offsetSeconds = 0
        } else if let sign = scanner.oneOf("+-") {
            guard let hours = scanner.digits(2), hours < 24 else { return nil }
            var minutes = 0
            if scanner.oneOf(":") != nil {
                guard let value = scanner.digits(2) else { return nil }
                minutes = value
            } else if let value = scanner.digits(2) {
                minutes = value
            }
            guard minutes < 60 else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            scanner.skipSpaces()
            guard scanner.atEnd else { return nil }
            assumedZoneCount += 1
            return local - Int64(offset(ofLocalMs: local)) * 1000
        }
        scanner.skipSpaces()
        guard scanner.atEnd else { return nil }
        return local - Int64(offsetSeconds) * 1000
    }

    /// `2024-05-01T10:00:00Z`, or `2024-05-01T10:00:00.123Z` when the time has milliseconds.
    public func string(milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return milliseconds % 1000 == 0 ? whole.string(from: date) : fractional.string(from: date)
    }

    /// The assumed zone's offset from UTC, seconds, at the wall-clock time `localMs` (milliseconds as if the wall
    /// clock were UTC). Found in two steps, as the offset depends on the instant it is asked for: in a gap of a
    /// daylight-saving change the earlier offset wins, and in an overlap the first of the two instants.
    private func offset(ofLocalMs localMs: Int64) -> Int {
        guard assumedZone.identifier != "UTC" && assumedZone.identifier != "GMT" else { return 0 }
        let guess = assumedZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(localMs) / 1000))
        let instant = Date(timeIntervalSince1970: Double(localMs) / 1000 - Double(guess))
        return assumedZone.secondsFromGMT(for: instant)
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A cursor over ASCII bytes.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skipSpaces() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - 0x30)
        }

        /// Exactly `count` decimal digits.
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        /// The next byte when it is one of `characters` (ASCII), consumed.
        mutating func oneOf(_ characters: StaticString) -> UInt8? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            let buffer = UnsafeBufferPointer(start: characters.utf8Start, count: characters.utf8CodeUnitCount)
            guard buffer.contains(byte) else { return nil }
            index += 1
            return byte
        }
    }
}
