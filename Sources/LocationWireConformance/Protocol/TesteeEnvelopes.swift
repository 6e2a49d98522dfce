import LocationWire

/// `locationwire.conformance.v1.TesteeRequest`: what the runner sends, framed by a 4-byte little-endian length.
public struct TesteeRequest: LocationWireMessage {
    public enum Kind: Hashable, Sendable {
        case hello(HelloRequest)
        case vector(VectorRequest)
    }

    public var kind: Kind?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x0A:
                    var hello = HelloRequest()
                    if case .hello(let earlier)? = kind { hello = earlier }
                    try reader.readMessage(into: &hello)
                    kind = .hello(hello)
                case 0x12:
                    var vector = VectorRequest()
                    if case .vector(let earlier)? = kind { vector = earlier }
                    try reader.readMessage(into: &vector)
                    kind = .vector(vector)
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        switch kind {
        case .hello(let hello): writer.writeMessageField(0x0A, hello)
        case .vector(let vector): writer.writeMessageField(0x12, vector)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.TesteeRequest",
        fields: [FieldSchema(1, "hello", .message(HelloRequest.schema)), FieldSchema(2, "vector", .message(VectorRequest.schema))])
}

/// `locationwire.conformance.v1.TesteeResponse`: what the testee answers, framed the same way.
public struct TesteeResponse: LocationWireMessage {
    public enum Kind: Hashable, Sendable {
        case hello(HelloResponse)
        case vector(VectorResponse)
    }

    public var kind: Kind?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x0A:
                    var hello = HelloResponse()
                    if case .hello(let earlier)? = kind { hello = earlier }
                    try reader.readMessage(into: &hello)
                    kind = .hello(hello)
                case 0x12:
                    var vector = VectorResponse()
                    if case .vector(let earlier)? = kind { vector = earlier }
                    try reader.readMessage(into: &vector)
                    kind = .vector(vector)
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        switch kind {
        case .hello(let hello): writer.writeMessageField(0x0A, hello)
        case .vector(let vector): writer.writeMessageField(0x12, vector)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.conformance.v1.TesteeResponse",
        fields: [FieldSchema(1, "hello", .message(HelloResponse.schema)), FieldSchema(2, "vector", .message(VectorResponse.schema))])
}
