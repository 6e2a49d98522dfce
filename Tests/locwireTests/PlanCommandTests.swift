import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireGeometry
import LocationWireJSON
import Testing

/// `locwire plan`: GeoJSON and RegionAssignment catalogues, a previous assignment, both output formats, and bad
/// input rejected with the file and the line or field named (exit status 1), never a crash.
extension CLITests {
    static let geoJSONCatalogue = """
        {"type": "FeatureCollection", "features": [
         {"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.54, 47.37]},
          "properties": {"id": "city:zurich", "level": "city", "radius_m": 5000, "notify_on_entry": true}},
         {"type": "Feature", "geometry": {"type": "Polygon",
          "coordinates": [[[8.540, 47.370], [8.545, 47.370], [8.545, 47.374], [8.540, 47.370]]]},
          "properties": {"id": "site:hb", "parent_id": "city:zurich", "level": "site", "priority": 2,
           "notify_on_exit": true}},
         {"type": "Feature", "geometry": {"type": "Point", "coordinates": [179.999, -16.5]},
          "properties": {"id": "site:fiji", "level": 5, "radius_m": 200, "notify_on_entry": true}}
        ]}
        """

    func temporaryFile(_ name: String, _ contents: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-plan-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(contents).write(to: file)
        return file.path
    }

    @Test("locwire plan: a GeoJSON catalogue, as §plan-rank and §plan-refine say; the polygon's circle encloses it")
    func planFromGeoJSON() throws {
        let catalogue = try temporaryFile("catalogue.geojson", Array(Self.geoJSONCatalogue.utf8))
        let outcome = try run([
            "plan", "--catalogue", catalogue, "--at", "47.3715,8.5435", "--budget", "2", "--now", "1700000000000",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let assignment = try RegionAssignment(jsonString: outcome.text)
        #expect(assignment.regions.map(\.id) == ["site:hb", "city:zurich"])
        #expect(assignment.issuedAtMs == 1_700_000_000_000 && assignment.slotBudget == 2)
        let hb = assignment.regions[0]
        let shape = try #require(RegionShape(hb))
        for (latitude, longitude) in zip(hb.polygon!.latitudesE7, hb.polygon!.longitudesE7) {
            #expect(
                SpherePoint(latitudeE7: latitude, longitudeE7: longitude).distanceM(to: shape.center) < shape.radiusM
                    - 0.5)
        }
        // The same plan as the library's, in binary, and then a delta against it.
        let binary = try run(
            [
                "plan", "--catalogue", catalogue, "--at", "47.3715,8.5435", "--budget", "2", "--now", "1700000000000",
                "--format", "binary",
            ])
        #expect(try RegionAssignment(serializedBytes: binary.stdout) == assignment)
        let previous = try temporaryFile("previous.binpb", binary.stdout)
        let again = try run(
            [
                "plan", "--catalogue", catalogue, "--at=47.3715,8.5435", "--budget", "2", "--now", "1700000000001",
                "--previous", previous,
            ])
        let delta = try RegionAssignment(jsonString: again.text)
        #expect(delta.mode == .delta && delta.baseVersion == 1 && delta.assignmentVersion == 2 && delta.regions.isEmpty)
    }

    @Test("locwire plan: a RegionAssignment catalogue in JSON, and --output")
    func planFromAssignment() throws {
        let json = """
            {"assignmentVersion": "3", "regions": [
              {"id": "a:1", "version": "1", "level": "REGION_LEVEL_SITE", "notifyOnEntry": true,
               "circle": {"centerLatitudeE7": 0, "centerLongitudeE7": 0, "radiusM": 100}},
              {"id": "a:2", "version": "1", "level": "REGION_LEVEL_SITE", "notifyOnEntry": true,
               "circle": {"centerLatitudeE7": 0, "centerLongitudeE7": 100000, "radiusM": 100}}]}
            """
        let catalogue = try temporaryFile("catalogue.json", Array(json.utf8))
        let output = catalogue + ".out"
        let outcome = try run([
            "plan", "--catalogue", catalogue, "--at", "0,0", "--budget", "1", "--now", "5", "--output", output,
        ])
        #expect(outcome.status == 0 && outcome.stdout.isEmpty, "\(outcome.stderr)")
        let assignment = try RegionAssignment(jsonUTF8: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(assignment.regions.map(\.id) == ["a:1"])
        #expect(assignment.refresh?.refreshDistanceM != nil)
    }

    @Test(
        "locwire plan: bad catalogues exit 1 naming the file and the line or field",
        arguments: [
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"id": "a:1", "level": "site", "radius_m": "big"}}]}"#,
                "features[0].properties.radius_m"
            ),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"id": "a:1", "level": "site"}}]}"#,
                "features[0].properties.radius_m"
            ),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 95]}, "properties": {"id": "a:1", "level": "site", "radius_m": 5}}]}"#,
                "features[0].geometry.coordinates"
            ),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[1, 2], [1, 3]]]}, "properties": {"id": "a:1", "level": "site"}}]}"#,
                "features[0].geometry.coordinates"
            ),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"level": "site", "radius_m": 5}}]}"#,
                "features[0].properties.id"
            ),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"id": "a:1", "level": "town", "radius_m": 5}}]}"#,
                "features[0].properties.level"
            ),
            ("{\n \"regions\": [\n  {\"id\": \"a:1\", \"circle\": {\"radiusM\": \"x\"}}]}", ":3:"),
            ("{\n \"regions\": [\n  {\"id\": \"a:1\"}]}", "regions[0]"),
            (
                #"{"regions": [{"id": "a:1", "circle": {"centerLatitudeE7": 1, "centerLongitudeE7": 1, "radiusM": 5}}, {"id": "a:1", "circle": {"centerLatitudeE7": 1, "centerLongitudeE7": 1, "radiusM": 5}}]}"#,
                "regions[1]"
            ),
            ("{\"type\": \"FeatureCollection\", \"features\": [", ":1:"),
            ("[1, 2]", ":1:1"),
            ("\u{0a}\u{05}he", "byte"),
        ])
    func planRejectsBadCatalogues(text: String, names: String) throws {
        let catalogue = try temporaryFile("bad-\(abs(text.hashValue)).json", Array(text.utf8))
        let outcome = try run(["plan", "--catalogue", catalogue, "--at", "0,0", "--budget", "5"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(catalogue) && outcome.stderr.contains(names), "\(outcome.stderr)")
    }

    @Test("locwire plan: a catalogue that breaks the spec's rules is refused, or planned with --force")
    func planChecksTheSpecsRules() throws {
        // Reads as a catalogue (ids unique, every circle whole), but region b:2 notifies on nothing
        // (no-transition, an error) and a:1 has a loitering delay without dwell (an error too).
        let text = #"""
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]},
             "properties": {"id": "a:1", "level": "site", "radius_m": 50, "notify_on_entry": true, "loitering_delay_ms": 5000}},
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2.001]},
             "properties": {"id": "b:2", "level": "site", "radius_m": 50}}]}
            """#
        let catalogue = try temporaryFile("rules.geojson", Array(text.utf8))
        let refused = try run(["plan", "--catalogue", catalogue, "--at", "2,1", "--budget", "5"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the catalogue breaks 2 rules of the spec"), "\(refused.stderr)")
        #expect(refused.stderr.contains("loitering-delay-without-dwell at regions[0].loitering_delay_ms"))
        #expect(refused.stderr.contains("--force"))
        let forced = try run(["plan", "--catalogue", catalogue, "--at", "2,1", "--budget", "5", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(
            forced.stderr.contains("no-transition at regions[1].notify_on_entry") && forced.stderr.contains("(--force)")
        )
    }

    @Test("locwire plan: a bad position or budget is a usage error")
    func planUsageErrors() throws {
        let catalogue = try temporaryFile("usage.geojson", Array(Self.geoJSONCatalogue.utf8))
        #expect(try run(["plan", "--catalogue", catalogue, "--at", "91,0", "--budget", "5"]).status == 2)
        #expect(try run(["plan", "--catalogue", catalogue, "--at", "1", "--budget", "5"]).status == 2)
        #expect(try run(["plan", "--catalogue", catalogue, "--at", "1,1", "--budget", "0"]).status == 2)
        #expect(try run(["plan", "--catalogue", catalogue + ".missing", "--at", "1,1", "--budget", "5"]).status == 2)
    }
}

extension CLITests {
    @Test(
        "locwire simulate fences: an assignment's monitoring switch and expiry hold for its regions (§fence-assignment)"
    )
    func simulateFencesHonoursTheAssignment() throws {
        let catalogue = try temporaryFile("fence-catalogue.geojson", Array(Self.geoJSONCatalogue.utf8))
        let planned = try run([
            "plan", "--catalogue", catalogue, "--at", "47.3715,8.5435", "--budget", "3", "--now", "1700000000000",
        ])
        #expect(planned.status == 0, "\(planned.stderr)")
        // Inside city:zurich and site:hb, then twice 14 km north: site:hb's exit is confirmed at the third fix.
        let trace = try temporaryFile(
            "fence-trace.json",
            Array(
                """
                {"fixes": [
                  {"sequence": "1", "timeMs": "1700000000000", "latitudeE7": 473715000, "longitudeE7": 85435000,
                   "horizontalAccuracyCm": 500, "elapsedRealtimeMs": "1000"},
                  {"sequence": "2", "timeMs": "1700000060000", "latitudeE7": 475000000, "longitudeE7": 85435000,
                   "horizontalAccuracyCm": 500, "elapsedRealtimeMs": "61000"},
                  {"sequence": "3", "timeMs": "1700000120000", "latitudeE7": 475000000, "longitudeE7": 85435000,
                   "horizontalAccuracyCm": 500, "elapsedRealtimeMs": "121000"}]}
                """.utf8))
        func simulate(_ configure: (inout RegionAssignment) -> Void) throws -> (armed: Int, eventTimes: [String]) {
            var assignment = try RegionAssignment(jsonString: planned.text)
            configure(&assignment)
            let file = try temporaryFile("fence-assignment.json", Array(assignment.jsonString().utf8))
            let outcome = try run(["simulate", "fences", "--trace", trace, "--regions", file])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any]
            let events = report?["events"] as? [[String: Any]] ?? []
            return (report?["armed"] as? Int ?? -1, events.compactMap { $0["detectedAtMs"] as? String })
        }
        let asPlanned = try simulate { _ in }
        #expect(asPlanned.armed == 3 && asPlanned.eventTimes.last == "1700000120000", "\(asPlanned)")
        // Expired between the second fix and the third: the third reports nothing, not even the exit.
        let expiring = try simulate { $0.expiresAtMs = 1_700_000_090_000 }
        #expect(!expiring.eventTimes.isEmpty && expiring.eventTimes.allSatisfy { $0 == "1700000000000" })
        let off = try simulate { $0.monitoringEnabled = false }
        #expect(off.armed == 0 && off.eventTimes.isEmpty)
    }
}
