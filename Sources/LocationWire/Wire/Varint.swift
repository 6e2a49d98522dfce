/// Size arithmetic and zigzag coding for base-128 varints.
///
/// A varint stores 7 bits per byte, least significant group first; the high bit of each byte says another byte
/// follows. A 64-bit value takes at most 10 bytes. Decoding itself lives in ``WireReader`` and encoding in
/// ``WireWriter``, next to their bounds checks.
public enum Varint {
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
