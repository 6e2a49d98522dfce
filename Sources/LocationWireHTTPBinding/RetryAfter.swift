/// `Retry-After` (RFC 9110, section 10.2.3), read as every device must and written as every server does
/// (`§http-retry-after`).
public enum RetryAfter {
    /// What a server sends: delay-seconds, a non-negative decimal integer.
    public static func value(seconds: Int) -> String { String(max(seconds, 0)) }

    /// What a server may send instead: the IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110, section 5.6.7)
    /// of a time in UTC ms since 1970, to the second below it. A device must read this form too.
    public static func httpDate(ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        // 1970-01-01 was a Thursday, index 3 of `weekdays`.
        let weekday = weekdays[Int(((days % 7) + 7 + 3) % 7)]
        func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(weekday), \(twoDigits(Int64(day))) \(months[month - 1]) \(yearText) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    /// The wait a field value asks for, in milliseconds from `nowMs` (UTC ms, the device's clock): delay-seconds,
    /// or an HTTP-date in any of its three forms, a date already past being 0. Nil for a value that is neither
    /// (the device then backs off, `§back-off`). The wait is not capped here; a device may cap it at a day.
    public static func waitMs(_ value: String, nowMs: Int64) -> Int64? {
        let text = value.trimmingWhitespace()
        if let seconds = delaySeconds(text) {
            return seconds.multipliedReportingOverflow(by: 1000).overflow ? .max : seconds * 1000
        }
        guard let dateMs = httpDateMs(text, nowYear: year(ofMs: nowMs)) else { return nil }
        return max(dateMs - nowMs, 0)
    }

    /// `1*DIGIT`: ASCII digits only (no sign, no space); a value too large for 64 bits is taken as the largest.
    static func delaySeconds(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text) ?? .max
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An HTTP-date (RFC 9110, section 5.6.7) as UTC ms since 1970, or nil: the IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`, a two-digit
    /// year more than 50 years ahead of `nowYear` taken in the past century) and asctime's
    /// (`Sun Nov  6 08:49:37 1994`). The weekday is checked for its form, not against the date, as the RFC allows.
    public static func httpDateMs(_ text: String, nowYear: Int) -> Int64? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var day = 0
        var month = 0
        var year = 0
        var time = ""
        if words.count == 6, words[0].hasSuffix(","), weekdays.contains(String(words[0].dropLast())),
            words[5] == "GMT", words[1].count == 2, words[3].count == 4
        {
            // IMF-fixdate.
            guard let parsedDay = Int(words[1]), let index = months.firstIndex(of: words[2]),
                let parsedYear = Int(words[3])
            else { return nil }
            (day, month, year, time) = (parsedDay, index + 1, parsedYear, words[4])
        } else if words.count == 4, words[0].hasSuffix(","), longWeekdays.contains(String(words[0].dropLast())),
            words[3] == "GMT"
        {
            // RFC 850: DD-Mon-YY.
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let parsedDay = Int(parts[0]),
                let index = months.firstIndex(of: parts[1]), let shortYear = Int(parts[2])
            else { return nil }
            var fullYear = nowYear / 100 * 100 + shortYear
            if fullYear > nowYear + 50 { fullYear -= 100 }
            (day, month, year, time) = (parsedDay, index + 1, fullYear, words[2])
        } else if words.count == 5, weekdays.contains(words[0]), let index = months.firstIndex(of: words[1]) {
            // asctime: the day padded with a space to two characters.
            guard let parsedDay = Int(words[2]), words[2].count <= 2, words[4].count == 4,
                let parsedYear = Int(words[4])
            else { return nil }
            (day, month, year, time) = (parsedDay, index + 1, parsedYear, words[3])
        } else {
            return nil
        }
        let clock = time.split(separator: ":").map(String.init)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]),
            let minute = Int(clock[1]), let second = Int(clock[2]), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000
    }

    /// The UTC year of a time in ms since 1970 (Howard Hinnant's civil-from-days).
    static func year(ofMs ms: Int64) -> Int {
        let days = (ms >= 0 ? ms : ms - 86_399_999) / 86_400_000 + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        return Int(yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0))
    }

    /// The date of a day counted from 1970-01-01 (Howard Hinnant's civil-from-days).
    private static func civilFromDays(_ dayCount: Int64) -> (year: Int, month: Int, day: Int) {
        let days = dayCount + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let shifted = Int64(month <= 2 ? year - 1 : year)
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
