import Foundation
import LocationWire
import LocationWireInterchange
import Testing

/// `GPXTrace`, the one GPX reader: the fixes an OS would deliver for the behaviour commands and the vector
/// generator, and the points `locwire import` converts.
@Suite struct GPXTraceTests {
    @Test("A GPX track reads as the fixes an OS would deliver; a broken one names its line")
    func gpxTraces() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="45.5" lon="14.25"><ele>100.5</ele><time>2020-05-01T10:00:00Z</time></trkpt>
            <trkpt lat="45.5001" lon="14.2501"><time>2020-05-01T10:00:01.500Z</time><hdop>2</hdop></trkpt>
            <trkpt lat="45.5002" lon="14.2502"></trkpt>
            </trkseg></trk></gpx>
            """
        let trace = try GPXTrace(data: Data(gpx.utf8))
        #expect(trace.fixes.count == 2 && trace.untimedPoints == 1)
        #expect(trace.fixes[0].latitudeE7 == 455_000_000 && trace.fixes[0].longitudeE7 == 142_500_000)
        #expect(trace.fixes[0].altitudeCm == 10_050)
        #expect(trace.fixes[1].timeMs - trace.fixes[0].timeMs == 1_500)
        #expect(trace.fixes[1].elapsedRealtimeMs! - trace.fixes[0].elapsedRealtimeMs! == 1_500)
        #expect(trace.fixes[1].horizontalAccuracyCm == 1_000)
        let broken = "<gpx>\n<trk><trkseg>\n<trkpt lat=\"north\" lon=\"1\"/></trkseg></trk></gpx>"
        #expect(throws: GPXTrace.ReadError.self) { try GPXTrace(data: Data(broken.utf8)) }
        do {
            _ = try GPXTrace(data: Data(broken.utf8))
        } catch {
            #expect((error as? GPXTrace.ReadError)?.line == 3)
        }
        #expect(throws: GPXTrace.ReadError.self) { try GPXTrace(data: Data("<gpx><trk>".utf8)) }
        #expect(throws: GPXTrace.ReadError.self) { try GPXTrace(data: Data("{\"not\": \"xml\"}".utf8)) }
    }
}
