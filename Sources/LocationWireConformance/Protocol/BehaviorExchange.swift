import LocationWire

/// A behaviour request of the testee protocol (proto/BEHAVIOR.md): one whole scenario in, one response out. The
/// runner, the built-in testee and the vector files treat the four kinds alike through this.
public protocol BehaviorRequest: ProtocolMessage {
    associatedtype Response: BehaviorResponse
    var vectorId: String { get set }
    /// The feature a testee declares to run this kind.
    static var feature: TesteeFeature { get }
    /// The request in its envelope.
    var envelopeKind: TesteeRequest.Kind { get }
    /// The response of this kind in a response envelope, if that is what it holds.
    static func response(in kind: TesteeResponse.Kind) -> Response?
}

/// A behaviour response: the outputs, or why there are none.
public protocol BehaviorResponse: ProtocolMessage {
    var vectorId: String { get set }
    /// Set when the scenario did not run (a oneof on the wire).
    var failure: TesteeFailure? { get set }
}

extension BehaviorResponse {
    /// A response that carries only a failure.
    public init(vectorId: String, failure: TesteeFailure) {
        self.init()
        self.vectorId = vectorId
        self.failure = failure
    }
}
