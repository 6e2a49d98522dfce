import Foundation
import LocationWire
import LocationWireTestSupport
import LocationWireValidation
import Testing

/// `locwire import` and `export` as a user runs them: exit status 0, 1 for a bad file (naming the line), 2 for a
/// file that cannot be read.
@Suite struct InterchangeCommandTests {
    let cli = CLITests()
    let examples = RepositoryData.repository.appendingPathComponent("examples/interchange").path

    @Test func importThenExportOnTheCommandLine() throws {
        let imported = try cli.run([
            "import", "--from", "overland", "\(examples)/overland.json", "--device-id", "marko",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("read 6 points, imported 6"))
        #expect(imported.stderr.contains("course_cdeg: out of range"))
        let batch = try LocationBatch(serializedBytes: imported.stdout)
        #expect(batch.fixes.count == 6 && batch.validationReport().isValid)
        let exported = try cli.run(["export", "--to", "owntracks"], input: imported.stdout)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.text.hasPrefix("[\n{\"_type\":\"location\""))
        let json = try cli.run(
            ["import", "--from", "owntracks", "--device-id", "m", "--to", "json"], input: exported.stdout)
        #expect(json.status == 0 && json.text.contains("\"deviceId\": \"m\""))
    }

    @Test func waypointsImportAsARegionCatalogueThatPlanReads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waypoints-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gpx = RepositoryData.repository.appendingPathComponent(
            "conformance/data/interchange/expertgps-wpt-rte-trk.gpx"
        ).path
        let catalogue = folder.appendingPathComponent("waypoints.geojson").path
        let routes = folder.appendingPathComponent("routes.geojson").path
        let imported = try cli.run([
            "import", gpx, "--device-id", "hiker", "--output", folder.appendingPathComponent("b.binpb").path,
            "--waypoints", catalogue, "--waypoint-radius-m", "150", "--routes", routes,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("kept 86 waypoints (not fixes)"))
        #expect(imported.stderr.contains("kept 46 route points (not fixes)"))
        // 5066 is the first waypoint of the file, at 42.438878, -71.119277.
        let planned = try cli.run([
            "plan", "--catalogue", catalogue, "--at", "42.438878,-71.119277", "--budget", "3", "--format", "json",
        ])
        #expect(planned.status == 0, "\(planned.stderr)")
        #expect(planned.text.contains("\"id\":\"waypoint:5066\"") && planned.text.contains("\"radiusM\":150"))
        #expect(try String(contentsOfFile: routes, encoding: .utf8).contains("\"type\":\"LineString\""))
        let refused = try cli.run(["import", gpx, "--device-id", "h", "--waypoint-radius-m", "0"])
        #expect(refused.status == 2 && refused.stderr.contains("--waypoint-radius-m must be 1 to 1000000"))
    }

    @Test func summaryJSONIsWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interchange-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = folder.appendingPathComponent("summary.json").path
        let output = folder.appendingPathComponent("batch.binpb").path
        let run = try cli.run([
            "import", "--from", "owntracks", "\(examples)/owntracks.json", "--device-id", "m", "--summary-json",
            summary,
            "--output", output,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any]
        #expect(object?["imported"] as? Int == 7)
        let noTime = (object?["skipped"] as? [String: Any])?["no time"] as? [String: Any]
        #expect(noTime?["count"] as? Int == 1 && noTime?["code"] as? String == "no-time")
        #expect(noTime?["first"] as? [String] == ["[8]"])
        #expect(FileManager.default.fileExists(atPath: output))
    }

    /// From import to behaviour: the real GPX track imported with monotonic times and the accuracy simulate assumes
    /// for GPX records the same fixes under `simulate record` as the GPX file itself.
    @Test func anImportedTrackRecordsAsTheGPXDoes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gpx = RepositoryData.koritaTrack.path
        let batch = folder.appendingPathComponent("korita.binpb").path
        let policy = RepositoryData.repository.appendingPathComponent("examples/walker-policy.json").path
        let imported = try cli.run([
            "import", gpx, "--device-id", "hiker", "--elapsed-from-time", "--default-accuracy-m", "5", "--output",
            batch,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        func recorded(_ trace: String) throws -> [Any] {
            let run = try cli.run(["simulate", "record", "--trace", trace, "--policy", policy])
            #expect(run.status == 0, "\(run.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any]
            return try #require(object?["recorded"] as? [Any])
        }
        let fromBatch = try recorded(batch)
        let fromGPX = try recorded(gpx)
        #expect(fromBatch.count == fromGPX.count && fromBatch.count > 100)
        #expect(
            try JSONSerialization.data(withJSONObject: fromBatch, options: .sortedKeys)
                == JSONSerialization.data(withJSONObject: fromGPX, options: .sortedKeys))
    }

    @Test func badFilesExitOneAndUnreadableFilesTwo() throws {
        let bad = try cli.run(
            ["import", "--from", "owntracks", "--device-id", "m"],
            input: Array("{\"_type\":\"location\"}\n{oops\n".utf8))
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("line 2"))
        let folder = try cli.run(["import", "--from", "gpx", examples, "--device-id", "m"])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("is a directory, not a file"))
        let missing = try cli.run(["export", "--to", "gpx", "\(examples)/no-such-file.binpb"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file"))
        let longId = try cli.run(["import", "--from", "csv", "--device-id", String(repeating: "x", count: 129)])
        #expect(longId.status == 2 && longId.stderr.contains("--device-id"))
        let notABatch = try cli.run(["export", "--to", "gpx", "--from", "binpb"], input: [0xFF, 0xFF, 0xFF])
        #expect(notABatch.status == 1)
    }
}
