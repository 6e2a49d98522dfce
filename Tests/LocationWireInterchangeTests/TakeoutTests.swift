import Foundation
import LocationWire
@testable import LocationWireInterchange
import LocationWireTestSupport
import Testing

/// Google Takeout location history (``TakeoutFormat``): Records.json, Semantic Location History and the on-device
/// Timeline export (Android and iOS), read from the real files in conformance/data/interchange and from small
/// strings. The counts were made by hand from each file's content, with `python3 -c` over `json.load` (the
/// comment above each file's line says what was counted); `scripts/judges/takeout_judge.py`, a separate Python reading
/// of the same rules, gives the same fixes and counts (``judgeAgrees(file:)``).
@Suite struct TakeoutTests {
    static let folder = RepositoryData.repository.appendingPathComponent("conformance/data/interchange")

    static let waypoint = "waypoint without a time (waypointPath): a road position, not a fix"
    static let parking = "parkingEvent: an inferred parking place at the segment's end"
    static let childVisit = "child visit: a place within a visit that is imported"
    static let emptyEnd = "activitySegment startLocation or endLocation without a position"

    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var read: Int
        var imported: Int
        var skipped: [String: Int] = [:]
        var description: String { file }
    }

    static let files: [Expected] = [
        // 12 elements of "locations", each with latitudeE7, longitudeE7 and timestamp.
        Expected(file: "takeout-records.json", read: 12, imported: 12),
        // 9 activitySegments with both ends (18) + 9 placeVisits = 27 fixes; no simplifiedRawPath. Counted: 21
        // waypoints, 8 parkingEvents (object 15 has none), 1 childVisits entry (object 17).
        Expected(
            file: "takeout-semantic-2021-august.json", read: 57, imported: 27,
            skipped: [waypoint: 21, parking: 8, childVisit: 1]),
        // 60 activitySegments: 25 startLocations and 25 endLocations with coordinates (35 of each are {}), 44
        // simplifiedRawPath points; 36 placeVisits, all with a location, and 39 points in their raw paths:
        // 25 + 25 + 44 + 36 + 39 = 169. Counted: 70 empty ends, 145 waypoints.
        Expected(
            file: "takeout-semantic-2013-may.json", read: 384, imported: 169, skipped: [waypoint: 145, emptyEnd: 70]),
        // 20 semanticSegments: 8 timelinePaths of 80 points in all, 7 visits of which one has hierarchyLevel 1
        // (6 fixes), 5 activities with start and end (10); 5 rawSignals: 3 positions, 2 wifiScans.
        // 80 + 6 + 10 + 3 = 99.
        Expected(
            file: "takeout-timeline-android.json", read: 102, imported: 99,
            skipped: [childVisit: 1, "wifiScan raw signal: not a position": 2]),
        // 50 elements: 26 visits (one with hierarchyLevel "1") and 24 activities with start and end: 25 + 48.
        Expected(file: "takeout-timeline-ios.json", read: 74, imported: 73, skipped: [childVisit: 1]),
        // 4 elements: 1 visit, 2 timelinePaths of 1 and 9 points, 1 timelineMemory.
        Expected(
            file: "takeout-timeline-ios-timelinepath.json", read: 12, imported: 11,
            skipped: ["timelineMemory: a trip summary without positions": 1]),
    ]

    static func read(
        _ data: Data, _ options: ImportOptions = ImportOptions()
    ) throws(InterchangeError) -> PointConverter {
        var converter = PointConverter(options: options)
        try TakeoutFormat.read(ImportInput(data), &converter)
        return converter
    }

    static func read(
        _ text: String, _ options: ImportOptions = ImportOptions()
    ) throws(InterchangeError)
        -> PointConverter
    {
        try read(Data(text.utf8), options)
    }

    static func file(_ name: String) throws -> PointConverter {
        try read(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test(arguments: files)
    func realFileCounts(expected: Expected) throws {
        let converter = try Self.file(expected.file)
        #expect(converter.summary.pointsRead == expected.read)
        #expect(converter.summary.imported == expected.imported)
        #expect(converter.summary.skippedCounts == expected.skipped)
        #expect(converter.summary.valuesDropped.isEmpty)
        // One continuous history: Google's segments and visits are not recording breaks (§trace-segments).
        #expect(converter.origins.allSatisfy { $0.segment == 0 })
        // Every record left out is one that is not a point, which --strict does not refuse.
        let strict = try Self.read(
            try Data(contentsOf: Self.folder.appendingPathComponent(expected.file)), ImportOptions(strict: true))
        #expect(strict.fixes == converter.fixes)
    }

    @Test func recordsFixes() throws {
        let converter = try Self.file("takeout-records.json")
        // locations[0]: 437789954, -794176419, accuracy 30, WIFI, deviceTag 1433424142, 2015-10-10T18:47:02.597Z
        let first = converter.fixes[0]
        #expect(first.timeMs == 1_444_502_822_597 && first.latitudeE7 == 437_789_954)
        #expect(first.longitudeE7 == -794_176_419 && first.horizontalAccuracyCm == 3000)
        #expect(first.source == .network && first.motionActivity == .unspecified)
        // locations[4]: source UNKNOWN (left unset), accuracy 997.
        #expect(converter.fixes[4].source == .unspecified && converter.fixes[4].horizontalAccuracyCm == 99_700)
        // Two devices: deviceTag 1433424142 and, at locations[6] and [9], -663413243.
        #expect(converter.origins[0] == PointOrigin(segment: 0, device: "1433424142"))
        #expect(converter.origins[6] == PointOrigin(segment: 0, device: "-663413243"))
        #expect(converter.origins.filter { $0.device == "-663413243" }.count == 2)
        #expect(
            converter.summary.notes.keys.sorted() == [
                "\"activity\" of Records (activity recognition with its own times) not used"
            ])
    }

    @Test func semanticFixes() throws {
        let august = try Self.file("takeout-semantic-2021-august.json")
        // timelineObjects[0].activitySegment.startLocation at duration.startTimestamp 2021-08-01T00:22:28Z,
        // IN_PASSENGER_VEHICLE; then its endLocation at 01:22:24Z; then the placeVisit of [1] at its start.
        let start = august.fixes[0]
        #expect(start.timeMs == 1_627_777_348_000 && start.latitudeE7 == 436_996_461)
        #expect(start.longitudeE7 == -798_555_542 && start.motionActivity == .inVehicle && start.reason == .unspecified)
        #expect(august.fixes[1].timeMs == 1_627_780_944_000 && august.fixes[1].latitudeE7 == 438_870_938)
        let visit = august.fixes[2]
        #expect(visit.reason == .visit && visit.motionActivity == .unspecified)
        #expect(
            visit.timeMs == 1_627_780_944_000 && visit.latitudeE7 == 438_865_167 && visit.longitudeE7 == -790_179_014)
        #expect(
            august.summary.skipped[.notAPoint(Self.waypoint)]?.first.first
                == "timelineObjects[0].activitySegment.waypointPath.waypoints[0]")

        let may = try Self.file("takeout-semantic-2013-may.json")
        // timelineObjects[0] is a placeVisit at 374850711, -1221474242 from 2013-05-09T01:24:28.883Z, with 23
        // simplifiedRawPath points, the first 374335782, -1221388493, accuracyMeters 33, 02:22:15.145Z.
        #expect(may.fixes[0].timeMs == 1_368_062_668_883 && may.fixes[0].reason == .visit)
        #expect(may.fixes[0].latitudeE7 == 374_850_711 && may.fixes[0].longitudeE7 == -1_221_474_242)
        let raw = may.fixes[1]
        #expect(raw.timeMs == 1_368_066_135_145 && raw.latitudeE7 == 374_335_782 && raw.longitudeE7 == -1_221_388_493)
        #expect(raw.horizontalAccuracyCm == 3300 && raw.reason == .unspecified)
        // Only timelineObjects[15] has an activityType, UNKNOWN_ACTIVITY_TYPE: its start, 1 raw point and end.
        #expect(may.fixes.filter { $0.motionActivity == .unknown }.count == 3)
        #expect(
            may.summary.skipped[.notAPoint(Self.emptyEnd)]?.first.first
                == "timelineObjects[1].activitySegment.startLocation")
    }

    @Test func timelineFixes() throws {
        let android = try Self.file("takeout-timeline-android.json")
        // semanticSegments[0].timelinePath[0]: "-27.4127738°, 163.5638958°" at 2017-05-02T12:12:00+10:00.
        let path = android.fixes[0]
        #expect(
            path.timeMs == 1_493_691_120_000 && path.latitudeE7 == -274_127_738 && path.longitudeE7 == 1_635_638_958)
        // semanticSegments[1].visit: "-27.4130260°, 163.5643862°" from 12:12:04+10:00.
        let visit = android.fixes[1]
        #expect(visit.reason == .visit && visit.timeMs == 1_493_691_124_000 && visit.latitudeE7 == -274_130_260)
        // semanticSegments[4].activity: CYCLING.
        #expect(android.fixes.filter { $0.motionActivity == .cycling }.count == 8)
        #expect(android.fixes.filter { $0.motionActivity == .inVehicle }.count == 2)  // MOTORCYCLING
        // rawSignals[0].position: -27.4129293°, 163.5639147°, 11 m, 46.70000076293945 m, WIFI, 0 m/s, 06:31:35+10:00.
        let signal = try #require(android.fixes.first { $0.timeMs == 1_752_870_695_000 })
        #expect(signal.latitudeE7 == -274_129_293 && signal.longitudeE7 == 1_635_639_147)
        #expect(signal.horizontalAccuracyCm == 1100 && signal.altitudeCm == 4670 && signal.speedCmS == 0)
        #expect(signal.source == .network)
        // rawSignals[4]: GPS, 3 m, 0.009628270752727985 m/s.
        let gps = try #require(android.fixes.last)
        #expect(gps.timeMs == 1_752_870_723_000 && gps.source == .gnss && gps.horizontalAccuracyCm == 300)
        #expect(gps.speedCmS == 1)
        #expect(android.summary.skipped[.notAPoint(Self.childVisit)]?.first == ["semanticSegments[17].visit"])

        let ios = try Self.file("takeout-timeline-ios.json")
        // [0].activity: "in passenger vehicle" from geo:55.5963490,24.7405147 (13:32:18+01:00) to
        // geo:55.6054870,24.7648727 (13:39:37+01:00); [1].visit at geo:55.6058430,24.7647107 from 13:39:37.
        #expect(ios.fixes[0].timeMs == 1_703_680_338_000 && ios.fixes[0].latitudeE7 == 555_963_490)
        #expect(ios.fixes[0].longitudeE7 == 247_405_147 && ios.fixes[0].motionActivity == .inVehicle)
        #expect(ios.fixes[1].timeMs == 1_703_680_777_000 && ios.fixes[1].longitudeE7 == 247_648_727)
        #expect(ios.fixes[2].reason == .visit && ios.fixes[2].latitudeE7 == 556_058_430)

        let paths = try Self.file("takeout-timeline-ios-timelinepath.json")
        // [0].visit geo:27.720022,-97.347951 from 15:48:56.000-05:00; [1].timelinePath[0] 49 minutes after
        // 20:00:00.000Z (20:49:00Z); [3].timelinePath: 9 points from 22:00:00.000Z + 4 minutes.
        #expect(paths.fixes[0].timeMs == 1_693_169_336_000 && paths.fixes[0].latitudeE7 == 277_200_220)
        #expect(paths.fixes[0].longitudeE7 == -973_479_510 && paths.fixes[0].reason == .visit)
        #expect(paths.fixes[1].timeMs == 1_693_169_340_000 && paths.fixes[1].latitudeE7 == 277_200_070)
        #expect(paths.fixes[2].timeMs == 1_693_173_600_000 + 4 * 60_000)
    }

    // MARK: - Small files

    @Test func recordsWithTimestampMs() throws {
        let converter = try Self.read(
            #"{"locations":[{"timestampMs":"1444502822597","latitudeE7":437789954,"longitudeE7":-794176419,"#
                + #""accuracy":30,"altitude":120,"verticalAccuracy":3,"velocity":2.5,"heading":90,"source":"GPS","#
                + #""deviceTag":7},{"timestampMs":1444502823000,"latitudeE7":437789954,"longitudeE7":-794176419,"#
                + #""source":"BLUETOOTH"}]}"#)
        let fix = try #require(converter.fixes.first)
        #expect(fix.timeMs == 1_444_502_822_597 && fix.latitudeE7 == 437_789_954 && fix.longitudeE7 == -794_176_419)
        #expect(fix.horizontalAccuracyCm == 3000 && fix.altitudeCm == 12_000 && fix.verticalAccuracyCm == 300)
        #expect(fix.speedCmS == 250 && fix.courseCdeg == 9000 && fix.source == .gnss)
        #expect(converter.origins[0].device == "7" && converter.origins[1].device == nil)
        // A number works as well; an unknown source is left out and counted.
        #expect(converter.fixes[1].timeMs == 1_444_502_823_000 && converter.fixes[1].source == .unspecified)
        #expect(converter.summary.valuesDroppedCounts == ["source: value not mapped": 1])
        // Milliseconds by definition: no magnitude rule, so no note.
        #expect(converter.summary.notes.isEmpty)
    }

    static let badRecords = """
        {"locations":[
        {"timestamp":"2015-10-10T18:47:02.597Z","latitudeE7":437789954,"longitudeE7":-794176419},
        {"timestamp":"2015-10-10T18:48:02.597Z","latitudeE7":"north","longitudeE7":-794176419},
        {"timestamp":"yesterday","latitudeE7":437789954,"longitudeE7":-794176419},
        {"timestamp":"2015-10-10T18:50:02.597Z","latitudeE7":4233738877,"longitudeE7":-794176419},
        {"timestampMs":"1444502822597","latitudeE7":437789954},
        7
        ]}
        """

    @Test func aBadRecordIsSkippedWithItsLocation() throws {
        let converter = try Self.read(Self.badRecords)
        #expect(converter.fixes.count == 1 && converter.summary.pointsRead == 6)
        #expect(
            converter.summary.skippedCounts == [
                "unreadable latitudeE7": 1, "unreadable timestamp": 1, "position out of range": 1, "no position": 1,
                "unreadable locations[5]": 1,
            ])
        #expect(
            converter.summary.skipped[.unreadable("latitudeE7")]?.first == [
                "locations[1].latitudeE7: expected a number, found \"north\""
            ])
        #expect(
            converter.summary.skipped[.unreadable("timestamp")]?.first == [
                "locations[2].timestamp: \"yesterday\" is not ISO 8601"
            ])
        // An int32 that overflowed (4233738877 - 2^32 would be -61228419) is not repaired.
        #expect(converter.summary.skipped[.positionOutOfRange]?.first == ["locations[3]"])
        #expect(
            converter.summary.skipped[.unreadable("locations[5]")]?.first == [
                "locations[5]: expected an object, found 7"
            ])

        do {
            _ = try Self.read(Self.badRecords, ImportOptions(strict: true))
            Issue.record("--strict accepted a bad record")
        } catch {
            #expect(error.location == "locations[1].latitudeE7" && error.refusedByStrict)
            #expect(error.message.hasPrefix("expected a number, found \"north\""))
        }
    }

    @Test func aPositionTextThatIsNotAPosition() throws {
        let text = """
            {"semanticSegments":[{"startTime":"2024-05-04T10:00:00+02:00","endTime":"2024-05-04T11:00:00+02:00",
            "timelinePath":[{"point":"48.1234567°; 11.5678901°","time":"2024-05-04T10:01:00+02:00"},
            {"point":"48.1234567°, 11.5678901°","time":"2024-05-04T10:02:00+02:00"}]}]}
            """
        let converter = try Self.read(text)
        #expect(
            converter.fixes.map(\.latitudeE7) == [481_234_567] && converter.fixes.map(\.longitudeE7) == [115_678_901])
        #expect(converter.fixes.map(\.timeMs) == [1_714_809_720_000])
        let skipped = try #require(converter.summary.skipped[.unreadable("point")]?.first.first)
        #expect(skipped.hasPrefix("semanticSegments[0].timelinePath[0].point: \"48.1234567°; 11.5678901°\" is not"))

        #expect(try TakeoutFormat.position("geo:48.1,11.5", "") == (481_000_000, 115_000_000))
        #expect(try TakeoutFormat.position("-27.4127738°, 163.5638958°", "") == (-274_127_738, 1_635_638_958))
        #expect(try TakeoutFormat.position(" 48 , +11.5° ", "") == (480_000_000, 115_000_000))
        // More than 7 decimals reach the converter unrounded (it rounds and counts).
        #expect(try TakeoutFormat.position("geo:48.12345678,-0.00000005", "") == (481_234_567.8, -0.5))
        for bad in ["48.1", "geo:48.1,11.5,300", "north, east", "1e3, 2", ".5, 1", "48., 1", "geo:48.1;11.5", ""] {
            #expect(throws: InterchangeError.self, "\(bad)") { try TakeoutFormat.position(bad, "") }
        }
    }

    @Test func emptyAndForeignFiles() throws {
        let empty = try Self.read(#"{"locations":[]}"#)
        #expect(empty.fixes.isEmpty && empty.summary.pointsRead == 0 && empty.summary.skipped.isEmpty)
        #expect(try Self.read("[]").summary.pointsRead == 0)
        for foreign in [#"{"type":"FeatureCollection","features":[]}"#, #"[{"lat":1,"lon":2}]"#, "[1,2]"] {
            do {
                _ = try Self.read(foreign)
                Issue.record("read \(foreign) as Takeout")
            } catch {
                #expect(error.location.isEmpty && error.message.contains("not"), "\(error)")
            }
        }
        // An Overland upload's "locations" read as records without a time or position.
        let overland = try Self.read(#"{"locations":[{"type":"Feature"}]}"#)
        #expect(overland.summary.skippedCounts == ["no time": 1])
    }

    @Test func activityTypesAndUnusualShapes() throws {
        let text = """
            {"timelineObjects":[
            {"activitySegment":{"startLocation":{"latitudeE7":450000000,"longitudeE7":150000000},
              "endLocation":{"latitudeE7":450010000,"longitudeE7":150010000},"activityType":"FLYING",
              "duration":{"startTimestampMs":"1600000000000","endTimestampMs":"1600000600000"},
              "simplifiedRawPath":{"points":[{"latE7":450005000,"lngE7":150005000,"timestampMs":"1600000300000",
              "accuracyMeters":12}]}}},
            {"placeVisit":{"location":{"placeId":"x"},"duration":{"startTimestamp":"2020-09-13T12:30:00Z"}}},
            {"placeVisit":{"location":{"latitudeE7":450010000,"longitudeE7":150010000},
              "duration":{"startTimestamp":"2020-09-13T12:40:00Z","endTimestamp":"2020-09-13T13:00:00Z"}}},
            {"activitySegment":{"startLocation":{"latitudeE7":450010000,"longitudeE7":150010000},
              "activityType":"WALKING","duration":{"startTimestamp":"2020-09-13T13:00:00Z"}}},
            {"somethingElse":{}}
            ]}
            """
        let converter = try Self.read(text)
        #expect(
            converter.fixes.map(\.timeMs) == [
                1_600_000_000_000, 1_600_000_300_000, 1_600_000_600_000, 1_600_000_800_000, 1_600_002_000_000,
            ])
        #expect(
            converter.fixes.map(\.motionActivity) == [.unspecified, .unspecified, .unspecified, .unspecified, .walking])
        #expect(converter.fixes[1].horizontalAccuracyCm == 1200)
        #expect(converter.summary.valuesDroppedCounts == ["motion_activity: value not mapped": 3])
        #expect(
            converter.summary.skippedCounts == [
                "placeVisit without a position": 1, "timeline object without an activitySegment or placeVisit": 1,
            ])
    }

    // MARK: - The independent reading

    static let python = "/usr/bin/python3"

    /// `scripts/judges/takeout_judge.py --summary FILE` prints the fixes it expects, in time order, and its counts.
    @Test(arguments: files.map(\.file))
    func judgeAgrees(file: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [
            RepositoryData.repository.appendingPathComponent("scripts/judges/takeout_judge.py").path, "--summary",
            Self.folder.appendingPathComponent(file).path,
        ]
        let output = Pipe()
        let summaryPipe = Pipe()
        process.standardOutput = output
        process.standardError = summaryPipe
        try process.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let summaryText = String(decoding: summaryPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let converter = try Self.file(file)
        let swift = converter.fixes.enumerated().sorted {
            ($0.element.timeMs, $0.offset) < ($1.element.timeMs, $1.offset)
        }
        .map { entry in
            let fix = entry.element
            return [
                "time_ms": fix.timeMs, "latitude_e7": Int64(fix.latitudeE7 ?? 0),
                "longitude_e7": Int64(fix.longitudeE7 ?? 0),
                "horizontal_accuracy_cm": fix.horizontalAccuracyCm.map(Int64.init),
            ] as [String: Int64?]
        }
        let judged = lines.split(separator: "\n").map { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            return object.mapValues { ($0 as? NSNumber)?.int64Value } as [String: Int64?]
        }
        #expect(judged == swift)
        let summary = try JSONSerialization.jsonObject(with: Data(summaryText.utf8)) as? [String: Any]
        #expect(summary?["read"] as? Int == converter.summary.pointsRead)
        #expect(summary?["imported"] as? Int == converter.summary.imported)
    }
}
