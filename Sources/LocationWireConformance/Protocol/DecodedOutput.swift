import LocationWire

/// `locationwire.conformance.v1.Decoded`: the outputs a testee produced from an input it accepted.
public struct DecodedOutput: ProtocolMessage {
    public var binaryOutput: [UInt8] = []
    public var jsonOutput: String = ""
    public var violations: [ReportedViolation] = []
    public var rowsOutput: [UInt8] = []
    public var compactOutput: [UInt8] = []
    public var compactError: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case 0x0A: binaryOutput = try reader.readBytes()
        case 0x12: jsonOutput = try reader.readString()
        case 0x1A: try reader.readMessage(appendingTo: &violations)
        case 0x22: rowsOutput = try reader.readBytes()
        case 0x2A: compactOutput = try reader.readBytes()
        case 0x32: compactError = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !binaryOutput.isEmpty { writer.writeBytesField(0x0A, binaryOutput) }
        if !jsonOutput.isEmpty { writer.writeStringField(0x12, jsonOutput) }
        for violation in violations { writer.writeMessageField(0x1A, violation) }
        if !rowsOutput.isEmpty { writer.writeBytesField(0x22, rowsOutput) }
        if !compactOutput.isEmpty { writer.writeBytesField(0x2A, compactOutput) }
        if !compactError.isEmpty { writer.writeStringField(0x32, compactError) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.Decoded",
        fields: [
            FieldSchema(1, "binary_output", .bytes), FieldSchema(2, "json_output", .string),
            FieldSchema(3, "violations", .message(ReportedViolation.schema), .repeated),
            FieldSchema(4, "rows_output", .bytes), FieldSchema(5, "compact_output", .bytes),
            FieldSchema(6, "compact_error", .string),
        ])
}
