import LocationWire

/// `locationwire.conformance.v1.VectorResponse`: the testee's answer to one vector.
public struct VectorResponse: ProtocolMessage {
    /// The outcome (a oneof on the wire).
    public enum Result: Hashable, Sendable {
        case decoded(DecodedOutput)
        case parseError(ParseErrorReport)
        case skipped(String)
        case runtimeError(String)

        var decoded: DecodedOutput? { if case .decoded(let output) = self { output } else { nil } }
        var parseError: ParseErrorReport? { if case .parseError(let report) = self { report } else { nil } }
    }

    public var vectorId: String = ""
    public var result: Result?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, result: Result) {
        self.vectorId = vectorId
        self.result = result
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case 0x0A: vectorId = try reader.readString()
        case 0x12: result = .decoded(try reader.readMessage(merging: result?.decoded))
        case 0x1A: result = .parseError(try reader.readMessage(merging: result?.parseError))
        case 0x22: result = .skipped(try reader.readString())
        case 0x2A: result = .runtimeError(try reader.readString())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(0x0A, vectorId) }
        switch result {
        case .decoded(let decoded): writer.writeMessageField(0x12, decoded)
        case .parseError(let parseError): writer.writeMessageField(0x1A, parseError)
        case .skipped(let reason): writer.writeStringField(0x22, reason)
        case .runtimeError(let message): writer.writeStringField(0x2A, message)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.VectorResponse",
        fields: [
            FieldSchema(1, "vector_id", .string), FieldSchema(2, "decoded", .message(DecodedOutput.schema)),
            FieldSchema(3, "parse_error", .message(ParseErrorReport.schema)),
            FieldSchema(4, "skipped", .string, .optional),
            FieldSchema(5, "runtime_error", .string, .optional),
        ])
}
