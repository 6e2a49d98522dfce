/// One occurrence of a field in protobuf binary, as ``SchemaFieldWalker`` finds it: its key, the schema's field
/// when the occurrence belongs to it, its scalar value, and where its bytes are.
///
/// Offsets count bytes from the start of the buffer the walker was given.
package struct FieldOccurrence {
    /// `field number << 3 | wire type`, as read from the tag.
    package let key: FieldKey
    /// The schema's field when the occurrence is that field's: the number is in the schema and the wire type is
    /// the field's own, or length-delimited for a packed repeated field. nil for an unknown field, including a known
    /// number with a foreign wire type (decoders keep such an occurrence as an unknown field, as C++ and upb do).
    ///
    /// Not counted in the occurrence: the schema passed to ``SchemaFieldWalker/next(in:)`` owns its fields and
    /// outlives the walk, so an occurrence is a plain value that copies without reference counting (JSON printing
    /// makes one per value, and reads ``info`` instead).
    package var field: FieldSchema? { fieldIndex < 0 ? nil : schema.fields[fieldIndex] }
    /// ``field``'s ``FieldSchema/info``, read without counting a reference (what the JSON printer reads).
    package let info: FieldInfo?
    /// The schema walked, and ``field``'s index in its fields (-1 for none).
    fileprivate unowned(unsafe) let schema: MessageSchema
    fileprivate let fieldIndex: Int
    /// The number is in the schema but the wire type is not the field's: an unknown field that looks known.
    package let hasForeignWireType: Bool
    /// A packed run of a repeated scalar field: the payload holds elements, read with
    /// ``SchemaFieldWalker/nextElement(_:)`` after ``SchemaFieldWalker/enter(_:)``.
    package let isPacked: Bool
    /// The first byte of the tag.
    package let tagStart: Int
    /// The first byte of the value: after the tag, and for length-delimited fields after the length prefix too (the
    /// payload). For a group, the byte after the start-group tag (its fields follow as occurrences of their own).
    package let valueStart: Int
    /// One past the last byte of the value (of the payload for length-delimited fields); `valueStart` for groups.
    package let end: Int
    /// The value of a varint, fixed64 or fixed32 field (raw bits, little-endian decoded); 0 for other wire types.
    package let bits: UInt64

    /// The field number.
    @inline(__always)
    package var number: UInt32 { key.fieldNumber }

    /// The wire type (never 6 or 7: the walker rejects those tags).
    @inline(__always)
    package var wireType: WireType { WireType(rawValue: key.wireTypeBits).unsafelyUnwrapped }

    /// The length of a length-delimited payload, in bytes (0 for other wire types).
    @inline(__always)
    package var length: Int { end - valueStart }
}

/// One element of a packed run, read by ``SchemaFieldWalker/nextElement(_:)``.
package struct PackedElement {
    /// The element's first byte and one past its last.
    package let start: Int
    package let end: Int
    /// The element's value: a varint, or the raw bits of a fixed-width value.
    package let bits: UInt64
}

/// Walks protobuf binary field by field, guided by a `MessageSchema`: the one place that decides which
/// occurrences are known fields (``FieldOccurrence/field``). The JSON printer, the annotated dump, the fuzzers'
/// mutator, the vector generator and tests walk bytes with it.
///
/// ``next(in:)`` reads a tag and, for varint and fixed-width values, the value; for a length-delimited field it
/// reads the length prefix and stops at the payload, which the caller may read (``bytes(of:)``), enter (a
/// sub-message or a packed run: ``enter(_:)``), or leave alone: the next call passes over whatever is left. A group
/// is passed over the same way unless entered with ``enterGroup()``. Every read is checked as a decoder checks it
/// (`WireReader`): errors carry the decoder's codes and offsets, and no field path.
///
/// The walker borrows `buffer` (create it inside `withUnsafeBytes` and do not let it escape).
package struct SchemaFieldWalker: ~Copyable {
    @usableFromInline var reader: WireReader
    @usableFromInline let buffer: UnsafeRawBufferPointer
    /// Where the latest occurrence's bytes end; ``next(in:)`` passes over what the caller left unread before it.
    @usableFromInline var pendingEnd = 0
    /// The key of a start- or end-group tag just read and not entered; ``next(in:)`` skips (or rejects) it.
    @usableFromInline var pendingGroupKey: FieldKey = 0

    /// A walker over `buffer`, which must have a base address (callers handle empty input without a walker).
    package init(_ buffer: UnsafeRawBufferPointer, limits: DecodingLimits = .default) {
        self.reader = WireReader(buffer, limits: limits)
        self.buffer = buffer
    }

    /// The offset of the next byte to read.
    @inlinable @inline(__always)
    package var offset: Int { reader.offset }

    /// The next field of the message being walked, or nil at its end (the end of the input, of an entered
    /// sub-message, or, inside an entered group, the end of its enclosing message: an unterminated group).
    ///
    /// Inlinable: JSON printing calls it once per value from another module, and an out-of-line call there costs
    /// more than the walk itself (Benchmarks/NOTES.md, "Figures behind the code").
    @inlinable @inline(__always)
    package mutating func next(in schema: MessageSchema) throws(DecodingError) -> FieldOccurrence? {
        if pendingGroupKey != 0 { try passGroup() }
        let unread = pendingEnd - reader.offset
        if unread > 0 { reader.skip(unread) }
        if reader.isAtEnd { return nil }
        let tagStart = reader.offset
        let key = try reader.readTag()
        var fieldIndex = -1
        var info: FieldInfo?
        var isPacked = false
        var hasForeignWireType = false
        let wireType = key.wireTypeBits
        if let index = schema.fieldIndex(number: key.fieldNumber) {
            let candidate = schema.fieldInfos[index]
            // The rule for known fields: the field's own wire type, or a packed run of a packable repeated field.
            if wireType == candidate.wireType.rawValue {
                fieldIndex = index
                info = candidate
            } else if wireType == WireType.lengthDelimited.rawValue && candidate.isPacked {
                fieldIndex = index
                info = candidate
                isPacked = true
            } else {
                hasForeignWireType = true
            }
        }
        var valueStart = reader.offset
        var bits: UInt64 = 0
        switch wireType {
        case WireType.varint.rawValue: bits = try reader.readVarint()
        case WireType.fixed64.rawValue: bits = try reader.readFixed64()
        case WireType.fixed32.rawValue: bits = UInt64(try reader.readFixed32())
        case WireType.lengthDelimited.rawValue:
            let length = try reader.readLength()
            valueStart = reader.offset
            pendingEnd = valueStart + length
        default:
            // Start or end of a group: no value of its own.
            pendingGroupKey = key
        }
        if wireType != WireType.lengthDelimited.rawValue { pendingEnd = reader.offset }
        return FieldOccurrence(
            key: key, info: info, schema: schema, fieldIndex: fieldIndex, hasForeignWireType: hasForeignWireType,
            isPacked: isPacked, tagStart: tagStart, valueStart: valueStart, end: pendingEnd, bits: bits)
    }

    /// Skips a group that was not entered (checking it as a decoder does), or rejects an end-group tag that
    /// closes nothing.
    @usableFromInline @inline(never)
    mutating func passGroup() throws(DecodingError) {
        let key = pendingGroupKey
        pendingGroupKey = 0
        try reader.skipValue(key)
        pendingEnd = reader.offset
    }

    /// The bytes of an occurrence's value (for a length-delimited field, its payload).
    @inlinable @inline(__always)
    package func bytes(of occurrence: FieldOccurrence) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[occurrence.valueStart..<occurrence.end])
    }

    /// The bytes between two offsets, for callers that show or copy whole fields.
    package func bytes(from start: Int, to end: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[start..<end])
    }

    // MARK: - Nesting

    /// What ``leave(_:)`` restores.
    package struct Level {
        fileprivate let outerEnd: UnsafeRawPointer
        fileprivate let payloadEnd: Int
        fileprivate let remainingDepth: Int
    }

    /// Enters the payload of the length-delimited occurrence just returned by ``next(in:)``: a sub-message, whose
    /// fields ``next(in:)`` then walks (one level of nesting, checked against the depth limit), or a packed run,
    /// whose elements ``nextElement(_:)`` reads. Pair with ``leave(_:)``.
    package mutating func enter(_ occurrence: FieldOccurrence) throws(DecodingError) -> Level {
        assert(reader.offset == occurrence.valueStart && occurrence.wireType == .lengthDelimited)
        let remainingDepth = reader.remainingDepth
        if !occurrence.isPacked { try reader.enterNested() }
        let outerEnd = reader.pushLimit(occurrence.length)
        pendingEnd = reader.offset  // the payload is walked now, not passed over
        return Level(outerEnd: outerEnd, payloadEnd: occurrence.end, remainingDepth: remainingDepth)
    }

    /// Leaves an entered payload and continues after it, whether or not the caller walked all of it (a caller
    /// may stop at an error inside, however deep, and go on with the enclosing message).
    package mutating func leave(_ level: Level) {
        reader.popLimit(level.outerEnd)
        reader.skip(level.payloadEnd - reader.offset)
        reader.remainingDepth = level.remainingDepth
        pendingEnd = level.payloadEnd
        pendingGroupKey = 0
    }

    /// The next element of an entered packed run whose elements have `wireType` (varint, fixed32 or fixed64),
    /// or nil at its end. A fixed-width element cut short by the end of the run is an `invalidPackedLength`
    /// error at the element's offset.
    @inline(__always)
    package mutating func nextElement(_ wireType: WireType) throws(DecodingError) -> PackedElement? {
        if reader.isAtEnd { return nil }
        let start = reader.offset
        let bits: UInt64
        switch wireType {
        case .fixed32:
            guard reader.remaining >= 4 else { throw Self.packedLengthError(at: start, size: 4) }
            bits = UInt64(try reader.readFixed32())
        case .fixed64:
            guard reader.remaining >= 8 else { throw Self.packedLengthError(at: start, size: 8) }
            bits = try reader.readFixed64()
        default:
            bits = try reader.readVarint()
        }
        return PackedElement(start: start, end: reader.offset, bits: bits)
    }

    @inline(never)
    private static func packedLengthError(at offset: Int, size: Int) -> DecodingError {
        DecodingError(
            code: .invalidPackedLength, offset: offset, message: "packed \(size)-byte values do not fill the field")
    }

    /// Enters the group whose start-group tag ``next(in:)`` just returned (one level of nesting): ``next(in:)``
    /// then yields the group's fields, up to and including its end-group tag, which the caller matches and
    /// closes with ``leaveGroup()``.
    package mutating func enterGroup() throws(DecodingError) {
        assert(pendingGroupKey & 7 == UInt32(WireType.startGroup.rawValue))
        pendingGroupKey = 0
        try reader.enterNested()
    }

    /// Closes an entered group after the caller has matched its end-group tag (just returned by ``next(in:)``).
    package mutating func leaveGroup() {
        assert(pendingGroupKey & 7 == UInt32(WireType.endGroup.rawValue))
        pendingGroupKey = 0
        reader.leaveNested()
    }
}
