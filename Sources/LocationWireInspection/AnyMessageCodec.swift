import LocationWire
import LocationWireJSON
import LocationWireValidation

/// The codec operations for a message type chosen at run time by name, as the CLI and the conformance testee
/// need them.
public struct AnyMessageCodec: Sendable {
    public let messageType: any LocationWireMessage.Type

    /// The codec for a type given by short name (`LocationBatch`) or full name (`locationwire.v1.LocationBatch`).
    public init?(typeName: String) {
        guard let type = MessageRegistry.type(named: typeName) else { return nil }
        self.messageType = type
    }

    public init(_ messageType: any LocationWireMessage.Type) {
        self.messageType = messageType
    }

    public var schema: MessageSchema { messageType.schema }

    public func decodeBinary(
        _ bytes: [UInt8], limits: DecodingLimits = .default
    ) throws(DecodingError)
        -> any LocationWireMessage
    {
        try messageType.init(serializedBytes: bytes, limits: limits)
    }

    public func decodeJSON(
        _ utf8: [UInt8], options: JSONParseOptions = JSONParseOptions()
    ) throws(JSONError)
        -> any LocationWireMessage
    {
        try messageType.init(jsonUTF8: utf8, options: options)
    }

    public static func encodeBinary(_ message: any LocationWireMessage) -> [UInt8] {
        message.serializedBytes()
    }

    public static func encodeJSON(
        _ message: any LocationWireMessage, options: JSONPrintOptions = JSONPrintOptions()
    )
        -> String
    {
        message.jsonString(options: options)
    }

    public static func validate(_ message: any LocationWireMessage) -> [Violation] {
        LocationWireValidation.validate(message)
    }
}
