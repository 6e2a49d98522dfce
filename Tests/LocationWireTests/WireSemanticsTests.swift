import LocationWire
import LocationWireTestSupport
import Testing

/// Merge semantics, unknown fields and canonical encoding.
@Suite struct WireSemanticsTests {
    // §binary-rules: a singular scalar keeps its last value.
    @Test func lastValueWinsForASingularScalar() throws {
        let fix = try LocationFix(serializedBytes: bytes("0801 0805 1d01000000 1d02000000"))
        #expect(fix.sequence == 5)
        #expect(fix.latitudeE7 == 2)
        #expect(fix.serializedBytes() == bytes("0805 1d02000000"))
    }

    // §binary-rules: repeated occurrences of a singular sub-message merge.
    @Test func repeatedOccurrencesOfASingularMessageMerge() throws {
        // live_fix {sequence: 10} then live_fix {time_ms: 5}: upb and C++ both merge to {10, 5}.
        let batch = try LocationBatch(serializedBytes: bytes("4202080a 42021005"))
        #expect(batch.liveFix?.sequence == 10)
        #expect(batch.liveFix?.timeMs == 5)
        #expect(batch.serializedBytes() == bytes("4204080a1005"))
        // A later occurrence overrides a scalar inside the merged message.
        let again = try LocationBatch(serializedBytes: bytes("4202080a 4202080b"))
        #expect(again.liveFix?.sequence == 11)
    }

    // §binary-rules: packed and unpacked repeated scalars are both accepted.
    @Test func packedAndUnpackedRepeatsAreBothAcceptedAndMix() throws {
        let canonical = bytes("0a0c 01000000 02000000 03000000")
        let variants = [
            "0d01000000 0d02000000 0d03000000",  // unpacked
            "0a0401000000 0a080200000003000000",  // two packed chunks
            "0d01000000 0a0402000000 0d03000000",  // mixed
            "0a00 0a0c010000000200000003000000",  // an empty packed chunk first
        ]
        for variant in variants {
            let polygon = try Polygon(serializedBytes: bytes(variant))
            #expect(polygon.latitudesE7 == [1, 2, 3])
            #expect(polygon.serializedBytes() == canonical)
        }
    }

    @Test func repeatedFieldsInterleavedWithOthersKeepTheirOrder() throws {
        let batch = try LocationBatch(serializedBytes: bytes("3a020801 0a0164 3a020802"))
        #expect(batch.fixes.map(\.sequence) == [1, 2])
        #expect(batch.serializedBytes() == bytes("0a0164 3a020801 3a020802"))
    }

    // §unknown-fields: kept and re-emitted, a sub-message's too. §binary-rules: unknown fields of every wire type.
    @Test func unknownFieldsOfEveryWireTypeSurviveInArrivalOrderAfterKnownFields() throws {
        let unknown = "f8ffffff0f07 9906 0102030405060708 9a0602abcd 9d06 01020304 9b06 0801 9c06 f8bd1801"
        let input = bytes(unknown + "0801")
        let fix = try LocationFix(serializedBytes: input)
        #expect(fix.sequence == 1)
        #expect(fix.unknownFields.bytes == bytes(unknown))
        #expect(fix.serializedBytes() == bytes("0801" + unknown))
        // And so does a sub-message's.
        let batch = try LocationBatch(serializedBytes: bytes("4206 9a0601ff 0801"))
        #expect(batch.serializedBytes() == bytes("4206 0801 9a0601ff"))
    }

    // §binary-rules: a known field number with an unexpected wire type is an unknown field.
    @Test func aKnownNumberWithAForeignWireTypeBecomesAnUnknownField() throws {
        // latitude_e7 is sfixed32 (wire type 5); sent as a varint it is kept as unknown, by upb and C++ alike.
        let fix = try LocationFix(serializedBytes: bytes("1805"))
        #expect(fix.latitudeE7 == nil)
        #expect(fix.unknownFields.bytes == bytes("1805"))
        #expect(fix.serializedBytes() == bytes("1805"))
        // A known message number sent as a varint is unknown too.
        let batch = try LocationBatch(serializedBytes: bytes("4001"))
        #expect(batch.liveFix == nil)
        #expect(batch.unknownFields.bytes == bytes("4001"))
    }

    // §open-enums (SpecRuleTests checks that the validator accepts such values too).
    @Test func openEnumsKeepUnknownValues() throws {
        let fix = try LocationFix(serializedBytes: bytes("6863"))
        #expect(fix.reason.rawValue == 99)
        #expect(!fix.reason.isKnown)
        #expect(fix.serializedBytes() == bytes("6863"))
    }

    @Test func explicitPresenceKeepsZeroAndImplicitPresenceDropsIt() throws {
        var fix = LocationFix()
        fix.speedCmS = 0
        fix.latitudeE7 = 0
        fix.sequence = 0
        fix.isMock = false
        #expect(fix.serializedBytes() == bytes("1d00000000 4000"))
        let decoded = try LocationFix(serializedBytes: fix.serializedBytes())
        #expect(decoded.speedCmS == 0)
        #expect(decoded.altitudeCm == nil)
        #expect(decoded == fix)
    }

    @Test func floatBitPatternsSurviveExactly() throws {
        for bits: UInt32 in [0x8000_0000, 0x7FC0_0001, 0xFFC0_0000, 0x0000_0001, 0x7F80_0000] {
            var fix = LocationFix()
            fix.pressureHpaBits = bits
            let decoded = try LocationFix(serializedBytes: fix.serializedBytes())
            #expect(decoded.pressureHpaBits == bits)
            #expect(decoded == fix, "equality compares bits, so NaN equals itself")
        }
    }

    @Test func anEmptyButPresentSubMessageIsKept() throws {
        var batch = LocationBatch()
        batch.liveFix = LocationFix()
        #expect(batch.serializedBytes() == bytes("4200"))
        #expect(try LocationBatch(serializedBytes: bytes("4200")).liveFix == LocationFix())
    }

    @Test func emptyInputIsTheEmptyMessage() throws {
        #expect(try LocationBatch(serializedBytes: []) == LocationBatch())
        #expect(LocationBatch().serializedBytes().isEmpty)
    }

    @Test func subMessagesOf128BytesOrMoreGetMultiByteLengths() throws {
        var region = Region()
        region.polygon = Polygon()
        region.polygon!.latitudesE7 = CoordinateList(repeating: 1, count: 40)  // 160 bytes of packed values
        region.polygon!.longitudesE7 = CoordinateList(repeating: 2, count: 40)
        let encoded = region.serializedBytes()
        // polygon: key 0x22, length 326 = 0xc6 0x02; latitudes: key 0x0a, length 160 = 0xa0 0x01.
        #expect(Array(encoded.prefix(5)) == bytes("22c6020aa0"))
        #expect(try Region(serializedBytes: encoded) == region)
    }

    @Test func mergeAddsToAnExistingMessage() throws {
        var batch = try LocationBatch(serializedBytes: bytes("3a020801"))
        try batch.merge(serializedBytes: bytes("3a020802 0a0161"))
        #expect(batch.fixes.map(\.sequence) == [1, 2])
        #expect(batch.deviceId == "a")
    }
}
