import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireConformance
@testable import LocationWireRender
import LocationWireGeometry
import LocationWireInterchange
import LocationWireTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// LocationWireRender: the projection's maths, the legend, the SVG's well-formedness and escaping, and the HTML
/// page's self-containment.
@Suite struct RenderTests {
    static func fix(_ latitude: Double, _ longitude: Double, timeMs: Int64 = 0, speedCmS: UInt32? = nil) -> LocationFix
    {
        var fix = LocationFix()
        fix.latitudeE7 = Int32((latitude * 1e7).rounded())
        fix.longitudeE7 = Int32((longitude * 1e7).rounded())
        fix.timeMs = timeMs
        fix.speedCmS = speedCmS
        return fix
    }

    /// Parses `text` as XML; the parser's error, or nil when it is well-formed.
    static func xmlError(_ text: String) -> String? {
        let parser = XMLParser(data: Data(text.utf8))
        return parser.parse() ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown") at line \(parser.lineNumber)"
    }

    @Test("Projection: the equator box maps to known pixels, and unproject inverts project")
    func projectionKnownPoints() {
        let plot = MapProjection.Rect(x: 0, y: 0, width: 1000, height: 1000)
        // One degree of longitude on the equator, fitted into 1000 px: the width limits the scale.
        let projection = MapProjection(fitting: [(0, 0), (0, 1)], into: plot)
        let metresPerDegree = Sphere.radiusM * .pi / 180
        #expect(abs(projection.pixelsPerUnit - 1000 / metresPerDegree) < 1e-12)
        let west = projection.project(latitude: 0, longitude: 0)
        let middle = projection.project(latitude: 0, longitude: 0.5)
        let east = projection.project(latitude: 0, longitude: 1)
        #expect(abs(west.x - 0) < 1e-6 && abs(west.y - 500) < 1e-6)
        #expect(abs(middle.x - 500) < 1e-6 && abs(middle.y - 500) < 1e-6)
        #expect(abs(east.x - 1000) < 1e-6)
        // North is up, by Mercator's y: 0.5° north is R·ln tan(π/4 + φ/2) units above the equator.
        let north = projection.project(latitude: 0.5, longitude: 0.5)
        let expectedUnits = Sphere.radiusM * log(tan(.pi / 4 + 0.5 * .pi / 360))
        #expect(abs((500 - north.y) - expectedUnits * projection.pixelsPerUnit) < 1e-6)
        let back = projection.unproject(x: north.x, y: north.y)
        #expect(abs(back.latitude - 0.5) < 1e-9 && abs(back.longitude - 0.5) < 1e-9)
    }

    @Test("Projection: one point gets the minimum span, not a division by zero")
    func projectionSinglePoint() {
        let plot = MapProjection.Rect(x: 10, y: 20, width: 400, height: 300)
        let projection = MapProjection(fitting: [(45.45, 14.02)], into: plot)
        let at = projection.project(latitude: 45.45, longitude: 14.02)
        #expect(abs(at.x - 210) < 1e-6 && abs(at.y - 170) < 1e-6)
        // The shorter side (300 px) spans the minimum 200 m.
        #expect(abs(projection.metresPerPixel(atLatitude: 45.45) * 300 - MapProjection.minimumSpanM) < 0.01)
        #expect(projection.pixelsPerUnit.isFinite && projection.pixelsPerUnit > 0)
    }

    @Test(
        "Scale bar: a round distance, and its pixels measure that distance on the ground",
        arguments: [0.0, 45.45, 69.6, -33.9])
    func scaleBarLength(latitude: Double) {
        let plot = MapProjection.Rect(x: 0, y: 0, width: 800, height: 600)
        let projection = MapProjection(fitting: [(latitude - 0.02, 14.0), (latitude + 0.02, 14.05)], into: plot)
        let (metres, pixels) = projection.scaleBar(maximumPixels: 200)
        #expect(pixels <= 200 && pixels > 200 / 5)
        let mantissa = metres / pow(10, floor(log10(metres)))
        #expect([1.0, 2, 5].contains { abs($0 - mantissa) < 1e-9 })
        // Unproject both ends at the view's centre and measure them on the spec's sphere.
        let y = plot.height / 2
        let start = projection.unproject(x: 100, y: y)
        let end = projection.unproject(x: 100 + pixels, y: y)
        let ground = Sphere.distanceM(
            latitudeE7: Int32(start.latitude * 1e7), longitudeE7: Int32(start.longitude * 1e7),
            latitudeE7: Int32(end.latitude * 1e7), longitudeE7: Int32(end.longitude * 1e7))
        #expect(abs(ground - metres) / metres < 0.002, "bar \(metres) m measures \(ground) m")
    }

    @Test("Times read as UTC civil dates, before and after 1970")
    func times() {
        #expect(TrackPicture.time(0) == "1970-01-01 00:00:00Z")
        #expect(TrackPicture.time(1_772_352_285_000) == "2026-03-01 08:04:45Z")
        #expect(TrackPicture.time(951_782_400_000) == "2000-02-29 00:00:00Z")
        #expect(TrackPicture.time(-1) == "1969-12-31 23:59:59Z")
    }

    @Test("Round distances: the largest 1, 2 or 5 × 10ⁿ at most the limit")
    func roundDistances() {
        #expect(MapProjection.roundDistance(atMost: 0.3) == 1)
        #expect(MapProjection.roundDistance(atMost: 7) == 5)
        #expect(MapProjection.roundDistance(atMost: 199.9) == 100)
        #expect(MapProjection.roundDistance(atMost: 2000) == 2000)
        #expect(MapProjection.roundDistance(atMost: 4999) == 2000)
        #expect(MapProjection.distanceLabel(500) == "500 m" && MapProjection.distanceLabel(2000) == "2 km")
    }

    @Test("A region circle's radius in pixels is its metres at its own latitude")
    func circleRadius() throws {
        var picture = TrackPicture(title: "circle")
        picture.setTrack([Self.fix(60, 10), Self.fix(60.02, 10.05)])
        var region = Region()
        region.id = "r"
        region.circle = Circle(latitudeE7: 600_100_000, longitudeE7: 100_250_000, radiusM: 1000)
        picture.regions = [region]
        let map = SVGMap(width: 900, height: 700)
        let projection = map.projection(for: picture)
        let svg = map.render(picture).svg
        let match = try #require(
            svg.firstMatch(of: /<circle class="region" cx="([0-9.]+)" cy="([0-9.]+)" r="([0-9.]+)"/))
        let radius = try #require(Double(match.3))
        // A point 1000 m due north of the centre lands `radius` pixels above it (within the rounding to 0.01 px
        // and the change of scale over 1 km).
        let north = projection.project(latitude: 60.01 + 1000 / Sphere.radiusM * 180 / .pi, longitude: 10.025)
        let center = projection.project(latitude: 60.01, longitude: 10.025)
        #expect(abs((center.y - north.y) - radius) / radius < 0.003)
        #expect(abs(try #require(Double(match.1)) - center.x) < 0.01)
    }

    @Test("Legend: speed bands in km/h with distinct colours; reasons only those present, in enum order")
    func legend() {
        let speed = Palette.speedLegend
        #expect(speed.count == Palette.speedBands.count + 1)
        #expect(Set(speed.map(\.color)).count == speed.count)
        #expect(speed.first?.label == "0–2 km/h" && speed.last?.label == "speed unknown")
        #expect(Palette.color(speedMS: 1) == Palette.speedBands[1].color)  // 3.6 km/h
        #expect(Palette.color(speedMS: 100) == Palette.speedBands.last!.color)
        #expect(Palette.color(speedMS: nil) == Palette.unknownColor)
        #expect(Palette.color(speedMS: -.infinity) == Palette.unknownColor)
        var picture = TrackPicture(title: "reasons")
        var fixes = [Self.fix(1, 1), Self.fix(1.001, 1), Self.fix(1.002, 1)]
        fixes[0].reason = .heartbeat
        fixes[1].reason = .periodic
        fixes[2].reason = FixReason(rawValue: 99)
        picture.setTrack(fixes)
        picture.coloring = .reason
        #expect(picture.legend.map(\.label) == ["periodic", "heartbeat", "reason 99"])
        let svg = SVGMap().render(picture).svg
        for entry in picture.legend {
            #expect(svg.contains("fill=\"\(entry.color)\"/><text x=") && svg.contains(">\(entry.label)</text>"))
        }
    }

    @Test("Speed colours: from the fixes' speed fields, else distance over time")
    func segmentSpeeds() {
        var picture = TrackPicture(title: "speeds")
        // 0.001° of latitude is 111.2 m: in 10 s that is 40 km/h (band 25–50), with no speed fields.
        picture.setTrack([Self.fix(10, 10, timeMs: 0), Self.fix(10.001, 10, timeMs: 10_000)])
        #expect(abs(picture.segmentSpeedMS(endingAt: 1)! - 11.12) < 0.01)
        #expect(picture.color(ofPoint: 1) == "#e0a100")
        picture.setTrack([Self.fix(10, 10, speedCmS: 100), Self.fix(10.001, 10, timeMs: 10_000, speedCmS: 300)])
        #expect(picture.segmentSpeedMS(endingAt: 1) == 2)
        picture.setTrack([Self.fix(10, 10), Self.fix(10.001, 10)])
        #expect(picture.color(ofPoint: 1) == Palette.unknownColor)
    }

    /// A picture whose every text is hostile: markup, entities, quotes, control characters.
    static func hostilePicture() -> TrackPicture {
        let hostile = "<script>alert('x')</script> & \"q\" ]]> \u{01}\u{FFFE} <!-- http://example.com/x.png"
        var picture = TrackPicture(title: hostile)
        var fixes = [Self.fix(45.45, 14.01, timeMs: 0), Self.fix(45.46, 14.02, timeMs: 60_000)]
        fixes.append(LocationFix())  // no position
        picture.setTrack(fixes)
        var circle = Region()
        circle.id = hostile
        circle.name = hostile
        circle.parentId = hostile
        circle.level = .city
        circle.circle = Circle(latitudeE7: 454_550_000, longitudeE7: 140_150_000, radiusM: 300)
        var polygon = Region()
        polygon.id = "poly"
        polygon.level = .site
        polygon.polygon = Polygon()
        polygon.polygon?.latitudesE7 = [454_500_000, 454_500_000, 454_520_000, 454_999_999]
        polygon.polygon?.longitudesE7 = [140_100_000, 140_120_000, 140_110_000]  // one short: ignored
        picture.regions = [circle, polygon]
        var event = FenceEvent()
        event.regionId = hostile
        event.kind = .enter
        event.triggerFix = fixes[1]
        var untriggered = FenceEvent()
        untriggered.kind = .dwell
        untriggered.regionId = "poly"
        picture.addEvents([event, untriggered], layer: .events)
        picture.caption.append(hostile)
        return picture
    }

    @Test("The SVG is well-formed XML and escapes hostile names; fixes without position are counted")
    func svgWellFormedAndEscaped() {
        let picture = Self.hostilePicture()
        #expect(picture.skippedWithoutPosition == 1 && picture.points.count == 2)
        #expect(picture.markers.count == 2)
        let (svg, fixes) = SVGMap().render(picture)
        #expect(Self.xmlError(svg) == nil, "\(Self.xmlError(svg) ?? "")")
        #expect(!svg.contains("<script"))
        #expect(svg.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;q&quot; ]]&gt;"))
        #expect(svg.contains("1 fixes without a position are not drawn"))
        #expect(fixes.map(\.index) == [0, 1])
        #expect(svg.contains("<polygon class=\"region\""))
        // The well-formedness check itself fails on broken markup.
        #expect(Self.xmlError(svg.replacingOccurrences(of: "&amp; &quot;", with: "& \"")) != nil)
    }

    @Test("The HTML page references nothing outside itself")
    func htmlSelfContained() throws {
        var map = SVGMap(width: 800, height: 500)
        map.standalone = false
        var picture = Self.hostilePicture()
        picture.title = "self-contained"
        picture.caption = []
        picture.regions[0].name = "plain"
        picture.regions[0].id = "plain"
        picture.regions[0].parentId = ""
        picture.markers = []
        let page = HTMLPage.mapPage(title: "t", svg: map.render(picture).svg)
        #expect(!page.contains("http://") && !page.contains("https://"))
        #expect(page.firstMatch(of: /(?i)\s(src|href|xlink:href)\s*=/) == nil)
        #expect(page.firstMatch(of: /(?i)@import|url\((?!#)/) == nil)
        #expect(page.contains("<script>") && page.contains("<svg class=\"locwire-map\""))
        // Hostile text stays text inside the page too.
        let hostile = HTMLPage.mapPage(
            title: "</title><script>x()</script>", svg: map.render(Self.hostilePicture()).svg)
        #expect(hostile.components(separatedBy: "<script>").count == 2)
        #expect(hostile.firstMatch(of: /(?i)\s(src|href)\s*=\s*["']?https?:/) == nil)
    }

    @Test("Captions wrap at words to the picture's width and stop at six lines")
    func captionWrapping() {
        var picture = TrackPicture(title: "caption")
        picture.setTrack([Self.fix(1, 1)])
        picture.caption = [String(repeating: "word ", count: 400)]
        let map = SVGMap(width: 480, height: 400)
        let lines = map.captionLines(picture)
        let columns = Int((480 - 150) / 6.5)
        #expect(lines.count == SVGMap.maximumCaptionLines && lines.last!.hasSuffix(" …"))
        #expect(lines.dropLast().allSatisfy { $0.count <= columns && $0.count > columns - 5 })
        picture.caption = ["short", String(repeating: "x", count: 500)]
        #expect(map.captionLines(picture) == ["short", String(repeating: "x", count: columns)])
    }

    @Test("A track across the antimeridian is drawn as one piece, not across the world")
    func antimeridian() {
        var picture = TrackPicture(title: "dateline")
        picture.setTrack([Self.fix(-16.5, 179.99), Self.fix(-16.5, -179.99)])
        let (_, fixes) = SVGMap(width: 800, height: 600).render(picture)
        #expect(fixes.count == 2 && fixes[1].x > fixes[0].x)
        #expect(fixes[1].x - fixes[0].x < 800)
    }

    /// A dense track is thinned to fixes a pixel apart along the path, keeping its ends and the fixes beside a
    /// break, and a picture of 200,000 fixes stays under the budget.
    @Test func denseTracksAreThinnedToWhatThePictureShows() {
        let projected: [(x: Double, y: Double)] = [
            (0, 0), (0.2, 0.3), (0.9, 0.1), (1.5, 0), (1.6, 0.2), (3, 3), (3.1, 3.2),
        ]
        #expect(SVGMap.thinned(projected, breaks: [], cell: 1) == [0, 3, 5, 6])
        #expect(SVGMap.thinned(projected, breaks: [2], cell: 1) == [0, 1, 2, 5, 6])
        var fixes: [LocationFix] = []
        for index in 0..<200_000 {
            var fix = LocationFix()
            fix.timeMs = 1_714_810_200_000 + Int64(index) * 1000
            // A walk back and forth over a few kilometres: most fixes share a pixel with the one before.
            let phase = Double(index) / 2000
            fix.latitudeE7 = Int32(458_000_000 + Int(sin(phase) * 200_000))
            fix.longitudeE7 = Int32(159_000_000 + Int(Double(index % 20_000) * 10))
            fix.speedCmS = UInt32(index % 300)
            fixes.append(fix)
        }
        var picture = TrackPicture(title: "dense")
        picture.setTrack(fixes)
        let (svg, drawn) = SVGMap().render(picture)
        #expect(drawn.count < fixes.count / 10 && drawn.first?.index == 0 && drawn.last?.index == fixes.count - 1)
        #expect(svg.utf8.count < 5_000_000)
        #expect(Self.xmlError(svg) == nil)
    }

    /// `§trace-segments`: the real track's two timed track segments are not joined, and neither are fixes further
    /// apart in time than the gap limit.
    @Test func noLineCrossesABreak() throws {
        let trace = try GPXTrace(data: Data(contentsOf: RepositoryData.koritaTrack))
        #expect(trace.lifecycleEvents.count == 1)
        /// The lines drawn between consecutive fixes drawn, and how many fixes are drawn (thinning drops those
        /// within a pixel of the one before; never those beside a break).
        func drawnPairs(_ picture: TrackPicture) -> (pairs: Int, fixes: Int) {
            let (svg, fixes) = SVGMap().render(picture)
            let pairs = svg.components(separatedBy: "<polyline points=\"").dropFirst().reduce(0) { total, line in
                total + line.prefix { $0 != "\"" }.split(separator: " ").count - 1
            }
            return (pairs, fixes.count)
        }
        var joined = TrackPicture(title: "korita")
        joined.setTrack(trace.fixes)
        var broken = TrackPicture(title: "korita")
        broken.setTrack(trace.fixes, lifecycleEvents: trace.lifecycleEvents)
        #expect(joined.breaks.isEmpty && broken.breaks == [176])
        let (joinedPairs, joinedFixes) = drawnPairs(joined)
        let (brokenPairs, brokenFixes) = drawnPairs(broken)
        #expect(joinedFixes > trace.fixes.count * 9 / 10)
        #expect(joinedPairs == joinedFixes - 1 && brokenPairs == brokenFixes - 2)
        #expect(broken.lengthM < joined.lengthM)
        var gapped = TrackPicture(title: "korita")
        gapped.setTrack(trace.fixes, gapMs: 20_000)
        let longGaps = zip(trace.fixes, trace.fixes.dropFirst()).filter { $1.timeMs - $0.timeMs > 20_000 }.count
        #expect(gapped.breaks.count == longGaps && longGaps > 0)
        let (gappedPairs, gappedFixes) = drawnPairs(gapped)
        #expect(gappedPairs == gappedFixes - 1 - longGaps)
    }

    @Test("The real track: its fixes drawn inside the plot (those a pixel apart), coloured by its speed band")
    func realTrack() throws {
        let trace = try GPXTrace(data: Data(contentsOf: RepositoryData.koritaTrack))
        var picture = TrackPicture(title: "korita")
        picture.setTrack(trace.fixes)
        let map = SVGMap(width: 960, height: 640)
        let (svg, fixes) = map.render(picture)
        // Fixes within a pixel of the one drawn before are not drawn again; the rest are, in order.
        #expect(fixes.count <= trace.fixes.count && fixes.count > 500)
        #expect(fixes.map(\.index) == fixes.map(\.index).sorted() && fixes.first?.index == 0)
        let plot = map.projection(for: picture).plot
        #expect(
            fixes.allSatisfy {
                $0.x >= plot.x && $0.x <= plot.x + plot.width && $0.y >= plot.y && $0.y <= plot.y + plot.height
            })
        #expect(Self.xmlError(svg) == nil)
        #expect(picture.lengthM > 5000 && picture.lengthM < 8000)
        let bandColors = Set(Palette.speedLegend.map(\.color))
        #expect(fixes.allSatisfy { bandColors.contains($0.color) })
    }

    @Test("Conformance HTML: the matrix, each failure's diff, and a picture of the failed fence vector")
    func conformanceReport() throws {
        let file = try VectorFile.decode(
            Data(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("conformance/vectors/fences.json")))
        let vector = try #require(file.vectors.first { $0.id == "fences.order.nested" })
        // Reports come as `conformance run --format json` writes them.
        func makeReport(_ results: [[String: Any]], implementation: String) throws -> RunReport {
            let object: [String: Any] = [
                "implementation": implementation, "version": "1", "features": ["FEATURE_FENCES"],
                "failureList": "none", "results": results, "staleEntries": [String](), "testeeStarts": 1,
            ]
            return try JSONDecoder().decode(RunReport.self, from: JSONSerialization.data(withJSONObject: object))
        }
        let failed: [String: Any] = [
            "id": vector.id, "family": "fences", "status": "fail", "outcome": "ran",
            "detail": "responses differ at byte 10: expected …<ENTER>…, got …<EXIT>…",
        ]
        let passed: [String: Any] = ["id": "wire.x", "family": "wire", "status": "pass", "outcome": "accepted"]
        let report = try makeReport([failed, passed], implementation: "evil<impl>")
        let page = ConformanceHTMLReport(report: report, vectors: file.vectors, answerer: .builtin).render()
        #expect(page.contains("evil&lt;impl&gt;") && !page.contains("evil<impl>"))
        #expect(page.contains("expected …&lt;ENTER&gt;…, got …&lt;EXIT&gt;…"))
        #expect(page.contains("<td class=\"bad\">1</td>"))
        #expect(page.components(separatedBy: "<svg class=\"locwire-map\"").count == 2)
        #expect(!page.contains("http://") && !page.contains("https://"))
        // A passing run still shows a few behaviour pictures.
        let passing = try makeReport(
            file.vectors.prefix(5).map { ["id": $0.id, "family": "fences", "status": "pass", "outcome": "ran"] },
            implementation: "i")
        let good = ConformanceHTMLReport(report: passing, vectors: file.vectors, answerer: .builtin).render()
        #expect(good.components(separatedBy: "<svg class=\"locwire-map\"").count == 4)

        // A vector whose expectation is wrong (an EXIT made a DWELL): the engines' answer differs, the page shows
        // the two lines against each other and rings the markers that have no equal.
        var text = String(decoding: try JSONEncoder().encode(vector), as: UTF8.self)
        let exit = try #require(text.range(of: "FENCE_EVENT_KIND_EXIT"))
        text.replaceSubrange(exit, with: "FENCE_EVENT_KIND_DWELL")
        let broken = try JSONDecoder().decode(Vector.self, from: Data(text.utf8))
        let brokenPage = ConformanceHTMLReport(report: report, vectors: [broken], answerer: .builtin).render()
        #expect(brokenPage.contains("<del>−") && brokenPage.contains("FENCE_EVENT_KIND_DWELL"))
        #expect(brokenPage.contains("<ins>+") && brokenPage.contains("unchanged lines"))
        #expect(brokenPage.contains("stroke=\"#ff00cc\""))
        #expect(!page.contains("stroke=\"#ff00cc\""))
    }

    @Test("Line diff: changed lines against each other, context kept, long runs skipped, huge inputs refused")
    func lineDiff() throws {
        let expected = (1...20).map { "line \($0)" }.joined(separator: "\n")
        var lines = (1...20).map { "line \($0)" }
        lines[9] = "line ten"
        lines.insert("extra", at: 15)
        let diff = try #require(LineDiff.diff(expected: expected, actual: lines.joined(separator: "\n"), context: 1))
        #expect(
            diff == [
                .skipped(8), .same("line 9"), .removed("line 10"), .added("line ten"), .same("line 11"), .skipped(3),
                .same("line 15"), .added("extra"), .same("line 16"), .skipped(4),
            ])
        #expect(LineDiff.diff(expected: "a", actual: "a") == [.skipped(1)])
        let huge = (0..<3000).map(String.init).joined(separator: "\n")
        #expect(LineDiff.diff(expected: huge, actual: "x\n" + huge.replacingOccurrences(of: "\n", with: "\n-")) == nil)
    }
}
