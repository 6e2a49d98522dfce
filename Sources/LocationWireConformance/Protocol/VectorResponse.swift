import LocationWire

/// `locationwire.conformance.v1.VectorResponse`: the testee's answer to one vector.
public struct VectorResponse: ProtocolMessage {
    /// The outcome (the oneof `result`).
    public enum Result: Hashable, Sendable {
        case decoded(DecodedOutput)
        case parseError(ParseErrorReport)
        case skipped(String)
        case runtimeError(String)

        var decoded: DecodedOutput? { if case .decoded(let output) = self { output } else { nil } }
        var parseError: ParseErrorReport? { if case .parseError(let report) = self { report } else { nil } }
        var skipped: String? { if case .skipped(let reason) = self { reason } else { nil } }
        var runtimeError: String? { if case .runtimeError(let message) = self { message } else { nil } }
    }

    public var vectorId: String = ""
    public var result: Result?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, result: Result) {
        self.vectorId = vectorId
        self.result = result
    }

    public static let fieldTable = FieldTable<VectorResponse>(
        "locationwire.conformance.v1.VectorResponse",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .oneofMember(2, "decoded", .message, in: \.result, Result.decoded, \.decoded),
            .oneofMember(3, "parse_error", .message, in: \.result, Result.parseError, \.parseError),
            .oneofMember(4, "skipped", .string, in: \.result, Result.skipped, \.skipped),
            .oneofMember(5, "runtime_error", .string, in: \.result, Result.runtimeError, \.runtimeError),
        ])
}
