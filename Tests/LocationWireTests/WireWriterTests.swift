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

    /// A length whose bytes were guessed from an expected length is canonical whether the guess was right, short or
    /// long: the body moves to fit, and what follows it is not disturbed.
    @Test func guessedLengthsAreCanonical() {
        let key = FieldKey.make(2, .lengthDelimited)
        let guessesAndLengths = [
            (0, 0), (0, 127), (0, 128), (5, 16_384), (200, 0), (200, 127), (200, 128), (200, 20_000), (20_000, 5),
            (70_000, 300), (70_000, 70_000),
        ]
        for (expected, length) in guessesAndLengths {
            let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var writer = WireWriter(initialCapacity: 16)
            writer.writeVarintField(FieldKey.make(1, .varint), 300)
            let slot = writer.beginLengthDelimitedField(key, expectedLength: expected)
            body.withUnsafeBytes { writer.writeRaw($0) }
            writer.finishLengthDelimitedField(slot)
            writer.writeVarintField(FieldKey.make(3, .varint), 1)
            var expectedBytes: [UInt8] = [0x08, 0xAC, 0x02, 0x12]
            var remaining = UInt64(length)
            while remaining >= 0x80 {
                expectedBytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
                remaining >>= 7
            }
            expectedBytes.append(UInt8(remaining))
            expectedBytes += body + [0x18, 0x01]
            #expect(writer.finish() == expectedBytes, "expected length \(expected), length \(length)")
        }
    }

    /// Regions and polygons on both sides of 128 bytes (15 and 16 vertices), read in place and written with a
    /// guessed length: every length prefix is in its shortest form and the assignment round-trips.
    @Test func regionsAndPolygonsAroundALongLengthAreCanonical() throws {
        var assignment = RegionAssignment()
        for vertices in [0, 1, 14, 15, 16, 17, 40, 3000] {
            var region = Region()
            region.id = "r\(vertices)"
            region.polygon = Polygon()
            region.polygon!.latitudesE7 = CoordinateList((0..<vertices).map { Int32($0) * 1000 })
            region.polygon!.longitudesE7 = CoordinateList((0..<vertices).map { -Int32($0) * 1000 })
            assignment.regions.append(region)
            for nameLength in [0, 20, 60, 90] {
                var circleRegion = Region()
                circleRegion.id = "c\(vertices)-\(nameLength)"
                circleRegion.circle = Circle(latitudeE7: 1, longitudeE7: -1, radiusM: 100)
                circleRegion.name = String(repeating: "n", count: nameLength)
                circleRegion.parentId = String(repeating: "p", count: vertices % 50)
                assignment.regions.append(circleRegion)
            }
        }
        assignment.refresh = RefreshPolicy()
        let bytes = assignment.serializedBytes()
        #expect(try Self.lengthsAreShortest(bytes, RegionAssignment.schema))
        #expect(try RegionAssignment(serializedBytes: bytes) == assignment)
        #expect(try RegionAssignment(serializedBytes: bytes).serializedBytes() == bytes)
    }

    /// Optional sub-messages read in place: present, absent, and a fix with unknown fields.
    @Test func optionalMessagesReadInPlaceRoundTrip() throws {
        var fix = try Self.largestFix
        fix.unknownFields = UnknownFields(rawBytes: [0xF8, 0x07, 0x01])
        var event = FenceEvent()
        event.regionId = "shop:1"
        #expect(try FenceEvent(serializedBytes: event.serializedBytes()) == event)
        event.triggerFix = fix
        let eventBytes = event.serializedBytes()
        #expect(try Self.lengthsAreShortest(eventBytes, FenceEvent.schema))
        #expect(try FenceEvent(serializedBytes: eventBytes) == event)
        var batch = LocationBatch()
        batch.liveFix = fix
        batch.deviceStatus = DeviceStatus()
        batch.armedRegions = ArmedRegions()
        batch.fenceEvents = [event, event]
        let batchBytes = batch.serializedBytes()
        #expect(try Self.lengthsAreShortest(batchBytes, LocationBatch.schema))
        #expect(try LocationBatch(serializedBytes: batchBytes) == batch)
        batch.liveFix = nil
        #expect(try LocationBatch(serializedBytes: batch.serializedBytes()) == batch)
    }

    /// True when every length prefix of `bytes`, a message of `schema`, and of the messages inside it takes the
    /// fewest bytes its length can (the decoder accepts longer ones, so a round trip alone would not show it).
    static func lengthsAreShortest(_ bytes: [UInt8], _ schema: MessageSchema) throws -> Bool {
        try bytes.withUnsafeBytes { buffer in
            var walker = SchemaFieldWalker(buffer)
            return try lengthsAreShortest(&walker, schema)
        }
    }

    private static func lengthsAreShortest(_ walker: inout SchemaFieldWalker, _ schema: MessageSchema) throws -> Bool {
        while let occurrence = try walker.next(in: schema) {
            guard occurrence.wireType == .lengthDelimited else { continue }
            let prefix = occurrence.valueStart - occurrence.tagStart - Varint.encodedSize(of: UInt64(occurrence.key))
            guard prefix == Varint.encodedSize(of: UInt64(occurrence.length)) else { return false }
            if let info = occurrence.info, info.kind == .message {
                let nested = info.withMessageSchema { $0 }
                let level = try walker.enter(occurrence)
                guard try lengthsAreShortest(&walker, nested) else { return false }
                walker.leave(level)
            }
        }
        return true
    }
}
