import LocationWire
import Testing

/// Decoding into a kept message (`decode(serializedBytes:)`) lends the message's previous device id or region id
/// to the decode, and empties its arrays in place: the result must be a fresh decode's whatever the kept message
/// held.
@Suite struct KeptMessageTests {
    private func batch(deviceId: String, fixes: Int) -> LocationBatch {
        var batch = LocationBatch()
        batch.deviceId = deviceId
        batch.batchId = 9
        for sequence in 0..<fixes {
            var fix = LocationFix()
            fix.sequence = UInt64(sequence + 1)
            fix.timeMs = 1_764_000_000_000 + Int64(sequence)
            if sequence % 3 == 0 { fix.unknownFields = UnknownFields(rawBytes: [0xF8, 0x3F, UInt8(sequence % 128)]) }
            batch.fixes.append(fix)
        }
        return batch
    }

    @Test func aKeptBatchDecodesAsAFreshOne() throws {
        let ids = [
            "", "phone-00000001", "phone-00000002", "phone", "é-phone-000001", "a-device-id-longer-than-15-bytes",
        ]
        var kept = LocationBatch()
        for (round, id) in (ids + ids.reversed() + ids).enumerated() {
            let bytes = batch(deviceId: id, fixes: [0, 1, 3, 20, 2, 40, 17][round % 7]).serializedBytes()
            // The fixes of the previous round, held: a kept array filled in its own storage must not change them.
            let earlier = kept.fixes
            let earlierBytes = kept.serializedBytes()
            try kept.decode(serializedBytes: bytes)
            #expect(earlier == (try LocationBatch(serializedBytes: earlierBytes)).fixes, "round \(round)")
            let fresh = try LocationBatch(serializedBytes: bytes)
            #expect(kept == fresh, "round \(round), id \(id)")
            #expect(kept.deviceId == id)
            #expect(kept.serializedBytes() == bytes)
        }
    }

    @Test func aKeptEventDecodesAsAFreshOne() throws {
        var kept = FenceEvent()
        for (round, id) in ["region-1", "region-1", "region-2", "", "region-22", "région-1"].enumerated() {
            var event = FenceEvent()
            event.eventSequence = UInt64(round + 1)
            event.regionId = id
            let bytes = event.serializedBytes()
            try kept.decode(serializedBytes: bytes)
            #expect(kept == (try FenceEvent(serializedBytes: bytes)), "round \(round)")
            #expect(kept.regionId == id)
        }
    }

    /// Short ASCII strings are built from their bits: every length, at the end of the input (byte by byte) and
    /// before other fields (two loads), gives the string back, equal and hashed as one made the usual way.
    @Test func shortStringsDecodeAtTheEndAndInside() throws {
        for length in 1...20 {
            for nonASCII in [false, true] {
                var id = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
                if nonASCII { id = "é" + id.dropFirst(2) }
                var atEnd = LocationBatch()
                atEnd.deviceId = id
                var inside = atEnd
                inside.batchId = 0x0102_0304_0506_0708
                inside.installId = 77
                for batch in [atEnd, inside] {
                    let bytes = batch.serializedBytes()
                    let decoded = try LocationBatch(serializedBytes: bytes)
                    #expect(decoded.deviceId == id)
                    #expect(decoded.deviceId.utf8.count == id.utf8.count)
                    #expect(decoded.deviceId.hashValue == id.hashValue)
                    #expect(decoded == batch)
                }
            }
        }
    }

    /// A kept id that the next input has with invalid UTF-8 of the same length is not taken: the error stands.
    @Test func aLentIdDoesNotHideInvalidUTF8() throws {
        var kept = try LocationBatch(serializedBytes: batch(deviceId: "ab", fixes: 0).serializedBytes())
        #expect(throws: DecodingError.self) { try kept.decode(serializedBytes: [0x0A, 0x02, 0xC3, 0x28]) }
    }
}
