/// Fields a decoder did not recognise, kept byte for byte so that re-encoding loses nothing.
///
/// A field is unknown when its number is not in the schema (a newer sender, or a private field in the
/// 50000 to 59999 range), or when a known number arrives with another wire type than the schema's. The bytes
/// are the fields exactly as received, tags included, in the order received, which is the order upb re-emits
/// them. Encoders write them after all known fields.
public struct UnknownFields: Hashable, Sendable {
    /// The raw fields, tags and values, in arrival order.
    public private(set) var bytes: [UInt8]

    public init() {
        self.bytes = []
    }

    /// Unknown fields from raw bytes, which must be a sequence of complete, valid fields.
    public init(rawBytes: [UInt8]) {
        self.bytes = rawBytes
    }

    public var isEmpty: Bool { bytes.isEmpty }

    /// Appends one raw field.
    mutating func append(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    /// Appends raw fields, as when two occurrences of a sub-message merge.
    public mutating func append(rawBytes: [UInt8]) {
        bytes.append(contentsOf: rawBytes)
    }
}
