/// A growable output buffer that message encoders write canonical protobuf into.
///
/// Every write checks capacity first (one predictable branch), so an encoder bug can produce wrong bytes but
/// never write out of bounds. Sub-messages are written in one pass without a size pre-pass: the writer reserves
/// one byte for the length, lets the sub-message write itself, and moves the body only in the rare case that its
/// length needs more than one byte (128 bytes or more). Fixes, fence events and acks are shorter than that, so a
/// batch is encoded without computing any size twice.
public struct WireWriter: ~Copyable, FieldWriter {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes written so far.
    package private(set) var count: Int
    /// False while the writer writes into memory its caller lent it (``init(startingIn:)``): it must not free it.
    private var ownsStorage: Bool

    /// A writer with room for `initialCapacity` bytes before it must grow.
    package init(initialCapacity: Int = 256) {
        let capacity = max(initialCapacity, 16)
        self.storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        self.capacity = capacity
        self.count = 0
        self.ownsStorage = true
    }

    /// A writer that starts in `scratch`, memory the caller owns and keeps alive while the writer lives (stack
    /// memory from `withUnsafeTemporaryAllocation`): a message that fits is written with no allocation, and one
    /// that does not moves to memory of its own the first time it grows, as any writer would.
    package init(startingIn scratch: UnsafeMutableRawBufferPointer) {
        precondition(scratch.count >= 16, "a scratch buffer needs room for a few fields")
        self.storage = scratch.baseAddress!
        self.capacity = scratch.count
        self.count = 0
        self.ownsStorage = false
    }

    deinit {
        if ownsStorage { storage.deallocate() }
    }

    /// The bytes written, as an array of exactly their size (one allocation, one copy).
    package consuming func finish() -> [UInt8] {
        [UInt8](UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// How large the stack scratch buffer of ``withScratchWriter(_:)`` is: `withUnsafeTemporaryAllocation`
    /// allocates on the stack up to 1024 bytes without asking the runtime how much stack is left.
    static let scratchByteCount = 1024

    /// Calls `body` with a writer that starts in a stack buffer of ``scratchByteCount`` bytes: encoding a message
    /// that fits allocates nothing until the caller copies the bytes out. (A closure is fine here: it captures
    /// a reference to the message, it does not copy it.)
    @inline(__always)
    package static func withScratchWriter<Result>(_ body: (consuming WireWriter) -> Result) -> Result {
        withUnsafeTemporaryAllocation(byteCount: scratchByteCount, alignment: 8) { scratch in
            body(WireWriter(startingIn: scratch))
        }
    }

    /// Calls `body` with the bytes written so far, without copying them.
    package func withWrittenBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// Forgets what was written but keeps the memory, so one writer can encode many messages.
    package mutating func removeAll() {
        count = 0
    }

    // MARK: - Capacity

    @inline(__always)
    package mutating func reserve(_ byteCount: Int) {
        if capacity &- count < byteCount {
            grow(toFit: byteCount)
        }
    }

    /// Makes room for `byteCount` more bytes at once, with no doubling past it: for an encoder that can
    /// estimate its size (a batch of fixes), one allocation replaces a series of doublings and copies.
    package mutating func reserveCapacity(forAdditional byteCount: Int) {
        guard capacity &- count < byteCount else { return }
        resize(to: count + byteCount)
    }

    @inline(never)
    private mutating func grow(toFit byteCount: Int) {
        var newCapacity = capacity * 2
        while newCapacity - count < byteCount { newCapacity *= 2 }
        resize(to: newCapacity)
    }

    private mutating func resize(to newCapacity: Int) {
        let newStorage = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        newStorage.copyMemory(from: storage, byteCount: count)
        if ownsStorage { storage.deallocate() }
        storage = newStorage
        capacity = newCapacity
        ownsStorage = true
    }

    // MARK: - Primitives (the field writers are in ``FieldWriter``)

    /// Writes a varint in its shortest form.
    @inline(__always)
    package mutating func writeVarint(_ value: UInt64) {
        reserve(Varint.maxEncodedSize)
        var position = storage + count
        Varint.store(value, advancing: &position)
        count = position - storage
    }

    @inline(__always)
    package mutating func writeLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        reserve(MemoryLayout<Value>.size)
        storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: Value.self)
        count += MemoryLayout<Value>.size
    }

    /// Writes raw bytes: unknown fields, or a payload whose length was already written.
    @inline(__always)
    package mutating func writeRaw(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count += bytes.count
    }

    // MARK: - Fields

    package mutating func writeStringField(_ key: FieldKey, _ value: String) {
        writeKey(key)
        // A native string lends its UTF-8 in place; only a foreign (bridged) string, which Linux never makes, is
        // copied. (`withUTF8` would need a mutable copy of `value`: a retain and a release per string.)
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            writeVarint(UInt64(utf8.count))
            writeRaw(UnsafeRawBufferPointer(utf8))
        }
        if written == nil { writeForeignString(value) }
    }

    @inline(never)
    private mutating func writeForeignString(_ value: String) {
        let utf8 = Array(value.utf8)
        writeVarint(UInt64(utf8.count))
        utf8.withUnsafeBytes { writeRaw($0) }
    }

    package mutating func writeBytesField(_ key: FieldKey, _ value: [UInt8]) {
        writeKey(key)
        writeVarint(UInt64(value.count))
        value.withUnsafeBytes { writeRaw($0) }
    }

    /// Writes `key` and reserves one byte for a length: the start of a length-delimited field whose body the
    /// caller writes next and closes with ``finishLengthDelimitedField(at:)``. (Not a closure: a closure would
    /// capture, and so copy, the message being encoded.)
    @inline(__always)
    package mutating func beginLengthDelimitedField(_ key: FieldKey) -> Int {
        writeKey(key)
        reserve(1)
        count += 1
        return count - 1
    }

    /// Fills in the length reserved by ``beginLengthDelimitedField(_:)`` at `lengthOffset`; moves the body right
    /// in the rare case that its length needs more than one byte (128 bytes or more).
    @inline(__always)
    package mutating func finishLengthDelimitedField(at lengthOffset: Int) {
        let length = count - lengthOffset - 1
        if length < 0x80 {
            storage.storeBytes(of: UInt8(length), toByteOffset: lengthOffset, as: UInt8.self)
        } else {
            widenLength(length, at: lengthOffset)
        }
    }

    /// Writes `key` and reserves room for the length of a body of about `expectedLength` bytes (the bytes of its
    /// varint): for a body often 128 bytes or more, which the one byte of ``beginLengthDelimitedField(_:)`` would
    /// make ``finishLengthDelimitedField(at:)`` move. Close with ``finishLengthDelimitedField(_:)``, which moves
    /// the body only when the guess had the wrong number of bytes, so the length is canonical either way.
    @inline(__always)
    package mutating func beginLengthDelimitedField(_ key: FieldKey, expectedLength: Int) -> LengthSlot {
        writeKey(key)
        let width = Varint.encodedSize(of: UInt64(expectedLength))
        reserve(width)
        count += width
        return LengthSlot(offset: count - width, width: width)
    }

    /// Fills in the length reserved by ``beginLengthDelimitedField(_:expectedLength:)``.
    @inline(__always)
    package mutating func finishLengthDelimitedField(_ slot: LengthSlot) {
        let length = count - slot.offset - slot.width
        if Varint.encodedSize(of: UInt64(length)) != slot.width {
            resizeLength(length, at: slot.offset, reserved: slot.width)
        }
        var position = storage + slot.offset
        Varint.store(UInt64(length), advancing: &position)
    }

    /// Writes a sub-message field: key, length, body.
    @inline(__always)
    package mutating func writeMessageField<Message: LocationWireMessage>(_ key: FieldKey, _ message: borrowing Message)
    {
        let lengthOffset = beginLengthDelimitedField(key)
        message.encodeFields(to: &self)
        finishLengthDelimitedField(at: lengthOffset)
    }

    /// Writes the sub-message an optional field at `optional` holds, reading it in place; nothing when it is nil.
    /// (`if let` would copy the message first: a retain and a release of what it holds, and a `memcpy` for a fix.)
    @inline(__always)
    package mutating func writeMessageField<Message: LocationWireMessage>(
        _ key: FieldKey, ifPresentAt optional: UnsafePointer<Message?>
    ) {
        guard let message = optionalPayload(optional) else { return }
        let lengthOffset = beginLengthDelimitedField(key)
        Message.encodeFields(at: message, to: &self)
        finishLengthDelimitedField(at: lengthOffset)
    }

    /// Writes each element of a repeated message field, borrowing the elements in place (a `for` loop over the
    /// array would copy each one, retaining and releasing what it holds).
    @inline(__always)
    package mutating func writeRepeatedMessageField<Message: LocationWireMessage>(
        _ key: FieldKey, _ messages: [Message]
    ) {
        messages.withUnsafeBufferPointer { elements in
            guard var element = elements.baseAddress else { return }
            for _ in 0..<elements.count {
                let lengthOffset = beginLengthDelimitedField(key)
                Message.encodeFields(at: element, to: &self)
                finishLengthDelimitedField(at: lengthOffset)
                element += 1
            }
        }
    }

    /// Writes a packed repeated field of varints; nothing when `values` is empty. The payload's size is summed
    /// first (branch-free sizes), so its length is written in its final form and the payload is written after
    /// one capacity check, with no check per value and no move of the payload when it reaches 128 bytes.
    @inline(__always)
    package mutating func writePackedVarints<Element>(
        _ key: FieldKey, _ values: [Element], _ convert: (Element) -> UInt64
    ) {
        guard !values.isEmpty else { return }
        values.withUnsafeBufferPointer { values in
            var payloadSize = 0
            for value in values { payloadSize &+= Varint.encodedSize(of: convert(value)) }
            writeKey(key)
            writeVarint(UInt64(payloadSize))
            reserve(payloadSize)
            // In bounds: each value takes exactly the bytes its size counted, and the sizes were reserved.
            var position = storage + count
            for value in values { Varint.store(convert(value), advancing: &position) }
            precondition(position == storage + count + payloadSize, "packed varint sizes disagree")
            count += payloadSize
        }
    }

    /// Writes a packed repeated sfixed32 field; nothing when `values` is empty. On a little-endian host the
    /// array's memory already is the wire form, so it is copied whole instead of value by value.
    package mutating func writePackedFixed32(_ key: FieldKey, _ values: [Int32]) {
        values.withUnsafeBufferPointer { writePackedFixed32(key, $0) }
    }

    /// A packed `sfixed32` field of coordinates (a polygon's), as `[Int32]`'s.
    package mutating func writePackedFixed32(_ key: FieldKey, _ values: CoordinateList) {
        values.withUnsafeBufferPointer { writePackedFixed32(key, $0) }
    }

    @inline(__always)
    private mutating func writePackedFixed32(_ key: FieldKey, _ values: UnsafeBufferPointer<Int32>) {
        guard !values.isEmpty else { return }
        writeKey(key)
        writeVarint(UInt64(values.count &* 4))
        #if _endian(little)
            writeRaw(UnsafeRawBufferPointer(values))
        #else
            reserve(values.count &* 4)
            for value in values {
                storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: Int32.self)
                count += 4
            }
        #endif
    }

    /// Reserves `maxByteCount` bytes and returns a ``BoundedWireWriter`` that writes into them without checking
    /// capacity: for a message made of scalar fields, whose largest encoding is known, one capacity check replaces
    /// one per field. Nothing else may be written until ``commit(_:)`` takes the bounded writer back.
    /// (Not a closure: a closure would capture, and so copy, the message being encoded.)
    ///
    /// `maxByteCount` must bound what the bounded writer is given to write: derive it from the message's field
    /// list (``MessageFields/maxScalarFieldsEncodedSize``), never write it by hand.
    @inline(__always)
    package mutating func beginBounded(maxByteCount: Int) -> BoundedWireWriter {
        reserve(maxByteCount)
        let start = storage + count
        return BoundedWireWriter(position: start, end: start + maxByteCount)
    }

    /// Takes back what a ``beginBounded(maxByteCount:)`` writer wrote.
    @inline(__always)
    package mutating func commit(_ bounded: BoundedWireWriter) {
        // A last line of defence: the bound comes from the field list and a test encodes the largest possible
        // message against it, so this never fires unless both are wrong.
        precondition(bounded.position <= bounded.end, "a bounded write overran its reservation")
        count = bounded.position - storage
    }

    package mutating func writeUnknownFields(_ unknownFields: UnknownFields) {
        guard !unknownFields.isEmpty else { return }
        unknownFields.bytes.withUnsafeBytes { writeRaw($0) }
    }

    @inline(never)
    private mutating func widenLength(_ length: Int, at lengthOffset: Int) {
        resizeLength(length, at: lengthOffset, reserved: 1)
        var position = storage + lengthOffset
        Varint.store(UInt64(length), advancing: &position)
    }

    /// Moves the `length` bytes of a body that follow `reserved` bytes kept for its length at `lengthOffset`, so
    /// that exactly the bytes of the length's varint come before it (the caller then stores the length).
    @inline(never)
    private mutating func resizeLength(_ length: Int, at lengthOffset: Int, reserved: Int) {
        let width = Varint.encodedSize(of: UInt64(length))
        if width > reserved { reserve(width - reserved) }
        let bodyStart = storage + lengthOffset + reserved
        (storage + lengthOffset + width).copyMemory(from: bodyStart, byteCount: length)  // memmove semantics
        count += width - reserved
    }
}

/// The room ``WireWriter/beginLengthDelimitedField(_:expectedLength:)`` kept for a length: where, and how many bytes.
package struct LengthSlot {
    fileprivate let offset: Int
    fileprivate let width: Int
}

/// The payload of the optional at `optional`, in place, or nil when it holds none. Swift lays out an optional
/// (a single-payload enum) with its payload at its start, so the payload's address is the optional's.
@inline(__always)
package func optionalPayload<Wrapped>(_ optional: UnsafePointer<Wrapped?>) -> UnsafePointer<Wrapped>? {
    optional.pointee == nil ? nil : UnsafeRawPointer(optional).assumingMemoryBound(to: Wrapped.self)
}

/// Writes scalar fields into space a ``WireWriter`` reserved, without a capacity check per field.
///
/// Its writes are not checked in release builds (that is its purpose: a fix encodes through it, and a check per
/// field cost a tenth of the encoding time); debug builds check every write, and ``WireWriter/commit(_:)``
/// checks the end in every build. It stays in bounds because the space reserved for it is the largest encoding
/// of the message's declared fields (``MessageFields/maxScalarFieldsEncodedSize``), and an encoder writes each
/// declared field at most once: `Tests/LocationWireTests/WireWriterTests.swift` encodes the largest possible
/// fix against that bound.
package struct BoundedWireWriter: FieldWriter {
    fileprivate var position: UnsafeMutableRawPointer
    fileprivate let end: UnsafeMutableRawPointer

    fileprivate init(position: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) {
        self.position = position
        self.end = end
    }

    @inline(__always)
    package mutating func writeVarint(_ value: UInt64) {
        Varint.store(value, advancing: &position)
        assert(position <= end)
    }

    @inline(__always)
    package mutating func writeLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        position.storeBytes(of: value.littleEndian, as: Value.self)
        position += MemoryLayout<Value>.size
        assert(position <= end)
    }
}

/// The field writers both writers share, built on their two primitives.
package protocol FieldWriter: ~Copyable {
    /// Writes a varint in its shortest form.
    mutating func writeVarint(_ value: UInt64)
    /// Writes a fixed-width value in little-endian byte order (fixed32, fixed64, their signed forms, float and
    /// double by their bit patterns).
    mutating func writeLittleEndian<Value: FixedWidthInteger>(_ value: Value)
}

extension FieldWriter where Self: ~Copyable {
    /// Writes a field key; keys of fields 1 to 15 take one byte, 16 to 2047 two. Keys are constants in the
    /// encoders, so the varint loop folds away.
    @inline(__always)
    package mutating func writeKey(_ key: FieldKey) {
        writeVarint(UInt64(key))
    }

    @inline(__always)
    package mutating func writeVarintField(_ key: FieldKey, _ value: UInt64) {
        writeKey(key)
        writeVarint(value)
    }

    /// An int32 or enum value: negative values are sign-extended to 64 bits (10 bytes), as protobuf requires.
    @inline(__always)
    package mutating func writeInt32Field(_ key: FieldKey, _ value: Int32) {
        writeKey(key)
        writeVarint(UInt64(bitPattern: Int64(value)))
    }

    @inline(__always)
    package mutating func writeSInt32Field(_ key: FieldKey, _ value: Int32) {
        writeKey(key)
        writeVarint(UInt64(ZigZag.encode(value)))
    }

    @inline(__always)
    package mutating func writeSInt64Field(_ key: FieldKey, _ value: Int64) {
        writeKey(key)
        writeVarint(ZigZag.encode(value))
    }

    @inline(__always)
    package mutating func writeBoolField(_ key: FieldKey, _ value: Bool) {
        writeKey(key)
        writeVarint(value ? 1 : 0)
    }

    @inline(__always)
    package mutating func writeFixed32Field(_ key: FieldKey, _ value: UInt32) {
        writeKey(key)
        writeLittleEndian(value)
    }

    @inline(__always)
    package mutating func writeFixed64Field(_ key: FieldKey, _ value: UInt64) {
        writeKey(key)
        writeLittleEndian(value)
    }
}
