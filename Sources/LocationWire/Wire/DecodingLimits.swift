/// Bounds the decoder enforces before it allocates, so hostile input cannot exhaust memory or stack.
///
/// Every length prefix is checked against the bytes that remain before anything is allocated, so no single
/// field can claim more memory than the input holds. These limits bound the rest: nesting depth, the number of
/// elements per repeated field, and the input size. The defaults accept everything Google's C++ protobuf and upb
/// accept for LocationWire's schema.
public struct DecodingLimits: Sendable, Hashable {
    /// The deepest nesting of sub-messages and groups below the top-level message. Default 100, the limit of
    /// protobuf's C++ and upb decoders: 100 levels decode, 101 do not.
    public var maxDepth: Int
    /// The most elements one repeated field of one message may hold. Default 10,000,000. A LocationFix element
    /// takes at least 2 bytes on the wire and about 150 in memory, so this caps what a small input can make
    /// the decoder allocate.
    public var maxRepeatedCount: Int
    /// The largest input accepted, in bytes. Default 2^31 - 1 (2 GiB - 1), protobuf's own message size limit.
    public var maxInputBytes: Int
    /// When true, a field the decoder does not recognise is an error (``DecodingError/Code/unknownField``)
    /// instead of being kept. Only for the test that proves every field of `proto/` reaches a decode case: a
    /// forgotten case would otherwise turn the field into an unknown field and round-trip unnoticed.
    package var rejectsUnknownFields = false

    public init(maxDepth: Int = 100, maxRepeatedCount: Int = 10_000_000, maxInputBytes: Int = Int(Int32.max)) {
        self.maxDepth = maxDepth
        self.maxRepeatedCount = maxRepeatedCount
        self.maxInputBytes = maxInputBytes
    }

    /// The defaults.
    public static let `default` = DecodingLimits()
}
