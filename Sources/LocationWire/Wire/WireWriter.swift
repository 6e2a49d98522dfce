/// A growable output buffer that message encoders write canonical protobuf into.
///
/// Every write checks capacity first (one predictable branch), so an encoder bug can produce wrong bytes but
/// never write out of bounds. Sub-messages are written in one pass without a size pre-pass: the writer reserves
/// one byte for the length, lets the sub-message write itself, and moves the body only in the rare case that its
/// length needs more than one byte (128 bytes or more). Fixes, fence events and acks are shorter than that, so a
/// batch is encoded without computing any size twice.
public struct WireWriter: ~Copyable {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes written so far.
    package private(set) var count: Int

    /// A writer with room for `initialCapacity` bytes before it must grow.
    package init(initialCapacity: Int = 256) {
        let capacity = max(initialCapacity, 16)
        self.storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        self.capacity = capacity
        self.count = 0
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes written, as an array.
    package consuming func finish() -> [UInt8] {
        [UInt8](UnsafeRawBufferPointer(start: storage, count: count))
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
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    // MARK: - Primitives

    /// Writes a varint in its shortest form.
    @inline(__always)
    package mutating func writeVarint(_ value: UInt64) {
        reserve(10)
        var value = value
        var position = storage + count
        while value >= 0x80 {
            position.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, as: UInt8.self)
            position += 1
            value >>= 7
        }
        position.storeBytes(of: UInt8(value), as: UInt8.self)
        count = position - storage + 1
    }

    /// Writes a field key; keys of fields 1 to 15 take one byte, 16 to 2047 two.
    @inline(__always)
    package mutating func writeKey(_ key: FieldKey) {
        if key < 0x80 {
            reserve(1)
            storage.storeBytes(of: UInt8(key), toByteOffset: count, as: UInt8.self)
            count += 1
        } else {
            writeVarint(UInt64(key))
        }
    }

    @inline(__always)
    package mutating func writeFixed32(_ value: UInt32) {
        reserve(4)
        storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt32.self)
        count += 4
    }

    @inline(__always)
    package mutating func writeFixed64(_ value: UInt64) {
        reserve(8)
        storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt64.self)
        count += 8
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
        reserve(1)
        storage.storeBytes(of: value ? 1 : 0, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    package mutating func writeFixed32Field(_ key: FieldKey, _ value: UInt32) {
        writeKey(key)
        writeFixed32(value)
    }

    @inline(__always)
    package mutating func writeFixed64Field(_ key: FieldKey, _ value: UInt64) {
        writeKey(key)
        writeFixed64(value)
    }

    package mutating func writeStringField(_ key: FieldKey, _ value: String) {
        writeKey(key)
        var value = value
        value.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            writeRaw(UnsafeRawBufferPointer(utf8))
        }
    }

    package mutating func writeBytesField(_ key: FieldKey, _ value: [UInt8]) {
        writeKey(key)
        writeVarint(UInt64(value.count))
        value.withUnsafeBytes { writeRaw($0) }
    }

    /// Writes a sub-message field: key, length, body.
    @inline(__always)
    package mutating func writeMessageField<Message: LocationWireMessage>(_ key: FieldKey, _ message: borrowing Message) {
        writeKey(key)
        reserve(1)
        let lengthOffset = count
        count += 1
        message.encodeFields(to: &self)
        finishLength(at: lengthOffset)
    }

    /// Writes a sub-message field whose body `encodeBody` writes.
    @inline(__always)
    package mutating func writeMessageField(_ key: FieldKey, encodeBody: (inout WireWriter) -> Void) {
        writeKey(key)
        reserve(1)
        let lengthOffset = count
        count += 1
        encodeBody(&self)
        finishLength(at: lengthOffset)
    }

    /// Writes each element of a repeated message field, borrowing the elements in place (a `for` loop over the
    /// array would copy each one, retaining and releasing what it holds).
    @inline(__always)
    package mutating func writeRepeatedMessageField<Message: LocationWireMessage>(_ key: FieldKey, _ messages: [Message]) {
        messages.withUnsafeBufferPointer { elements in
            guard var element = elements.baseAddress else { return }
            for _ in 0..<elements.count {
                writeKey(key)
                reserve(1)
                let lengthOffset = count
                count += 1
                element.pointee.encodeFields(to: &self)  // `pointee` borrows; a subscript would copy
                finishLength(at: lengthOffset)
                element += 1
            }
        }
    }

    /// Writes a packed repeated field of varints; nothing when `values` is empty.
    @inline(__always)
    package mutating func writePackedVarints<Element>(_ key: FieldKey, _ values: [Element], _ convert: (Element) -> UInt64) {
        guard !values.isEmpty else { return }
        writeKey(key)
        reserve(1)
        let lengthOffset = count
        count += 1
        for value in values {
            writeVarint(convert(value))
        }
        finishLength(at: lengthOffset)
    }

    /// Writes a packed repeated field of 4-byte values; nothing when `values` is empty.
    package mutating func writePackedFixed32<Element>(_ key: FieldKey, _ values: [Element], _ convert: (Element) -> UInt32) {
        guard !values.isEmpty else { return }
        writeKey(key)
        writeVarint(UInt64(values.count * 4))
        reserve(values.count * 4)
        for value in values {
            storage.storeBytes(of: convert(value).littleEndian, toByteOffset: count, as: UInt32.self)
            count += 4
        }
    }

    /// Reserves `maxByteCount` bytes and returns a ``BoundedWireWriter`` that writes into them without checking
    /// capacity: for a message made of scalar fields, whose largest encoding is known, one capacity check replaces
    /// one per field. Nothing else may be written until ``commit(_:)`` takes the bounded writer back.
    /// (Not a closure: a closure would capture, and so copy, the message being encoded.)
    @inline(__always)
    package mutating func beginBounded(maxByteCount: Int) -> BoundedWireWriter {
        reserve(maxByteCount)
        let start = storage + count
        return BoundedWireWriter(position: start, end: start + maxByteCount)
    }

    /// Takes back what a ``beginBounded(maxByteCount:)`` writer wrote.
    @inline(__always)
    package mutating func commit(_ bounded: BoundedWireWriter) {
        precondition(bounded.position <= bounded.end, "a bounded write overran its reservation")
        count = bounded.position - storage
    }

    package mutating func writeUnknownFields(_ unknownFields: UnknownFields) {
        guard !unknownFields.isEmpty else { return }
        unknownFields.bytes.withUnsafeBytes { writeRaw($0) }
    }

    /// Fills in the one-byte length reserved at `lengthOffset`, or, for a body of 128 bytes or more, moves the
    /// body right to make room for the longer varint.
    @inline(__always)
    private mutating func finishLength(at lengthOffset: Int) {
        let length = count - lengthOffset - 1
        if length < 0x80 {
            storage.storeBytes(of: UInt8(length), toByteOffset: lengthOffset, as: UInt8.self)
        } else {
            widenLength(length, at: lengthOffset)
        }
    }

    @inline(never)
    private mutating func widenLength(_ length: Int, at lengthOffset: Int) {
        let lengthSize = Varint.encodedSize(of: UInt64(length))
        let extra = lengthSize - 1
        reserve(extra)
        let bodyStart = storage + lengthOffset + 1
        (bodyStart + extra).copyMemory(from: bodyStart, byteCount: length)  // memmove semantics
        var value = UInt64(length)
        var position = storage + lengthOffset
        while value >= 0x80 {
            position.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, as: UInt8.self)
            position += 1
            value >>= 7
        }
        position.storeBytes(of: UInt8(value), as: UInt8.self)
        count += extra
    }
}

/// Writes scalar fields into space a ``WireWriter`` reserved, without a capacity check per field.
///
/// The caller promises, through `maxByteCount`, an upper bound of what it writes: 2 bytes for a key of a
/// field numbered up to 2047, 10 for any varint, 4 or 8 for fixed-width values. `end` is checked in debug builds
/// on every write and in all builds once the body is done.
package struct BoundedWireWriter {
    fileprivate var position: UnsafeMutableRawPointer
    fileprivate let end: UnsafeMutableRawPointer

    fileprivate init(position: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) {
        self.position = position
        self.end = end
    }

    @inline(__always)
    private mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            position.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, as: UInt8.self)
            position += 1
            value >>= 7
        }
        position.storeBytes(of: UInt8(value), as: UInt8.self)
        position += 1
        assert(position <= end)
    }

    @inline(__always)
    private mutating func writeKey(_ key: FieldKey) {
        if key < 0x80 {
            position.storeBytes(of: UInt8(key), as: UInt8.self)
            position += 1
        } else {
            writeVarint(UInt64(key))
        }
    }

    @inline(__always)
    package mutating func writeVarintField(_ key: FieldKey, _ value: UInt64) {
        writeKey(key)
        writeVarint(value)
    }

    /// An int32 or enum value, sign-extended to 64 bits when negative.
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
    package mutating func writeBoolField(_ key: FieldKey, _ value: Bool) {
        writeKey(key)
        position.storeBytes(of: value ? 1 : 0, as: UInt8.self)
        position += 1
        assert(position <= end)
    }

    @inline(__always)
    package mutating func writeFixed32Field(_ key: FieldKey, _ value: UInt32) {
        writeKey(key)
        position.storeBytes(of: value.littleEndian, toByteOffset: 0, as: UInt32.self)
        position += 4
        assert(position <= end)
    }
}
