/// Size arithmetic and zigzag coding for base-128 varints.
///
/// A varint stores 7 bits per byte, least significant group first; the high bit of each byte says another byte
/// follows. A 64-bit value takes at most 10 bytes. Reading and writing live in ``WireReader`` and ``WireWriter``,
/// next to their bounds checks; `Varint.decode(word:)` is the branch-light core they share.
public enum Varint {
    /// Decodes the varint at the start of `word`, eight input bytes loaded little-endian, when it takes at most
    /// eight bytes (every value below 2^56): its value and its length. Nil for a longer one.
    ///
    /// One and two bytes, the most common lengths, take their own short paths; longer ones are found by the first
    /// byte with a clear high bit, and three shift-and-mask steps close the gaps the continuation bits leave.
    /// A byte loop would take a branch per byte, mispredicted whenever the lengths of consecutive values differ.
    /// Callers guarantee that eight bytes can be loaded, and that a varint ending past the bytes it may use is
    /// caught (a terminator count, or a check of the end position).
    @inline(__always)
    package static func decode(word: UInt64) -> (value: UInt64, length: Int)? {
        if word & 0x80 == 0 { return (word & 0x7F, 1) }
        if word & 0x8000 == 0 { return ((word & 0x7F) | (word >> 1 & 0x3F80), 2) }
        let stopBits = ~word & 0x8080_8080_8080_8080
        guard stopBits != 0 else { return nil }
        let stop = stopBits.trailingZeroBitCount  // bit 7 of the last byte: 23, 31, ..., 63
        var value = word & (UInt64.max >> (63 - stop))  // the bytes up to the last one
        value = ((value & 0x7F00_7F00_7F00_7F00) >> 1) | (value & 0x007F_007F_007F_007F)
        value = ((value & 0x3FFF_0000_3FFF_0000) >> 2) | (value & 0x0000_3FFF_0000_3FFF)
        value = ((value & 0x0FFF_FFFF_0000_0000) >> 4) | (value & 0x0000_0000_0FFF_FFFF)
        return (value, (stop + 1) >> 3)
    }

    /// What ``scan(_:end:maxLength:)`` found.
    package enum ScanResult {
        case complete(value: UInt64, length: Int)
        /// The bytes end (at `end`) before the varint does.
        case truncated
        /// `maxLength` bytes all have their continuation bit set.
        case tooLong
    }

    /// Reads a varint of at most `maxLength` bytes at `position` one byte at a time, reading nothing at or past
    /// `end`: the one careful varint reader, for tags and lengths (5 bytes), values (10), and whatever the
    /// one-load path ``decode(word:)`` leaves. Bits beyond 64 are dropped, as C++ and upb drop them.
    @inline(__always)
    package static func scan(_ position: UnsafeRawPointer, end: UnsafeRawPointer, maxLength: Int) -> ScanResult {
        var value: UInt64 = 0
        var length = 0
        while length < maxLength {
            guard position + length < end else { return .truncated }
            let byte = (position + length).load(as: UInt8.self)
            value |= UInt64(byte & 0x7F) &<< UInt64(7 * length)
            length += 1
            if byte < 0x80 { return .complete(value: value, length: length) }
        }
        return .tooLong
    }

    /// The most bytes a varint takes: a 64-bit value in groups of 7 bits.
    public static let maxEncodedSize = 10

    /// Stores `value` as a varint in its shortest form at `position` and moves `position` past it; the caller has
    /// made room for ``maxEncodedSize`` bytes. The one varint writer: both wire writers and length fix-ups use it.
    /// (It advances a pointer rather than returning a length, which saves the caller an addition per value.)
    @inline(__always)
    package static func store(_ value: UInt64, advancing position: inout UnsafeMutableRawPointer) {
        var value = value
        while value >= 0x80 {
            position.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, as: UInt8.self)
            position += 1
            value >>= 7
        }
        position.storeBytes(of: UInt8(value), as: UInt8.self)
        position += 1
    }

    /// The number of bytes the canonical (shortest) varint encoding of `value` takes: 1 to 10.
    @inlinable
    public static func encodedSize(of value: UInt64) -> Int {
        // One byte per started group of 7 significant bits; value 0 still takes one byte. The formula is the
        // branch-free form used by protobuf's C++ CodedOutputStream::VarintSize64.
        let significantBits = 64 - (value | 1).leadingZeroBitCount
        return (significantBits * 9 + 64) / 64
    }

    /// The size of an int32 or enum value, which protobuf sign-extends to 64 bits: negative values take 10 bytes.
    @inlinable
    public static func encodedSize(ofSignExtended value: Int32) -> Int {
        encodedSize(of: UInt64(bitPattern: Int64(value)))
    }
}

/// ZigZag coding maps signed integers to unsigned ones so that small magnitudes stay small:
/// 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, ... (sint32 and sint64 fields).
public enum ZigZag {
    @inlinable
    public static func encode(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value &<< 1) ^ (value >> 31))
    }

    @inlinable
    public static func encode(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }

    @inlinable
    public static func decode(_ value: UInt32) -> Int32 {
        Int32(bitPattern: value >> 1) ^ -Int32(bitPattern: value & 1)
    }

    @inlinable
    public static func decode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
