/// The fast path of a hot decoder (LocationFix's, FenceEvent's): reads tags, varints and fixed-width values of an ordinary
/// message with no error handling at all, and gives up (returns nil) at anything unusual, so that the careful
/// decoder takes over and reports what is wrong.
///
/// Giving up happens at: a tag longer than two bytes, a varint longer than eight (values of 2^56 and above,
/// negative int32s), a field starting in the last 10 bytes of the whole input (where a look-ahead load could
/// leave it), and, checked by the caller through ``isAtMessageEnd``, a value that runs past the message's end.
/// Every load stays inside the input: a field is read only where at least ``lookahead`` bytes remain, and reads
/// at most 2 tag bytes and one 8-byte load after them.
///
/// Because the fast path decodes exactly what the careful decoder would for the fields it gets through, handing
/// over part way leaves nothing to undo: the careful decoder resumes at ``fieldStart``, the start of the field the
/// fast path could not finish (so the only fix of a small message is not decoded twice).
package struct FastFieldScanner {
    private var position: UnsafeRawPointer
    /// Where the last field the fast path started begins: the careful decoder resumes here when the fast path
    /// gives up, since every field before it is fully decoded and lies within the message (reading that field
    /// again is harmless: a scalar keeps its last value).
    package private(set) var fieldStart: UnsafeRawPointer
    private let messageEnd: UnsafeRawPointer
    /// The last position from which a field (up to 2 tag bytes and an 8-byte load) can be read in bounds.
    private let loadLimit: UnsafeRawPointer

    /// The most bytes one field of the fast path reads from its start: a tag of up to 2 bytes and an 8-byte
    /// load. (It was 16, which sent the tail of the only fix of a small message to the careful decoder.)
    static let lookahead = 10

    init(position: UnsafeRawPointer, messageEnd: UnsafeRawPointer, inputEnd: UnsafeRawPointer) {
        self.position = position
        self.fieldStart = position
        self.messageEnd = messageEnd
        self.loadLimit = inputEnd - Self.lookahead
    }

    /// True when the fields read so far end exactly at the message's end.
    @inline(__always)
    package var isAtMessageEnd: Bool { position == messageEnd }

    /// The next field's key; nil at the message's end or where the fast path gives up.
    @inline(__always)
    package mutating func nextKey() -> FieldKey? {
        // fieldStart moves only past fields that ended inside the message: one that ran past its end stays the
        // resume point, so that the careful decoder reads it again and reports the overrun.
        guard position < messageEnd, position <= loadLimit else { return nil }
        fieldStart = position
        let first = UInt32(position.load(as: UInt8.self))
        if first < 0x80 {
            position += 1
            return first
        }
        let second = UInt32((position + 1).load(as: UInt8.self))
        guard second < 0x80 else { return nil }
        position += 2
        return (first & 0x7F) | second << 7
    }

    /// A varint of at most 8 bytes (``Varint/decode(word:)``); nil when longer. Inlined into each field's case,
    /// so its branches on the length are predicted per field.
    @inline(__always)
    package mutating func varint() -> UInt64? {
        guard let (value, length) = Varint.decode(word: UInt64(littleEndian: position.loadUnaligned(as: UInt64.self)))
        else { return nil }
        position += length
        return value
    }

    /// Where the next value begins, just past the tag ``nextKey()`` read: a field the scanner does not read
    /// itself (a string, a sub-message) is read there by the careful reader (``WireReader/resume(atField:)``).
    @inline(__always)
    package var valueStart: UnsafeRawPointer { position }

    /// Goes on at `next`, the end of a field the careful reader read completely and within the message: it counts
    /// as decoded, so a hand-over after it resumes at `next`, not at that field again (a sub-message read twice
    /// would merge twice).
    @inline(__always)
    package mutating func skip(to next: UnsafeRawPointer) {
        position = next
        fieldStart = next
    }

    @inline(__always)
    package mutating func fixed32() -> UInt32 {
        let value = UInt32(littleEndian: position.loadUnaligned(as: UInt32.self))
        position += 4
        return value
    }

    @inline(__always)
    package mutating func fixed64() -> UInt64 {
        let value = UInt64(littleEndian: position.loadUnaligned(as: UInt64.self))
        position += 8
        return value
    }
}

extension WireReader {
    /// A fast-path scanner over the rest of the message being decoded, or nil when the input ends too close
    /// for one (the careful decoder handles those few bytes).
    @inline(__always)
    package func fastFieldScanner() -> FastFieldScanner? {
        guard inputEnd - cursor >= FastFieldScanner.lookahead else { return nil }
        return FastFieldScanner(position: cursor, messageEnd: end, inputEnd: inputEnd)
    }

    /// Moves back to where a fast path stopped (``FastFieldScanner/fieldStart``), for the careful decoder.
    @inline(__always)
    package mutating func resume(at fieldStart: UnsafeRawPointer) {
        cursor = fieldStart
    }

    /// Moves to the value of the field the fast path `scanner` has just read the tag of, as if ``readTag()`` had
    /// read it, so that the field's value is read (and any error reported) as the careful decoder would.
    @inline(__always)
    package mutating func resume(atField scanner: FastFieldScanner) {
        fieldStart = scanner.fieldStart
        cursor = scanner.valueStart
    }

    /// Marks the message being decoded as fully read, after a fast path decoded all of it.
    @inline(__always)
    package mutating func skipToMessageEnd() {
        cursor = end
    }
}

/// A message decoded through a fast path first (``FastFieldScanner``), its careful decoder taking over where the
/// fast path gives up.
package protocol FastPathMessage: HandCodedMessage {
    /// The fast path: true when it decoded the whole message; false hands over to the careful decoder at the
    /// scanner's ``FastFieldScanner/fieldStart``. A field it leaves to `reader` (a string, a sub-message) is read
    /// where the scanner stands, its errors thrown as the careful decoder throws them.
    mutating func decodeFieldsFast(
        _ scanner: inout FastFieldScanner, reader: inout WireReader
    ) throws(DecodingError) -> Bool
}

extension FastPathMessage {
    /// The fast path, then the careful decoder from where it stopped: the message's `decodeFields(from:)`.
    @inline(__always)
    package mutating func decodeFieldsFastFirst(from reader: inout WireReader) throws(DecodingError) {
        if var scanner = reader.fastFieldScanner() {
            if try decodeFieldsFast(&scanner, reader: &reader) {
                reader.skipToMessageEnd()
                return
            }
            reader.resume(at: scanner.fieldStart)
        }
        try decodeFieldsCarefully(from: &reader)
    }

    /// The decoder that checks everything and explains what is wrong, which the fast path falls back to (and
    /// tests compare the two).
    package mutating func decodeFieldsCarefully(from reader: inout WireReader) throws(DecodingError) {
        try decodeFieldByField(from: &reader)
    }
}
