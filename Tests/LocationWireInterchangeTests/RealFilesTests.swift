import Foundation
import LocationWire
import LocationWireInterchange
import LocationWireRandom
import LocationWireTestSupport
import LocationWireValidation
import Testing

/// The files other tools wrote (conformance/data/interchange, origins in its SOURCES files), read as a user would:
/// the format detected from the content, every point read and either imported or skipped with a reason, a valid
/// batch. The counts agree with `scripts/judges/import_judge.py`, the independent Python reading (gpxpy for GPX), which
/// CI's interchange step runs on the same files.
@Suite struct RealFilesTests {
    static let folder = RepositoryData.repository.appendingPathComponent("conformance/data/interchange")

    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var format: ImportFormat
        var read: Int
        var imported: Int
        var skipped: [String: Int] = [:]
        var description: String { file }
    }

    static let waypoint = "waypoint (<wpt>): a marked place, not a recorded fix"
    static let route = "route point (<rtept>): a planned route, not a recorded fix"
    static func marker(_ style: String) -> String { "a \(style) marker placemark, not a recorded fix" }

    static let files: [Expected] = [
        Expected(file: "iblue747-logger.csv", format: .csv, read: 747, imported: 747),
        Expected(file: "gpsbabel-mtk-qstarz-bt-q1000xt.csv", format: .csv, read: 585, imported: 585),
        Expected(file: "columbus-v900-basic.csv", format: .csv, read: 14, imported: 14),
        Expected(file: "columbus-v900-advanced.csv", format: .csv, read: 21, imported: 21),
        Expected(file: "columbus-p1-mark2.csv", format: .csv, read: 742, imported: 742),
        Expected(file: "garmin-g1000-datalog.csv", format: .csv, read: 197, imported: 197),
        Expected(file: "gpsbabel-unicsv-garminconnect.csv", format: .csv, read: 68, imported: 68),
        Expected(file: "gpsbabel-unicsv-nmea.csv", format: .csv, read: 19, imported: 19),
        Expected(file: "posmo-segments-semicolon.csv", format: .csv, read: 1327, imported: 1327),
        Expected(file: "google-maps-trackintel-semicolon.csv", format: .csv, read: 416, imported: 416),
        Expected(file: "arc-app-empty-trkseg.gpx", format: .gpx, read: 7, imported: 6, skipped: [waypoint: 1]),
        Expected(
            file: "expertgps-wpt-rte-trk.gpx", format: .gpx, read: 196, imported: 64,
            skipped: [route: 46, waypoint: 86]),
        Expected(file: "garmin-connect-ns3-extension.gpx", format: .gpx, read: 68, imported: 68),
        Expected(file: "garmin-etrex20x-visnjan.gpx", format: .gpx, read: 104, imported: 104),
        Expected(file: "gpsbabel-mtk-gp245-multitrack.gpx", format: .gpx, read: 34, imported: 34),
        Expected(file: "gpsbabel-segmented-tracks.gpx", format: .gpx, read: 46, imported: 4, skipped: ["no time": 42]),
        Expected(file: "gpsbabel-wahoo-element-bolt.gpx", format: .gpx, read: 1101, imported: 1101),
        Expected(file: "gpslogger-android-tpx-v2.gpx", format: .gpx, read: 1, imported: 1),
        Expected(
            file: "gpxpy-cerknicko-multitrack.gpx", format: .gpx, read: 303, imported: 296, skipped: [waypoint: 7]),
        Expected(file: "gpxpy-empty-segment.gpx", format: .gpx, read: 9, imported: 9),
        Expected(
            file: "gpxpy-gpx10-all-fields.gpx", format: .gpx, read: 8, imported: 1, skipped: [route: 5, waypoint: 2]),
        Expected(
            file: "mavi-zoneless-subsecond.gpx", format: .gpx, read: 76, imported: 52,
            skipped: ["no time": 12, waypoint: 12]),
        Expected(file: "nikeplus-subsecond-offset.gpx", format: .gpx, read: 2, imported: 2),
        Expected(file: "osmand-multisegment.gpx", format: .gpx, read: 43, imported: 43),
        Expected(file: "dawarich-ios-points.json", format: .overland, read: 6, imported: 6),
        Expected(file: "gpslogger-points.geojson", format: .geojson, read: 1, imported: 1),
        Expected(file: "togeojson-multilinestring.geojson", format: .geojson, read: 16, imported: 16),
        Expected(file: "togeojson-run-coordtimes.geojson", format: .geojson, read: 206, imported: 206),
        Expected(
            file: "togeojson-gxmultitrack.geojson", format: .geojson, read: 3, imported: 2,
            skipped: ["geometry GeometryCollection is not a Point, LineString or MultiLineString": 1]),
        Expected(file: "gxtrack.kml", format: .kml, read: 7, imported: 7),
        Expected(
            file: "mytracks-gxmultitrack.kml", format: .kml, read: 28, imported: 26,
            skipped: [marker("#start"): 1, marker("#end"): 1]),
        Expected(
            file: "opentracks-gxmultitrack-arraydata.kml", format: .kml, read: 9, imported: 6,
            skipped: [marker("#start"): 1, marker("#end"): 1, marker("#waypoint"): 1]),
        Expected(
            file: "opentracks-gxmultitrack-empty-coords.kml", format: .kml, read: 4, imported: 2,
            skipped: ["no position": 2]),
        Expected(
            file: "skydrop-linestring-timespan.kml", format: .kml, read: 1329, imported: 2,
            skipped: ["no time (a LineString's TimeSpan dates only its first and last coordinate)": 1327]),
        Expected(file: "kml-samples-timestamp-points.kmz", format: .kml, read: 361, imported: 361),
        Expected(
            file: "fitbit-versa-zeroed.tcx", format: .tcx, read: 4, imported: 1,
            skipped: ["no position": 2, "position (0, 0), a placeholder": 1]),
        Expected(
            file: "garmin-edge520-connect.tcx", format: .tcx, read: 317, imported: 316, skipped: ["no position": 1]),
        Expected(file: "garmin-forerunner305.tcx", format: .tcx, read: 19, imported: 17, skipped: ["no position": 2]),
        Expected(
            file: "owntracks-ios-2024-03.rec", format: .owntracks, read: 10, imported: 9,
            skipped: ["not a location message (_type transition)": 1]),
        Expected(
            file: "owntracks-recorder-demo-iphone.rec", format: .owntracks, read: 25, imported: 23,
            skipped: ["not a location message (_type lwt)": 2]),
    ]

    @Test(arguments: files)
    func importsAsDetected(expected: Expected) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(expected.file))
        #expect(FormatDetection.detect(data)?.format == expected.format)
        let (batch, summary) = try expected.format.importBatch(data, deviceId: "real")
        #expect(summary.pointsRead == expected.read)
        #expect(summary.imported == expected.imported)
        #expect(summary.skippedCounts == expected.skipped)
        #expect(batch.fixes.count == expected.imported && batch.validationReport().isValid)
    }

    /// Files import must refuse, with a message that says why.
    @Test(arguments: [
        ("70mai-a810-dashcam.txt", "not a format import reads"), ("android-gnsslogger-pixel7.txt", "no column for"),
        ("gpsbabel-garmin-text-tab.txt", "not UTF-8"), ("gpxpy-route.gpx", "no point could be imported"),
        ("dawarich-export-string-coords.geojson", "no point could be imported"),
        ("tcx-course.tcx", "no point could be imported"),
    ])
    func refusesWithAReason(file: String, reason: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        guard let format = FormatDetection.detect(data)?.format else {
            #expect(reason == "not a format import reads")
            return
        }
        #expect(throws: InterchangeError.self) { try format.importBatch(data, deviceId: "real") }
        do {
            _ = try format.importBatch(data, deviceId: "real")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    /// KML's gx:Track pairs, OpenTracks' speed array, a KMZ's doc.kml, TCX's speed extension and its tracks as
    /// segments (`§trace-segments`).
    @Test func kmlAndTCXValuesConvertExactly() throws {
        func batch(_ file: String, _ format: ImportFormat) throws -> LocationBatch {
            try format.importBatch(try Data(contentsOf: Self.folder.appendingPathComponent(file)), deviceId: "d").batch
        }
        // <when>2010-05-28T02:02:09Z</when> ... <gx:coord>-122.207881 37.371915 156.000000</gx:coord>
        let track = try batch("gxtrack.kml", .kml).fixes[0]
        #expect(track.timeMs == 1_275_012_129_000 && track.longitudeE7 == -1_222_078_810)
        #expect(track.latitudeE7 == 373_719_150 && track.altitudeCm == 15_600)
        let openTracks = try batch("opentracks-gxmultitrack-arraydata.kml", .kml)
        #expect(openTracks.lifecycleEvents.count == 1 && openTracks.fixes.contains { $0.speedCmS != nil })
        let kmz = try batch("kml-samples-timestamp-points.kmz", .kml)
        #expect(kmz.fixes.count == 361 && kmz.validationReport().isValid)
        // <Time>2007-08-07T02:42:41Z</Time> ... <LatitudeDegrees>37.8959665</LatitudeDegrees> ...
        // <AltitudeMeters>3.9826660</AltitudeMeters> ... <ns3:Speed>6.008999824523926</ns3:Speed>
        let forerunner = try batch("garmin-forerunner305.tcx", .tcx)
        let first = try #require(forerunner.fixes.first)
        #expect(first.timeMs == 1_186_454_561_000 && first.latitudeE7 == 378_959_665 && first.altitudeCm == 398)
        #expect(first.speedCmS == 601)
        #expect(forerunner.lifecycleEvents.count == 2)  // three <Track>s
    }

    /// A KMZ cut short or with bytes changed, and KML and TCX that break off, are refused with an error, never a
    /// crash or a partial import.
    @Test func brokenKMZAndXMLAreRefused() throws {
        let kmz = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("kml-samples-timestamp-points.kmz")))
        var random = SeededRandom(seed: 25)
        var refused = 0
        for round in 0..<40 {
            var broken = round % 2 == 0 ? Array(kmz.prefix(Int.random(in: 4..<kmz.count, using: &random))) : kmz
            if round % 2 == 1 {
                for _ in 0..<8 {
                    broken[Int.random(in: 30..<broken.count, using: &random)] = UInt8.random(
                        in: 0...255, using: &random)
                }
            }
            do {
                let batch = try ImportFormat.kml.importBatch(Data(broken), deviceId: "d").batch
                #expect(batch.validationReport().isValid)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 20)
        for (format, text) in [
            (ImportFormat.kml, "<kml><Placemark><gx:Track><when>2010-05-28T02:02:09Z</when>"),
            (.tcx, "<TrainingCenterDatabase><Activities><Activity><Lap><Track><Trackpoint>"),
            (.kml, "<gpx></gpx>"), (.tcx, "<kml></kml>"),
        ] {
            #expect(throws: InterchangeError.self) { try format.read(Data(text.utf8)) }
        }
    }

    /// Values the loggers write in their own units come out in the proto's: the MTK layout's km/h (also written
    /// after the number) and metres, the Columbus logger's YYMMDD and HHMMSS, the G1000's UTC offset column.
    @Test func loggerValuesConvertExactly() throws {
        func first(_ file: String) throws -> LocationFix {
            let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
            return try #require(try ImportFormat.csv.read(data).fixes.first)
        }
        // 2,T,2005/05/01,10:13:04,Unknown,51.311807,N,12.412898,E,146,4.2,... (the first row's speed is 0.0)
        let iblue = try ImportFormat.csv.read(
            try Data(contentsOf: Self.folder.appendingPathComponent("iblue747-logger.csv"))
        ).fixes[1]
        #expect(iblue.timeMs == 1_114_942_384_000 && iblue.latitudeE7 == 513_118_070 && iblue.altitudeCm == 14_600)
        #expect(iblue.speedCmS == 117)  // 4.2 km/h
        // 1,T,2015/07/15,10:53:26.000,SPS,52.634804,N,1.263404,E,-64.153 m,2.081 km/h,2.32,2.09,...
        let qstarz = try first("gpsbabel-mtk-qstarz-bt-q1000xt.csv")
        #expect(qstarz.altitudeCm == -6415 && qstarz.speedCmS == 58 && qstarz.horizontalAccuracyCm == 1045)
        // 68,T,090404,063510,31.765973N,035.206901E,827,12,357,
        let columbus = try first("columbus-v900-basic.csv")
        #expect(columbus.timeMs == 1_238_826_910_000 && columbus.longitudeE7 == 352_069_010)
        #expect(columbus.speedCmS == 333 && columbus.courseCdeg == 35_700)
        // 2014-03-29, 22:50:22,  +00:00, ..., 40.2171326, -111.7177124, ...
        let g1000 = try first("garmin-g1000-datalog.csv")
        #expect(g1000.timeMs == 1_396_133_422_000 && g1000.longitudeE7 == -1_117_177_124)
    }
}
