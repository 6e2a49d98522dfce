import LocationWire

/// `locationwire.conformance.v1.SessionResponse`: what each step of a session did.
public struct SessionResponse: ProtocolMessage {
    public var vectorId: String = ""
    public var steps: [SessionStepResult] = []
    /// Set when the session did not run (the oneof `failure`).
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, steps: [SessionStepResult] = [], failure: TesteeFailure? = nil) {
        self.vectorId = vectorId
        self.steps = steps
        self.failure = failure
    }

    public static let fieldTable = FieldTable<SessionResponse>(
        "locationwire.conformance.v1.SessionResponse",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .repeated(2, "steps", .message, \.steps),
        ] + TesteeFailure.oneofMembers(skipped: 3, runtimeError: 4, in: \.failure))
}

/// Why a request did not run: the oneof `failure` of every response but the vector's.
public enum TesteeFailure: Hashable, Sendable {
    /// The testee lacks the feature.
    case skipped(String)
    /// A bug, or a request the testee does not understand.
    case runtimeError(String)

    var skipped: String? { if case .skipped(let reason) = self { reason } else { nil } }
    var runtimeError: String? { if case .runtimeError(let message) = self { message } else { nil } }

    /// The rows of the oneof's two members, `string skipped` and `string runtime_error`, at the numbers the
    /// response gives them.
    static func oneofMembers<Message>(
        skipped: UInt32, runtimeError: UInt32, in failure: FieldProperty<Message, TesteeFailure?>
    ) -> [FieldTable<Message>.Field] {
        [
            .oneofMember(skipped, "skipped", .string, in: failure, TesteeFailure.skipped, \.skipped),
            .oneofMember(
                runtimeError, "runtime_error", .string, in: failure, TesteeFailure.runtimeError, \.runtimeError),
        ]
    }
}

/// `locationwire.conformance.v1.SessionStepResult`: what one step did, and the queue right after it.
public struct SessionStepResult: ProtocolMessage {
    public var sequence: UInt64 = 0
    /// The batch a send step built; nil when nothing was sent.
    public var batch: LocationBatch?
    public var ackIgnored: String = ""
    public var executedCommandIds: [UInt64] = []
    public var requestRegions = false
    public var heldFixSequences: [UInt64] = []
    public var heldEventSequences: [UInt64] = []
    public var heldLifecycleEvents: UInt32 = 0
    public var fixSequenceFloor: UInt64 = 0
    public var eventSequenceFloor: UInt64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<SessionStepResult>(
        "locationwire.conformance.v1.SessionStepResult",
        [
            .singular(1, "sequence", .uint64, \.sequence),
            .optional(2, "batch", .message, \.batch),
            .singular(3, "ack_ignored", .string, \.ackIgnored),
            .repeated(4, "executed_command_ids", .uint64, \.executedCommandIds),
            .singular(5, "request_regions", .bool, \.requestRegions),
            .repeated(6, "held_fix_sequences", .uint64, \.heldFixSequences),
            .repeated(7, "held_event_sequences", .uint64, \.heldEventSequences),
            .singular(8, "held_lifecycle_events", .uint32, \.heldLifecycleEvents),
            .singular(9, "fix_sequence_floor", .uint64, \.fixSequenceFloor),
            .singular(10, "event_sequence_floor", .uint64, \.eventSequenceFloor),
        ])
}
