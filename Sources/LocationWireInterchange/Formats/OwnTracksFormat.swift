import Foundation
import LocationWire
import LocationWireJSON

/// OwnTracks `_type: location` messages (https://owntracks.org/booklet/tech/json/).
///
/// Read: a JSON array of messages, one message, JSON lines (one message a line), or the OwnTracks Recorder's `.rec` files
/// (`ISO-time<TAB>topic-or-*<TAB>{json}` a line). Messages of another `_type` are counted as skipped.
/// | OwnTracks | unit | LocationFix |
/// |---|---|---|
/// | `tst` | Unix seconds | `time_ms` (× 1000) |
/// | `lat`, `lon` | degrees | `latitude_e7`, `longitude_e7` (× 1e7) |
/// | `acc`, `vac` | m | `horizontal_accuracy_cm`, `vertical_accuracy_cm` (× 100) |
/// | `alt` | m | `altitude_cm` (× 100) |
/// | `vel` | km/h | `speed_cm_s` (× 100000 / 3600: 36 km/h is 1000 cm/s) |
/// | `cog` | degrees | `course_cdeg` (× 100) |
/// | `batt` | % | `battery_percent` |
/// | `p` | kPa (iOS barometer) | `pressure_hpa` (× 10) |
/// | `bs` | 0 unknown, 1 unplugged, 2 charging, 3 full | `battery_state` |
/// | `t` | trigger | `reason`: p ping → HEARTBEAT, c circular region and b beacon → REGION_EVENT, r response to a report request → SERVER_REQUEST, u manual → MANUAL, t timer → PERIODIC, v visit → VISIT |
///
/// `tid` (the tracker id), else `topic` (the message's or the Recorder line's), names the device: a file of
/// several devices is imported with `--split-by device`. `m` (monitoring mode), `conn` and the rest describe the
/// app, not the fix, and are ignored.
///
/// Written: a JSON array, one message a line, with the integers the booklet specifies (`tst` in whole seconds,
/// `acc`, `alt`, `vac`, `vel`, `cog`, `batt` rounded to whole units), so sub-second times and centimetres do not
/// survive the round trip; everything else above does.
public enum OwnTracksFormat {
    static let triggers: [String: FixReason] = [
        "p": .heartbeat, "c": .regionEvent, "b": .regionEvent, "r": .serverRequest, "u": .manual, "t": .periodic,
        "v": .visit,
    ]
    /// The trigger written for each reason; REGION_EVENT as `c`, the booklet's default.
    static let triggerForReason: [FixReason: String] = [
        .heartbeat: "p", .regionEvent: "c", .serverRequest: "r", .manual: "u", .periodic: "t", .visit: "v",
    ]
    static let batteryStates: [BatteryState] = [.unspecified, .unplugged, .charging, .full]
    /// The table above, for the numbers. vel: 1 km/h is 100000 cm / 3600 s, divided last so that whole km/h
    /// multiples of 36 give whole cm/s exactly.
    static let numberKeys: NumberKeys = [
        ("tst", \.timeMs, 1000), ("lat", \.latitudeE7, 1e7), ("lon", \.longitudeE7, 1e7),
        ("acc", \.horizontalAccuracyCm, 100), ("vac", \.verticalAccuracyCm, 100), ("alt", \.altitudeCm, 100),
        ("vel", \.speedCmS, 100_000.0 / 3600), ("cog", \.courseCdeg, 100), ("batt", \.batteryPercent, 1),
        ("p", \.pressureHpa, 10),
    ]

    public static func read(_ input: ImportInput, _ converter: inout PointConverter) throws(InterchangeError) {
        let head = input.prefix(64 << 10)
        if head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") {
            // An array of messages, streamed one at a time.
            var reading = converter
            defer { converter = reading }
            try JSONFraming.walk(
                input, arrayKeys: [], member: { _, _ throws(InterchangeError) in },
                element: { _, index, value throws(InterchangeError) in
                    let location = "[\(index)]"
                    var parsed: JSONValue?
                    try reading.record(at: location) { _ throws(InterchangeError) in
                        parsed = try JSONInput.document(value.bytes, "\(location) (line \(value.line))")
                    }
                    if let parsed { try message(parsed, location, &reading) }
                })
            return
        }
        let data = try input.bytes()
        let text = String(decoding: data, as: UTF8.self)
        let first = text.first(where: { !$0.isWhitespace })
        // One document saved from an HTTP body, pretty-printed over several lines: one message, or the Recorder
        // API's answer {"count": N, "data": [messages]} (a file of one line is read as lines below, so that its
        // messages say "line 1").
        if first == "{", text.trimmingCharacters(in: .whitespacesAndNewlines).contains("\n"),
            let single = try? JSONValue.parse(data), single.object != nil
        {
            if let envelope = single["data"]?.array { return try messages(envelope, prefix: "data", &converter) }
            return try message(single, "", &converter)
        }
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = String(line).trimmingASCIIWhitespace()
            guard !trimmed.isEmpty else { continue }
            let location = "line \(index + 1)"
            try converter.record(at: location) { converter throws(InterchangeError) in
                var json = Substring(trimmed)
                var topic: String?
                if !trimmed.hasPrefix("{") {
                    // Recorder: time, topic (or *), JSON, separated by tabs.
                    let fields = trimmed.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
                    guard fields.count == 3 else {
                        throw InterchangeError(
                            location, "neither a JSON object nor a Recorder line (time<TAB>topic<TAB>{json})")
                    }
                    json = fields[2]
                    let named = String(fields[1]).trimmingASCIIWhitespace()
                    if named != "*" && !named.isEmpty { topic = named }
                }
                let value = try JSONInput.document(Data(json.utf8), location)
                if let envelope = value["data"]?.array {
                    try messages(envelope, prefix: "\(location).data", &converter)
                } else {
                    try message(value, location, &converter, topic: topic)
                }
            }
        }
    }

    private static func messages(
        _ array: [JSONValue], prefix: String, _ converter: inout PointConverter
    ) throws(InterchangeError) {
        for (index, element) in array.enumerated() {
            try message(element, "\(prefix)[\(index)]", &converter)
        }
    }

    /// One message; `topic` is the Recorder line's, when it names one.
    private static func message(
        _ value: JSONValue, _ location: String, _ converter: inout PointConverter, topic: String? = nil
    ) throws(InterchangeError) {
        try converter.record(at: location) { converter throws(InterchangeError) in
            let json = try JSONInput(value, location)
            let type = try json.string("_type")
            // The Recorder's API answers with location messages that may lack _type.
            guard type == "location" || (type == nil && json.object["tst"] != nil) else {
                converter.ignoreRecord("not a location message (_type \(type ?? "missing"))", at: location)
                return
            }
            var point = TrackPoint(location: location)
            let tid = try json.string("tid")
            let messageTopic = try json.string("topic")
            point.device = tid ?? messageTopic ?? topic
            try json.read(numberKeys, into: &point)
            if let status = try json.number("bs") {
                if let index = Int(exactly: status), batteryStates.indices.contains(index) {
                    point.batteryState = batteryStates[index]
                } else {
                    point.unmapped.append("battery_state")
                }
            }
            if let trigger = try json.string("t") {
                if let reason = triggers[trigger] { point.reason = reason } else { point.unmapped.append("reason") }
            }
            try converter.add(point)
        }
    }

    /// A JSON array, one message a line, written as it goes.
    public static func write(_ fixes: some Collection<LocationFix>, to sink: any TextSink) throws {
        try sink.write("[\n")
        for (index, fix) in fixes.enumerated() {
            try sink.write((index == 0 ? "" : ",\n") + message(fix))
        }
        try sink.write("\n]\n")
    }

    /// The OwnTracks Recorder's `.rec` file: a line a message, `time<TAB>*<TAB>{json}`, the time the message's
    /// own (`tst`) in ISO 8601 and the topic `*`, as the Recorder writes a message whose topic it does not keep.
    public static func writeRecorder(_ fixes: some Collection<LocationFix>, to sink: any TextSink) throws {
        let times = ISO8601Time()
        for fix in fixes {
            let wholeSecond = fix.timeMs.floorDivided(by: 1000) * 1000
            try sink.write("\(times.string(milliseconds: wholeSecond))\t*                 \t\(message(fix))\n")
        }
    }

    /// One `_type: location` message with the integers the booklet specifies, keys sorted.
    static func message(_ fix: LocationFix) -> String {
        var message: [(String, String)] = [
            ("_type", "\"location\""), ("tst", "\(fix.timeMs.floorDivided(by: 1000))"),
        ]
        if let latitude = fix.latitudeE7 { message.append(("lat", GPXFormat.decimal(Int64(latitude), places: 7))) }
        if let longitude = fix.longitudeE7 { message.append(("lon", GPXFormat.decimal(Int64(longitude), places: 7))) }
        if let accuracy = fix.horizontalAccuracyCm { message.append(("acc", "\(whole(Double(accuracy) / 100))")) }
        if let accuracy = fix.verticalAccuracyCm { message.append(("vac", "\(whole(Double(accuracy) / 100))")) }
        if let altitude = fix.altitudeCm { message.append(("alt", "\(whole(Double(altitude) / 100))")) }
        if let speed = fix.speedCmS { message.append(("vel", "\(whole(Double(speed) * 3600 / 100_000))")) }
        if let course = fix.courseCdeg { message.append(("cog", "\(whole(Double(course) / 100) % 360)")) }
        if let battery = fix.batteryPercent { message.append(("batt", "\(battery)")) }
        if let pressure = fix.pressureHpa, let hectopascal = Double("\(pressure)") {
            message.append(("p", "\(hectopascal / 10)"))
        }
        if let status = batteryStates.firstIndex(of: fix.batteryState), status > 0 {
            message.append(("bs", "\(status)"))
        }
        if let trigger = triggerForReason[fix.reason] { message.append(("t", JSONText.string(trigger))) }
        message.sort { $0.0 < $1.0 }
        return JSONText.object(message)
    }

    /// The nearest whole number, halves away from zero.
    private static func whole(_ value: Double) -> Int { Int(value.rounded()) }
}

extension Int64 {
    /// Division rounding toward minus infinity, so that times before 1970 still fall in their own second.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
