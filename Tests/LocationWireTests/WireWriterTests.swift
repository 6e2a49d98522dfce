@testable import LocationWire
import Testing

/// The bounded writer a fix encodes through checks nothing in release builds; these tests hold its bound, which
/// LocationFix derives from its field list, against the largest fix there can be.
@Suite struct WireWriterTests {
    /// Every field present at its longest encoding: 64-bit values and negative int64s and enums take 10 bytes,
    /// uint32 and sint32 5, fixed-width their width.
    static var largestFix: LocationFix {
        var fix = LocationFix()
        fix.sequence = .max
        fix.timeMs = .min
        fix.latitudeE7 = .min
        fix.longitudeE7 = .max
        fix.horizontalAccuracyCm = .max
        fix.altitudeCm = .min
        fix.verticalAccuracyCm = .max
        fix.speedCmS = .max
        fix.speedAccuracyCmS = .max
        fix.courseCdeg = .max
        fix.courseAccuracyCdeg = .max
        fix.elapsedRealtimeMs = .max
        fix.reason = FixReason(rawValue: .min)
        fix.source = FixSource(rawValue: -1)
        fix.batteryPercent = .max
        fix.batteryState = BatteryState(rawValue: -1)
        fix.motionActivity = MotionActivity(rawValue: -1)
        fix.motionConfidencePct = .max
        fix.floor = .min
        fix.ageMs = .max
        fix.isMock = true
        fix.ellipsoidalHeightCm = .min
        fix.pressureHpaBits = .max
        return fix
    }

    @Test func theBoundIsTheLargestFixExactly() throws {
        let bytes = Self.largestFix.serializedBytes()
        // Equal, not just within: a bound that is too large wastes nothing but hides a field list that lost a row.
        #expect(bytes.count == LocationFix.maxKnownFieldsSize)
        #expect(try LocationFix(serializedBytes: bytes) == Self.largestFix)
    }

    /// The batch path reads the bound once for all its fixes; fixes at the largest size, many of them, so that
    /// the writer's capacity runs out (and grows) between fixes as well.
    @Test func aBatchOfLargestFixesRoundTrips() throws {
        var batch = LocationBatch()
        batch.fixes = Array(repeating: Self.largestFix, count: 333)
        batch.liveFix = Self.largestFix
        let decoded = try LocationBatch(serializedBytes: batch.serializedBytes())
        #expect(decoded == batch)
    }

    @Test func onlyMessagesOfScalarsHaveABound() {
        #expect(LocationFix.Field.maxScalarFieldsEncodedSize == LocationFix.maxKnownFieldsSize)
        #expect(Circle.Field.maxScalarFieldsEncodedSize == 5 + 5 + 1 + 5)
        #expect(Region.Field.maxScalarFieldsEncodedSize == nil)
        #expect(Polygon.Field.maxScalarFieldsEncodedSize == nil)
    }

    /// Lengths of 128 bytes and more take a second byte, which the writer makes room for after the body.
    @Test func longBodiesWidenTheirLengthPrefix() throws {
        for length in [0, 1, 127, 128, 129, 16_383, 16_384, 70_000] {
            var region = Region()
            region.name = String(repeating: "n", count: length)
            var assignment = RegionAssignment()
            assignment.regions = [region]
            let decoded = try RegionAssignment(serializedBytes: assignment.serializedBytes())
            #expect(decoded.regions.first?.name.utf8.count == length)
        }
    }
}
