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

    /// Removes every field, keeping the array's capacity for the next decode into the same message.
    public mutating func removeAll(keepingCapacity: Bool) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Makes room for `count` more bytes.
    mutating func reserveCapacity(forAdditional count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Appends one raw field.
    mutating func append(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    /// Appends raw fields, as when two occurrences of a sub-message merge.
    public mutating func append(rawBytes: [UInt8]) {
        bytes.append(contentsOf: rawBytes)
    }
}

extension UnknownFields {
    /// The field numbers of the unknown fields, in arrival order (a number once per occurrence). A receiver uses
    /// them to tell a private field (50000 to 59999) from a field of a newer revision it cannot interpret, such as
    /// a compact column it does not know (proto/README.md, `§no-silent-drop`).
    public var fieldNumbers: [UInt32] {
        var numbers: [UInt32] = []
        bytes.withUnsafeBytes { buffer in
            var reader = WireReader(buffer, limits: .default)
            var scratch = UnknownFields()
            while !reader.isAtEnd {
                // The bytes were validated when they were kept, so reading them again cannot fail.
                guard let key = try? reader.readTag(), (try? reader.readUnknownField(key, into: &scratch)) != nil
                else { break }
                numbers.append(key.fieldNumber)
            }
        }
        return numbers
    }
}
