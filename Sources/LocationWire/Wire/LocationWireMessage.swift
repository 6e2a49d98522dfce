/// A LocationWire message: a value type with hand-written protobuf binary coding.
///
/// Decoding follows protobuf's binary rules exactly (last value wins for a singular field, repeated occurrences
/// of a sub-message merge, packed and unpacked repeated scalars are both accepted, unknown fields are kept);
/// encoding is canonical (field-number order, packed repeats, implicit-presence zeros omitted, unknown fields
/// last), so `decode(encode(m)) == m`, and `encode(decode(b)) == b` for canonical `b`.
public protocol LocationWireMessage: Sendable, Hashable, MessageSchemaProvider {
    /// The message's field table.
    static var schema: MessageSchema { get }

    /// The empty message: every field absent or zero.
    init()

    /// Fields the decoder did not recognise, re-emitted after the known fields.
    var unknownFields: UnknownFields { get set }

    /// Decodes fields from `reader` until the end of the message, merging them into `self`. This is the codec's
    /// own entry point; use ``init(serializedBytes:limits:)-(Sequence<UInt8>,_)`` or
    /// `merge(serializedBytes:limits:)`.
    mutating func decodeFields(from reader: inout WireReader) throws(DecodingError)

    /// Encodes every field in canonical form. This is the codec's own entry point; use ``serializedBytes()``.
    func encodeFields(to writer: inout WireWriter)

    /// Encodes every field of the message at `message` in canonical form, reading it in place: what the codec
    /// calls on a message it holds in memory (the one being serialized, an element of a repeated field, the
    /// payload of an optional one). The default calls ``encodeFields(to:)``. A message with large optional
    /// sub-messages implements it: a method called on a stored value, even one that only reads it, may first copy
    /// it whole, and an optional sub-message's presence cannot be read without such a copy either.
    static func encodeFields(at message: UnsafePointer<Self>, to writer: inout WireWriter)

    /// Sets every field as ``init()`` leaves it, keeping the capacity of the arrays that hold repeated fields and
    /// unknown fields, so that the next ``LocationWireMessage/decode(serializedBytes:limits:)-(Sequence<UInt8>,_)`` into this message fills them without
    /// allocating (generated for each message from its field list).
    mutating func clearKeepingCapacity()

    /// ``clearKeepingCapacity()``, first lending `reader` the value of the string field the next decode most
    /// likely reads again, such as a batch's device id: a field with the same bytes keeps
    /// that string instead of making a new one. The default lends nothing.
    mutating func clearKeepingCapacity(lendingTo reader: inout WireReader)
}

extension LocationWireMessage {
    public static func encodeFields(at message: UnsafePointer<Self>, to writer: inout WireWriter) {
        message.pointee.encodeFields(to: &writer)
    }

    /// The short type name, e.g. `LocationBatch`.
    public static var messageName: String { schema.name }

    /// The fully qualified type name, e.g. `locationwire.v1.LocationBatch`.
    public static var fullMessageName: String { schema.fullName }

    /// Decodes a message from protobuf binary.
    public init(
        serializedBytes bytes: some Sequence<UInt8>, limits: DecodingLimits = .default
    ) throws(DecodingError) {
        self.init()
        try merge(serializedBytes: bytes, limits: limits)
    }

    /// ``init(serializedBytes:limits:)-(Sequence<UInt8>,_)`` from an array, its commonest form: straight to its
    /// bytes, without the generic sequence entry's `withContiguousStorageIfAvailable`.
    public init(serializedBytes bytes: [UInt8], limits: DecodingLimits = .default) throws(DecodingError) {
        self.init()
        if let failure = bytes.withUnsafeBytes({ mergeCatching($0, limits: limits) }) { throw failure }
    }

    /// Decodes protobuf binary into this message, replacing what it holds, as C++'s `Clear()` then
    /// `ParseFromArray` on a message kept from one decode to the next: the result, the errors and the limits are
    /// those of ``init(serializedBytes:limits:)-(Sequence<UInt8>,_)``, but the decoded value is not copied out, and
    /// the arrays of the repeated fields keep their capacity (a repeated message field of more than 16 elements is
    /// refilled in its array's own storage when it has room, else in a new array). A caller that decodes message
    /// after message (a server reading one upload after another, a harness) keeps one message and decodes into it. After an error the message holds
    /// what was decoded before it: decode into it again, or discard it.
    public mutating func decode(
        serializedBytes bytes: some Sequence<UInt8>, limits: DecodingLimits = .default
    ) throws(DecodingError) {
        var failure: DecodingError?
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            failure = replaceCatching(UnsafeRawBufferPointer(buffer), limits: limits)
        }
        if handled == nil {
            let copy = [UInt8](bytes)
            copy.withUnsafeBytes { buffer in
                failure = replaceCatching(buffer, limits: limits)
            }
        }
        if let failure { throw failure }
    }

    /// A message without a generated field list (the testee protocol's, ``CompactFixes``) starts afresh: correct,
    /// but its arrays are allocated again.
    public mutating func clearKeepingCapacity() {
        self = Self()
    }

    /// Lends nothing: ``clearKeepingCapacity()``.
    public mutating func clearKeepingCapacity(lendingTo reader: inout WireReader) {
        clearKeepingCapacity()
    }

    /// ``decode(serializedBytes:limits:)`` from an array, its commonest form: straight to its bytes, without the
    /// generic sequence entry's `withContiguousStorageIfAvailable`.
    public mutating func decode(serializedBytes bytes: [UInt8], limits: DecodingLimits = .default) throws(DecodingError)
    {
        if let failure = bytes.withUnsafeBytes({ replaceCatching($0, limits: limits) }) { throw failure }
    }

    /// ``decode(serializedBytes:limits:)`` from raw memory.
    public mutating func decode(
        serializedBytes buffer: UnsafeRawBufferPointer, limits: DecodingLimits = .default
    ) throws(DecodingError) {
        if let failure = replaceCatching(buffer, limits: limits) { throw failure }
    }

    /// Decodes protobuf binary into this message, merging with what it holds, as protobuf's `MergeFrom` does.
    public mutating func merge(
        serializedBytes bytes: some Sequence<UInt8>, limits: DecodingLimits = .default
    ) throws(DecodingError) {
        var failure: DecodingError?
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            failure = mergeCatching(UnsafeRawBufferPointer(buffer), limits: limits)
        }
        if handled == nil {
            let copy = [UInt8](bytes)
            copy.withUnsafeBytes { buffer in
                failure = mergeCatching(buffer, limits: limits)
            }
        }
        if let failure { throw failure }
    }

    /// Decodes protobuf binary from raw memory into this message.
    public mutating func merge(
        serializedBytes buffer: UnsafeRawBufferPointer, limits: DecodingLimits = .default
    ) throws(DecodingError) {
        if let failure = mergeCatching(buffer, limits: limits) { throw failure }
    }

    /// Clears the message, lending its strings to the reader (``clearKeepingCapacity(lendingTo:)``), then decodes
    /// `buffer` into it; the errors of ``mergeCatching(_:limits:)``.
    private mutating func replaceCatching(_ buffer: UnsafeRawBufferPointer, limits: DecodingLimits) -> DecodingError? {
        guard buffer.count > 0, buffer.count <= limits.maxInputBytes else {
            clearKeepingCapacity()
            return mergeCatching(buffer, limits: limits)
        }
        var reader = WireReader(buffer, limits: limits)
        clearKeepingCapacity(lendingTo: &reader)
        return decodeCatching(from: &reader)
    }

    private mutating func mergeCatching(_ buffer: UnsafeRawBufferPointer, limits: DecodingLimits) -> DecodingError? {
        guard buffer.count > 0 else { return nil }
        guard buffer.count <= limits.maxInputBytes else {
            return DecodingError(
                code: .inputTooLarge, offset: 0, fieldPath: FieldPath(message: Self.messageName),
                message: "input of \(buffer.count) bytes exceeds the limit of \(limits.maxInputBytes)")
        }
        var reader = WireReader(buffer, limits: limits)
        return decodeCatching(from: &reader)
    }

    /// Decodes every field `reader` holds into the message; the error, if any, named by the message.
    @inline(__always)
    private mutating func decodeCatching(from reader: inout WireReader) -> DecodingError? {
        do {
            try decodeFields(from: &reader)
            return nil
        } catch let failure {
            return failure.prefixed(with: .message(Self.messageName))
        }
    }

    /// The canonical protobuf binary encoding.
    ///
    /// One allocation, the returned array, for a message of up to 1 KiB: the writer starts in a stack buffer and
    /// the bytes are copied out at their exact size. A larger message also allocates the writer's buffer.
    public func serializedBytes() -> [UInt8] {
        WireWriter.withScratchWriter { (writer: consuming WireWriter) in
            encodeFields(to: &writer)
            return writer.finish()
        }
    }

    /// Replaces the contents of `bytes` with the canonical protobuf binary encoding, keeping its capacity: once
    /// `bytes` has grown to the size of the messages encoded into it, a message of up to 1 KiB is encoded with no
    /// allocation (as C++'s `SerializeToString` into a reused string). `bytes` must not be shared with another
    /// array variable, or the first encoding copies it.
    public func serialize(into bytes: inout [UInt8]) {
        WireWriter.withScratchWriter { (writer: consuming WireWriter) in
            encodeFields(to: &writer)
            // One replacement rather than `removeAll(keepingCapacity:)` and an append: one uniqueness and capacity
            // check instead of two.
            writer.withWrittenBytes { bytes.replaceSubrange(bytes.startIndex..<bytes.endIndex, with: $0) }
        }
    }

    /// The length of ``serializedBytes()``.
    public var serializedSize: Int {
        WireWriter.withScratchWriter { (writer: consuming WireWriter) in
            encodeFields(to: &writer)
            return writer.count
        }
    }
}

/// A LocationWire enum: an open set of `Int32` values, some of them named.
///
/// proto3 enums are open: a value the schema does not name is kept as a number and re-encoded unchanged, so
/// these are structs over `rawValue` rather than Swift enums.
public protocol LocationWireEnum: RawRepresentable, Hashable, Sendable, CustomStringConvertible, EnumSchemaProvider
where RawValue == Int32 {
    static var schema: EnumSchema { get }
    init(rawValue: Int32)
}

extension LocationWireEnum {
    /// The value's name in `proto/`, e.g. `FIX_REASON_PERIODIC`, or nil for an unnamed value.
    public var name: String? { Self.schema.name(of: rawValue) }

    /// True when the schema names the value.
    public var isKnown: Bool { name != nil }

    public var description: String { name ?? String(rawValue) }
}

/// A message whose decoder and encoder are written by hand, field by field (every message of `locationwire.v1`;
/// the testee protocol's are ``TableCodedMessage``s). The message writes only what is particular to each field:
/// ``decodeField(_:from:)``, one switch over the field keys, and `encodeFields(to:)`. The loop around the switch
/// (tags read one by one, unknown fields kept in arrival order, an error named by the field it occurred in) is
/// written once, here, and inlined into each message's decoder, so it costs what a copy in each message cost.
public protocol HandCodedMessage: LocationWireMessage {
    /// Decodes the value of the field whose tag, `key`, was just read, merging it into `self` as protobuf
    /// requires. Returns false when the message has no field with that key (number and wire type): the field is
    /// then kept as an unknown field.
    mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool
}

extension HandCodedMessage {
    /// The loop of every hand-coded decoder: each field through ``decodeField(_:from:)`` until the end of the
    /// message. Each message's `decodeFields(from:)` calls it (LocationFix's after its fast path): from there, on
    /// the concrete type, the switch is inlined into the loop, which it is not when the loop is a default
    /// implementation reached through the protocol (Benchmarks/NOTES.md, "Figures behind the code").
    @inline(__always)
    package mutating func decodeFieldByField(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                if try !decodeField(key, from: &reader) {
                    try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }
}
