import Foundation
import LocationWire
import LocationWireInterchange
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// Lenient by default, strict on request, the same in every format: a point that cannot be imported is skipped and
/// counted with its reason and location; `--strict` refuses the file at the first one. Times without a zone, the
/// CSV shapes people write, and `--from auto`.
@Suite struct LenientReadingTests {
    func read(
        _ format: ImportFormat, _ text: String, _ options: ImportOptions = ImportOptions()
    ) throws -> (fixes: [LocationFix], summary: ImportSummary) {
        try format.read(Data(text.utf8), options: options)
    }

    func strictError(_ format: ImportFormat, _ text: String) -> InterchangeError? {
        do throws(InterchangeError) {
            _ = try format.read(Data(text.utf8), options: ImportOptions(strict: true))
            Issue.record("--strict accepted \(text.prefix(60))")
            return nil
        } catch {
            return error
        }
    }

    static let badGPX = """
        <gpx version="1.0"><trk><trkseg>
        <trkpt lat="45.1" lon="14.2"><time>2013-01-01T12:00:00Z</time></trkpt>
        <trkpt lat="abc" lon="14.2"><time>2013-01-01T12:00:01Z</time></trkpt>
        <trkpt lat="95" lon="14.2"><time>2013-01-01T12:00:02Z</time></trkpt>
        <trkpt lon="14.2"><time>2013-01-01T12:00:03Z</time></trkpt>
        <trkpt lat="45.1" lon="14.2"><time>2013-01-01T12:00:04</time></trkpt>
        <trkpt lat="45.1" lon="14.2"><time>yesterday</time></trkpt>
        <trkpt lat="45.1" lon="14.2"><ele>high</ele><time>2013-01-01T12:00:06Z</time></trkpt>
        </trkseg></trk></gpx>
        """

    @Test func gpxSkipsWhatItCannotReadAndGoesOn() throws {
        let (fixes, summary) = try read(.gpx, Self.badGPX)
        #expect(fixes.map(\.timeMs) == [1_357_041_600_000, 1_357_041_604_000])
        #expect(summary.pointsRead == 7 && summary.imported == 2)
        let unreadable = summary.skipped.filter { $0.key.code == "unreadable" }
        #expect(unreadable.values.map(\.count).reduce(0, +) == 5)
        #expect(summary.skipped[.unreadable("lat")]?.first.count == 3)
        #expect(
            summary.skipped[.unreadable("lat")]?.first.first?.hasPrefix("line 3: lat \"abc\" is not a number") == true)
        #expect(
            summary.skipped[.unreadable("time")]?.first == ["line 7: <time>yesterday</time> is not an ISO 8601 time"])
        #expect(summary.skipped[.unreadable("ele")]?.first.first?.hasPrefix("line 8") == true)
        #expect(summary.notes["time without a zone, read in UTC"]?.first == ["line 6"])
        #expect(strictError(.gpx, Self.badGPX)?.location == "line 3")
    }

    @Test func aZonelessTimeIsReadInTheGivenZone() throws {
        let options = ImportOptions(timeZone: try #require(TimeZone(identifier: "Europe/Zagreb")))
        let (fixes, summary) = try read(.gpx, Self.badGPX, options)
        // 12:00:04 in Zagreb in January (UTC+1) is 11:00:04 UTC; the times with a zone are unchanged.
        #expect(fixes.map(\.timeMs) == [1_357_041_600_000, 1_357_038_004_000])
        #expect(summary.notes.keys.contains("time without a zone, read in Europe/Zagreb"))
    }

    @Test func everyFormatSkipsABadRecordTheSameWay() throws {
        let owntracks = try read(
            .owntracks,
            "{\"_type\":\"location\",\"tst\":\"yesterday\",\"lat\":1,\"lon\":2}\n"
                + "{\"_type\":\"location\",\"tst\":1714810531,\"lat\":45.8,\"lon\":15.9}\n{oops\n")
        #expect(owntracks.fixes.count == 1)
        #expect(
            owntracks.summary.skipped[.unreadable("tst")]?.first.first?.hasPrefix("line 1.tst: expected a number")
                == true)
        #expect(owntracks.summary.skipped[.unreadable("line 3")]?.count == 1)
        let csv = try read(
            .csv, "time,lat,lon,accuracy\n2024-05-04T08:10:00Z,north,15,5\n2024-05-04T08:10:01Z,45,15,NaN\n")
        #expect(csv.fixes.count == 1 && csv.fixes[0].horizontalAccuracyCm == nil)
        #expect(csv.summary.skippedCounts == ["unreadable lat": 1])
        #expect(csv.summary.valuesDropped["accuracy_m: not a number"]?.first == ["line 3"])
        let overland = try read(
            .overland,
            #"{"locations":[{"properties":{"timestamp":"May 4th"}},"#
                + #"{"geometry":{"type":"Point","coordinates":[15.9,45.8]},"properties":{"timestamp":"2024-05-04T08:10:00Z"}}]}"#
        )
        #expect(overland.fixes.count == 1 && overland.summary.skippedCounts == ["unreadable timestamp": 1])
        let geojson = try read(
            .geojson,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":["15.9","45.8"]},"properties":{"timestamp":1714810200}},"#
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]},"properties":{"time":"2024-05-04T08:10:00Z"}}]}"#
        )
        #expect(geojson.fixes.map(\.latitudeE7) == [458_000_000] && geojson.fixes.map(\.timeMs) == [1_714_810_200_000])
        #expect(geojson.summary.skippedCounts == ["unreadable coordinates": 1])
    }

    @Test func millisecondsWhereSecondsBelongGetAHint() throws {
        let (_, summary) = try read(.owntracks, #"{"_type":"location","tst":1714810531000,"lat":45.8,"lon":15.9}"#)
        #expect(summary.skipped[.timeLooksLikeMilliseconds]?.count == 1)
        #expect(summary.text.contains("in range if the number were milliseconds"))
    }

    // MARK: - CSV as people write it

    @Test func csvHeaderAliasesUnitsAndUnusedColumns() throws {
        let csv = """
            "No","Lat","Lng","Elevation (ft)","Speed (km/h)","Bearing","Satellites","Timestamp_ms"
            1,45.5,15.5,1000,36,90,7,1714810200123
            """
        let (fixes, summary) = try read(.csv, csv)
        let fix = try #require(fixes.first)
        #expect(fix.timeMs == 1_714_810_200_123)
        #expect(fix.altitudeCm == 30_480 && fix.speedCmS == 1000 && fix.courseCdeg == 9000)
        #expect(summary.notes.keys.contains("columns not used: No, Satellites"))
        #expect(summary.notes.keys.contains("Speed (km/h) read as km/h"))
        #expect(summary.notes.keys.contains("Elevation (ft) read as feet"))
    }

    @Test func csvDelimitersDecimalCommasAndQuotedLineBreaks() throws {
        let semicolons = "latitude;longitude;time;accuracy\n45,81;15,97;2024-05-04 08:10:00;12,5\n"
        let fix = try #require(try read(.csv, semicolons).fixes.first)
        #expect(fix.latitudeE7 == 458_100_000 && fix.longitudeE7 == 159_700_000 && fix.horizontalAccuracyCm == 1250)
        let tabs = "time\tlat\tlon\n1714810200\t45.8\t15.9\n"
        #expect(try read(.csv, tabs).fixes.first?.timeMs == 1_714_810_200_000)
        // A quoted note over three lines: the next row is line 5, not line 3.
        let multiline =
            "time,lat,lon,note\n2024-05-04T08:10:00Z,45,15,\"one\ntwo\nthree\"\n2024-05-04T08:10:01Z,95,15,x\n"
        #expect(try read(.csv, multiline).summary.skipped[.positionOutOfRange]?.first == ["line 5"])
        #expect(strictError(.csv, multiline)?.location == "line 5")
    }

    @Test func anUnclosedQuoteIsCountedNotLostWithoutAWord() throws {
        let rows = (0..<20).map { "2024-05-04T08:10:\(String(format: "%02d", $0))Z,45.8,15.9,x" }
        let csv = "time,lat,lon,note\n2024-05-04T08:09:00Z,45.8,15.9,\"open\n" + rows.joined(separator: "\n") + "\n"
        let (fixes, summary) = try read(.csv, csv)
        #expect(fixes.isEmpty)
        let tally = try #require(summary.skipped.first { $0.key.code == "unclosed-quote" }?.value)
        #expect(tally.count == 1 && tally.first == ["line 2: a cell runs over 22 lines, to line 23"])
        #expect(strictError(.csv, csv)?.location == "line 2")
    }

    @Test func csvTimesAndCoordinatesInEveryWritingFound() throws {
        let csv = """
            date,time,latitude,longitude,N/S,E/W
            2008/11/12,10:59:15,45.5,15.5,S,W
            090404,063510,45.5N,015.5W,,
            2024-05-04,08:10:00.5,N45.5,E15.5,,
            """
        let fixes = try read(.csv, csv).fixes
        #expect(fixes.map(\.timeMs) == [1_226_487_555_000, 1_238_826_910_000, 1_714_810_200_500])
        #expect(fixes.map(\.latitudeE7) == [-455_000_000, 455_000_000, 455_000_000])
        #expect(fixes.map(\.longitudeE7) == [-155_000_000, -155_000_000, 155_000_000])
        let e7 = try read(.csv, "time,latitudeE7,longitudeE7\n1714810200,458130987,159772031\n")
        #expect(e7.fixes.first?.latitudeE7 == 458_130_987 && e7.fixes.first?.longitudeE7 == 159_772_031)
        let guessedE7 = try read(.csv, "time,lat,lon\n1714810200,458130987,159772031\n")
        #expect(guessedE7.fixes.first?.latitudeE7 == 458_130_987)
        #expect(guessedE7.summary.notes.keys.contains("latitude read as integers in 1e-7 degree"))
        // Seconds and milliseconds told apart by magnitude, and said so.
        let unix = try read(.csv, "time,lat,lon\n1714810200,45,15\n1714810201500,45,15\n")
        #expect(unix.fixes.map(\.timeMs) == [1_714_810_200_000, 1_714_810_201_500])
        #expect(unix.summary.notes.keys.contains("time numbers read as Unix milliseconds (1e11 and above)"))
        #expect(unix.summary.notes.keys.contains("time numbers read as Unix seconds (below 1e11)"))
    }

    @Test func csvWithoutAPositionOrTimeColumnSaysWhatItLookedFor() {
        let error = strictError(.csv, "when,where\n1,2\n")
        #expect(error?.message.contains("no column for latitude and longitude among \"when\", \"where\"") == true)
        let missing = strictError(.csv, "stamp,lat,lon\n1,2,3\n")
        #expect(missing?.message.contains("no column for a time among \"stamp\", \"lat\", \"lon\"") == true)
    }

    @Test func csvExportReadsBackExactly() throws {
        let data = try Data(
            contentsOf: RepositoryData.repository.appendingPathComponent("examples/interchange/track.csv"))
        let batch = try ImportFormat.csv.importBatch(data, deviceId: "m").batch
        let written = try ExportFormat.csv.write(batch)
        let back = try ImportFormat.csv.importBatch(written, deviceId: "m").batch
        #expect(back.fixes == batch.fixes)
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("time,latitude,longitude,accuracy_m,altitude_m,"))
    }

    // MARK: - Detection and errors that point the right way

    @Test(arguments: [
        ("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">", ImportFormat.gpx),
        (#"{"locations":[{"type":"Feature","geometry":{}}]}"#, .overland),
        (#"[{"_type":"location","tst":1}]"#, .owntracks),
        (#"{"count":1,"data":[{"tst":1,"lat":1,"lon":2}]}"#, .owntracks),
        ("2024-05-04T08:10:00Z\t*\t{\"_type\":\"location\"}", .owntracks),
        (#"{"type": "FeatureCollection", "features": []}"#, .geojson),
        ("\u{FEFF}time;lat;lon\n", .csv),
    ])
    func formatsAreDetectedFromTheContent(text: String, format: ImportFormat) {
        #expect(FormatDetection.detect(Data(text.utf8))?.format == format)
    }

    @Test func aWrongFormatSaysWhichWasTriedAndSuggestsTheLikelyOne() {
        let gpx = Data("<?xml version=\"1.0\"?>\n<gpx><trk><trkseg></trkseg></trk></gpx>\n".utf8)
        do throws(InterchangeError) {
            _ = try ImportFormat.geojson.read(gpx)
            Issue.record("GeoJSON read GPX")
        } catch {
            #expect(error.message.hasPrefix("not valid GeoJSON (read as --from geojson): not valid JSON"))
            #expect(error.message.hasSuffix("the content looks like GPX (root element <gpx>): try --from gpx"))
        }
        // OwnTracks lines are read one by one, so a GPX file is lines it skips; the refusal still says why.
        do throws(InterchangeError) {
            _ = try ImportFormat.owntracks.importBatch(gpx, deviceId: "d")
            Issue.record("OwnTracks read GPX")
        } catch {
            #expect(error.message.hasPrefix("no point could be imported as OwnTracks; the content looks like GPX"))
        }
    }

    @Test func blankLinesBeforeTheXMLDeclarationAreNotAnError() throws {
        let gpx =
            "\n\n<?xml version=\"1.0\"?>\n<gpx><trk><trkseg>\n"
            + "<trkpt lat=\"45\" lon=\"14\"><time>2013-01-01T12:00:00Z</time></trkpt>\n</trkseg></trk></gpx>"
        let (fixes, summary) = try read(.gpx, gpx)
        #expect(fixes.count == 1 && summary.skipped.isEmpty)
        let broken = "\n<?xml version=\"1.0\"?>\n<gpx>\n<trk>\n</trk>\n<trk a=\"1\" a=\"2\"></trk></gpx>"
        let error = strictError(.gpx, broken)
        #expect(error?.location == "line 6")
        #expect(error?.message.hasSuffix("not well-formed XML: an attribute appears twice (libxml2 error 42)") == true)
        #expect(strictError(.gpx, "\n\n<gpx>\n<trk></gpx>")?.location == "line 4")
    }

    // MARK: - From import to behaviour

    @Test func elapsedFromTimeGivesTheConventionSimulateUses() throws {
        let data = Data(
            "time,lat,lon\n2024-05-04T08:10:05Z,45.8,15.9\n2024-05-04T08:10:00Z,45.8,15.9\n".utf8)
        let (batch, _) = try ImportFormat.csv.importBatch(
            data, deviceId: "d", options: ImportOptions(elapsedFromTime: true))
        #expect(batch.bootId == 1)
        #expect(batch.fixes.map(\.elapsedRealtimeMs) == [3_600_000, 3_605_000])
        let plain = try ImportFormat.csv.importBatch(data, deviceId: "d").batch
        #expect(plain.bootId == 0 && plain.fixes.allSatisfy { $0.elapsedRealtimeMs == nil })
    }
}

/// The hand-written ISO 8601 reader: what it accepts, what it refuses, and zones.
@Suite struct ISO8601TimeTests {
    @Test(arguments: [
        ("2024-05-04T08:10:00Z", 1_714_810_200_000 as Int64?), ("2024-05-04t08:10:00z", 1_714_810_200_000),
        ("2024-05-04T10:10:00+02:00", 1_714_810_200_000), ("2024-05-04T10:10:00+0200", 1_714_810_200_000),
        ("2024-05-04T06:10:00-02", 1_714_810_200_000), ("2024-05-04 08:10:00.0005Z", 1_714_810_200_001),
        ("2024/05/04 08:10", 1_714_810_200_000), (" 2024-05-04T08:10:00.123456789Z\n", 1_714_810_200_123),
        ("2000-02-29T00:00:00Z", 951_782_400_000), ("1969-12-31T23:59:59Z", -1000),
        ("2024-05-04T08:10:00Z,45", nil), ("2023-02-29T00:00:00Z", nil), ("2024-05-04T24:00:00Z", nil),
        ("2024-05-04T08:10:60Z", nil), ("2024-5-4T08:10:00Z", nil), ("2024-05-04", nil), ("yesterday", nil),
        ("2024-05-04T08:10:00.Z", nil), ("2024-05-04T08:10:00+25:00", nil), ("", nil),
    ])
    func readsTimes(text: String, milliseconds: Int64?) {
        #expect(ISO8601Time().milliseconds(text) == milliseconds)
    }

    @Test func zonelessTimesAreCountedAndReadInTheAssumedZone() throws {
        let times = ISO8601Time(assumedZone: try #require(TimeZone(identifier: "America/New_York")))
        #expect(times.milliseconds("2024-07-01T12:00:00") == 1_719_849_600_000)  // EDT, UTC-4
        #expect(times.milliseconds("2024-01-01T12:00:00") == 1_704_128_400_000)  // EST, UTC-5
        #expect(times.milliseconds("2024-01-01T12:00:00Z") == 1_704_110_400_000)
        #expect(times.assumedZoneCount == 2)
    }

    @Test func agreesWithFoundationOnRandomTimes() {
        var random = SeededRandom(seed: 7)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let times = ISO8601Time()
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: 0...4_102_444_799_999, using: &random)
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            let parsed = formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
            #expect(times.milliseconds(text) == parsed, "\(text)")
        }
    }
}
