import LocationWire

/// `locationwire.conformance.v1.HelloRequest`: the runner introduces itself.
public struct HelloRequest: ProtocolMessage {
    public var protocolVersion: UInt32 = 0
    public var runner: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<HelloRequest>(
        "locationwire.conformance.v1.HelloRequest",
        [
            .singular(1, "protocol_version", .uint32, \.protocolVersion),
            .singular(2, "runner", .string, \.runner),
        ])
}
