import CSV
import Foundation
import LocationWire

/// CSV tracks as people and loggers write them, tokenized by CSV.swift (RFC 4180 quoting); the columns are
/// recognised here.
///
/// - The delimiter is the one of comma, semicolon, tab and `|` that the header line (outside quotes) has most of;
///   a tie is a comma. With a semicolon, tab or `|`, a decimal comma (`45,81`) is read as a point.
/// - Blank lines and lines starting with `#` before the header are skipped; a UTF-8 byte order mark is ignored.
/// - Header names are matched without regard to case, spaces, `_`, `-`, `.` or a unit in brackets; each name in
///   `CSVColumns.aliases` (the ``PointField`` names among them) is recognised. A unit in the header (`speed
///   (km/h)`, `altitude_ft`) converts the column; without one, the ``PointField`` unit is assumed and noted.
///   Columns of any other name are not used, and listed in the summary's notes.
/// - Time: ISO 8601 (a space for the `T`, `/` in the date, and a time without a zone, read in the import's
///   zone), or a Unix time in seconds or milliseconds told apart by magnitude (a column named for milliseconds,
///   `timestamp_ms`, is always milliseconds). A `date` column and a clock-only `time` column (`2008/11/12`,
///   `10:59:15`) are joined.
/// - Latitude and longitude: decimal degrees; with a hemisphere letter before or after (`45.81N`, `W 15.97`) or
///   in a column of its own (`N/S`, `E/W`); or integers in 1e-7 degree, for a column named so (`latitudeE7`) or
///   whose first value is an integer out of the degree range.
/// - A row whose time or position cannot be read is skipped and counted; an optional value that cannot be read
///   (`NaN`, text) is left out of its fix and counted. Line numbers count the header's line as its own and follow
///   line breaks inside quoted fields.
public enum CSVFormat {
    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        // The preamble (a byte order mark, blank and comment lines before the header) is found in the first 64 KiB,
        // and the rows are streamed after it.
        let head = input.prefix(64 << 10)
        var body = head[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var linesBefore = 0
        while let newline = body.firstIndex(of: 0x0A) {
            let line = body[body.startIndex..<newline]
            let trimmed = line.drop { (byte: UInt8) -> Bool in [0x20, 0x09, 0x0D].contains(byte) }
            guard trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") else { break }
            body = body[(newline + 1)...]
            linesBefore += 1
        }
        // Only the start is checked here (a multi-byte character may be cut at its end); CSV.swift refuses invalid
        // UTF-8 further on.
        guard String(validating: body.prefix(max(0, body.count - 4)), as: UTF8.self) != nil else {
            throw InterchangeError("", "not UTF-8 text (save the CSV as UTF-8)")
        }
        let delimiter = Self.delimiter(ofHeaderIn: body)
        let reader: CSVReader
        do {
            reader = try CSVReader(
                stream: input.stream(droppingFirst: body.startIndex - head.startIndex), hasHeaderRow: true,
                trimFields: false,
                delimiter: delimiter)
        } catch {
            throw InterchangeError("line \(linesBefore + 1)", "no header row: \(error)")
        }
        guard let header = reader.headerRow.map({ $0.map(CSVColumns.trimmed) }), header.contains(where: { !$0.isEmpty })
        else {
            throw InterchangeError("line \(linesBefore + 1)", "no header row")
        }
        var line = linesBefore + 1 + Self.lineBreaks(in: header)
        var columns = try CSVColumns(header: header, line: linesBefore + 1, &converter)
        let decimalComma = delimiter != ","
        while let row = reader.next() {
            line += 1
            let rowLine = line
            let breaks = Self.lineBreaks(in: row)
            line += breaks
            if row.allSatisfy({ CSVColumns.trimmed($0).isEmpty }) { continue }
            let location = "line \(rowLine)"
            // A track's cells do not run over many lines; a quote left open makes one cell of the rest of the file
            // (CSV.swift reads it so), and those lines must not vanish without a word.
            if breaks > Self.mostLinesInACell {
                try converter.skip(
                    SkipReason(
                        code: "unclosed-quote",
                        text: "a quoted cell over many lines (a quote left open?): the lines inside it are not read"),
                    at: location, detail: "a cell runs over \(breaks + 1) lines, to line \(line)")
                continue
            }
            try converter.record(at: location) { converter throws(InterchangeError) in
                let cells = decimalComma ? row.map { Self.decimalPoint($0) } : row
                try converter.add(try columns.point(cells, location, &converter))
            }
        }
        if let error = reader.error {
            let cause = (error as? InterchangeError)?.message ?? "\(error)"
            throw InterchangeError("line \(line)", "not valid CSV: \(cause)")
        }
    }

    /// More line breaks than this in one row is a quote left open, not a note with line breaks.
    static let mostLinesInACell = 10

    /// The delimiter the header line has most of (outside quotes): comma, semicolon, tab or `|`; comma on a tie.
    static func delimiter(ofHeaderIn data: Data.SubSequence) -> UnicodeScalar {
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for byte in data {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted && (byte == 0x0A || byte == 0x0D) { break }
            if !quoted { counts[byte, default: 0] += 1 }
        }
        let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
        let best = candidates.max { (counts[$0] ?? 0, $1) < (counts[$1] ?? 0, $0) } ?? UInt8(ascii: ",")
        return UnicodeScalar((counts[best] ?? 0) > 0 ? best : UInt8(ascii: ","))
    }

    /// Line breaks inside a row's fields (a quoted field may span lines): `\r\n`, `\n` or `\r` each count once.
    static func lineBreaks(in row: [String]) -> Int {
        row.reduce(0) { total, field in
            total
                + field.unicodeScalars.indices.count { index in
                    let scalar = field.unicodeScalars[index]
                    if scalar == "\n" { return true }
                    guard scalar == "\r" else { return false }
                    let next = field.unicodeScalars.index(after: index)
                    return next == field.unicodeScalars.endIndex || field.unicodeScalars[next] != "\n"
                }
        }
    }

    /// `45,81` as `45.81`: a number with one comma and no point, in a file whose delimiter is not a comma.
    static func decimalPoint(_ cell: String) -> String {
        guard cell.utf8.count(where: { $0 == UInt8(ascii: ",") }) == 1, !cell.utf8.contains(UInt8(ascii: "."))
        else { return cell }
        return cell.replacingOccurrences(of: ",", with: ".")
    }

    /// Writes the fixes as CSV that ``read(_:_:)`` reads back exactly: the ``PointField`` names as the header,
    /// time as ISO 8601 UTC, and only the columns some fix has a value for (found in a first pass), then a row a
    /// fix, as it goes.
    public static func write(_ fixes: some Collection<LocationFix>, to sink: any TextSink) throws {
        let times = ISO8601Time()
        var used = Set<PointField>()
        for fix in fixes {
            for (field, _) in PointField.numbers(of: fix) { used.insert(field) }
            for (field, _) in PointField.names(of: fix) { used.insert(field) }
        }
        let optional = PointField.allCases.filter { used.contains($0) }
        try sink.write(
            ([PointField.time, .latitude, .longitude] + optional).map(\.rawValue).joined(separator: ",") + "\n")
        for fix in fixes {
            var cells: [PointField: String] = [:]
            for (field, value) in PointField.decimals(of: fix) { cells[field] = value }
            for (field, name) in PointField.names(of: fix) { cells[field] = name }
            var line = [
                times.string(milliseconds: fix.timeMs), GPXFormat.decimal(Int64(fix.latitudeE7 ?? 0), places: 7),
                GPXFormat.decimal(Int64(fix.longitudeE7 ?? 0), places: 7),
            ]
            line += optional.map { cells[$0] ?? "" }
            try sink.write(line.joined(separator: ",") + "\n")
        }
    }
}

/// What each column of a CSV header means, and how a row becomes a ``TrackPoint``.
struct CSVColumns {
    /// What a column holds.
    enum Role: Equatable {
        /// A ``PointField`` in the given unit: the factor to the field's own unit (km/h to m/s: 1 / 3.6).
        case field(PointField, factor: Double)
        case time(milliseconds: Bool)
        case date
        /// The zone offset of the date and time columns (`+02:00`).
        case utcOffset
        case hemisphere(latitude: Bool)
        case hdop
        /// GPSLogger's `battery_charging` (true or false).
        case charging
        /// GPSLogger's `provider` (gps, network, fused).
        case provider
    }

    /// Header names, normalized (lower case, letters and digits only, unit in brackets removed), for each role.
    static let aliases: [(names: [String], role: Role)] = [
        (
            [
                "time", "timestamp", "datetime", "utc", "utctime", "timeutc", "gpstime", "recordedat", "when",
                "isotime",
                "timestamputc", "localtime", "unixtime", "epoch", "unixtimestamp", "tst", "epochtime", "createdat",
                "trackedat", "lcltime",
            ],
            .time(milliseconds: false)
        ),
        (
            ["timestampms", "timems", "unixms", "epochms", "timemillis", "millis", "unixtimems", "timestampmillis"],
            .time(milliseconds: true)
        ),
        (["date", "utcdate", "gpsdate", "lcldate"], .date),
        (["utcofst", "utcoffset", "timezoneoffset"], .utcOffset),
        (
            ["latitude", "lat", "latitudens", "latdeg", "latitudedeg", "latitudedegrees", "latitudee7", "late7"],
            .field(.latitude, factor: 1)
        ),
        (
            [
                "longitude", "lon", "lng", "long", "longitudeew", "londeg", "longitudedeg", "longitudedegrees",
                "longitudee7", "lone7",
                "lnge7",
            ], .field(.longitude, factor: 1)
        ),
        (["ns", "latref", "latitudehemisphere", "nsind"], .hemisphere(latitude: true)),
        (["ew", "lonref", "longitudehemisphere", "ewind"], .hemisphere(latitude: false)),
        (
            [
                "accuracym", "accuracy", "acc", "horizontalaccuracy", "hacc", "horizontalaccuracym", "haccuracy",
                "precision",
            ], .field(.accuracyM, factor: 1)
        ),
        (
            ["altitudem", "altitude", "alt", "elevation", "ele", "height", "elevationm", "heightm", "gpsaltitude"],
            .field(.altitudeM, factor: 1)
        ),
        (["verticalaccuracym", "verticalaccuracy", "vacc", "vac", "vaccuracy"], .field(.verticalAccuracyM, factor: 1)),
        (["speedms", "speed", "vel", "velocity", "groundspeed"], .field(.speedMS, factor: 1)),
        (["speedaccuracyms", "speedaccuracy", "sacc"], .field(.speedAccuracyMS, factor: 1)),
        (
            ["coursedeg", "course", "bearing", "heading", "cog", "direction", "bearingdeg", "headingdeg"],
            .field(.courseDeg, factor: 1)
        ),
        (
            ["courseaccuracydeg", "courseaccuracy", "bearingaccuracy", "headingaccuracy"],
            .field(.courseAccuracyDeg, factor: 1)
        ),
        (["batterypercent", "battery", "batt", "batterylevel", "bat"], .field(.batteryPercent, factor: 1)),
        (["pressurehpa", "pressure", "baro", "airpressure"], .field(.pressureHpa, factor: 1)),
        (["motionconfidencepct"], .field(.motionConfidencePct, factor: 1)),
        (["floor"], .field(.floor, factor: 1)),
        (["agems"], .field(.ageMs, factor: 1)),
        (["ellipsoidalheightm"], .field(.ellipsoidalHeightM, factor: 1)),
        (["ismock", "mock"], .field(.isMock, factor: 1)),
        (["batterystate"], .field(.batteryState, factor: 1)),
        (["motionactivity", "activity"], .field(.motionActivity, factor: 1)),
        (["reason", "trigger"], .field(.reason, factor: 1)),
        (["source"], .field(.source, factor: 1)),
        (["provider"], .provider),
        (["batterycharging", "charging"], .charging),
        (["hdop"], .hdop),
    ]

    /// Units a header may name, and the factor from each to the field's unit.
    static let speedUnits: [(String, Double, String)] = [
        ("km/h", 1 / 3.6, "km/h"), ("kmh", 1 / 3.6, "km/h"), ("kph", 1 / 3.6, "km/h"), ("mph", 0.447_04, "mph"),
        ("knot", 0.514_444_444_444_444_4, "knots"), ("(kn)", 0.514_444_444_444_444_4, "knots"), ("m/s", 1, "m/s"),
    ]

    var roles: [Role?]
    /// Columns of latitude and longitude in 1e-7 degree; decided by the header or by the first value.
    var e7: [PointField: Bool] = [:]
    let names: [String]
    let hasHDOPOnly: Bool
    /// Battery columns named for a level (`battery_level`), whose values of at most 1 with a point are fractions.
    let batteryLevelColumns: Set<Int>
    /// A date column, whose rows' clock-only times (`10:59:15`, `063510`) it completes.
    let hasDate: Bool

    init(header: [String], line: Int, _ converter: inout PointConverter) throws(InterchangeError) {
        names = header
        batteryLevelColumns = Set(header.indices.filter { header[$0].lowercased().contains("level") })
        var roles: [Role?] = []
        var unused: [String] = []
        let keys = Set(header.map { Self.normalize($0.lowercased()) })
        // The GPS loggers' CSV layout (MTK/i-Blue/Qstarz: INDEX, RCR, ...; Columbus: INDEX, TAG, ...) writes
        // SPEED in km/h without saying so.
        let loggerLayout = keys.contains("index") && (keys.contains("rcr") || keys.contains("tag"))
        for name in header {
            let lower = name.lowercased()
            let key = Self.normalize(lower)
            var role = Self.aliases.first { $0.names.contains(key) }?.role
            if case .field(let field, _) = role {
                if key.hasSuffix("e7") { e7[field] = true }
                role = .field(
                    field,
                    factor: Self.factor(for: field, header: lower, name: name, loggerLayout: loggerLayout, &converter))
            }
            if role == nil, !name.isEmpty { unused.append(name) }
            // A name used twice: the first column is read, the other is not.
            if let role, roles.contains(role) {
                unused.append(name)
                roles.append(nil)
            } else {
                roles.append(role)
            }
        }
        self.roles = roles
        func has(_ field: PointField) -> Bool {
            roles.contains { if case .field(field, _) = $0 { true } else { false } }
        }
        hasHDOPOnly = roles.contains(.hdop) && !has(.accuracyM)
        hasDate = roles.contains(.date)
        let hasTime = roles.contains { if case .time = $0 { true } else { false } }
        let hasPosition = has(.latitude) && has(.longitude)
        guard hasTime, hasPosition else {
            let missing = [hasTime ? nil : "a time", hasPosition ? nil : "latitude and longitude"].compactMap { $0 }
            throw InterchangeError(
                "line \(line)",
                "no column for \(missing.joined(separator: " or ")) among \(header.map { "\"\($0.prefix(30))\"" }.joined(separator: ", "))"
                    + "; recognised names include time, timestamp, date, lat, latitude, lon, lng, longitude")
        }
        if !unused.isEmpty {
            converter.note("columns not used: \(unused.map { $0.prefix(30) }.joined(separator: ", "))")
        }
        if hasHDOPOnly { converter.note("accuracy_m taken as hdop × 5 m (the file has hdop, not accuracy)") }
    }

    /// Lower case, letters and digits only, with a unit in brackets removed: "Speed (km/h)" is "speed".
    static func normalize(_ lower: String) -> String {
        var text = lower
        if let bracket = text.firstIndex(where: { $0 == "(" || $0 == "[" }) { text = String(text[..<bracket]) }
        let key = String(
            text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init))
        // A unit written as a suffix: speed_kmh, altitude_ft.
        for suffix in ["kmh", "kph", "mph", "knots", "ft"] where key.hasSuffix(suffix) && key.count > suffix.count {
            return String(key.dropLast(suffix.count))
        }
        return key
    }

    /// The factor from the header's unit to the field's: speeds in km/h, mph or knots, altitudes in feet. A
    /// speed or altitude without a unit is taken in the field's unit, and noted.
    static func factor(
        for field: PointField, header: String, name: String, loggerLayout: Bool, _ converter: inout PointConverter
    ) -> Double {
        switch field {
        case .speedMS, .speedAccuracyMS:
            let compact = header.replacingOccurrences(of: " ", with: "")
            if let unit = speedUnits.first(where: {
                compact.contains($0.0) || compact.hasSuffix($0.0.filter(\.isLetter))
            }) {
                if unit.1 != 1 { converter.note("\(name.prefix(30)) read as \(unit.2)") }
                return unit.1
            }
            if loggerLayout {
                converter.note("\(name.prefix(30)) read as km/h (the GPS loggers' INDEX, RCR/TAG, ... layout)")
                return 1 / 3.6
            }
            converter.note("\(name.prefix(30)) read as m/s (the header names no unit)")
            return 1
        case .altitudeM, .verticalAccuracyM, .accuracyM:
            if header.contains("(ft") || header.contains("[ft") || header.hasSuffix("_ft") || header.contains("feet") {
                converter.note("\(name.prefix(30)) read as feet")
                return 0.3048
            }
            return 1
        default:
            return 1
        }
    }

    /// The point of one row.
    mutating func point(
        _ row: [String], _ location: String, _ converter: inout PointConverter
    ) throws(InterchangeError) -> TrackPoint {
        var point = TrackPoint(location: location)
        var clock: String?
        var date: String?
        var hemispheres: [Bool: String] = [:]
        var hdop: Double?
        var offset: String?
        for (index, raw) in row.enumerated() where index < roles.count {
            // Some loggers pad fields with NUL bytes.
            let cell =
                raw.utf8.contains(0) ? Self.trimmed(raw.replacingOccurrences(of: "\0", with: "")) : Self.trimmed(raw)
            guard !cell.isEmpty, let role = roles[index] else { continue }
            let cellLocation = "\(location), column \(names[index].prefix(30))"
            switch role {
            case .time(let milliseconds):
                if milliseconds {
                    guard let value = Double(cell), value.isFinite else {
                        throw InterchangeError(
                            cellLocation, "\"\(cell.prefix(40))\" is not a number of milliseconds",
                            field: names[index])
                    }
                    point.timeMs = value
                } else if let value = converter.time(cell, at: cellLocation) {
                    point.timeMs = Double(value)
                } else if hasDate, Self.isClock(cell) {
                    clock = cell
                } else if let value = Double(cell), value.isFinite {
                    point.timeMs = converter.unixTime(value, field: names[index], at: cellLocation)
                } else {
                    throw InterchangeError(
                        cellLocation, "\"\(cell.prefix(40))\" is neither ISO 8601 nor a Unix time", field: names[index])
                }
            case .date: date = cell
            case .utcOffset: offset = cell
            case .hemisphere(let latitude): hemispheres[latitude] = cell.uppercased()
            case .hdop: hdop = Double(cell)
            case .charging:
                switch cell.lowercased() {
                case "true", "1", "yes": point.batteryState = .charging
                case "false", "0", "no": point.batteryState = .unplugged
                default: point.unmapped.append("battery_state")
                }
            case .provider:
                if let source = ["gps": FixSource.gnss, "gnss": .gnss, "network": .network, "fused": .fused][
                    cell.lowercased()]
                {
                    point.source = source
                } else {
                    point.unmapped.append("source")
                }
            case .field(.latitude, _), .field(.longitude, _):
                guard case .field(let field, _) = role else { continue }
                let degrees = try coordinate(cell, field, names[index], cellLocation, &converter)
                field.set(degrees, on: &point)
            case .field(let field, let factor):
                if field.isEnum {
                    if !field.set(name: cell.lowercased(), on: &point) { point.unmapped.append(field.rawValue) }
                } else if let (value, unitFactor) = Self.number(cell, field), value.isFinite {
                    let scaled =
                        field == .batteryPercent && batteryLevelColumns.contains(index) && value <= 1
                            && cell.utf8.contains(UInt8(ascii: ".")) ? value * 100 : value * (unitFactor ?? factor)
                    field.set(scaled, on: &point)
                } else {
                    point.unreadable.append(field.rawValue)
                }
            }
        }
        if point.timeMs == nil, let clock, let date {
            guard let value = converter.time(Self.dateTime(date, clock, offset), at: location) else {
                throw InterchangeError(
                    location, "date \"\(date.prefix(20))\" and time \"\(clock.prefix(20))\" are not a time")
            }
            point.timeMs = Double(value)
        }
        for (latitude, letter) in hemispheres {
            let keyPath: WritableKeyPath<TrackPoint, Double?> = latitude ? \.latitudeE7 : \.longitudeE7
            switch letter {
            case "N", "E": point[keyPath: keyPath] = point[keyPath: keyPath].map(abs)
            case "S", "W": point[keyPath: keyPath] = point[keyPath: keyPath].map { -abs($0) }
            default: throw InterchangeError(location, "hemisphere \"\(letter.prefix(10))\" is not N, S, E or W")
            }
        }
        if hasHDOPOnly, let hdop, hdop.isFinite { point.horizontalAccuracyCm = hdop * GPXTrace.metresPerHDOP * 100 }
        return point
    }

    /// Decimal degrees from a cell: a number, with a hemisphere letter before or after, or 1e-7 degrees for an
    /// E7 column (named so, or whose first value is an integer out of the degree range).
    private mutating func coordinate(
        _ cell: String, _ field: PointField, _ column: String, _ location: String, _ converter: inout PointConverter
    ) throws(InterchangeError) -> Double {
        var text = Substring(cell)
        var sign = 1.0
        let letters: (positive: Character, negative: Character) = field == .latitude ? ("N", "S") : ("E", "W")
        if let last = text.last?.uppercased().first, last == letters.positive || last == letters.negative {
            sign = last == letters.negative ? -1 : 1
            text = text.dropLast()
        } else if let first = text.first?.uppercased().first, first == letters.positive || first == letters.negative {
            sign = first == letters.negative ? -1 : 1
            text = text.dropFirst()
        }
        guard let value = Double(Self.trimmed(String(text))), value.isFinite else {
            throw InterchangeError(
                location, "\"\(cell.prefix(40))\" is not a \(field.rawValue) in degrees", field: column)
        }
        if e7[field] == nil {
            let limit = field == .latitude ? 90.0 : 180.0
            let isE7 = abs(value) > limit && value == value.rounded() && abs(value) <= limit * 1e7
            e7[field] = isE7
            if isE7 { converter.note("\(field.rawValue) read as integers in 1e-7 degree") }
        }
        return (e7[field] == true ? value / 1e7 : value) * sign
    }

    /// A number, with a unit after it that converts it (`-64.153 m`, `2.081 km/h`, as some loggers write every
    /// value): the value and the factor to the field's unit, nil when no unit is written.
    static func number(_ cell: String, _ field: PointField) -> (Double, Double?)? {
        if let value = Double(cell) { return (value, nil) }
        let numberPart = cell.prefix { $0.isNumber || "+-.eE".contains($0) }
        guard let value = Double(numberPart) else { return nil }
        let unit = cell.dropFirst(numberPart.count).trimmingCharacters(in: .whitespaces).lowercased()
        switch (unit, field) {
        case ("m", .altitudeM), ("m", .accuracyM), ("m", .verticalAccuracyM), ("m", .ellipsoidalHeightM),
            ("m/s", .speedMS), ("m/s", .speedAccuracyMS), ("%", .batteryPercent), ("°", .courseDeg),
            ("deg", .courseDeg), ("hpa", .pressureHpa):
            return (value, 1)
        case ("ft", .altitudeM), ("ft", .ellipsoidalHeightM): return (value, 0.3048)
        case ("km/h", .speedMS), ("kmh", .speedMS), ("kph", .speedMS): return (value, 1 / 3.6)
        case ("mph", .speedMS): return (value, 0.447_04)
        case ("kn", .speedMS), ("knots", .speedMS), ("kt", .speedMS): return (value, 0.514_444_444_444_444_4)
        default: return nil
        }
    }

    /// A date and a clock time (and a zone offset) as one ISO 8601 text: `2008/11/12` or `090404` (YYMMDD, as
    /// Columbus loggers write it) and `10:59:15` or `063510` (HHMMSS).
    static func dateTime(_ date: String, _ clock: String, _ offset: String?) -> String {
        var date = date
        if date.count == 6, date.allSatisfy(\.isNumber) {
            let digits = Array(date)
            date = "20\(String(digits[0...1]))-\(String(digits[2...3]))-\(String(digits[4...5]))"
        }
        var clock = clock
        if clock.count == 6, clock.allSatisfy(\.isNumber) {
            let digits = Array(clock)
            clock = "\(String(digits[0...1])):\(String(digits[2...3])):\(String(digits[4...5]))"
        }
        return "\(date)T\(clock)\(offset ?? "")"
    }

    /// `text` without spaces and tabs (and line breaks) around it.
    static func trimmed(_ text: String) -> String { text.trimmingASCIIWhitespace() }

    /// `hh:mm`, `hh:mm:ss`, `hh:mm:ss.fff` or `hhmmss`: a time of day without a date.
    static func isClock(_ cell: String) -> Bool {
        if cell.count == 6, cell.allSatisfy(\.isNumber) { return true }
        let parts = cell.split(separator: ":", omittingEmptySubsequences: false)
        return (2...3).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isNumber || $0 == "." } }
    }
}
