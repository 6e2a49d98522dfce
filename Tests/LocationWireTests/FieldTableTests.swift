import LocationWire
import LocationWireInspection
import LocationWireTestSupport
import Testing

/// The generic codec's kinds that no message of `proto/` uses yet (the testee protocol and the session formats
/// cover the others through EveryFieldTests), on hand-made bytes: zigzag, the fixed-width forms, floats, packed
/// fixed-width runs and their length check.
@Suite struct FieldTableTests {
    typealias W = WireBytes

    struct Sample: TableCodedMessage {
        var sint32: Int32 = 0
        var sint64: Int64 = 0
        var fixed32: UInt32 = 0
        var sfixed64: Int64 = 0
        var float: Float = 0
        var double: Double = 0
        var sfixed32s: [Int32] = []
        var doubles: [Double] = []
        var blobs: [[UInt8]] = []
        var unknownFields = UnknownFields()

        static let fieldTable = FieldTable<Sample>(
            "test.Sample",
            [
                .singular(1, "sint32", .sint32, \.sint32),
                .singular(2, "sint64", .sint64, \.sint64),
                .singular(3, "fixed32", .fixed32, \.fixed32),
                .singular(4, "sfixed64", .sfixed64, \.sfixed64),
                .singular(5, "float", .float, \.float),
                .singular(6, "double", .double, \.double),
                .repeated(7, "sfixed32s", .sfixed32, \.sfixed32s),
                .repeated(8, "doubles", .double, \.doubles),
                .repeated(9, "blobs", .bytes, \.blobs),
            ])
    }

    @Test func everyKindWritesItsWireForm() throws {
        var sample = Sample()
        sample.sint32 = -1
        sample.sint64 = -2
        sample.fixed32 = 7
        sample.sfixed64 = -1
        sample.float = -0.0  // not zero: its bits are not all zero, so it is written
        sample.double = 1.5
        sample.sfixed32s = [1, -1]
        sample.doubles = [0.25]
        sample.blobs = [[], [0xFF]]
        let expected =
            W.varintField(1, 1) + W.varintField(2, 3) + W.tag(3, 5) + W.fixed32(7) + W.tag(4, 1) + W.fixed64(.max)
            + W.tag(5, 5) + W.fixed32((-0.0 as Float).bitPattern) + W.tag(6, 1) + W.fixed64(1.5.bitPattern)
            + W.lengthDelimited(7, W.fixed32(1) + W.fixed32(.max))
            + W.lengthDelimited(8, W.fixed64(0.25.bitPattern)) + W.lengthDelimited(9, [])
            + W.lengthDelimited(9, [0xFF])
        #expect(hex(sample.serializedBytes()) == hex(expected))
        let decoded = try Sample(serializedBytes: expected)
        #expect(decoded.float.bitPattern == sample.float.bitPattern)
        #expect(decoded.serializedBytes() == expected)
        #expect(Sample().serializedBytes().isEmpty)
    }

    @Test func fixedWidthRepeatsAreReadPackedOrNot() throws {
        let sample = try Sample(
            serializedBytes: W.tag(7, 5) + W.fixed32(3) + W.lengthDelimited(7, W.fixed32(4)) + W.tag(8, 1)
                + W.fixed64(2.0.bitPattern))
        #expect(sample.sfixed32s == [3, 4])
        #expect(sample.doubles == [2.0])
    }

    @Test func aPackedRunOfFixedWidthValuesMustBeWhole() throws {
        let error = try #require(decodingError(Sample.self, W.lengthDelimited(8, [1, 2, 3, 4, 5, 6, 7])))
        #expect(error.code == .invalidPackedLength)
        #expect(error.fieldPath.description == "Sample.doubles")
    }

    @Test func theSchemaComesFromTheRows() {
        let fields = Sample.schema.fields.map { "\($0.number) \($0.name) \($0.type.protoName) \($0.label)" }
        #expect(fields.first == "1 sint32 sint32 singular")
        #expect(fields.last == "9 blobs bytes repeated")
        #expect(Sample.schema.fullName == "test.Sample")
    }
}
