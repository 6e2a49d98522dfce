import LocationWire

/// `locationwire.conformance.v1.RecordingRequest`: fixes as the OS delivers them, under one policy, through the
/// recording engine and the upload timer (`FEATURE_RECORDING`).
public struct RecordingRequest: BehaviorRequest {
    public typealias Response = RecordingResponse
    public var vectorId: String = ""
    /// The policy in force; nil is the default policy.
    public var policy: TrackingPolicy?
    public var fixes: [LocationFix] = []
    /// The answer to each upload attempt, in order; attempts beyond the list succeed.
    public var uploadResults: [UploadAttemptResult] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public static let feature = TesteeFeature.recording
    public var envelopeKind: TesteeRequest.Kind { .recording(self) }
    public static func response(in kind: TesteeResponse.Kind) -> RecordingResponse? { kind.recording }

    public static let fieldTable = FieldTable<RecordingRequest>(
        "locationwire.conformance.v1.RecordingRequest",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .optional(2, "policy", .message, \.policy),
            .repeated(3, "fixes", .message, \.fixes),
            .repeated(4, "upload_results", .message, \.uploadResults),
        ])
}

/// `locationwire.conformance.v1.UploadAttemptResult`: how one upload attempt ends (the oneof `result`).
public struct UploadAttemptResult: ProtocolMessage {
    public enum Result: Hashable, Sendable {
        case succeeded
        case transportFailed
        case held(retryAfterMs: UInt32)

        var heldRetryAfterMs: UInt32? { if case .held(let retryAfterMs) = self { retryAfterMs } else { nil } }
    }

    public var result: Result?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ result: Result) {
        self.result = result
    }

    public static let fieldTable = FieldTable<UploadAttemptResult>(
        "locationwire.conformance.v1.UploadAttemptResult",
        [
            flagMember(1, "succeeded", .succeeded),
            flagMember(2, "transport_failed", .transportFailed),
            .oneofMember(3, "held_retry_after_ms", .uint32, in: \.result, Result.held, \.heldRetryAfterMs),
        ])

    /// The row of a member that is a flag, `bool succeeded` or `bool transport_failed`: a flag set to false is
    /// held as no result (which succeeds too), so only true is ever written.
    private static func flagMember(
        _ number: UInt32, _ name: StaticString, _ result: Result
    ) -> FieldTable<UploadAttemptResult>.Field {
        .oneofMember(number, name, .bool, in: \.result, { $0 ? result : nil }, { $0 == result ? true : nil })
    }
}

/// `locationwire.conformance.v1.RecordingResponse`: what was recorded, dropped and uploaded.
public struct RecordingResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var recorded: [RecordedFix] = []
    public var dropped: [DroppedFix] = []
    public var uploads: [UploadAttempt] = []
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<RecordingResponse>(
        "locationwire.conformance.v1.RecordingResponse",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .repeated(2, "recorded", .message, \.recorded),
            .repeated(3, "dropped", .message, \.dropped),
            .repeated(4, "uploads", .message, \.uploads),
        ] + TesteeFailure.oneofMembers(skipped: 5, runtimeError: 6, in: \.failure))
}

/// `locationwire.conformance.v1.RecordedFix`: a delivered fix's index and the reason it was recorded with.
public struct RecordedFix: ProtocolMessage {
    public var index: UInt32 = 0
    public var reason: FixReason = .unspecified
    public var unknownFields = UnknownFields()

    public init() {}

    public init(index: UInt32, reason: FixReason) {
        self.index = index
        self.reason = reason
    }

    public static let fieldTable = FieldTable<RecordedFix>(
        "locationwire.conformance.v1.RecordedFix",
        [
            .singular(1, "index", .uint32, \.index),
            .singular(2, "reason", .enumeration, \.reason),
        ])
}

/// `locationwire.conformance.v1.DroppedFix`: a delivered fix's index and the drop code of its stage.
public struct DroppedFix: ProtocolMessage {
    public var index: UInt32 = 0
    public var code: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public init(index: UInt32, code: String) {
        self.index = index
        self.code = code
    }

    public static let fieldTable = FieldTable<DroppedFix>(
        "locationwire.conformance.v1.DroppedFix",
        [
            .singular(1, "index", .uint32, \.index),
            .singular(2, "code", .string, \.code),
        ])
}

/// `locationwire.conformance.v1.UploadAttempt`: when an upload went, and which recorded fixes it carried.
public struct UploadAttempt: ProtocolMessage {
    public var bootId: UInt64 = 0
    public var elapsedRealtimeMs: UInt64 = 0
    /// Places in RecordingResponse.recorded: the backlog, oldest first, then the live fix.
    public var recorded: [UInt32] = []
    public var succeeded = false
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<UploadAttempt>(
        "locationwire.conformance.v1.UploadAttempt",
        [
            .singular(1, "boot_id", .fixed64, \.bootId),
            .singular(2, "elapsed_realtime_ms", .uint64, \.elapsedRealtimeMs),
            .repeated(3, "recorded", .uint32, \.recorded),
            .singular(5, "succeeded", .bool, \.succeeded),
        ])
}
