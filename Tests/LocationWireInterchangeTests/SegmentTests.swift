import Foundation
import LocationWire
import LocationWireInterchange
import LocationWireTestSupport
import LocationWireValidation
import Testing

/// Structure kept (`§trace-segments`): recording segments become LAUNCHED lifecycle events, which stats, export
/// and the picture respect; files of several devices are split, not merged; `--split-by` segment and day.
@Suite struct SegmentTests {
    static let folder = RepositoryData.repository.appendingPathComponent("conformance/data/interchange")

    func launched(_ time: Int64) -> LifecycleEvent {
        var event = LifecycleEvent()
        event.kind = .launched
        event.timeMs = time
        return event
    }

    @Test func breaksFallWhereRecordingStartedOrEnded() {
        var terminated = LifecycleEvent()
        terminated.kind = .terminated
        terminated.timeMs = 30
        var foreground = LifecycleEvent()
        foreground.kind = .cameToForeground
        foreground.timeMs = 45
        let times: [Int64] = [10, 20, 30, 40, 50, 60, 200]
        // LAUNCHED at 20 breaks before the fix at 20; TERMINATED at 30 after the fix at 30; coming to the
        // foreground breaks nothing; a gap of 140 ms is longer than 100.
        #expect(
            TraceSegments.breaks(times: times, lifecycleEvents: [launched(20), terminated, foreground], gapMs: 100)
                == [1, 3, 6])
        #expect(TraceSegments.breaks(times: times, lifecycleEvents: [launched(20)]) == [1])
        #expect(TraceSegments.ranges(count: 7, breaks: [1, 3, 6]) == [0..<1, 1..<3, 3..<6, 6..<7])
        #expect(TraceSegments.markers(times: times, starts: [0, 3]).map(\.timeMs) == [40])
    }

    @Test func gpxSegmentsBecomeLaunchedEventsAndSurviveTheRoundTrip() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("gpxpy-cerknicko-multitrack.gpx"))
        let batch = try ImportFormat.gpx.importBatch(data, deviceId: "hike").batch
        // 8 tracks, one of them without points: 7 segments, so 6 events.
        #expect(batch.lifecycleEvents.count == 6 && batch.lifecycleEvents.allSatisfy { $0.kind == .launched })
        #expect(batch.validationReport().isValid)
        let statistics = try TrackStatistics(batch: batch)
        #expect(statistics.segments.map(\.fixes) == [173, 52, 2, 44, 2, 2, 21])
        #expect(abs(statistics.distanceM - statistics.segments.reduce(0) { $0 + $1.distanceM }) < 1e-6)
        var joined = batch
        joined.lifecycleEvents = []
        let unbroken = try TrackStatistics(batch: joined)
        #expect(unbroken.segments.count == 1 && unbroken.distanceM > statistics.distanceM + 1000)
        let gpx = String(decoding: try ExportFormat.gpx.write(batch), as: UTF8.self)
        #expect(gpx.components(separatedBy: "<trkseg>").count - 1 == 7)
        let back = try ImportFormat.gpx.importBatch(Data(gpx.utf8), deviceId: "hike").batch
        #expect(back.lifecycleEvents == batch.lifecycleEvents && back.fixes == batch.fixes)
        // GeoJSON lines are segments too: togeojson's MultiLineString of 3 lines.
        let lines = try Data(contentsOf: Self.folder.appendingPathComponent("togeojson-multilinestring.geojson"))
        #expect(try ImportFormat.geojson.importBatch(lines, deviceId: "d").batch.lifecycleEvents.count == 2)
    }

    static let threeDevices = [
        #"{"_type":"location","tid":"ic","tst":1714810200,"lat":45.80,"lon":15.90}"#,
        #"{"_type":"location","tid":"0E","tst":1714810260,"lat":-33.80,"lon":151.20}"#,
        #"{"_type":"location","tid":"ic","tst":1714810320,"lat":45.81,"lon":15.91}"#,
        #"{"_type":"location","tid":"p1","tst":1714896800,"lat":40.70,"lon":-74.00}"#,
    ].joined(separator: "\n")

    @Test func aFileOfSeveralDevicesIsSplitNotMerged() throws {
        let data = Data(Self.threeDevices.utf8)
        #expect(throws: InterchangeError.self) { try ImportFormat.owntracks.importBatch(data, deviceId: "family") }
        let (batches, _) = try ImportFormat.owntracks.importBatches(data, deviceId: "family", splitBy: .device)
        #expect(batches.map(\.name) == ["ic", "0E", "p1"])
        #expect(batches.map(\.batch.deviceId) == ["family-ic", "family-0E", "family-p1"])
        #expect(batches.map(\.batch.fixes.count) == [2, 1, 1])
        #expect(Set(batches.map(\.batch.installId)).count == 3)
        #expect(batches.allSatisfy { $0.batch.fixes.first?.sequence == 1 && $0.batch.validationReport().isValid })
    }

    @Test func splitsBySegmentAndDayContinueOneInstallation() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("gpxpy-cerknicko-multitrack.gpx"))
        let (segments, _) = try ImportFormat.gpx.importBatches(data, deviceId: "hike", splitBy: .segment)
        #expect(segments.map(\.batch.fixes.count) == [173, 52, 2, 44, 2, 2, 21])
        #expect(segments.first?.name == "segment-1" && segments.allSatisfy { $0.batch.lifecycleEvents.isEmpty })
        let sequences = segments.flatMap { $0.batch.fixes.map(\.sequence) }
        #expect(sequences == Array(1...296).map(UInt64.init))
        #expect(Set(segments.map(\.batch.installId)).count == 1 && Set(segments.map(\.batch.batchId)).count == 7)
        let days = try ImportFormat.owntracks.importBatches(
            Data(
                Self.threeDevices.replacingOccurrences(of: "\"tid\":\"0E\",", with: "").replacingOccurrences(
                    of: "\"tid\":\"p1\",", with: ""
                ).utf8),
            deviceId: "d", options: ImportOptions(timeZone: try #require(TimeZone(identifier: "Asia/Tokyo"))),
            splitBy: .day
        ).batches
        // 08:10 to 08:12 UTC on 4 May is 17:10 to 17:12 in Tokyo; the next day's fix is another batch.
        #expect(days.map(\.name) == ["2024-05-04", "2024-05-05"])
        #expect(days.map { $0.batch.fixes.map(\.sequence) } == [[1, 2, 3], [4]])
    }
}
