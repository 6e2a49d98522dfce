import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireFiles
import LocationWireGeometry
import Testing

/// The behaviour engines' geometry and the pieces the vectors cannot show alone. The engines' outputs are judged
/// by the behaviour vectors, which the independent Python reading (conformance/testees/python-behavior) also
/// passes; these tests check facts that come from outside both: known distances on the sphere, a GPX file.
@Suite struct BehaviorTests {
    @Test("§polygon-inside: a square across the antimeridian, and one around the north pole")
    func polygonsWithoutSeams() throws {
        var square = Region()
        square.id = "site:dateline"
        square.version = 1
        var circle = Circle()
        circle.centerLatitudeE7 = 0
        circle.centerLongitudeE7 = 1_800_000_000
        circle.radiusM = 2_000
        square.circle = circle
        var polygon = Polygon()
        polygon.latitudesE7 = [-100_000, -100_000, 100_000, 100_000]
        polygon.longitudesE7 = [1_799_900_000, -1_799_900_000, -1_799_900_000, 1_799_900_000]
        square.polygon = polygon
        let shape = try #require(RegionShape(square))
        #expect(shape.contains(SpherePoint(latitudeE7: 50_000, longitudeE7: 1_799_950_000)))
        #expect(shape.contains(SpherePoint(latitudeE7: -50_000, longitudeE7: -1_799_950_000)))
        #expect(!shape.contains(SpherePoint(latitudeE7: 0, longitudeE7: 1_799_800_000)))
        // Inside the circle, outside the square: a corner cut.
        #expect(!shape.contains(SpherePoint(latitudeE7: 120_000, longitudeE7: 1_800_000_000)))
        #expect(
            abs(shape.distancePastBoundaryM(SpherePoint(latitudeE7: 120_000, longitudeE7: 1_800_000_000)) - 222.4) < 1)

        var cap = square
        cap.circle!.centerLatitudeE7 = 900_000_000
        cap.circle!.centerLongitudeE7 = 0
        cap.circle!.radiusM = 5_000
        cap.polygon!.latitudesE7 = [899_700_000, 899_700_000, 899_700_000, 899_700_000]
        cap.polygon!.longitudesE7 = [0, 900_000_000, 1_800_000_000, -900_000_000]
        let pole = try #require(RegionShape(cap))
        #expect(pole.contains(SpherePoint(latitudeE7: 900_000_000, longitudeE7: 1_234_567)))
        #expect(pole.contains(SpherePoint(latitudeE7: 899_900_000, longitudeE7: -1_700_000_000)))
        #expect(!pole.contains(SpherePoint(latitudeE7: 899_600_000, longitudeE7: 450_000_000)))
    }

    @Test("§behaviour-scope: the built-in testee claims every behaviour feature and answers each kind")
    func theBuiltinTesteeRunsBehaviour() {
        for feature in [TesteeFeature.recording, .fences, .planning, .arming] {
            #expect(BuiltinTestee.features.contains(feature))
        }
        var request = RecordingRequest()
        request.vectorId = "unit.recording"
        let response = BuiltinTestee().handle(TesteeRequest(.recording(request)))
        guard case .recording(let answer)? = response.kind else {
            Issue.record("answered \(String(describing: response.kind))")
            return
        }
        #expect(answer.vectorId == "unit.recording" && answer.failure == nil && answer.recorded.isEmpty)
    }

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

extension BehaviorTests {
    @Test("§rec-requested: the range check names exactly the seven requested reasons, by their proto names")
    func requestedReasonsByName() {
        let requested: Set<String> = [
            "FIX_REASON_REGION_EVENT", "FIX_REASON_VISIT", "FIX_REASON_SIGNIFICANT_CHANGE", "FIX_REASON_MANUAL",
            "FIX_REASON_SERVER_REQUEST", "FIX_REASON_PROVIDER_CHANGE", "FIX_REASON_SYSTEM_RELAUNCH",
        ]
        for raw in Int32(-1)...40 {
            let reason = FixReason(rawValue: raw)
            #expect(RecordingEngine.isRequested(reason) == requested.contains(reason.name ?? ""), "\(raw)")
        }
    }
}
