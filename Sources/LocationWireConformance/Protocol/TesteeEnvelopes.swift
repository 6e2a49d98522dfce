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
    /// The envelope's field table, named for the direction.
    static var envelopeTable: FieldTable<TesteeEnvelope<Self>> { get }
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
    public static let envelopeTable = TesteeRequest.makeFieldTable(named: "locationwire.conformance.v1.TesteeRequest")
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
    public static let envelopeTable = TesteeResponse.makeFieldTable(
        named: "locationwire.conformance.v1.TesteeResponse")
}

/// The protocol's two envelopes, one message shape under two names: the oneof `kind`, whose members are the
/// request or the response messages of each kind.
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

    /// `TesteeRequest`'s or `TesteeResponse`'s, by the side.
    public static var fieldTable: FieldTable<Self> { Side.envelopeTable }

    /// The table of the envelope named `fullName` that carries these payloads (a generic type cannot keep it in a
    /// `static let` of its own: each side does).
    static func makeFieldTable(named fullName: String) -> FieldTable<Self> {
        FieldTable(
            fullName,
            [
                .oneofMember(1, "hello", .message, in: \.kind, Kind.hello, \.hello),
                .oneofMember(2, "vector", .message, in: \.kind, Kind.vector, \.vector),
                .oneofMember(3, "session", .message, in: \.kind, Kind.session, \.session),
                .oneofMember(4, "ledger", .message, in: \.kind, Kind.ledger, \.ledger),
                .oneofMember(5, "recording", .message, in: \.kind, Kind.recording, \.recording),
                .oneofMember(6, "fences", .message, in: \.kind, Kind.fences, \.fences),
                .oneofMember(7, "planning", .message, in: \.kind, Kind.planning, \.planning),
                .oneofMember(8, "arming", .message, in: \.kind, Kind.arming, \.arming),
            ])
    }
}

extension TesteeResponse {
    /// The answer to a request the testee cannot read: a runtime error for no vector in particular.
    static func runtimeError(_ message: String) -> TesteeResponse {
        TesteeResponse(.vector(VectorResponse(vectorId: "", result: .runtimeError(message))))
    }
}
