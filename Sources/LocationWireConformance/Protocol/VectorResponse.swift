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
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.decoded.key: result = .decoded(try reader.readMessage(merging: result?.decoded))
        case Field.parseError.key: result = .parseError(try reader.readMessage(merging: result?.parseError))
        case Field.skipped.key: result = .skipped(try reader.readString())
        case Field.runtimeError.key: result = .runtimeError(try reader.readString())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        switch result {
        case .decoded(let decoded): writer.writeMessageField(Field.decoded.key, decoded)
        case .parseError(let parseError): writer.writeMessageField(Field.parseError.key, parseError)
        case .skipped(let reason): writer.writeStringField(Field.skipped.key, reason)
        case .runtimeError(let message): writer.writeStringField(Field.runtimeError.key, message)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.VectorResponse`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case vectorId, decoded, parseError, skipped, runtimeError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .decoded: FieldDeclaration(2, "decoded", .message(DecodedOutput.self))
            case .parseError: FieldDeclaration(3, "parse_error", .message(ParseErrorReport.self))
            case .skipped: FieldDeclaration(4, "skipped", .string, .optional)
            case .runtimeError: FieldDeclaration(5, "runtime_error", .string, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.VectorResponse", fields: Field.self)
}
