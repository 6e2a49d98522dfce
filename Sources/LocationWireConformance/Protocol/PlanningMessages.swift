import LocationWire

/// `locationwire.conformance.v1.PlanningRequest`: a catalogue, a position, a budget and the time through the
/// server's region planner (`FEATURE_PLANNING`).
public struct PlanningRequest: BehaviorRequest {
    public typealias Response = PlanningResponse
    public var vectorId: String = ""
    public var catalogue: [Region] = []
    public var latitudeE7: Int32 = 0
    public var longitudeE7: Int32 = 0
    public var slotBudget: UInt32 = 0
    public var nowMs: Int64 = 0
    /// The assignment the device holds, when known.
    public var previous: RegionAssignment?
    public var unknownFields = UnknownFields()

    public init() {}

    public static let feature = TesteeFeature.planning
    public var envelopeKind: TesteeRequest.Kind { .planning(self) }
    public static func response(in kind: TesteeResponse.Kind) -> PlanningResponse? { kind.planning }

    public static let fieldTable = FieldTable<PlanningRequest>(
        "locationwire.conformance.v1.PlanningRequest",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .repeated(2, "catalogue", .message, \.catalogue),
            .singular(3, "latitude_e7", .sfixed32, \.latitudeE7),
            .singular(4, "longitude_e7", .sfixed32, \.longitudeE7),
            .singular(5, "slot_budget", .uint32, \.slotBudget),
            .singular(6, "now_ms", .int64, \.nowMs),
            .optional(7, "previous", .message, \.previous),
        ])
}

/// `locationwire.conformance.v1.PlanningResponse`: the assignment planned.
public struct PlanningResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var assignment: RegionAssignment?
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<PlanningResponse>(
        "locationwire.conformance.v1.PlanningResponse",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .optional(2, "assignment", .message, \.assignment),
        ] + TesteeFailure.oneofMembers(skipped: 3, runtimeError: 4, in: \.failure))
}

/// `locationwire.conformance.v1.ArmingRequest`: the set a device holds, its slots, position and clock through the
/// arming order (`FEATURE_ARMING`).
public struct ArmingRequest: BehaviorRequest {
    public typealias Response = ArmingResponse
    public var vectorId: String = ""
    public var assignment: RegionAssignment?
    public var slots: UInt32 = 0
    /// The device position, when known.
    public var position: LocationFix?
    public var nowMs: Int64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public static let feature = TesteeFeature.arming
    public var envelopeKind: TesteeRequest.Kind { .arming(self) }
    public static func response(in kind: TesteeResponse.Kind) -> ArmingResponse? { kind.arming }

    public static let fieldTable = FieldTable<ArmingRequest>(
        "locationwire.conformance.v1.ArmingRequest",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .optional(2, "assignment", .message, \.assignment),
            .singular(3, "slots", .uint32, \.slots),
            .optional(4, "position", .message, \.position),
            .singular(5, "now_ms", .int64, \.nowMs),
        ])
}

/// `locationwire.conformance.v1.ArmingResponse`: what the device arms and what fails.
public struct ArmingResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var armed: ArmedRegions?
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<ArmingResponse>(
        "locationwire.conformance.v1.ArmingResponse",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .optional(2, "armed", .message, \.armed),
        ] + TesteeFailure.oneofMembers(skipped: 3, runtimeError: 4, in: \.failure))
}
