import LocationWire

/// `locationwire.conformance.v1.HelloResponse`: the testee introduces itself and declares its features.
public struct HelloResponse: ProtocolMessage {
    public var protocolVersion: UInt32 = 0
    public var implementation: String = ""
    public var version: String = ""
    public var features: [TesteeFeature] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<HelloResponse>(
        "locationwire.conformance.v1.HelloResponse",
        [
            .singular(1, "protocol_version", .uint32, \.protocolVersion),
            .singular(2, "implementation", .string, \.implementation),
            .singular(3, "version", .string, \.version),
            .repeated(4, "features", .enumeration, \.features),
        ])
}
