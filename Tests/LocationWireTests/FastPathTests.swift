@testable import LocationWire
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// LocationFix and FenceEvent decode through a fast path that gives up at anything unusual and hands over to the
/// careful decoder. These tests hold the two to the same results, on canonical messages and on damaged ones, in
/// the situation of a message inside a batch: more input follows, so the fast path's look-ahead loads are allowed.
@Suite struct FastPathTests {
    /// Decodes the first `length` bytes of `input` as a `Message`, through its fast path (`decodeFields`) or
    /// through `careful` only. Returns the message (or the error) and where the reader stopped.
    private func decode<Message: LocationWireMessage>(
        _ input: [UInt8], length: Int, limits: DecodingLimits = .default,
        careful: ((inout Message, inout WireReader) throws(DecodingError) -> Void)?
    ) -> (Result<Message, DecodingError>, Int) {
        input.withUnsafeBytes { buffer in
            var reader = WireReader(buffer, limits: limits)
            _ = reader.pushLimit(length)
            var message = Message()
            do throws(DecodingError) {
                if let careful {
                    try careful(&message, &reader)
                } else {
                    try message.decodeFields(from: &reader)
                }
                return (.success(message), reader.offset)
            } catch {
                return (.failure(error), reader.offset)
            }
        }
    }

    private func decode(_ input: [UInt8], length: Int, carefully: Bool) -> (Result<LocationFix, DecodingError>, Int) {
        decode(
            input, length: length,
            careful: carefully
                ? { fix, reader throws(DecodingError) in
                    try fix.decodeFieldsCarefully(from: &reader)
                } : nil)
    }

    private func expectSameResult(_ body: [UInt8], trailer: [UInt8]) {
        let input = body + trailer
        let (fast, fastOffset) = decode(input, length: body.count, carefully: false)
        let (careful, carefulOffset) = decode(input, length: body.count, carefully: true)
        #expect(fast == careful, "input \(hex(body))")
        if case .success = careful { #expect(fastOffset == carefulOffset, "input \(hex(body))") }
    }

    /// The same for a FenceEvent, under `limits` (a depth limit of 0 refuses the trigger fix).
    private func expectSameEvent(_ body: [UInt8], trailer: [UInt8], limits: DecodingLimits = .default) {
        let input = body + trailer
        let (fast, fastOffset) = decode(
            input, length: body.count, limits: limits,
            careful: nil as ((inout FenceEvent, inout WireReader) throws(DecodingError) -> Void)?)
        let (careful, carefulOffset) = decode(input, length: body.count, limits: limits) {
            (event: inout FenceEvent, reader: inout WireReader) throws(DecodingError) in
            try event.decodeFieldsCarefully(from: &reader)
        }
        #expect(fast == careful, "input \(hex(body))")
        if case .success = careful { #expect(fastOffset == carefulOffset, "input \(hex(body))") }
    }

    /// Damages `body` one way at random (an insertion inside or at the end, a cut end, a few changed bytes) and
    /// returns random bytes to follow it.
    private func damage(_ body: inout [UInt8], insertions: [[UInt8]], _ generator: inout SeededRandom) -> [UInt8] {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            let insertion = insertions.randomElement(using: &generator)!
            body.insert(contentsOf: insertion, at: Int.random(in: 0...body.count, using: &generator))
        case 1:
            if !body.isEmpty { body.removeLast(Int.random(in: 1...min(body.count, 8), using: &generator)) }
        case 2:
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !body.isEmpty {
                body[Int.random(in: 0..<body.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
        default:
            body += insertions.randomElement(using: &generator)!
        }
        return (0..<Int.random(in: 0...40, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
        }
    }

    @Test func canonicalFixesDecodeAlike() {
        var random = RandomCanonicalMessages(seed: 0xF457)
        var generator = SeededRandom(seed: 0xF457)
        for _ in 0..<5_000 {
            let body = random.message(LocationFix.schema)
            let trailer = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            expectSameResult(body, trailer: trailer)
        }
    }

    /// Every way the fast path gives up: long tags, long varints (negative enums), a value that runs past the
    /// fix, unknown and foreign-wire-type fields, truncation, random byte damage.
    @Test func damagedFixesDecodeAlike() {
        var random = RandomCanonicalMessages(seed: 0xDA3A)
        var generator = SeededRandom(seed: 0xDA3A)
        let insertions: [[UInt8]] = [
            [0x80, 0x80, 0x01],  // a 3-byte tag (field 2048, wire type 0)... followed by whatever comes next
            [0x88, 0x80, 0x00, 0x05],  // sequence with a 3-byte non-minimal tag
            [0x68, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // reason = -1, ten bytes
            [0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],  // sequence = 2^63, nine bytes
            [0x08, 0x81, 0x80, 0x80, 0x00],  // an overlong varint (1 in 4 bytes)
            [0x0A, 0x02, 0x41, 0x42],  // field 1 with wire type 2: unknown
            [0xF8, 0x3F, 0x07],  // field 1023: unknown
            [0x1D, 0x01, 0x02],  // a fixed32 cut short
            [0x00],  // field number 0
            [0x0F],  // wire type 7
        ]
        for _ in 0..<20_000 {
            var body = random.message(LocationFix.schema)
            let trailer = damage(&body, insertions: insertions, &generator)
            expectSameResult(body, trailer: trailer)
        }
    }

    @Test func canonicalEventsDecodeAlike() {
        var random = RandomCanonicalMessages(seed: 0xE7E7)
        var generator = SeededRandom(seed: 0xE7E7)
        for _ in 0..<5_000 {
            let body = random.message(FenceEvent.schema)
            let trailer = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            expectSameEvent(body, trailer: trailer)
        }
    }

    /// Every way the event's fast path gives up or throws: long tags and varints, a region id or trigger fix that
    /// is damaged or runs past the event, a trigger fix too deep, unknown fields, truncation, random damage.
    @Test func damagedEventsDecodeAlike() {
        var random = RandomCanonicalMessages(seed: 0xFE17)
        var generator = SeededRandom(seed: 0xFE17)
        let insertions: [[UInt8]] = [
            [0x80, 0x80, 0x01],  // a 3-byte tag
            [0x88, 0x80, 0x00, 0x05],  // event_sequence with a 3-byte non-minimal tag
            [0x28, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // kind = -1, ten bytes
            [0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],  // event_sequence = 2^63
            [0x12, 0x02, 0xC3, 0x28],  // region_id, invalid UTF-8
            [0x12, 0x7F, 0x41],  // region_id longer than what is left
            [0x12, 0x80, 0x01],  // region_id with a 2-byte length
            [0x42, 0x03, 0x08, 0x81, 0x80],  // trigger_fix ending inside a varint
            [0x42, 0x04, 0x08, 0x01, 0xF8, 0x3F],  // trigger_fix with a truncated unknown field
            [0x42, 0x05, 0x08, 0x01, 0xF8, 0x3F, 0x07],  // trigger_fix with an unknown field
            [0x42, 0x60, 0x08],  // trigger_fix longer than what is left
            [0x0A, 0x02, 0x41, 0x42],  // field 1 with wire type 2: unknown
            [0x61, 0x01, 0x02],  // boot_id cut short
            [0x00],  // field number 0
            [0x0F],  // wire type 7
        ]
        for round in 0..<20_000 {
            var body = random.message(FenceEvent.schema)
            let trailer = damage(&body, insertions: insertions, &generator)
            expectSameEvent(body, trailer: trailer, limits: round % 8 == 0 ? DecodingLimits(maxDepth: 0) : .default)
        }
    }

    /// The event's fast path decodes a canonical event with every field set on its own (the tests above would pass
    /// if it always handed over), and each field alone.
    @Test func theEventFastPathDecodesEveryField() throws {
        var event = FenceEvent()
        event.eventSequence = 300
        event.regionId = "region-0042"
        event.regionVersion = 7
        event.assignmentVersion = 1_234_567
        event.kind = FenceEventKind(rawValue: 2)
        event.osEventTimeMs = 1_764_000_000_000
        event.detectedAtMs = 1_764_000_060_000
        var fix = LocationFix()
        fix.timeMs = 1_764_000_000_000
        fix.latitudeE7 = 525_200_000
        fix.horizontalAccuracyCm = 1_200
        event.triggerFix = fix
        event.source = FenceEventSource(rawValue: 1)
        event.detectedElapsedRealtimeMs = 86_400_000
        event.dwellMs = 300_000
        event.bootId = 0x0123_4567_89AB_CDEF
        var singles = [event.serializedBytes()]
        for number in 1...12 {
            singles.append(try WireFields.parse(singles[0][...]).filter { $0.number == number }.flatMap(\.encoded))
        }
        for single in singles {
            #expect(!single.isEmpty)
            let input = single + [UInt8](repeating: 0, count: 16)
            let (decodedFast, fast) = input.withUnsafeBytes { buffer in
                var reader = WireReader(buffer, limits: .default)
                _ = reader.pushLimit(single.count)
                var decoded = FenceEvent()
                return ((try? decoded.decodeFieldsFastOnly(from: &reader)) ?? false, decoded)
            }
            #expect(decodedFast, "the fast path handed \(hex(single)) over")
            #expect(fast == (try FenceEvent(serializedBytes: single)), "input \(hex(single))")
        }
    }

    /// A value whose bytes run past the end of the fix must not be taken from the bytes that follow.
    @Test func aValueRunningPastTheFixIsTruncation() {
        // sequence = 1, then a time_ms varint whose continuation bytes lie beyond the fix's 3 bytes.
        let body: [UInt8] = [0x08, 0x01, 0x10]
        let trailer: [UInt8] = [0x81, 0x82, 0x83, 0x04] + [UInt8](repeating: 0, count: 20)
        let (result, _) = decode(body + trailer, length: body.count, carefully: false)
        guard case .failure(let error) = result else {
            Issue.record("a truncated fix decoded: \(result)")
            return
        }
        #expect(error.code == .truncated)
    }

    /// Packed varints are decoded eight bytes at a time while eight can be loaded, byte by byte near the end of the
    /// input and for nine- and ten-byte values; every mix must give the values back.
    @Test func packedVarintsOfEveryLengthDecode() throws {
        var generator = SeededRandom(seed: 0x9ACC)
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...40, using: &generator)
            let deltas: [Int64] = (0..<count).map { _ in
                let bits = Int.random(in: 0...64, using: &generator)
                let magnitude = bits == 0 ? 0 : UInt64.random(in: 0...(UInt64.max >> (64 - bits)), using: &generator)
                return Int64(bitPattern: magnitude)
            }
            let column = FixColumn(deltas: deltas)
            let bytes = column.serializedBytes()
            // As the whole input, so that the last values sit within eight bytes of its end.
            #expect(try FixColumn(serializedBytes: bytes).deltas == deltas)
            // Followed by other input, so that the eight-byte loads may look past the field.
            var padded = FixColumn()
            try padded.merge(serializedBytes: bytes + [0x1A, 0x00])
            #expect(padded.deltas == deltas)
        }
    }
}
