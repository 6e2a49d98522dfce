import LocationWire

/// `locationwire.conformance.v1.TesteeRequest`: what the runner sends, framed by a 4-byte little-endian length.
public typealias TesteeRequest = TesteeEnvelope<HelloRequest, VectorRequest, SessionRequest, LedgerRequest>

/// `locationwire.conformance.v1.TesteeResponse`: what the testee answers, framed the same way.
public typealias TesteeResponse = TesteeEnvelope<HelloResponse, VectorResponse, SessionResponse, LedgerResponse>

/// The protocol's two envelopes, one message shape under two names: a oneof `kind` of `hello` (field 1),
/// `vector` (field 2), `session` (field 3) or `ledger` (field 4), whose payloads are the request or the response
/// messages.
public struct TesteeEnvelope<
    Hello: TesteeHello, Vector: ProtocolMessage, Session: ProtocolMessage, Ledger: ProtocolMessage
>: ProtocolMessage {
    public enum Kind: Hashable, Sendable {
        case hello(Hello)
        case vector(Vector)
        case session(Session)
        case ledger(Ledger)

        var hello: Hello? { if case .hello(let hello) = self { hello } else { nil } }
        var vector: Vector? { if case .vector(let vector) = self { vector } else { nil } }
        var session: Session? { if case .session(let session) = self { session } else { nil } }
        var ledger: Ledger? { if case .ledger(let ledger) = self { ledger } else { nil } }
    }

    public var kind: Kind?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.hello.key: kind = .hello(try reader.readMessage(merging: kind?.hello))
        case Field.vector.key: kind = .vector(try reader.readMessage(merging: kind?.vector))
        case Field.session.key: kind = .session(try reader.readMessage(merging: kind?.session))
        case Field.ledger.key: kind = .ledger(try reader.readMessage(merging: kind?.ledger))
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        switch kind {
        case .hello(let hello): writer.writeMessageField(Field.hello.key, hello)
        case .vector(let vector): writer.writeMessageField(Field.vector.key, vector)
        case .session(let session): writer.writeMessageField(Field.session.key, session)
        case .ledger(let ledger): writer.writeMessageField(Field.ledger.key, ledger)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// `TesteeRequest`'s or `TesteeResponse`'s, by the hello it carries.
    public static var schema: MessageSchema { Hello.envelopeSchema }

    /// The fields of both envelopes, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case hello, vector, session, ledger

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .hello: FieldDeclaration(1, "hello", .message(Hello.self))
            case .vector: FieldDeclaration(2, "vector", .message(Vector.self))
            case .session: FieldDeclaration(3, "session", .message(Session.self))
            case .ledger: FieldDeclaration(4, "ledger", .message(Ledger.self))
            }
        }
    }

    /// The schema of the envelope named `fullName` that carries these payloads.
    static func envelopeSchema(named fullName: String) -> MessageSchema {
        MessageSchema(fullName, fields: Field.self)
    }
}

/// A hello message, which names the envelope that carries it: a generic type cannot store its schema itself.
public protocol TesteeHello: ProtocolMessage {
    /// The schema of the envelope this hello travels in.
    static var envelopeSchema: MessageSchema { get }
}

extension HelloRequest: TesteeHello {
    public static let envelopeSchema = TesteeRequest.envelopeSchema(named: "locationwire.conformance.v1.TesteeRequest")
}

extension HelloResponse: TesteeHello {
    public static let envelopeSchema = TesteeResponse.envelopeSchema(
        named: "locationwire.conformance.v1.TesteeResponse")
}

extension TesteeResponse {
    /// The answer to a request the testee cannot read: a runtime error for no vector in particular.
    static func runtimeError(_ message: String) -> TesteeResponse {
        TesteeResponse(.vector(VectorResponse(vectorId: "", result: .runtimeError(message))))
    }
}
