import LocationWire
import LocationWireTestSupport
import Testing

/// Protobuf binary rules. Where an expectation could be a matter of taste, the comment names what upb 7.36.2 and
/// C++ 3.21.12 do with the same bytes (probed with Python's protobuf and `protoc --decode`); the codec follows
/// them, and where they disagree it follows upb.
@Suite struct WireRulesTests {
    // MARK: Varints

    @Test func varintsUpToTenBytesAreAcceptedAndOverlongOnesCanonicalised() throws {
        // sequence = 1 written in 1, 2, 5 and 10 bytes.
        for input in ["0801", "088100", "0881808080 00", "08818080808080808000"] {
            let fix = try LocationFix(serializedBytes: bytes(input))
            #expect(fix.sequence == 1)
            #expect(fix.serializedBytes() == bytes("0801"))
        }
    }

    @Test func theTenthVarintByteContributesOnlyBit63() throws {
        // upb and C++ both read ff..ff 02 as 0x7fff_ffff_ffff_ffff: the 10th byte's upper bits are dropped.
        #expect(
            try LocationFix(serializedBytes: bytes("08" + String(repeating: "ff", count: 9) + "02")).sequence
                == UInt64(Int64.max))
        #expect(
            try LocationFix(serializedBytes: bytes("08" + String(repeating: "ff", count: 9) + "01")).sequence == .max)
        #expect(
            try LocationFix(serializedBytes: bytes("08" + String(repeating: "ff", count: 9) + "7f")).sequence == .max)
    }

    // §binary-rules: varints are at most 10 bytes.
    @Test func anElevenByteVarintIsRejected() {
        let error = decodingError(LocationFix.self, bytes("08" + String(repeating: "ff", count: 10) + "01"))
        #expect(error?.code == .varintTooLong)
        #expect(error?.offset == 1)
        #expect(error?.fieldPath.description == "LocationFix.sequence")
        // A 10th byte with its continuation bit set is the same error.
        #expect(
            decodingError(LocationFix.self, bytes("08" + String(repeating: "ff", count: 9) + "8000"))?.code
                == .varintTooLong)
    }

    @Test func thirtyTwoBitFieldsTakeTheLowBitsOfLongerVarints() throws {
        // int32-family fields read a 64-bit varint and keep the low 32 bits (upb and C++ agree).
        let altitude = try LocationFix(serializedBytes: bytes("30" + String(repeating: "ff", count: 9) + "01"))
        #expect(altitude.altitudeCm == Int32.min)  // zigzag of 0xffffffff
        #expect(try LocationFix(serializedBytes: bytes("288080808010")).horizontalAccuracyCm == 0)  // 2^32 -> 0
        let reason = try LocationFix(serializedBytes: bytes("68ffffffff0f"))
        #expect(reason.reason.rawValue == -1)
        // A negative enum re-encodes sign-extended to 10 bytes.
        #expect(reason.serializedBytes() == bytes("68" + String(repeating: "ff", count: 9) + "01"))
    }

    @Test func anyNonZeroVarintIsTrueAndEncodesAsOne() throws {
        for input in ["a80102", "a801ffffffff0f", "a80180808080808080808001"] {
            let fix = try LocationFix(serializedBytes: bytes(input))
            #expect(fix.isMock)
            #expect(fix.serializedBytes() == bytes("a80101"))
        }
    }

    // MARK: Tags

    // §binary-rules: tags at most 5 bytes and 32 bits.
    @Test func tagsUpToFiveBytesAreAccepted() throws {
        #expect(try LocationFix(serializedBytes: bytes("888080800001")).sequence == 1)
        // The largest field number is kept as an unknown field, byte for byte.
        let fix = try LocationFix(serializedBytes: bytes("f8ffffff0f01"))
        #expect(fix.unknownFields.bytes == bytes("f8ffffff0f01"))
    }

    @Test(arguments: [
        ("0001", DecodingError.Code.invalidTag, 0),  // field 0
        ("88808080800001", .invalidTag, 0),  // tag longer than 5 bytes
        ("808080801001", .invalidTag, 0),  // field 2^29
        ("f8ffffff1f01", .invalidTag, 0),  // 5-byte tag above 32 bits: upb rejects, C++ truncates
        ("0e01", .invalidWireType, 0),
        ("0f01", .invalidWireType, 0),
        ("0801 8880", .truncated, 2),  // input ends inside a tag
    ])
    func badTagsAreRejected(input: String, code: DecodingError.Code, offset: Int) {
        let error = decodingError(LocationFix.self, bytes(input))
        #expect(error?.code == code)
        #expect(error?.offset == offset)
        #expect(error?.fieldPath.description == "LocationFix")
    }

    // MARK: Lengths and truncation

    // §length-check: the length prefix is checked against the remaining input before any allocation.
    @Test func aLengthBeyondTheInputIsRejectedWithoutAllocating() {
        // device_id claiming 2 GiB, then 4 GiB, with three bytes behind it.
        for prefix in ["0a8080808008", "0a8080808010"] {
            let error = decodingError(LocationBatch.self, bytes(prefix + "616263"))
            #expect(error?.code == .truncated)
            #expect(error?.offset == 1)
            #expect(error?.fieldPath.description == "LocationBatch.device_id")
        }
    }

    @Test func aLengthBeyondItsSubMessageIsMalformedNotTruncated() {
        // live_fix (4 bytes) holds an unknown field claiming 5 bytes; the input has them, the sub-message not.
        let error = decodingError(LocationBatch.self, bytes("4204 9a060501 01020304"))
        #expect(error?.code == .lengthExceedsMessage)
        #expect(error?.offset == 4)
        #expect(error?.fieldPath.description == "LocationBatch.live_fix.#99")
    }

    @Test func truncatedFixedWidthValuesAreRejected() {
        #expect(decodingError(LocationFix.self, bytes("1d0102"))?.code == .truncated)
        #expect(decodingError(LocationBatch.self, bytes("11010203"))?.code == .truncated)
        #expect(decodingError(LocationFix.self, bytes("10"))?.code == .truncated)
    }

    @Test func packedFixedWidthFieldsMustHoldWholeElements() {
        let error = decodingError(Polygon.self, bytes("0a03010203"))
        #expect(error?.code == .invalidPackedLength)
        #expect(error?.fieldPath.description == "Polygon.latitudes_e7")
    }

    @Test func aPackedRunEndingInsideAVarintIsTruncated() {
        #expect(decodingError(FixColumn.self, bytes("0a028001"))?.code == nil)  // one 2-byte varint
        #expect(decodingError(FixColumn.self, bytes("0a0180"))?.code == .truncated)
    }

    // MARK: Strings

    // §binary-rules: string fields must be valid UTF-8.
    @Test func invalidUTF8IsRejectedWithItsPath() {
        let error = decodingError(LocationBatch.self, bytes("0a02c328"))
        #expect(error?.code == .invalidUTF8)
        #expect(error?.offset == 2)
        #expect(error?.fieldPath.description == "LocationBatch.device_id")
        // Nested and repeated: armed_regions.region_ids[1].
        let nested = decodingError(LocationBatch.self, bytes("6a08 1202 6162 1202 c328"))
        #expect(nested?.fieldPath.description == "LocationBatch.armed_regions.region_ids[1]")
        // bytes fields take anything.
        #expect(decodingError(FixColumn.self, bytes("1a02c328")) == nil)
    }

    // MARK: Groups and depth

    // §binary-rules: unknown groups are kept. §unknown-fields
    @Test func unknownGroupsAreKeptByteForByte() throws {
        let input = bytes("9b06 0801 9b06 9c06 9c06 0802")
        let fix = try LocationFix(serializedBytes: input)
        #expect(fix.sequence == 2)
        #expect(fix.unknownFields.bytes == bytes("9b06 0801 9b06 9c06 9c06"))
        #expect(fix.serializedBytes() == bytes("0802 9b06 0801 9b06 9c06 9c06"))
    }

    @Test(arguments: [
        ("9b060801a406", DecodingError.Code.unmatchedEndGroup),  // end tag of another field
        ("9c06", .unmatchedEndGroup),  // end tag without a start
        ("9b060801", .unterminatedGroup),
        ("0b", .unterminatedGroup),  // a known number as a group start, never closed
    ])
    func malformedGroupsAreRejected(input: String, code: DecodingError.Code) {
        #expect(decodingError(LocationFix.self, bytes(input))?.code == code)
    }

    @Test func aGroupMayNotEndOutsideItsSubMessage() {
        // live_fix holds a group start; its end tag follows after the sub-message.
        #expect(decodingError(LocationBatch.self, bytes("4202 9b06 9c06"))?.code == .unterminatedGroup)
    }

    /// upb and C++ accept 100 levels of nesting below the top-level message and reject 101, counting
    /// sub-messages and groups alike. §binary-rules
    @Test(arguments: [(99, true), (100, true), (101, false)])
    func depthLimitCountsGroups(levels: Int, accepted: Bool) {
        let input = bytes(String(repeating: "9b06", count: levels) + String(repeating: "9c06", count: levels))
        let error = decodingError(LocationBatch.self, input)
        #expect((error == nil) == accepted)
        if !accepted { #expect(error?.code == .depthLimitExceeded) }
    }

    @Test(arguments: [(98, true), (99, false)])
    func depthLimitCountsSubMessagesToo(groups: Int, accepted: Bool) {
        // fence_events[0].trigger_fix is two levels deep; 98 groups inside make 100 levels.
        let groupBytes = bytes(String(repeating: "9b06", count: groups) + String(repeating: "9c06", count: groups))
        var triggerFix = bytes("42")
        appendVarint(UInt64(groupBytes.count), to: &triggerFix)
        triggerFix += groupBytes
        var input = bytes("52")
        appendVarint(UInt64(triggerFix.count), to: &input)
        input += triggerFix
        #expect((decodingError(LocationBatch.self, input) == nil) == accepted)
        #expect(
            (decodingError(LocationBatch.self, input, limits: DecodingLimits(maxDepth: 200)) == nil),
            "a larger limit accepts it")
    }

    // MARK: Limits

    @Test func repeatedElementsBeyondTheLimitAreRefusedBeforeAllocating() {
        let fourFixes = bytes("3a00 3a00 3a00 3a00")
        let limits = DecodingLimits(maxRepeatedCount: 3)
        let error = decodingError(LocationBatch.self, fourFixes, limits: limits)
        #expect(error?.code == .tooManyElements)
        #expect(error?.offset == 0)
        #expect(decodingError(LocationBatch.self, fourFixes, limits: DecodingLimits(maxRepeatedCount: 4)) == nil)
        // Packed and unpacked scalars count too.
        #expect(decodingError(FixColumn.self, bytes("0a0401020304"), limits: limits)?.code == .tooManyElements)
        #expect(decodingError(FixColumn.self, bytes("0801 0801 0801 0801"), limits: limits)?.code == .tooManyElements)
    }

    @Test func inputLargerThanTheLimitIsRefused() {
        let error = decodingError(LocationFix.self, bytes("0801"), limits: DecodingLimits(maxInputBytes: 1))
        #expect(error?.code == .inputTooLarge)
    }

    // MARK: Field paths

    @Test func errorsNameTheFieldAndElement() {
        // fixes[2].latitude_e7 truncated: two good fixes, then a fix whose sfixed32 is cut short.
        let input = bytes("3a02 0801 3a02 0802 3a03 1d0102")
        let error = decodingError(LocationBatch.self, input)
        #expect(error?.code == .truncated)
        #expect(error?.fieldPath.description == "LocationBatch.fixes[2].latitude_e7")
        #expect(error?.offset == 11)
        // An unknown field is named by number.
        let unknown = decodingError(LocationBatch.self, bytes("4203 9a0680"))
        #expect(unknown?.fieldPath.description == "LocationBatch.live_fix.#99")
    }

    // MARK: Repeated fields

    @Test func repeatedElementsMayBeInterleavedWithOtherFields() throws {
        // The first fix sizes the array for all three and decodes the run it starts; the others come after
        // device_id and lifecycle_events, and one behind a non-minimal two-byte tag (ba00).
        let batch = try LocationBatch(serializedBytes: bytes("3a02 0801 0a01 41 3a02 0802 6200 ba00 02 0803 6200"))
        #expect(batch.fixes.map(\.sequence) == [1, 2, 3])
        #expect(batch.deviceId == "A")
        #expect(batch.lifecycleEvents.count == 2)
        // Merging appends to the elements already there.
        var merged = LocationBatch()
        merged.fixes = [LocationFix()]
        merged.fixes[0].sequence = 9
        try merged.merge(serializedBytes: bytes("3a02 0801 3a02 0802"))
        #expect(merged.fixes.map(\.sequence) == [9, 1, 2])
        // Repeated strings, with interleaving.
        let assignment = try RegionAssignment(serializedBytes: bytes("3a01 61 0801 3a01 62"))
        #expect(assignment.removedRegionIds == ["a", "b"])
        #expect(assignment.assignmentVersion == 1)
    }

    @Test func equalLongStringsDecodeEqualAndDifferentOnesDifferent() throws {
        // Long strings (more than 15 bytes) equal to the previous one share its storage; the values must not
        // change whatever the order.
        var assignment = RegionAssignment()
        let long = String(repeating: "x", count: 20)
        assignment.removedRegionIds = [long, long, long.dropLast() + "y", long, "short", long + "é", long + "é"]
        let decoded = try RegionAssignment(serializedBytes: assignment.serializedBytes())
        #expect(decoded.removedRegionIds == assignment.removedRegionIds)
        // Invalid UTF-8 is still rejected after an equal-length valid string.
        let invalid = bytes(
            "3a10 " + String(repeating: "61", count: 16) + " 3a10 " + String(repeating: "61", count: 15) + "ff")
        #expect(decodingError(RegionAssignment.self, invalid)?.code == .invalidUTF8)
    }
}
