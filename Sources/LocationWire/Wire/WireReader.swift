/// A cursor over protobuf binary input, used by every message decoder.
///
/// The reader borrows the caller's bytes for the duration of one decode (it is created inside
/// `withUnsafeBytes` and never escapes), reads forward only, and checks every read against `end`, the end of
/// the message being decoded. Sub-messages narrow `end` to their length prefix and restore it afterwards, so a
/// decoder can never read past its own bytes. Nothing is allocated on the strength of a length prefix before the
/// prefix has been checked against the bytes that remain.
///
/// Offsets in errors count from the start of the whole input.
public struct WireReader: ~Copyable {
    /// Start of the whole input, for error offsets.
    let inputStart: UnsafeRawPointer
    /// One past the last byte of the whole input: a length beyond it means the input is truncated.
    let inputEnd: UnsafeRawPointer
    /// The next byte to read.
    var cursor: UnsafeRawPointer
    /// One past the last byte of the message being decoded.
    var end: UnsafeRawPointer
    /// Where the tag of the field being decoded began; an unknown field is copied from here.
    var fieldStart: UnsafeRawPointer
    /// How many more levels of sub-messages and groups may be entered.
    package var remainingDepth: Int
    let limits: DecodingLimits
    /// A string a later `string` field with the same bytes shares instead of making its own (strings are values,
    /// so sharing is invisible to callers): the last one ``readString()`` made that was too long to be stored
    /// inline (a heap allocation; the parent id of sibling regions, a region id repeated in events), or one the
    /// message decoded into held before this decode (``lend(_:)``: the device id sent with every batch).
    /// `keptStringStart` is where its bytes lie in the input, nil for a lent string (compared through its UTF-8
    /// view); `keptStringCount` its UTF-8 length, 0 for none. Two fields rather than a buffer pointer, which cannot
    /// have a length without a start: the reader stays within 128 bytes, past which each borrow of it is a
    /// `memcpy` call.
    private var keptString = ""
    private var keptStringStart: UnsafeRawPointer?
    private var keptStringCount = 0
    /// The buffer the polygons' coordinate lists of this decode share (`CoordinateList`): one allocation for
    /// all of an assignment's vertices instead of two arrays per polygon. Made by the first coordinate read.
    private var sharedCoordinates: CoordinateStorage?

    /// A reader over `buffer`, which must have a base address (callers handle empty input without a reader).
    package init(_ buffer: UnsafeRawBufferPointer, limits: DecodingLimits) {
        let start = buffer.baseAddress!
        self.inputStart = start
        self.cursor = start
        self.end = start + buffer.count
        self.inputEnd = start + buffer.count
        self.fieldStart = start
        self.remainingDepth = limits.maxDepth
        self.limits = limits
    }

    /// True when the message being decoded has no more bytes.
    @inline(__always)
    package var isAtEnd: Bool { cursor >= end }

    /// Bytes left in the message being decoded.
    @inline(__always)
    package var remaining: Int { end - cursor }

    /// Offset of the next byte from the start of the input.
    package var offset: Int { cursor - inputStart }

    // MARK: - Errors

    @inline(never)
    package func error(_ code: DecodingError.Code, at position: UnsafeRawPointer, _ message: String) -> DecodingError {
        DecodingError(code: code, offset: position - inputStart, message: message)
    }

    // MARK: - Tags

    /// Reads a field tag and returns its key (`field number << 3 | wire type`).
    ///
    /// Accepts tags of up to 5 bytes, including non-minimal ones, as C++ and upb do. Rejects field number 0,
    /// wire types 6 and 7, and tags whose value does not fit 32 bits (field numbers above 2^29 - 1): upb rejects
    /// those, while C++ silently truncates them.
    @inline(__always)
    package mutating func readTag() throws(DecodingError) -> FieldKey {
        fieldStart = cursor
        let key: UInt32
        // Field numbers 1 to 15 with any wire type fit one byte; most tags take this path.
        if cursor < end, case let byte = cursor.load(as: UInt8.self), byte < 0x80 {
            cursor += 1
            key = UInt32(byte)
        } else if end - cursor >= 2, case let second = (cursor + 1).load(as: UInt8.self), second < 0x80 {
            // Field numbers 16 to 2047: two bytes.
            key = UInt32(cursor.load(as: UInt8.self) & 0x7F) | UInt32(second) << 7
            cursor += 2
        } else {
            key = try readMultiByteTag()
        }
        if key < 8 {
            throw error(.invalidTag, at: fieldStart, "field number 0 is not allowed")
        }
        if key & 7 > 5 {
            throw error(.invalidWireType, at: fieldStart, "wire type \(key & 7) does not exist")
        }
        return key
    }

    @inline(never)
    private mutating func readMultiByteTag() throws(DecodingError) -> UInt32 {
        switch Varint.scan(cursor, end: end, maxLength: 5) {
        case .complete(let value, let length):
            guard value <= UInt64(UInt32.max) else {
                throw error(.invalidTag, at: fieldStart, "field number \(value >> 3) is above 2^29 - 1")
            }
            cursor += length
            return UInt32(value)
        case .truncated: throw error(.truncated, at: fieldStart, "input ends inside a field tag")
        case .tooLong: throw error(.invalidTag, at: fieldStart, "field tag is longer than 5 bytes")
        }
    }

    // MARK: - Scalars

    /// Reads a varint of up to 10 bytes. Non-minimal encodings are accepted; in a 10th byte only the lowest bit
    /// carries value (bit 63) and the others are ignored, as in C++ and upb; an 11th byte is an error.
    @inline(__always)
    package mutating func readVarint() throws(DecodingError) -> UInt64 {
        if cursor < end {
            let byte = cursor.load(as: UInt8.self)
            if byte < 0x80 {
                cursor += 1
                return UInt64(byte)
            }
            if end - cursor >= 8,
                let (value, length) = Varint.decode(word: UInt64(littleEndian: cursor.loadUnaligned(as: UInt64.self)))
            {
                // Any varint of up to eight bytes from one load (``Varint/decode(word:)``).
                cursor += length
                return value
            }
        }
        return try readVarintByteByByte()
    }

    /// Nine and ten byte varints (values of 2^56 and above, negative int32 and int64 values), and any varint in
    /// the last eight bytes of a message.
    @inline(never)
    private mutating func readVarintByteByByte() throws(DecodingError) -> UInt64 {
        switch Varint.scan(cursor, end: end, maxLength: Varint.maxEncodedSize) {
        case .complete(let value, let length):
            cursor += length
            return value
        case .truncated: throw error(.truncated, at: cursor, "input ends inside a varint")
        case .tooLong: throw error(.varintTooLong, at: cursor, "varint is longer than 10 bytes")
        }
    }

    /// Reads four little-endian bytes.
    @inline(__always)
    package mutating func readFixed32() throws(DecodingError) -> UInt32 { try readLittleEndian() }

    /// Reads eight little-endian bytes.
    @inline(__always)
    package mutating func readFixed64() throws(DecodingError) -> UInt64 { try readLittleEndian() }

    @inline(__always)
    private mutating func readLittleEndian<Value: FixedWidthInteger>() throws(DecodingError) -> Value {
        let size = MemoryLayout<Value>.size
        guard end - cursor >= size else {
            throw error(.truncated, at: cursor, "input ends inside a \(size)-byte value")
        }
        let value = cursor.loadUnaligned(as: Value.self)
        cursor += size
        return Value(littleEndian: value)
    }

    /// Reads an int32 or enum value: a varint of up to 64 bits whose low 32 bits are the value (negative
    /// values are sent sign-extended to 64 bits; larger values are truncated, as every protobuf runtime does).
    @inline(__always)
    package mutating func readInt32() throws(DecodingError) -> Int32 {
        Int32(truncatingIfNeeded: try readVarint())
    }

    @inline(__always)
    package mutating func readUInt32() throws(DecodingError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readVarint())
    }

    @inline(__always)
    package mutating func readSInt32() throws(DecodingError) -> Int32 {
        ZigZag.decode(UInt32(truncatingIfNeeded: try readVarint()))
    }

    @inline(__always)
    package mutating func readSInt64() throws(DecodingError) -> Int64 {
        ZigZag.decode(try readVarint())
    }

    /// Any non-zero varint is true.
    @inline(__always)
    package mutating func readBool() throws(DecodingError) -> Bool {
        try readVarint() != 0
    }

    // MARK: - Length-delimited

    /// Reads a length prefix and checks it against the bytes that remain, before anyone allocates.
    ///
    /// Lengths are 32-bit varints: at most 5 bytes (C++ and upb reject a sixth, even of padding).
    @inline(__always)
    package mutating func readLength() throws(DecodingError) -> Int {
        let lengthStart = cursor
        let length: UInt64
        if cursor < end, case let byte = cursor.load(as: UInt8.self), byte < 0x80 {
            cursor += 1
            length = UInt64(byte)
        } else {
            length = try readMultiByteLength()
        }
        guard length <= UInt64(end - cursor) else {
            throw lengthError(length, at: lengthStart)
        }
        return Int(length)
    }

    @inline(never)
    private mutating func readMultiByteLength() throws(DecodingError) -> UInt64 {
        switch Varint.scan(cursor, end: end, maxLength: 5) {
        case .complete(let value, let length):
            cursor += length
            return value
        case .truncated: throw error(.truncated, at: cursor, "input ends inside a length prefix")
        case .tooLong: throw error(.varintTooLong, at: cursor, "length prefix is longer than 5 bytes")
        }
    }

    /// A length prefix beyond the input is truncation; beyond the enclosing sub-message (while the input goes
    /// on) it is a malformed length.
    @inline(never)
    private func lengthError(_ length: UInt64, at position: UnsafeRawPointer) -> DecodingError {
        if length > UInt64(inputEnd - cursor) {
            return error(
                .truncated, at: position,
                "length prefix \(length) exceeds the \(inputEnd - cursor) bytes left in the input")
        }
        return error(
            .lengthExceedsMessage, at: position,
            "length prefix \(length) exceeds the \(end - cursor) bytes left in the enclosing message")
    }

    /// Offers `string`, which the message being decoded into held before this decode, to the next string fields
    /// (``LocationWireMessage/clearKeepingCapacity(lendingTo:)``): one with the same bytes is given `string`.
    /// Only a string too long to be stored inline is lent: a short one is made from its bytes as cheaply as it
    /// would be compared with them (``smallASCIIString(_:readableUpTo:)``).
    package mutating func lend(_ string: String) {
        let count = string.utf8.count
        guard count > Self.maxInlineStringBytes else { return }
        keptStringCount = count
        keptStringStart = nil
        keptString = string
    }

    /// Reads a `string` field, rejecting invalid UTF-8 as proto3 requires.
    package mutating func readString() throws(DecodingError) -> String {
        let length = try readLength()
        if length == 0 { return "" }
        let bytes = UnsafeRawBufferPointer(start: cursor, count: length)
        if length == keptStringCount, keptStringHasBytes(bytes) {
            // Valid UTF-8, since the kept string is: nothing to check or make.
            cursor += length
            return keptString
        }
        let string = try makeString(bytes)
        if length > Self.maxInlineStringBytes {
            keptString = string
            keptStringStart = cursor
            keptStringCount = length
        }
        cursor += length
        return string
    }

    /// True when the kept string (``keptString``) holds `bytes`, of its length.
    @inline(__always)
    private func keptStringHasBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let keptStringStart {
            return Self.equalBytes(bytes, UnsafeRawBufferPointer(start: keptStringStart, count: keptStringCount))
        }
        return keptString.utf8.withContiguousStorageIfAvailable { Self.equalBytes(bytes, UnsafeRawBufferPointer($0)) }
            == true
    }

    /// The most UTF-8 bytes a Swift string stores inline, without a heap allocation (on 64-bit platforms).
    private static let maxInlineStringBytes = 15

    /// `bytes` as a string, rejecting invalid UTF-8.
    @inline(__always)
    private func makeString(_ bytes: UnsafeRawBufferPointer) throws(DecodingError) -> String {
        if bytes.count <= Self.maxInlineStringBytes, let string = Self.smallASCIIString(bytes, readableUpTo: inputEnd) {
            return string
        }
        let string: String
        if Self.isASCII(bytes) {
            // ASCII is valid UTF-8, and ids almost always are ASCII: this skips the generic `String(validating:)`,
            // which is not specialized and looks up generic metadata on every call.
            string = String(decoding: bytes, as: UTF8.self)
        } else if let validated = String(validating: bytes, as: UTF8.self) {
            string = validated
        } else {
            throw error(.invalidUTF8, at: cursor, "string is not valid UTF-8")
        }
        return string
    }

    /// `bytes`, 1 to 15 of them, as a string when they are all ASCII, built from its bits; nil otherwise. On a
    /// 64-bit little-endian platform a Swift string of up to 15 UTF-8 bytes is stored inline (the standard
    /// library's ABI): its bytes in two words, the last byte `0xE0 | count` when they are ASCII. Making it so
    /// takes two loads, where `String(decoding:as:)` validates the bytes again and copies them one by one.
    /// `inputEnd` is where the readable input ends: 16 bytes are loaded at once when they lie before it.
    @inline(__always)
    private static func smallASCIIString(
        _ bytes: UnsafeRawBufferPointer, readableUpTo inputEnd: UnsafeRawPointer
    )
        -> String?
    {
        #if _pointerBitWidth(_64) && _endian(little)
            let count = bytes.count
            let start = bytes.baseAddress!
            var low: UInt64 = 0
            var high: UInt64 = 0
            if inputEnd - start >= 16 {
                low = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
                high = UInt64(littleEndian: (start + 8).loadUnaligned(as: UInt64.self))
                if count < 8 {
                    low &= (1 << (8 * UInt64(count))) &- 1
                    high = 0
                } else {
                    high &= (1 << (8 * UInt64(count - 8))) &- 1
                }
            } else {
                for index in 0..<count {
                    let byte = UInt64(bytes[index])
                    if index < 8 { low |= byte << (8 * UInt64(index)) } else { high |= byte << (8 * UInt64(index - 8)) }
                }
            }
            guard (low | high) & 0x8080_8080_8080_8080 == 0, smallStringLayoutHolds else { return nil }
            return unsafeBitCast((low, high | (0xE0 | UInt64(count)) << 56), to: String.self)
        #else
            return nil
        #endif
    }

    /// True when a short ASCII string has the layout ``smallASCIIString(_:readableUpTo:)`` builds, checked once
    /// on a literal, so that a standard library that stored strings otherwise would only be slower.
    private static let smallStringLayoutHolds: Bool = {
        let bits = unsafeBitCast("ab", to: (UInt64, UInt64).self)
        return bits.0 == 0x6261 && bits.1 == 0xE2 << 56
    }()

    /// True when `first` and `second`, of the same length, hold the same bytes; eight at a time.
    @inline(__always)
    private static func equalBytes(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        let count = first.count
        while count - offset >= 8 {
            guard
                first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// True when no byte has its high bit set; eight bytes at a time.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var position = bytes.baseAddress!
        let end = position + bytes.count
        var bits: UInt64 = 0
        while end - position >= 8 {
            bits |= position.loadUnaligned(as: UInt64.self)
            position += 8
        }
        while position < end {
            bits |= UInt64(position.load(as: UInt8.self))
            position += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// Reads one element of a repeated `string` field and appends it. Errors name the element's index. The first
    /// element makes room for all of the field's elements in the message (``countOccurrences()``), so the array
    /// is allocated once.
    package mutating func readString(appendingTo array: inout [String]) throws(DecodingError) {
        if array.isEmpty {
            array.reserveCapacity(try countOccurrences().count)
        }
        try checkCanAppend(to: array)
        do {
            array.append(try readString())
        } catch {
            throw error.prefixed(with: .index(array.count))
        }
    }

    /// Reads a `bytes` field.
    package mutating func readBytes() throws(DecodingError) -> [UInt8] {
        let length = try readLength()
        let bytes = [UInt8](UnsafeRawBufferPointer(start: cursor, count: length))
        cursor += length
        return bytes
    }

    /// Decodes a length-delimited sub-message into `message`, merging with what it already holds (a singular
    /// message field that occurs twice merges, as protobuf requires).
    @inline(__always)
    package mutating func readMessage<Message: LocationWireMessage>(into message: inout Message) throws(DecodingError) {
        let length = try readLength()
        try enterNested()
        let outerEnd = end
        end = cursor + length
        try message.decodeFields(from: &self)
        end = outerEnd
        remainingDepth += 1
    }

    /// Decodes one element of a repeated message field and appends it. Errors name the element's index.
    ///
    /// The first element (the array is empty) starts ``readMessageRun(into:)``, which sizes the array for all of
    /// the field's elements, so that a batch of any size decodes with one allocation for each repeated field.
    @inline(__always)
    package mutating func readMessage<Message: LocationWireMessage>(
        appendingTo array: inout [Message]
    ) throws(DecodingError) {
        if array.isEmpty {
            try readMessageRun(into: &array)
            return
        }
        let index = array.count
        try checkCanAppend(to: array)
        array.append(Message())
        do {
            try readMessage(into: &array[index])
        } catch {
            throw error.prefixed(with: .index(index))
        }
    }

    /// Narrows the reader to the next `length` bytes (already checked by ``readLength()``) and returns the
    /// previous end, for ``popLimit(_:)``. For tools that walk nested payloads themselves, such as the dump.
    package mutating func pushLimit(_ length: Int) -> UnsafeRawPointer {
        let outerEnd = end
        end = cursor + length
        return outerEnd
    }

    package mutating func popLimit(_ outerEnd: UnsafeRawPointer) {
        end = outerEnd
    }

    /// Skips `count` bytes that a length prefix already vouched for.
    package mutating func skip(_ count: Int) {
        cursor += min(count, end - cursor)
    }

    /// Leaves a level entered with ``enterNested()``.
    package mutating func leaveNested() {
        remainingDepth += 1
    }

    /// Enters one level of nesting, failing beyond ``DecodingLimits/maxDepth``.
    @inline(__always)
    package mutating func enterNested() throws(DecodingError) {
        guard remainingDepth > 0 else {
            throw error(
                .depthLimitExceeded, at: fieldStart,
                "nesting is deeper than the limit of \(limits.maxDepth) levels")
        }
        remainingDepth -= 1
    }

    // MARK: - Repeated fields

    /// Decodes the first element of a repeated message field, whose tag was just read, and the elements that
    /// directly follow it, into a new array with room for every element of the field in the message
    /// (``countOccurrences()``). Each element is built in place in the array's storage: appending would build a
    /// default element (184 bytes for a fix) and then copy it in. Elements that come after other fields are
    /// appended later, into the capacity already there.
    /// A kept message's array of up to this capacity is appended to (no allocation while the run fits, and no
    /// count of the run); a larger one is replaced by a new array filled in place, as a fresh decode's, because
    /// appending costs more per element than filling, and past about this many elements more than the allocation
    /// it saves (Benchmarks/NOTES.md, "Figures behind the code").
    static let keptRunLimit = 16

    private mutating func readMessageRun<Message: LocationWireMessage>(
        into array: inout [Message]
    ) throws(DecodingError) {
        if array.capacity > 0, array.capacity <= Self.keptRunLimit, (end - fieldStart) / 2 <= limits.maxRepeatedCount,
            let key = keyOfCurrentField()
        {
            // A message decoded into again (`decode(serializedBytes:)`) kept a short array: append to it, with no
            // allocation while the run fits. No count is needed: every occurrence takes at least two bytes, so
            // there cannot be more than the limit allows, and the count is what would have refused them.
            while true {
                let index = array.count
                array.append(Message())
                do throws(DecodingError) {
                    try readMessage(into: &array[index])
                } catch {
                    throw error.prefixed(with: .index(index))
                }
                guard readTag(ifEqualTo: key) else { return }
            }
        }
        let (key, capacity) = try countOccurrences()
        // Builds the run's elements in place from `first`, counting them in `initialized`.
        func fill(_ first: UnsafeMutablePointer<Message>, _ initialized: inout Int) throws(DecodingError) {
            var element = first
            while true {
                element.initialize(to: Message())
                initialized += 1
                do throws(DecodingError) {
                    try readMessage(into: &element.pointee)
                } catch {
                    throw error.prefixed(with: .index(initialized - 1))
                }
                guard initialized < capacity, readTag(ifEqualTo: key) else { return }
                element += 1
            }
        }
        if array.capacity >= capacity {
            // A kept message's long array with room for the run: filled in its own storage, where a new array
            // would be allocated and the old one's elements destroyed and freed.
            try array.appendInPlace(upTo: capacity, initializingWith: fill)
            return
        }
        var failure: DecodingError?
        array = [Message](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            do throws(DecodingError) {
                try fill(buffer.baseAddress!, &initialized)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Reads the next tag when it is `key` in the one or two bytes a canonical encoder writes, and returns true;
    /// otherwise reads nothing and returns false (the caller's loop reads whatever comes next).
    @inline(__always)
    private mutating func readTag(ifEqualTo key: FieldKey) -> Bool {
        if key < 0x80 {
            guard cursor < end, cursor.load(as: UInt8.self) == UInt8(key) else { return false }
            fieldStart = cursor
            cursor += 1
            return true
        }
        guard key < 0x4000, end - cursor >= 2, cursor.load(as: UInt8.self) == UInt8(truncatingIfNeeded: key) | 0x80,
            (cursor + 1).load(as: UInt8.self) == UInt8(key >> 7)
        else { return false }
        fieldStart = cursor
        cursor += 2
        return true
    }

    /// The key of the field whose tag was just read, and how many times it occurs from that tag to the end of
    /// the message (at least 1): the capacity its array needs.
    ///
    /// Skims field boundaries (each length checked against the message; values are not decoded) and stops
    /// quietly at malformed input, which the decode then reports. Every occurrence takes at least two bytes of
    /// the message, so the count never exceeds what the input holds. Throws when it exceeds
    /// ``DecodingLimits/maxRepeatedCount``.
    package func countOccurrences() throws(DecodingError) -> (key: FieldKey, count: Int) {
        // readTag has just read this tag, so skimming it again cannot fail.
        guard let key = keyOfCurrentField() else { return (0, 1) }
        var probe = fieldStart
        var count = 0
        while probe < end {
            // A one-byte key with a one-byte length: how canonical encoders write a small repeated message or
            // string (a fix, an event, an id).
            if key < 0x80, end - probe >= 2, probe.load(as: UInt8.self) == UInt8(key),
                case let length = Int((probe + 1).load(as: UInt8.self)), length < 0x80
            {
                guard length <= end - probe - 2 else { break }
                count += 1
                probe += 2 + length
                continue
            }
            guard let probedKey = skimTag(&probe) else { break }
            if probedKey == key { count += 1 }
            guard skimValue(&probe, key: probedKey) else { break }
        }
        count = max(count, 1)
        try checkElementCount(count, at: fieldStart)
        return (key, count)
    }

    package func checkElementCount(_ count: Int, at position: UnsafeRawPointer) throws(DecodingError) {
        guard count <= limits.maxRepeatedCount else {
            throw error(
                .tooManyElements, at: position,
                "repeated field would hold \(count) elements, more than the limit of \(limits.maxRepeatedCount)")
        }
    }

    /// The key of the field whose tag was just read (at ``fieldStart``).
    private func keyOfCurrentField() -> FieldKey? {
        var probe = fieldStart
        return skimTag(&probe)
    }

    private func skimTag(_ probe: inout UnsafeRawPointer) -> FieldKey? {
        skimVarint(&probe, maxLength: 5).map { FieldKey(truncatingIfNeeded: $0) }
    }

    private func skimVarint(_ probe: inout UnsafeRawPointer, maxLength: Int = Varint.maxEncodedSize) -> UInt64? {
        guard case .complete(let value, let length) = Varint.scan(probe, end: end, maxLength: maxLength) else {
            return nil
        }
        probe += length
        return value
    }

    private func skimLengthDelimited(_ probe: inout UnsafeRawPointer) -> Bool {
        guard let length = skimVarint(&probe), length <= UInt64(end - probe) else { return false }
        probe += Int(length)
        return true
    }

    private func skimValue(_ probe: inout UnsafeRawPointer, key: FieldKey) -> Bool {
        switch key & 7 {
        case 0: return skimVarint(&probe) != nil
        case 1:
            guard end - probe >= 8 else { return false }
            probe += 8
            return true
        case 2: return skimLengthDelimited(&probe)
        case 5:
            guard end - probe >= 4 else { return false }
            probe += 4
            return true
        default: return false  // groups are rare enough to end the estimate
        }
    }

    /// Reads a packed run of varints (wire type 2), appending each, converted by `convert`. The varints are
    /// counted before the array grows, so the allocation matches the input.
    @inline(__always)
    package mutating func readPackedVarints<Element>(
        appendingTo array: inout [Element], _ convert: (UInt64) -> Element
    ) throws(DecodingError) {
        let length = try readLength()
        let packedEnd = cursor + length
        // Every varint ends in exactly one byte below 0x80, so counting those bytes counts the elements: eight at
        // a time, then one by one.
        var count = 0
        var probe = cursor
        while packedEnd - probe >= 8 {
            let word = probe.loadUnaligned(as: UInt64.self)
            count += (~word & 0x8080_8080_8080_8080).nonzeroBitCount
            probe += 8
        }
        while probe < packedEnd {
            if probe.load(as: UInt8.self) < 0x80 { count += 1 }
            probe += 1
        }
        try checkElementCount(array.count + count, at: fieldStart)
        if array.isEmpty {
            array = try decodePackedVarints(count: count, end: packedEnd, convert)
            return
        }
        // A second chunk of the same field (rare): append element by element.
        array.reserveCapacity(array.count + count)
        let outerEnd = end
        end = packedEnd
        while cursor < end {
            array.append(convert(try readVarint()))
        }
        end = outerEnd
    }

    /// Decodes `count` varints (the number of terminating bytes in the region) straight into an array of exactly
    /// that size. Each varint ends at one of the counted terminators, so no read passes `packedEnd`; bytes left
    /// after the last terminator are an unterminated varint.
    @inline(__always)
    private mutating func decodePackedVarints<Element>(
        count: Int, end packedEnd: UnsafeRawPointer, _ convert: (UInt64) -> Element
    ) throws(DecodingError) -> [Element] {
        var position = cursor
        var failure: DecodingError?
        let elements = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            var decoded = 0
            // While eight bytes can be loaded, varints of up to eight bytes come from one load; each ends at a
            // counted terminator, so none passes `packedEnd`.
            let wordLimit = inputEnd - 8
            while decoded < count, position <= wordLimit {
                guard
                    let (value, length) = Varint.decode(
                        word: UInt64(littleEndian: position.loadUnaligned(as: UInt64.self)))
                else { break }  // nine or ten bytes: the loop below
                position += length
                buffer[decoded] = convert(value)
                decoded += 1
            }
            while decoded < count {
                // Nine or ten bytes, or too close to the end of the input for a word load.
                switch Varint.scan(position, end: packedEnd, maxLength: Varint.maxEncodedSize) {
                case .complete(let value, let length):
                    position += length
                    buffer[decoded] = convert(value)
                    decoded += 1
                    continue
                case .truncated:  // cannot happen: every counted varint ends at a terminator inside the field
                    failure = error(.truncated, at: position, "packed field ends inside a varint")
                case .tooLong:
                    failure = error(.varintTooLong, at: position, "varint is longer than 10 bytes")
                }
                break
            }
            initialized = decoded
        }
        if let failure { throw failure }
        guard position == packedEnd else {
            throw error(.truncated, at: position, "packed field ends inside a varint")
        }
        cursor = packedEnd
        return elements
    }

    /// Reads a packed run of 4-byte values.
    @inline(__always)
    package mutating func readPackedFixed32<Element>(
        appendingTo array: inout [Element], _ convert: (UInt32) -> Element
    ) throws(DecodingError) {
        let lengthStart = cursor
        let length = try readLength()
        guard length % 4 == 0 else {
            throw error(
                .invalidPackedLength, at: lengthStart, "packed 4-byte values take \(length) bytes, not a multiple of 4")
        }
        let count = length / 4
        try checkElementCount(array.count + count, at: fieldStart)
        if array.isEmpty {
            // The usual case, one chunk per field: straight into an array of exactly that size, as appending
            // checks the capacity once per value.
            let values = cursor
            array = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                for index in 0..<count {
                    let value = UInt32(littleEndian: (values + 4 * index).loadUnaligned(as: UInt32.self))
                    (base + index).initialize(to: convert(value))
                }
                initialized = count
            }
            cursor += length
            return
        }
        array.reserveCapacity(array.count + count)
        for _ in 0..<count {
            array.append(convert(UInt32(littleEndian: cursor.loadUnaligned(as: UInt32.self))))
            cursor += 4
        }
    }

    /// Reads a packed run of `sfixed32` coordinates and appends it to `list`, in the buffer this decode's lists
    /// share; the same checks as `readPackedFixed32(appendingTo:_:)`.
    package mutating func readPackedCoordinates(appendingTo list: inout CoordinateList) throws(DecodingError) {
        let lengthStart = cursor
        let length = try readLength()
        guard length % 4 == 0 else {
            throw error(
                .invalidPackedLength, at: lengthStart, "packed 4-byte values take \(length) bytes, not a multiple of 4")
        }
        try checkElementCount(list.count + length / 4, at: fieldStart)
        list.appendDecoded(
            cursor, count: length / 4, shared: &sharedCoordinates, coordinatesLeft: (inputEnd - cursor) / 4)
        cursor += length
    }

    /// Reads one unpacked `sfixed32` coordinate and appends it to `list`, checking the element limit.
    package mutating func readCoordinate(appendingTo list: inout CoordinateList) throws(DecodingError) {
        if list.count >= limits.maxRepeatedCount {
            try checkElementCount(list.count + 1, at: fieldStart)
        }
        let value = cursor
        _ = try readFixed32()
        list.appendDecoded(value, count: 1, shared: &sharedCoordinates, coordinatesLeft: (inputEnd - value) / 4)
    }

    /// Appends one unpacked element of a repeated scalar field, checking the element limit.
    @inline(__always)
    package func checkCanAppend<Element>(to array: [Element]) throws(DecodingError) {
        if array.count >= limits.maxRepeatedCount {
            try checkElementCount(array.count + 1, at: fieldStart)
        }
    }

    // MARK: - Unknown fields

    /// Skips the value of the field whose tag was just read and keeps the whole field, tag included, in
    /// `unknownFields`.
    package mutating func readUnknownField(
        _ key: FieldKey, into unknownFields: inout UnknownFields
    ) throws(DecodingError) {
        let start = fieldStart
        if limits.rejectsUnknownFields {
            throw error(.unknownField, at: start, "field \(key >> 3) with wire type \(key & 7) is not in the schema")
        }
        try skipValue(key)
        if unknownFields.isEmpty {
            // Room for the unknown fields the message may still hold (they come last in canonical encoding), so a
            // message with a few small unknown fields allocates once: the rest of the message, at most 256 bytes.
            unknownFields.reserveCapacity(forAdditional: min(end - start, 256))
        }
        unknownFields.append(UnsafeRawBufferPointer(start: start, count: cursor - start))
    }

    /// Skips the value of a field, checking it as thoroughly as a decoder would (varint length, bounds,
    /// matching group ends, depth).
    package mutating func skipValue(_ key: FieldKey) throws(DecodingError) {
        switch key & 7 {
        case 0:
            _ = try readVarint()
        case 1:
            _ = try readFixed64()
        case 2:
            cursor += try readLength()
        case 3:
            try skipGroup(fieldNumber: key >> 3)
        case 4:
            throw error(.unmatchedEndGroup, at: fieldStart, "end-group tag for field \(key >> 3) without a start")
        case 5:
            _ = try readFixed32()
        default:
            // readTag never returns wire types 6 and 7.
            throw error(.invalidWireType, at: fieldStart, "wire type \(key & 7) does not exist")
        }
    }

    private mutating func skipGroup(fieldNumber: UInt32) throws(DecodingError) {
        let groupStart = fieldStart
        try enterNested()
        while true {
            guard cursor < end else {
                throw error(.unterminatedGroup, at: groupStart, "group \(fieldNumber) has no end-group tag")
            }
            let key = try readTag()
            if key & 7 == 4 {
                guard key >> 3 == fieldNumber else {
                    throw error(
                        .unmatchedEndGroup, at: fieldStart,
                        "end-group tag for field \(key >> 3) inside group \(fieldNumber)")
                }
                break
            }
            try skipValue(key)
        }
        remainingDepth += 1
    }
}

extension Array {
    /// Empties the array of a repeated field for the next decode into a kept message, keeping its capacity
    /// (``LocationWireMessage/clearKeepingCapacity()``). A short array drops its elements one by one from the
    /// end: `removeAll(keepingCapacity:)` goes through `replaceSubrange`, whose fixed cost is many times a few
    /// elements'. A longer one, where that fixed cost is small beside its elements', still takes it.
    @inline(__always)
    package mutating func removeAllForNextDecode() {
        guard !isEmpty else { return }
        guard count <= WireReader.keptRunLimit else {
            removeAll(keepingCapacity: true)
            return
        }
        repeat {
            removeLast()
        } while !isEmpty
    }
}
