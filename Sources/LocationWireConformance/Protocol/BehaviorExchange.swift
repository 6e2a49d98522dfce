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

// The five kinds: the feature each needs, and where its request and its response stand in the envelopes.

extension RecordingRequest: BehaviorRequest {
    public static let feature = TesteeFeature.recording
    public var envelopeKind: TesteeRequest.Kind { .recording(self) }
    public static func response(in kind: TesteeResponse.Kind) -> RecordingResponse? { kind.recording }
}

extension FenceRequest: BehaviorRequest {
    public static let feature = TesteeFeature.fences
    public var envelopeKind: TesteeRequest.Kind { .fences(self) }
    public static func response(in kind: TesteeResponse.Kind) -> FenceResponse? { kind.fences }
}

extension PlanningRequest: BehaviorRequest {
    public static let feature = TesteeFeature.planning
    public var envelopeKind: TesteeRequest.Kind { .planning(self) }
    public static func response(in kind: TesteeResponse.Kind) -> PlanningResponse? { kind.planning }
}

extension ArmingRequest: BehaviorRequest {
    public static let feature = TesteeFeature.arming
    public var envelopeKind: TesteeRequest.Kind { .arming(self) }
    public static func response(in kind: TesteeResponse.Kind) -> ArmingResponse? { kind.arming }
}

extension HttpAnswerRequest: BehaviorRequest {
    public static let feature = TesteeFeature.httpAnswers
    public var envelopeKind: TesteeRequest.Kind { .httpAnswer(self) }
    public static func response(in kind: TesteeResponse.Kind) -> HttpAnswerResponse? { kind.httpAnswer }
}

extension RecordingResponse: BehaviorResponse {}
extension HttpAnswerResponse: BehaviorResponse {}
extension FenceResponse: BehaviorResponse {}
extension PlanningResponse: BehaviorResponse {}
extension ArmingResponse: BehaviorResponse {}
