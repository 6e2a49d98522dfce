import LocationWire

/// A message of the testee protocol (`proto/locationwire/conformance/v1/testee.proto`). Each decodes its own fields
/// by key in ``decodeField(_:from:)``; the loop around them (unknown fields kept in arrival order, errors named by
/// the field they occurred in) is the same for all, here.
public protocol ProtocolMessage: LocationWireMessage {
    /// Decodes the value of the field whose tag, `key`, was just read, merging it into `self` as protobuf requires.
    /// Returns false when the message has no field with that key (number and wire type): the field is then kept
    /// as an unknown field.
    mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool
}

extension ProtocolMessage {
    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
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

extension WireReader {
    /// Reads a sub-message that is a oneof member: it merges with the member's earlier value when the same member
    /// occurred before (`earlier`), as any repeated sub-message does, and starts empty otherwise.
    mutating func readMessage<Message: LocationWireMessage>(
        merging earlier: Message?
    ) throws(DecodingError)
        -> Message
    {
        var message = earlier ?? Message()
        try readMessage(into: &message)
        return message
    }

    /// Reads the elements of a repeated enum field whose tag, `key`, was just read: a packed run (wire type 2) or
    /// one unpacked element (wire type 0); both forms are accepted, as protobuf requires.
    mutating func readEnums<Enum: LocationWireEnum>(
        _ key: FieldKey, appendingTo values: inout [Enum]
    ) throws(DecodingError) {
        if key.wireTypeBits == WireType.lengthDelimited.rawValue {
            try readPackedVarints(appendingTo: &values) { Enum(rawValue: Int32(truncatingIfNeeded: $0)) }
        } else {
            try checkCanAppend(to: values)
            values.append(Enum(rawValue: try readInt32()))
        }
    }
}

extension WireReader {
    /// Reads the elements of a repeated uint64 field whose tag, `key`, was just read: a packed run or one
    /// unpacked element, as ``readEnums(_:appendingTo:)`` does for enums.
    mutating func readVarints(_ key: FieldKey, appendingTo values: inout [UInt64]) throws(DecodingError) {
        if key.wireTypeBits == WireType.lengthDelimited.rawValue {
            try readPackedVarints(appendingTo: &values) { $0 }
        } else {
            try checkCanAppend(to: values)
            values.append(try readVarint())
        }
    }
}

extension WireWriter {
    /// Writes a repeated enum field packed, its values sign-extended to 64 bits as int32 values are.
    mutating func writePackedEnums<Enum: LocationWireEnum>(_ key: FieldKey, _ values: [Enum]) {
        writePackedVarints(key, values) { UInt64(bitPattern: Int64($0.rawValue)) }
    }
}
