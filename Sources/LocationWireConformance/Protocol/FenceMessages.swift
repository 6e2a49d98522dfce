import LocationWire

/// `locationwire.conformance.v1.FenceRequest`: regions armed, then a trace of fixes and arming changes through the
/// fence engine (`FEATURE_FENCES`).
public struct FenceRequest: BehaviorRequest {
    public typealias Response = FenceResponse
    public var vectorId: String = ""
    /// Its fence fields apply; nil is the default policy.
    public var policy: TrackingPolicy?
    /// Armed before the first step.
    public var regions: [Region] = []
    public var steps: [FenceStep] = []
    /// The first event's event_sequence; 0 means 1.
    public var firstEventSequence: UInt64 = 0
    public var assignmentVersion: UInt64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public static let feature = TesteeFeature.fences
    public var envelopeKind: TesteeRequest.Kind { .fences(self) }
    public static func response(in kind: TesteeResponse.Kind) -> FenceResponse? { kind.fences }

    public static let fieldTable = FieldTable<FenceRequest>(
        "locationwire.conformance.v1.FenceRequest",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .optional(2, "policy", .message, \.policy),
            .repeated(3, "regions", .message, \.regions),
            .repeated(4, "steps", .message, \.steps),
            .singular(5, "first_event_sequence", .uint64, \.firstEventSequence),
            .singular(6, "assignment_version", .uint64, \.assignmentVersion),
        ])
}

/// `locationwire.conformance.v1.FenceStep`: a fix delivered, or regions armed and disarmed (the oneof `step`).
public struct FenceStep: ProtocolMessage {
    public enum Action: Hashable, Sendable {
        case fix(LocationFix)
        case arm(FenceArming)

        var fix: LocationFix? { if case .fix(let fix) = self { fix } else { nil } }
        var arm: FenceArming? { if case .arm(let arm) = self { arm } else { nil } }
    }

    public var action: Action?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ action: Action) {
        self.action = action
    }

    public static let fieldTable = FieldTable<FenceStep>(
        "locationwire.conformance.v1.FenceStep",
        [
            .oneofMember(1, "fix", .message, in: \.action, Action.fix, \.fix),
            .oneofMember(2, "arm", .message, in: \.action, Action.arm, \.arm),
        ])
}

/// `locationwire.conformance.v1.FenceArming`: regions to arm (or replace, by id) and ids to disarm.
public struct FenceArming: ProtocolMessage {
    public var regions: [Region] = []
    public var disarmRegionIds: [String] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<FenceArming>(
        "locationwire.conformance.v1.FenceArming",
        [
            .repeated(1, "regions", .message, \.regions),
            .repeated(2, "disarm_region_ids", .string, \.disarmRegionIds),
        ])
}

/// `locationwire.conformance.v1.FenceResponse`: every event reported, in order.
public struct FenceResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var events: [FenceEvent] = []
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<FenceResponse>(
        "locationwire.conformance.v1.FenceResponse",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .repeated(2, "events", .message, \.events),
        ] + TesteeFailure.oneofMembers(skipped: 3, runtimeError: 4, in: \.failure))
}
