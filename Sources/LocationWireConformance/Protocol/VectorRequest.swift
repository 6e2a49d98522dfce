import LocationWire

/// `locationwire.conformance.v1.VectorRequest`: one vector for the testee to run.
public struct VectorRequest: ProtocolMessage {
    /// The input to decode: protobuf binary or proto3 JSON (the oneof `input`).
    public enum Input: Hashable, Sendable {
        case binary([UInt8])
        case json(String)

        var binary: [UInt8]? { if case .binary(let bytes) = self { bytes } else { nil } }
        var json: String? { if case .json(let text) = self { text } else { nil } }
    }

    public var vectorId: String = ""
    public var messageType: String = ""
    public var input: Input?
    public var checks: [TesteeCheck] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, messageType: String, input: Input, checks: [TesteeCheck]) {
        self.vectorId = vectorId
        self.messageType = messageType
        self.input = input
        self.checks = checks
    }

    public static let fieldTable = FieldTable<VectorRequest>(
        "locationwire.conformance.v1.VectorRequest",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .singular(2, "message_type", .string, \.messageType),
            .oneofMember(3, "binary_input", .bytes, in: \.input, Input.binary, \.binary),
            .oneofMember(4, "json_input", .string, in: \.input, Input.json, \.json),
            .repeated(5, "checks", .enumeration, \.checks),
        ])
}
