import Foundation
import LocationWire
import LocationWireInterchange
import LocationWireRandom
import LocationWireTestSupport
import LocationWireValidation
import Testing

/// `locwire import` and `export`: the unit conversions, what is skipped and counted, the batch built, errors that
/// name their line, hostile input, and round trips between every pair of formats.
@Suite struct InterchangeTests {
    static let examples = RepositoryData.repository.appendingPathComponent("examples/interchange")

    func example(_ name: String) throws -> Data {
        try Data(contentsOf: Self.examples.appendingPathComponent(name))
    }

    func read(_ format: ImportFormat, _ text: String) throws -> (fixes: [LocationFix], summary: ImportSummary) {
        try format.read(Data(text.utf8))
    }

    func onlyFix(_ format: ImportFormat, _ text: String) throws -> LocationFix {
        let result = try read(format, text)
        try #require(result.fixes.count == 1, "\(result.summary.text)")
        return result.fixes[0]
    }

    /// The error a bad file gives with `--strict`, or a failure when it gives none.
    func error(_ format: ImportFormat, _ text: String) -> InterchangeError? {
        do {
            _ = try format.read(Data(text.utf8), options: ImportOptions(strict: true))
            Issue.record("\(format) accepted \(text.prefix(60))")
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Unit conversions

    @Test func ownTracksUnitsConvertExactly() throws {
        let fix = try onlyFix(
            .owntracks,
            #"{"_type":"location","tst":1714810531,"lat":45.8121307,"lon":15.9813712,"acc":12.5,"alt":126,"vac":3,"#
                + #""vel":36,"cog":118,"batt":86,"bs":2,"t":"t","m":2,"conn":"m","p":101.325}"#)
        #expect(fix.timeMs == 1_714_810_531_000)
        #expect(fix.latitudeE7 == 458_121_307)
        #expect(fix.longitudeE7 == 159_813_712)
        #expect(fix.horizontalAccuracyCm == 1250)
        #expect(fix.altitudeCm == 12_600)
        #expect(fix.verticalAccuracyCm == 300)
        #expect(fix.speedCmS == 1000)  // 36 km/h
        #expect(fix.courseCdeg == 11_800)
        #expect(fix.batteryPercent == 86)
        #expect(fix.batteryState == .charging)
        #expect(fix.reason == .periodic)
        #expect(fix.pressureHpa == 1013.25)  // 101.325 kPa
        #expect(fix.motionActivity == .unspecified)
        #expect(fix.elapsedRealtimeMs == nil)
    }

    @Test(arguments: [
        ("p", FixReason.heartbeat), ("c", .regionEvent), ("b", .regionEvent), ("r", .serverRequest), ("u", .manual),
        ("t", .periodic), ("v", .visit),
    ])
    func ownTracksTriggersMapToReasons(trigger: String, reason: FixReason) throws {
        let fix = try onlyFix(
            .owntracks, #"{"_type":"location","tst":1714810531,"lat":45.8,"lon":15.9,"t":"\#(trigger)"}"#)
        #expect(fix.reason == reason)
    }

    @Test func ownTracksBatteryStatusAndUnknownTrigger() throws {
        let states: [BatteryState] = [.unspecified, .unplugged, .charging, .full]
        for (status, state) in states.enumerated() {
            let fix = try onlyFix(
                .owntracks, #"{"_type":"location","tst":1714810531,"lat":45.8,"lon":15.9,"bs":\#(status)}"#)
            #expect(fix.batteryState == state)
        }
        let result = try read(
            .owntracks, #"{"_type":"location","tst":1714810531,"lat":45.8,"lon":15.9,"t":"x","bs":7}"#)
        #expect(result.fixes.first?.reason == .unspecified)
        #expect(result.fixes.first?.batteryState == .unspecified)
        #expect(
            result.summary.valuesDroppedCounts == ["reason: value not mapped": 1, "battery_state: value not mapped": 1])
    }

    @Test func ownTracksReadsOnePrettyPrintedMessage() throws {
        let fix = try onlyFix(
            .owntracks, "{\n  \"_type\": \"location\",\n  \"tst\": 1714810531,\n  \"lat\": 45.8,\n  \"lon\": 15.9\n}\n")
        #expect(fix.timeMs == 1_714_810_531_000 && fix.latitudeE7 == 458_000_000)
    }

    @Test func overlandUnitsConvertExactly() throws {
        let fix = try onlyFix(
            .overland,
            #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[15.9790842,45.8126447]},"#
                + #""properties":{"timestamp":"2024-05-04T10:15:02.250+02:00","altitude":127.4,"speed":1.39,"#
                + #""horizontal_accuracy":8.2,"vertical_accuracy":3.1,"course":112.5,"speed_accuracy":0.5,"#
                + #""course_accuracy":20.3,"motion":["walking"],"battery_state":"charging","battery_level":0.87}}]}"#)
        #expect(fix.timeMs == 1_714_810_502_250)
        #expect(fix.latitudeE7 == 458_126_447)
        #expect(fix.longitudeE7 == 159_790_842)
        #expect(fix.altitudeCm == 12_740)
        #expect(fix.speedCmS == 139)
        #expect(fix.horizontalAccuracyCm == 820)
        #expect(fix.verticalAccuracyCm == 310)
        #expect(fix.courseCdeg == 11_250)
        #expect(fix.speedAccuracyCmS == 50)
        #expect(fix.courseAccuracyCdeg == 2030)
        #expect(fix.motionActivity == .walking)
        #expect(fix.batteryState == .charging)
        #expect(fix.batteryPercent == 87)
    }

    @Test func overlandInvalidValuesAreLeftOutAndCounted() throws {
        let result = try read(
            .overland,
            #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[15.97,45.81]},"#
                + #""properties":{"timestamp":"2024-05-04T08:10:00Z","speed":-1,"course":-1,"horizontal_accuracy":-1,"#
                + #""motion":["driving","stationary"],"battery_state":"unknown"}}]}"#)
        let fix = try #require(result.fixes.first)
        #expect(fix.speedCmS == nil && fix.courseCdeg == nil && fix.horizontalAccuracyCm == nil)
        #expect(fix.motionActivity == .inVehicle)  // the first name that maps
        #expect(fix.batteryState == .unspecified)
        #expect(result.summary.imported == 1)
        #expect(
            result.summary.valuesDroppedCounts == [
                "speed_cm_s: out of range": 1, "course_cdeg: out of range": 1,
                "horizontal_accuracy_cm: out of range": 1,
            ])
    }

    @Test func gpxUnitsConvertExactlyIncludingExtensions() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"><trk><trkseg>
            <trkpt lat="45.4525956" lon="14.018194"><ele>753.33</ele><time>2010-10-03T09:36:30.5Z</time>
              <hdop>1.2</hdop><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>2.5</gpxtpx:speed>
              <gpxtpx:course>359.999</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
            </trkseg></trk></gpx>
            """
        let fix = try onlyFix(.gpx, gpx)
        #expect(fix.timeMs == 1_286_098_590_500)
        #expect(fix.latitudeE7 == 454_525_956 && fix.longitudeE7 == 140_181_940)
        #expect(fix.altitudeCm == 75_333)
        #expect(fix.horizontalAccuracyCm == 600)  // hdop 1.2 × 5 m
        #expect(fix.speedCmS == 250)
        #expect(fix.courseCdeg == 0)  // 359.999 degrees rounds to 36000, due north
        #expect(fix.source == .unspecified && fix.batteryPercent == nil)  // GPX does not say: nothing invented
        let gpx10 = """
            <gpx version="1.0"><trk><trkseg><trkpt lat="45.1" lon="14.2"><time>2010-10-03T09:36:30Z</time>
            <course>90.5</course><speed>1.25</speed></trkpt></trkseg></trk></gpx>
            """
        let fix10 = try onlyFix(.gpx, gpx10)
        #expect(fix10.courseCdeg == 9050 && fix10.speedCmS == 125 && fix10.horizontalAccuracyCm == nil)
    }

    @Test func csvColumnsConvertExactly() throws {
        let csv = """
            Time, latitude,longitude,accuracy_m,altitude_m,vertical_accuracy_m,speed_m_s,speed_accuracy_m_s,course_deg,course_accuracy_deg,battery_percent,battery_state,motion_activity,reason,source
            1714810531.25,45.8121307,15.9813712,4.7,-12.5,3,10,0.3,118.04,5.5,86,full,on_foot,motion_start,gnss
            """
        let fix = try onlyFix(.csv, csv)
        #expect(fix.timeMs == 1_714_810_531_250)
        #expect(fix.horizontalAccuracyCm == 470 && fix.altitudeCm == -1250 && fix.verticalAccuracyCm == 300)
        #expect(fix.speedCmS == 1000 && fix.speedAccuracyCmS == 30)
        #expect(fix.courseCdeg == 11_804 && fix.courseAccuracyCdeg == 550)
        #expect(fix.batteryPercent == 86 && fix.batteryState == .full && fix.motionActivity == .onFoot)
        #expect(fix.reason == .motionStart && fix.source == .gnss)
    }

    @Test func geoJSONLineStringTakesItsCoordinateTimes() throws {
        let geojson = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","properties":{"coordinateProperties":{"times":["2024-05-04T08:10:00Z","2024-05-04T08:10:05Z"]}},
              "geometry":{"type":"LineString","coordinates":[[15.97,45.81,120.5],[15.971,45.811],[15.972,45.812]]}},
             {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[]}}]}
            """
        let result = try read(.geojson, geojson)
        #expect(result.fixes.map(\.timeMs) == [1_714_810_200_000, 1_714_810_205_000])
        #expect(result.fixes.first?.altitudeCm == 12_050)
        #expect(
            result.summary.skippedCounts == [
                "no time": 1, "geometry Polygon is not a Point, LineString or MultiLineString": 1,
            ])
        #expect(result.summary.pointsRead == 4)
    }

    // MARK: - Skipping, rounding, the batch

    @Test func pointsThatCannotBeConvertedAreSkippedAndCounted() throws {
        let lines = [
            #"{"_type":"location","lat":45.8,"lon":15.9}"#,  // no time
            #"{"_type":"location","tst":1714810531}"#,  // no position
            #"{"_type":"location","tst":1714810531,"lat":95,"lon":15.9}"#,  // latitude out of range
            #"{"_type":"location","tst":1e300,"lat":45,"lon":15.9}"#,  // time out of range
            #"{"_type":"location","tst":100,"lat":45,"lon":15.9}"#,  // 1970
            #"{"_type":"location","tst":1714810531,"lat":0,"lon":0}"#,  // null island
            #"{"_type":"card","name":"Marko"}"#,
            #"{"_type":"location","tst":1714810531,"lat":45.8,"lon":15.9,"acc":0,"batt":140,"vel":2000}"#,
        ]
        let result = try read(.owntracks, lines.joined(separator: "\n"))
        #expect(result.summary.pointsRead == 8)
        #expect(result.summary.imported == 1)
        #expect(
            result.summary.skippedCounts == [
                "no time": 1, "no position": 1, "position out of range": 1, "time out of range (2000 ... 2100)": 2,
                "position (0, 0), a placeholder": 1, "not a location message (_type card)": 1,
            ])
        #expect(
            result.summary.valuesDroppedCounts == [
                "horizontal_accuracy_cm: out of range": 1, "battery_percent: out of range": 1,
                "speed_cm_s: out of range": 1,
            ])
        let fix = try #require(result.fixes.first)
        #expect(fix.horizontalAccuracyCm == nil && fix.batteryPercent == nil && fix.speedCmS == nil)
    }

    @Test func roundingIsCountedWithTheLargestError() throws {
        let lines = [
            #"{"_type":"location","tst":1714810531,"lat":45.8,"lon":15.9,"vel":5,"acc":1.15}"#,  // 138.888... cm/s
            #"{"_type":"location","tst":1714810532,"lat":45.8,"lon":15.9,"vel":4,"acc":2.004}"#,  // 111.111... cm/s
        ]
        let result = try read(.owntracks, lines.joined(separator: "\n"))
        #expect(result.fixes.map(\.speedCmS) == [139, 111])
        #expect(result.fixes.map(\.horizontalAccuracyCm) == [115, 200])
        let speed = try #require(result.summary.rounded[.speed])
        #expect(speed.count == 2)
        #expect(abs(speed.largestError - (139 - 500_000.0 / 3600)) < 1e-9)
        // 1.15 m is 114.99999999999999 cm in binary: representation, not rounding. 2.004 m is rounded by 0.4 cm.
        let accuracy = try #require(result.summary.rounded[.horizontalAccuracy])
        #expect(accuracy.count == 1)
        #expect(abs(accuracy.largestError - 0.4) < 1e-9)
        #expect(result.summary.text.contains("rounded 2 speed_cm_s, largest error 0.111 cm/s"))
    }

    @Test func sequencesFollowTimeAndTheBatchIsValid() throws {
        let lines = [
            #"{"_type":"location","tst":1714810600,"lat":45.81,"lon":15.91,"acc":5}"#,
            #"{"_type":"location","tst":1714810500,"lat":45.82,"lon":15.92,"acc":6}"#,
            #"{"_type":"location","tst":1714810600,"lat":45.83,"lon":15.93,"acc":7}"#,
        ]
        let data = Data(lines.joined(separator: "\n").utf8)
        let (batch, summary) = try ImportFormat.owntracks.importBatch(data, deviceId: "phone-1")
        #expect(batch.fixes.map(\.sequence) == [1, 2, 3])
        #expect(batch.fixes.map(\.horizontalAccuracyCm) == [600, 500, 700])  // equal times keep file order
        #expect(summary.outOfOrder == 1 && summary.sameTime == 1)
        #expect(batch.validationReport().isValid)
        #expect(batch.sentAtMs == 1_714_810_600_000 && batch.fixSequenceFloor == 1 && batch.protocolRevision == 1)
        #expect(batch.bootId == 0 && batch.datum == .wgs84 && batch.batchId != 0 && batch.installId != 0)
        // The same file gives the same batch; another device another installation.
        let again = try ImportFormat.owntracks.importBatch(data, deviceId: "phone-1").batch
        #expect(again.serializedBytes() == batch.serializedBytes())
        let other = try ImportFormat.owntracks.importBatch(data, deviceId: "phone-2").batch
        #expect(other.installId != batch.installId)
        #expect(try ImportFormat.owntracks.importBatch(data, deviceId: "p", installId: 42).batch.installId == 42)
    }

    @Test func aFileWithNoImportablePointIsRejected() {
        #expect(throws: InterchangeError.self) {
            try ImportFormat.owntracks.importBatch(Data(#"{"_type":"location","lat":1,"lon":2}"#.utf8), deviceId: "d")
        }
    }

    // MARK: - Bad files and hostile input

    let strict = " (--strict refuses the file at the first point it cannot import)"

    @Test func badFilesNameTheLineOrElement() {
        #expect(
            error(.owntracks, "{\"_type\":\"location\",\"tst\":1714810531,\"lat\":1,\"lon\":2}\n\n{\"_type\":\"loc")?
                .location == "line 3")
        #expect(
            error(.owntracks, "{\"_type\":\"location\",\"tst\":\"yesterday\",\"lat\":1,\"lon\":2}")?.description
                .hasPrefix("line 1.tst: expected a number, found \"yesterday\" (--strict refuses") == true)
        #expect(error(.owntracks, "2024-05-04T08:10:00Z only two fields")?.location == "line 1")
        #expect(
            error(.overland, #"{"locations":[{"properties":{"speed":"fast"}},{"properties":{}}]}"#)?.location
                == "locations[0].properties.speed")
        #expect(
            error(.overland, #"{"locations":[{"properties":{}}]}"#)?.description == "locations[0]: no time" + strict)
        #expect(
            error(.overland, #"{"locations":[{"properties":{"timestamp":"May 4th"}}]}"#)?.location
                == "locations[0].properties.timestamp")
        #expect(error(.overland, #"{"location":[]}"#)?.message.contains("not an Overland upload") == true)
        let located =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[15.9,45.8]},"#
            + #""properties":{"timestamp":"2024-05-04T08:10:00Z"}}"#
        #expect(
            error(.overland, "{\"locations\":[\n\(located),\n{\"type\": x}\n]}")?.location == "locations[1] (line 3)")
        #expect(
            error(.csv, "time,latitude,longitude\n2024-05-04T08:10:00Z,45,15\n2024-05-04T08:10:01Z,north,15\n")?
                .location == "line 3, column latitude")
        #expect(error(.csv, "time,latitude,longitud\n")?.location == "line 1")
        #expect(error(.csv, "time,latitude\n")?.message.contains("no column for latitude and longitude") == true)
        #expect((try? read(.csv, "time;latitude;longitude\n"))?.fixes.isEmpty == true)  // a header alone is no error
        #expect(
            error(
                .gpx, "<gpx>\n<trk><trkseg>\n<trkpt lat=\"45\" lon=\"14\"><ele>high</ele></trkpt></trkseg></trk></gpx>")?
                .location == "line 3")
        #expect(
            error(
                .geojson,
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}]}"#
            )?.location == "features[0].geometry.coordinates")
    }

    @Test func hostileInputGivesErrorsNotCrashes() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let hostile: [(ImportFormat, String)] = [
            (.gpx, "<?xml version=\"1.0\"?><gpx><trk><trkseg><trkpt lat=\"45\" lon=\"14\"><time>2010-10-03T09:3"),
            (.gpx, "<gpx><trk><trkseg><trkpt lat=\"NaN\" lon=\"14\"/></trkseg></trk></gpx>"),
            (.gpx, "<gpx><trk><trkseg><trkpt lat=\"45\" lon=\"14\"><ele>1e999</ele></trkpt></trkseg></trk></gpx>"),
            (.gpx, "\u{0}\u{1}\u{2}garbage"),
            (.owntracks, deep),
            (.owntracks, #"[{"_type":"location","tst":1714810531,"lat":1e400,"lon":2}]"#),
            (.owntracks, #"[{"_type":"location","tst":1714810531,"lat":NaN,"lon":2}]"#),
            (.owntracks, #"[{"_type":"location","tst":1714810531,"lat":[[[{"a":[]}]]],"lon":2}]"#),
            (.owntracks, "[1, 2, 3]"),
            (.overland, deep),
            (.overland, #"{"locations":{"nested":{"garbage":[1,[2,[3]]]}}}"#),
            (.overland, #"{"locations":[{"geometry":{"type":"Point","coordinates":[1,2,3,4,5]}}]}"#),
            (.geojson, "{\"type\":\"FeatureCollection\",\"features\":[{\"geometry\":"),
            (.geojson, #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[["a","b"]]}}"#),
            (.csv, "time,latitude,longitude\n2024-05-04T08:10:00Z,NaN,15\n"),
            (.csv, "time,latitude,longitude\n2024-05-04T08:10:00Z,45,inf\n"),
            (.csv, "time,latitude,longitude\n\"2024-05-04T08:10:00Z,45,15\n"),
            (.csv, "time,latitude,longitude\n1e999,45,15\n"),
        ]
        for (format, text) in hostile {
            #expect(error(format, text) != nil, "\(format): \(text.prefix(60))")
        }
        // Huge but finite numbers are values out of range: skipped, not wrapped around.
        let huge = try? read(.owntracks, #"{"_type":"location","tst":1714810531,"lat":1e300,"lon":-1e300,"vel":1e308}"#)
        #expect(huge?.summary.skippedCounts == ["position out of range": 1])
    }

    /// Mutated samples (bytes changed, inserted, deleted, the file cut short) either read or are refused with an
    /// InterchangeError; whatever reads builds a valid batch or is refused for having no point. A crash would
    /// end the test process.
    @Test(arguments: [
        ("owntracks.json", ImportFormat.owntracks), ("owntracks.rec", .owntracks), ("overland.json", .overland),
        ("track.csv", .csv), ("overland.json", .geojson),
    ])
    func mutatedSamplesNeverCrash(file: String, format: ImportFormat) throws {
        let original = [UInt8](try example(file))
        let gpx = [UInt8](
            try ExportFormat.gpx.write(
                try ImportFormat.owntracks.importBatch(try example("owntracks.json"), deviceId: "m").batch))
        let sample =
            format == .geojson
            ? [UInt8](
                try ExportFormat.geojson.write(
                    try ImportFormat.overland.importBatch(Data(original), deviceId: "m").batch)) : original
        var random = SeededRandom(seed: stableSeed("mutated-\(file)-\(format)"))
        let interesting = Array("{}[]\",:-.0123456789eE\n\t<>/ ".utf8)
        for round in 0..<300 {
            for (bytes, readAs) in [(sample, format), (gpx, ImportFormat.gpx)] {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = Int.random(in: 0..<max(mutated.count, 1), using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0 where !mutated.isEmpty: mutated[position] = interesting.randomElement(using: &random)!
                    case 1: mutated.insert(interesting.randomElement(using: &random)!, at: min(position, mutated.count))
                    case 2 where !mutated.isEmpty: mutated.remove(at: position)
                    default: mutated = Array(mutated.prefix(position))
                    }
                }
                do {
                    let (batch, _) = try readAs.importBatch(Data(mutated), deviceId: "m")
                    #expect(batch.validationReport().isValid, "round \(round)")
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }

    // MARK: - Round trips

    /// What `format` keeps of a fix, at the resolution it writes: the fix as it must come back from an export to
    /// `format` and an import of that. Fields the format cannot hold are unset.
    func kept(_ fix: LocationFix, by format: ExportFormat) -> LocationFix {
        var kept = LocationFix()
        kept.sequence = fix.sequence
        kept.timeMs = fix.timeMs
        kept.latitudeE7 = fix.latitudeE7
        kept.longitudeE7 = fix.longitudeE7
        kept.altitudeCm = fix.altitudeCm
        switch format {
        case .gpx:
            kept.horizontalAccuracyCm = fix.horizontalAccuracyCm
            kept.speedCmS = fix.speedCmS
            kept.courseCdeg = fix.courseCdeg
        case .geojson, .csv:
            // Every field but the monotonic clock, which means nothing without its boot.
            kept = fix
            kept.elapsedRealtimeMs = nil
            kept.bootId = 0
        case .overland:
            kept.horizontalAccuracyCm = fix.horizontalAccuracyCm
            kept.verticalAccuracyCm = fix.verticalAccuracyCm
            kept.speedCmS = fix.speedCmS
            kept.speedAccuracyCmS = fix.speedAccuracyCmS
            kept.courseCdeg = fix.courseCdeg
            kept.courseAccuracyCdeg = fix.courseAccuracyCdeg
            kept.batteryPercent = fix.batteryPercent
            kept.batteryState = fix.batteryState
            // ON_FOOT and UNKNOWN have no Overland name.
            kept.motionActivity = [.onFoot, .unknown].contains(fix.motionActivity) ? .unspecified : fix.motionActivity
        case .owntracks, .owntracksRec:
            // Whole seconds, whole metres, whole km/h and whole degrees, as the booklet writes them.
            kept.timeMs = fix.timeMs - fix.timeMs % 1000
            func metres(_ cm: Int64) -> Int64 { Int64((Double(cm) / 100).rounded()) * 100 }
            kept.altitudeCm = fix.altitudeCm.map { Int32(metres(Int64($0))) }
            kept.horizontalAccuracyCm = fix.horizontalAccuracyCm.map { UInt32(metres(Int64($0))) }.flatMap {
                $0 == 0 ? nil : $0
            }
            kept.verticalAccuracyCm = fix.verticalAccuracyCm.map { UInt32(metres(Int64($0))) }.flatMap {
                $0 == 0 ? nil : $0
            }
            kept.speedCmS = fix.speedCmS.map {
                UInt32(((Double($0) * 3600 / 100_000).rounded() * 100_000 / 3600).rounded())
            }
            kept.courseCdeg = fix.courseCdeg.map { UInt32(metres(Int64($0)) % 36_000) }
            kept.batteryPercent = fix.batteryPercent
            kept.batteryState = fix.batteryState
            kept.pressureHpaBits = fix.pressureHpaBits
            kept.reason =
                [.heartbeat, .regionEvent, .serverRequest, .manual, .periodic, .visit].contains(fix.reason)
                ? fix.reason : .unspecified
        }
        return kept
    }

    func roundTrip(_ batch: LocationBatch, through format: ExportFormat) throws -> LocationBatch {
        let written = try format.write(batch)
        let importFormat = try #require(ImportFormat(rawValue: format == .owntracksRec ? "owntracks" : format.rawValue))
        let back = try importFormat.importBatch(written, deviceId: batch.deviceId)
        #expect(back.summary.imported == batch.fixes.count, "\(format): \(back.summary.text)")
        #expect(back.batch.validationReport().isValid)
        return back.batch
    }

    func checkRoundTrips(_ batch: LocationBatch, _ origin: String) throws {
        try #require(!batch.fixes.isEmpty)
        for format in ExportFormat.allCases {
            let back = try roundTrip(batch, through: format)
            try #require(back.fixes.count == batch.fixes.count, "\(origin) -> \(format)")
            for (original, returned) in zip(batch.fixes, back.fixes) {
                #expect(
                    returned == kept(original, by: format), "\(origin) -> \(format) -> import, fix \(original.sequence)"
                )
            }
            // What came back goes through again unchanged: the format holds it exactly.
            let twice = try roundTrip(back, through: format)
            #expect(twice.fixes == back.fixes, "\(origin) -> \(format) twice")
        }
    }

    @Test func realGPXTrackRoundTripsThroughEveryFormat() throws {
        let data = try Data(contentsOf: RepositoryData.koritaTrack)
        let (batch, summary) = try ImportFormat.gpx.importBatch(data, deviceId: "korita")
        #expect(summary.pointsRead == 873)  // 871 track points and 2 waypoints
        #expect(summary.imported == 513)
        #expect(summary.skippedCounts == ["no time": 358, "waypoint (<wpt>): a marked place, not a recorded fix": 2])
        #expect(batch.fixes.allSatisfy { $0.altitudeCm != nil })
        try checkRoundTrips(batch, "korita-zbevnica.gpx")
    }

    @Test(arguments: [
        ("owntracks.json", ImportFormat.owntracks), ("owntracks.rec", .owntracks), ("overland.json", .overland),
        ("track.csv", .csv),
    ])
    func samplesRoundTripThroughEveryFormat(file: String, format: ImportFormat) throws {
        let (batch, _) = try format.importBatch(try example(file), deviceId: "marko")
        #expect(batch.validationReport().isValid)
        try checkRoundTrips(batch, file)
    }

    @Test func samplesCarryWhatTheirFormatsPublish() throws {
        let ownTracks = try ImportFormat.owntracks.importBatch(try example("owntracks.json"), deviceId: "m")
        #expect(ownTracks.summary.pointsRead == 9 && ownTracks.summary.imported == 7)
        #expect(Set(ownTracks.batch.fixes.map(\.reason)).count == 6)
        #expect(Set(ownTracks.batch.fixes.map(\.batteryState)) == [.unplugged, .charging, .full])
        let overland = try ImportFormat.overland.importBatch(try example("overland.json"), deviceId: "m")
        #expect(overland.summary.imported == 6)
        #expect(
            overland.batch.fixes.map(\.motionActivity) == [
                .still, .walking, .inVehicle, .inVehicle, .cycling, .unspecified,
            ])
        #expect(overland.batch.fixes.map(\.batteryPercent) == [87, 87, 86, 86, 85, 100])
    }

    @Test func exportWritesCompactAndLiveFixesToo() throws {
        var batch = try ImportFormat.owntracks.importBatch(try example("owntracks.json"), deviceId: "m").batch
        let live = batch.fixes.removeLast()
        batch.compactFixes = try CompactFixes(fixes: batch.fixes)
        batch.fixes = []
        batch.liveFix = live
        let back = try ImportFormat.geojson.importBatch(try ExportFormat.geojson.write(batch), deviceId: "m").batch
        #expect(back.fixes.count == 7)
        #expect(back.fixes.last?.timeMs == live.timeMs)
    }

    @Test func geoJSONKeepsEveryFieldButTheClock() throws {
        var fix = LocationFix()
        fix.sequence = 1
        fix.timeMs = 1_714_810_531_123
        fix.latitudeE7 = -338_688_197
        fix.longitudeE7 = 1_512_092_955
        fix.horizontalAccuracyCm = 1
        fix.altitudeCm = -1_000_000
        fix.verticalAccuracyCm = 4_294_967_295
        fix.speedCmS = 50_000
        fix.speedAccuracyCmS = 3
        fix.courseCdeg = 35_999
        fix.courseAccuracyCdeg = 18_000
        fix.elapsedRealtimeMs = 99
        fix.reason = .systemRelaunch
        fix.source = .cached
        fix.batteryPercent = 0
        fix.batteryState = .full
        fix.motionActivity = .onFoot
        fix.motionConfidencePct = 25
        fix.floor = -3
        fix.ageMs = 120_000
        fix.isMock = true
        fix.ellipsoidalHeightCm = 4_512
        fix.pressureHpa = 1013.2
        var batch = LocationBatch()
        batch.deviceId = "d"
        batch.fixes = [fix]
        let back = try ImportFormat.geojson.importBatch(try ExportFormat.geojson.write(batch), deviceId: "d").batch
        var expected = fix
        expected.elapsedRealtimeMs = nil
        #expect(back.fixes == [expected])
        // The CSV columns read the same names.
        let csv =
            "time,latitude,longitude,floor,age_ms,motion_confidence_pct,ellipsoidal_height_m,is_mock\n"
            + "2024-05-04T08:15:31Z,45.8,15.9,-3,120000,25,45.12,TRUE\n"
        let fromCSV = try onlyFix(.csv, csv)
        #expect(fromCSV.floor == -3 && fromCSV.ageMs == 120_000 && fromCSV.motionConfidencePct == 25)
        #expect(fromCSV.ellipsoidalHeightCm == 4_512 && fromCSV.isMock)
    }

    @Test func gpxNumbersAreDecimalsWithoutExponents() throws {
        #expect(GPXFormat.decimal(1, places: 7) == "0.0000001")
        #expect(GPXFormat.decimal(-5, places: 7) == "-0.0000005")
        #expect(GPXFormat.decimal(458_130_987, places: 7) == "45.8130987")
        #expect(GPXFormat.decimal(12_800, places: 2) == "128")
        #expect(GPXFormat.decimal(-1_000_000, places: 2) == "-10000")
        #expect(GPXFormat.decimal(1_201 * 2, places: 3) == "2.402")
        var batch = try ImportFormat.owntracks.importBatch(try example("owntracks.rec"), deviceId: "m").batch
        batch.fixes[0].latitudeE7 = 1
        batch.fixes[0].longitudeE7 = -1
        let gpx = String(decoding: try ExportFormat.gpx.write(batch), as: UTF8.self)
        #expect(gpx.contains("lat=\"0.0000001\" lon=\"-0.0000001\"") && !gpx.contains("e-"))
        let back = try ImportFormat.gpx.read(Data(gpx.utf8)).fixes
        #expect(back.first?.latitudeE7 == 1 && back.first?.longitudeE7 == -1)
    }

    @Test func gpxNameIsEscapedAndReadsBack() throws {
        var batch = try ImportFormat.owntracks.importBatch(try example("owntracks.rec"), deviceId: "m").batch
        batch.deviceId = "a<b>&\u{1}c"
        let gpx = String(decoding: try ExportFormat.gpx.write(batch), as: UTF8.self)
        #expect(gpx.contains("<name>a&lt;b&gt;&amp;c</name>"))
        #expect(try ImportFormat.gpx.read(Data(gpx.utf8)).fixes.count == 3)
    }

    @Test func exportRefusesAFixWithoutAPosition() throws {
        var batch = try ImportFormat.owntracks.importBatch(try example("owntracks.json"), deviceId: "m").batch
        batch.fixes[2].latitudeE7 = nil
        for format in ExportFormat.allCases {
            #expect(throws: InterchangeError("fix 3 of 7", "has no latitude and longitude to write")) {
                try format.write(batch)
            }
        }
    }
}
