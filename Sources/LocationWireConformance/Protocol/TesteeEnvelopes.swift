import LocationWire

/// `locationwire.conformance.v1.TesteeRequest`: what the runner sends, framed by a 4-byte little-endian length.
public typealias TesteeRequest = TesteeEnvelope<RequestSide>

/// `locationwire.conformance.v1.TesteeResponse`: what the testee answers, framed the same way.
public typealias TesteeResponse = TesteeEnvelope<ResponseSide>

/// The payload types of one direction of the protocol.
public protocol TesteeSide: Sendable {
    associatedtype Hello: ProtocolMessage
    associatedtype Vector: ProtocolMessage
    associatedtype Session: ProtocolMessage
    associatedtype Ledger: ProtocolMessage
    associatedtype Recording: ProtocolMessage
    associatedtype Fences: ProtocolMessage
    associatedtype Planning: ProtocolMessage
    associatedtype Arming: ProtocolMessage
    /// The envelope's schema, named for the direction.
    static var envelopeSchema: MessageSchema { get }
}

public enum RequestSide: TesteeSide {
    public typealias Hello = HelloRequest
    public typealias Vector = VectorRequest
    public typealias Session = SessionRequest
    public typealias Ledger = LedgerRequest
    public typealias Recording = RecordingRequest
    public typealias Fences = FenceRequest
    public typealias Planning = PlanningRequest
    public typealias Arming = ArmingRequest
    public static let envelopeSchema = TesteeRequest.envelopeSchema(named: "locationwire.conformance.v1.TesteeRequest")
}

public enum ResponseSide: TesteeSide {
    public typealias Hello = HelloResponse
    public typealias Vector = VectorResponse
    public typealias Session = SessionResponse
    public typealias Ledger = LedgerResponse
    public typealias Recording = RecordingResponse
    public typealias Fences = FenceResponse
    public typealias Planning = PlanningResponse
    public typealias Arming = ArmingResponse
    public static let envelopeSchema = TesteeResponse.envelopeSchema(
        named: "locationwire.conformance.v1.TesteeResponse")
}

/// The protocol's two envelopes, one message shape under two names: a oneof `kind` of `hello` (field 1),
/// `vector` (2), `session` (3), `ledger` (4), `recording` (5), `fences` (6), `planning` (7) or `arming` (8),
/// whose payloads are the request or the response messages.
public struct TesteeEnvelope<Side: TesteeSide>: ProtocolMessage {
    public enum Kind: Hashable, Sendable {
        case hello(Side.Hello)
        case vector(Side.Vector)
        case session(Side.Session)
        case ledger(Side.Ledger)
        case recording(Side.Recording)
        case fences(Side.Fences)
        case planning(Side.Planning)
        case arming(Side.Arming)

        var hello: Side.Hello? { if case .hello(let hello) = self { hello } else { nil } }
        var vector: Side.Vector? { if case .vector(let vector) = self { vector } else { nil } }
        var session: Side.Session? { if case .session(let session) = self { session } else { nil } }
        var ledger: Side.Ledger? { if case .ledger(let ledger) = self { ledger } else { nil } }
        var recording: Side.Recording? { if case .recording(let value) = self { value } else { nil } }
        var fences: Side.Fences? { if case .fences(let value) = self { value } else { nil } }
        var planning: Side.Planning? { if case .planning(let value) = self { value } else { nil } }
        var arming: Side.Arming? { if case .arming(let value) = self { value } else { nil } }
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
        case Field.recording.key: kind = .recording(try reader.readMessage(merging: kind?.recording))
        case Field.fences.key: kind = .fences(try reader.readMessage(merging: kind?.fences))
        case Field.planning.key: kind = .planning(try reader.readMessage(merging: kind?.planning))
        case Field.arming.key: kind = .arming(try reader.readMessage(merging: kind?.arming))
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
        case .recording(let value): writer.writeMessageField(Field.recording.key, value)
        case .fences(let value): writer.writeMessageField(Field.fences.key, value)
        case .planning(let value): writer.writeMessageField(Field.planning.key, value)
        case .arming(let value): writer.writeMessageField(Field.arming.key, value)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// `TesteeRequest`'s or `TesteeResponse`'s, by the side.
    public static var schema: MessageSchema { Side.envelopeSchema }

    /// The fields of both envelopes, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case hello, vector, session, ledger, recording, fences, planning, arming

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .hello: FieldDeclaration(1, "hello", .message(Side.Hello.self))
            case .vector: FieldDeclaration(2, "vector", .message(Side.Vector.self))
            case .session: FieldDeclaration(3, "session", .message(Side.Session.self))
            case .ledger: FieldDeclaration(4, "ledger", .message(Side.Ledger.self))
            case .recording: FieldDeclaration(5, "recording", .message(Side.Recording.self))
            case .fences: FieldDeclaration(6, "fences", .message(Side.Fences.self))
            case .planning: FieldDeclaration(7, "planning", .message(Side.Planning.self))
            case .arming: FieldDeclaration(8, "arming", .message(Side.Arming.self))
            }
        }
    }

    /// The schema of the envelope named `fullName` that carries these payloads.
    static func envelopeSchema(named fullName: String) -> MessageSchema {
        MessageSchema(fullName, fields: Field.self)
    }
}

extension TesteeResponse {
    /// The answer to a request the testee cannot read: a runtime error for no vector in particular.
    static func runtimeError(_ message: String) -> TesteeResponse {
        TesteeResponse(.vector(VectorResponse(vectorId: "", result: .runtimeError(message))))
    }
}
