import LocationWire

/// `locationwire.conformance.v1.VectorResponse`: the testee's answer to one vector.
public struct VectorResponse: LocationWireMessage {
    /// The outcome (a oneof on the wire).
    public enum Result: Hashable, Sendable {
        case decoded(DecodedOutput)
        case parseError(ParseErrorReport)
        case skipped(String)
        case runtimeError(String)
    }

    public var vectorId: String = ""
    public var result: Result?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, result: Result) {
        self.vectorId = vectorId
        self.result = result
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x0A: vectorId = try reader.readString()
                case 0x12:
                    // A oneof member that occurs again merges with itself, like any sub-message.
                    var decoded = DecodedOutput()
                    if case .decoded(let earlier)? = result { decoded = earlier }
                    try reader.readMessage(into: &decoded)
                    result = .decoded(decoded)
                case 0x1A:
                    var parseError = ParseErrorReport()
                    if case .parseError(let earlier)? = result { parseError = earlier }
                    try reader.readMessage(into: &parseError)
                    result = .parseError(parseError)
                case 0x22: result = .skipped(try reader.readString())
                case 0x2A: result = .runtimeError(try reader.readString())
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
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
            FieldSchema(3, "parse_error", .message(ParseErrorReport.schema)), FieldSchema(4, "skipped", .string, .optional),
            FieldSchema(5, "runtime_error", .string, .optional),
        ])
}
