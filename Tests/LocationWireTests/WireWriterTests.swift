@testable import LocationWire
import Testing

/// The bounded writer a fix encodes through checks nothing in release builds; these tests hold its bound, which
/// LocationFix derives from its field list, against the largest fix there can be.
@Suite struct WireWriterTests {
    /// Every declared field present at its longest encoding, built from the field list rather than written out,
    /// so that a field added to LocationFix is covered without touching this test: 64-bit values, int64s and
    /// enums take 10 bytes (negative values), uint32 and sint32 5, fixed-width their width, bool 1.
    static var largestFix: LocationFix {
        get throws {
            var writer = WireWriter()
            for field in LocationFix.Field.allCases {
                let key = field.key
                switch field.declaration.type {
                case .uint64, .int64, .int32, .enumeration: writer.writeVarintField(key, .max)
                case .uint32, .sint32: writer.writeVarintField(key, UInt64(UInt32.max))
                case .bool: writer.writeBoolField(key, true)
                case .fixed32, .sfixed32, .float: writer.writeFixed32Field(key, .max)
                case .fixed64, .sfixed64: writer.writeFixed64Field(key, .max)
                default: Issue.record("LocationFix.\(field) has a type this test does not know; teach it")
                }
            }
            return try LocationFix(serializedBytes: writer.finish())
        }
    }

    @Test func theBoundIsTheLargestFixExactly() throws {
        let largest = try Self.largestFix
        let bytes = largest.serializedBytes()
        // Equal, not just within: a bound that is too large wastes nothing but hides a field list that lost a row.
        #expect(bytes.count == LocationFix.maxKnownFieldsSize)
        #expect(largest.unknownFields.isEmpty)
        #expect(try LocationFix(serializedBytes: bytes) == largest)
    }

    /// The batch path reads the bound once for all its fixes; fixes at the largest size, many of them, so that
    /// the writer's capacity runs out (and grows) between fixes as well.
    @Test func aBatchOfLargestFixesRoundTrips() throws {
        var batch = LocationBatch()
        batch.fixes = Array(repeating: try Self.largestFix, count: 333)
        batch.liveFix = try Self.largestFix
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
