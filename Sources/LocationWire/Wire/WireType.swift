/// The six wire types of the protobuf binary encoding: the low three bits of every field tag.
///
/// Wire types 6 and 7 are not assigned; a tag that carries one is invalid input.
public enum WireType: UInt8, Sendable, CaseIterable {
    /// Base-128 varint: int32, int64, uint32, uint64, sint32, sint64, bool, enum.
    case varint = 0
    /// Eight little-endian bytes: fixed64, sfixed64, double.
    case fixed64 = 1
    /// A varint length, then that many bytes: string, bytes, messages, packed repeated scalars.
    case lengthDelimited = 2
    /// Start of a (deprecated) group. proto3 has no groups, but unknown fields may hold them.
    case startGroup = 3
    /// End of a group.
    case endGroup = 4
    /// Four little-endian bytes: fixed32, sfixed32, float.
    case fixed32 = 5

    /// A short lower-case name, as protoscope and `protoc --decode_raw` documentation use.
    public var name: String {
        switch self {
        case .varint: "varint"
        case .fixed64: "i64"
        case .lengthDelimited: "len"
        case .startGroup: "sgroup"
        case .endGroup: "egroup"
        case .fixed32: "i32"
        }
    }
}

/// A field's key as it appears on the wire: `field number << 3 | wire type`.
///
/// Message decoders switch on the whole key rather than on the field number, so a known field that arrives with
/// an unexpected wire type falls through to the unknown-field path, as protobuf requires (C++ and upb do the same).
public typealias FieldKey = UInt32

extension FieldKey {
    /// The largest field number protobuf allows, 2^29 - 1.
    public static let maxFieldNumber: UInt32 = (1 << 29) - 1

    /// Builds the key of field `number` with wire type `wireType`.
    @inlinable
    public static func make(_ number: UInt32, _ wireType: WireType) -> FieldKey {
        number << 3 | UInt32(wireType.rawValue)
    }

    /// The field number of a key.
    @inlinable
    public var fieldNumber: UInt32 { self >> 3 }

    /// The raw wire type bits of a key (0 to 7; only 0 to 5 are valid).
    @inlinable
    public var wireTypeBits: UInt8 { UInt8(truncatingIfNeeded: self & 7) }
}
