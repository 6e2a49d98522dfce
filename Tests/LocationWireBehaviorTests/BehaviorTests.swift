import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireGeometry
import Testing

/// The behaviour engines' geometry and the pieces the vectors cannot show alone. The engines' outputs are judged
/// by the behaviour vectors, which the independent Python reading (conformance/testees/python-behavior) also
/// passes; these tests check facts that come from outside both, such as known distances on the sphere.
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
