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
        case Field.binaryOutput.key: binaryOutput = try reader.readBytes()
        case Field.jsonOutput.key: jsonOutput = try reader.readString()
        case Field.violations.key: try reader.readMessage(appendingTo: &violations)
        case Field.rowsOutput.key: rowsOutput = try reader.readBytes()
        case Field.compactOutput.key: compactOutput = try reader.readBytes()
        case Field.compactError.key: compactError = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !binaryOutput.isEmpty { writer.writeBytesField(Field.binaryOutput.key, binaryOutput) }
        if !jsonOutput.isEmpty { writer.writeStringField(Field.jsonOutput.key, jsonOutput) }
        for violation in violations { writer.writeMessageField(Field.violations.key, violation) }
        if !rowsOutput.isEmpty { writer.writeBytesField(Field.rowsOutput.key, rowsOutput) }
        if !compactOutput.isEmpty { writer.writeBytesField(Field.compactOutput.key, compactOutput) }
        if !compactError.isEmpty { writer.writeStringField(Field.compactError.key, compactError) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.Decoded`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case binaryOutput, jsonOutput, violations, rowsOutput, compactOutput, compactError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .binaryOutput: FieldDeclaration(1, "binary_output", .bytes)
            case .jsonOutput: FieldDeclaration(2, "json_output", .string)
            case .violations: FieldDeclaration(3, "violations", .message(ReportedViolation.self), .repeated)
            case .rowsOutput: FieldDeclaration(4, "rows_output", .bytes)
            case .compactOutput: FieldDeclaration(5, "compact_output", .bytes)
            case .compactError: FieldDeclaration(6, "compact_error", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.Decoded", fields: Field.self)
}
