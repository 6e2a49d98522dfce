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

    public static let fieldTable = FieldTable<DecodedOutput>(
        "locationwire.conformance.v1.Decoded",
        [
            .singular(1, "binary_output", .bytes, \.binaryOutput),
            .singular(2, "json_output", .string, \.jsonOutput),
            .repeated(3, "violations", .message, \.violations),
            .singular(4, "rows_output", .bytes, \.rowsOutput),
            .singular(5, "compact_output", .bytes, \.compactOutput),
            .singular(6, "compact_error", .string, \.compactError),
        ])
}
