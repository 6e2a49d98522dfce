import Foundation
import LocationWire
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `locwire render`: traces as GPX and LocationBatch, regions and events drawn, behaviour vectors, and odd input
/// (empty, one point, fixes without position) answered with a picture or a clear error, never a crash.
extension CLITests {
    func renderFile(_ name: String, _ text: String) throws -> String {
        try temporaryFile(name, Array(text.utf8))
    }

    @Test("locwire render: a LocationBatch's fixes and fence events, fixes without position counted, valid SVG")
    func renderBatch() throws {
        let batch = """
            {"fixes": [
              {"sequence": "1", "timeMs": "1772352000000", "latitudeE7": 453800000, "longitudeE7": 141370000,
               "speedCmS": 150, "reason": "FIX_REASON_PERIODIC"},
              {"sequence": "2", "timeMs": "1772352060000"},
              {"sequence": "3", "timeMs": "1772352120000", "latitudeE7": 453810000, "longitudeE7": 141380000,
               "speedCmS": 900, "reason": "FIX_REASON_DISTANCE"}],
             "fenceEvents": [{"eventSequence": "1", "regionId": "site:<b>", "kind": "FENCE_EVENT_KIND_ENTER",
               "detectedAtMs": "1772352120000"}]}
            """
        let path = try renderFile("batch.json", batch)
        // A fix without a position breaks the spec's rules: refused, unless --force draws the rest.
        let refused = try run(["render", path])
        #expect(refused.status == 1 && refused.stderr.contains("(--force runs it anyway)"), "\(refused.stderr)")
        let outcome = try run(["render", path, "--color-by", "reason", "--force"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let svg = outcome.text
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(svg.contains("1 fixes without a position are not drawn"))
        #expect(svg.contains(">periodic</text>") && svg.contains(">distance</text>"))
        #expect(svg.contains("class=\"marker enter events\"") && svg.contains("region site:&lt;b&gt;"))
        #expect(svg.components(separatedBy: "<circle class=\"fix\"").count == 3)
    }

    @Test("locwire render: empty traces and traces with no position are rejected (exit 1), one point draws")
    func renderOddTraces() throws {
        let empty = try renderFile("empty.json", "{}")
        let emptyOutcome = try run(["render", empty])
        #expect(emptyOutcome.status == 1 && emptyOutcome.stderr.contains("no fixes"), "\(emptyOutcome.stderr)")
        let noPosition = try renderFile("nopos.json", #"{"fixes": [{"sequence": "1", "timeMs": "5"}]}"#)
        let noPositionOutcome = try run(["render", noPosition, "--force"])
        #expect(noPositionOutcome.status == 1 && noPositionOutcome.stderr.contains("none of the 1 fixes"))
        let gpx = try renderFile("empty.gpx", "<gpx version=\"1.1\" creator=\"t\"><trk><trkseg/></trk></gpx>")
        #expect(try run(["render", gpx]).status == 1)
        let broken = try renderFile("broken.json", "{\"fixes\": [")
        let brokenOutcome = try run(["render", broken])
        #expect(brokenOutcome.status == 1 && brokenOutcome.stderr.contains("broken.json"))
        let one = try renderFile(
            "one.json", #"{"fixes": [{"sequence": "1", "timeMs": "5", "latitudeE7": 10, "longitudeE7": 20}]}"#)
        // Dated 1970: out of the spec's range, so drawn only with --force.
        #expect(try run(["render", one]).status == 1)
        let oneOutcome = try run(["render", one, "--html", "--width", "400", "--height", "300", "--force"])
        #expect(oneOutcome.status == 0 && oneOutcome.text.hasPrefix("<!DOCTYPE html>"), "\(oneOutcome.stderr)")
        #expect(!oneOutcome.text.contains("http://") && !oneOutcome.text.contains("https://"))
        #expect(try run(["render"]).status == 2)
        #expect(try run(["render", one, "--width", "10"]).status == 2)
        #expect(try run(["render", "/nonexistent/trace.json"]).status == 2)
    }

    @Test("locwire render: regions and `simulate fences` events drawn; the debug projection lists every fix")
    func renderRegionsAndEvents() throws {
        let catalogue = try temporaryFile("render-catalogue.geojson", Array(Self.geoJSONCatalogue.utf8))
        let trace = try renderFile(
            "zurich.json",
            """
            {"fixes": [
              {"sequence": "1", "timeMs": "1700000000000", "latitudeE7": 473600000, "longitudeE7": 85300000,
               "horizontalAccuracyCm": 500, "elapsedRealtimeMs": "1000"},
              {"sequence": "2", "timeMs": "1700000060000", "latitudeE7": 473715000, "longitudeE7": 85435000,
               "horizontalAccuracyCm": 500, "elapsedRealtimeMs": "61000"}]}
            """)
        let simulated = try run(["simulate", "fences", "--trace", trace, "--regions", catalogue])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let events = try renderFile("events.json", simulated.text)
        let projection = try temporaryFile("projection.json", [])
        let outcome = try run([
            "render", trace, "--regions", catalogue, "--events", events, "--debug-projection", projection,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.text.contains("<circle class=\"region\"") && outcome.text.contains("<polygon class=\"region\""))
        let eventCount =
            (try JSONSerialization.jsonObject(with: Data(simulated.stdout)) as? [String: Any])?["events"]
            as? [Any]
        #expect((eventCount?.count ?? 0) > 0)
        #expect(outcome.text.components(separatedBy: "<g class=\"marker ").count - 1 == eventCount?.count)
        let debug = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: projection)))
        #expect(((debug as? [String: Any])?["fixes"] as? [Any])?.count == 2)
        let bad = try renderFile("bad-events.json", #"{"events": [{"kind": 12.5}]}"#)
        let badOutcome = try run(["render", trace, "--events", bad])
        #expect(badOutcome.status == 1 && badOutcome.stderr.contains("events[0]"), "\(badOutcome.stderr)")
    }

    @Test("locwire render --vector: a fence vector, expected against the built-in engines; other families refused")
    func renderVector() throws {
        let outcome = try run([
            "render", "--vector", "conformance/vectors/fences.json", "--case", "fences.order.nested",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.text.contains("class=\"marker enter expected\"") && outcome.text.contains("enter actual"))
        #expect(!outcome.text.contains("stroke=\"#ff00cc\""))  // the engines agree with the vector: nothing ringed
        let recording = try run([
            "render", "--vector", "conformance/vectors/recording.json", "--case", "recording.filter.accuracy-absent",
        ])
        #expect(recording.status == 0, "\(recording.stderr)")
        let wire = try run(["render", "--vector", "conformance/vectors/json.json", "--case", "nope"])
        #expect(wire.status == 1 && wire.stderr.contains("no vector with id nope"))
        #expect(try run(["render", "--vector", "conformance/vectors/fences.json"]).status == 2)
    }

    @Test("locwire conformance run --format html: one self-contained page with the matrix and behaviour pictures")
    func conformanceHTML() throws {
        let report = try temporaryFile("report.html", [])
        let outcome = try run([
            "conformance", "run", "--quiet", "--format", "html", "--output", report, "--filter", "fences.order",
            "--filter", "recording.filter", "--filter", "wire",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<table class=\"matrix\">"))
        #expect(page.contains("<td>fences</td>") && page.contains("<td>wire</td>") && page.contains("PASSED"))
        // Nothing failed, so a few passing fence vectors and one recording vector are drawn.
        #expect(page.components(separatedBy: "<svg class=\"locwire-map\"").count - 1 == 4)
        #expect(!page.contains("http://") && !page.contains("https://"))
    }
}
