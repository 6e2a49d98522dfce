@testable import LocationWire
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// LocationFix decodes through a fast path that gives up at anything unusual and hands over to the careful
/// decoder. These tests hold the two to the same results, on canonical fixes and on damaged ones, in the
/// situation of a fix inside a batch: more input follows, so the fast path's look-ahead loads are allowed.
@Suite struct FastPathTests {
    /// Decodes the first `length` bytes of `input` as a LocationFix, through the fast path or carefully only.
    /// Returns the fix (or the error) and where the reader stopped.
    private func decode(_ input: [UInt8], length: Int, carefully: Bool) -> (Result<LocationFix, DecodingError>, Int) {
        input.withUnsafeBytes { buffer in
            var reader = WireReader(buffer, limits: .default)
            _ = reader.pushLimit(length)
            var fix = LocationFix()
            do throws(DecodingError) {
                if carefully {
                    try fix.decodeFieldsCarefully(from: &reader)
                } else {
                    try fix.decodeFields(from: &reader)
                }
                return (.success(fix), reader.offset)
            } catch {
                return (.failure(error), reader.offset)
            }
        }
    }

    private func expectSameResult(_ body: [UInt8], trailer: [UInt8]) {
        let input = body + trailer
        let (fast, fastOffset) = decode(input, length: body.count, carefully: false)
        let (careful, carefulOffset) = decode(input, length: body.count, carefully: true)
        #expect(fast == careful, "input \(hex(body))")
        if case .success = careful { #expect(fastOffset == carefulOffset, "input \(hex(body))") }
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
            let trailer = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            expectSameResult(body, trailer: trailer)
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
