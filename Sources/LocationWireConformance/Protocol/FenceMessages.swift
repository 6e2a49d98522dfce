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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.policy.key: policy = try reader.readMessage(merging: policy)
        case Field.regions.key: try reader.readMessage(appendingTo: &regions)
        case Field.steps.key: try reader.readMessage(appendingTo: &steps)
        case Field.firstEventSequence.key: firstEventSequence = try reader.readVarint()
        case Field.assignmentVersion.key: assignmentVersion = try reader.readVarint()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if let policy { writer.writeMessageField(Field.policy.key, policy) }
        writer.writeRepeatedMessageField(Field.regions.key, regions)
        writer.writeRepeatedMessageField(Field.steps.key, steps)
        if firstEventSequence != 0 { writer.writeVarintField(Field.firstEventSequence.key, firstEventSequence) }
        if assignmentVersion != 0 { writer.writeVarintField(Field.assignmentVersion.key, assignmentVersion) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.FenceRequest`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, policy, regions, steps, firstEventSequence, assignmentVersion

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .policy: FieldDeclaration(2, "policy", .message(TrackingPolicy.self))
            case .regions: FieldDeclaration(3, "regions", .message(Region.self), .repeated)
            case .steps: FieldDeclaration(4, "steps", .message(FenceStep.self), .repeated)
            case .firstEventSequence: FieldDeclaration(5, "first_event_sequence", .uint64)
            case .assignmentVersion: FieldDeclaration(6, "assignment_version", .uint64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.FenceRequest", fields: Field.self)
}

/// `locationwire.conformance.v1.FenceStep`: a fix delivered, or regions armed and disarmed (a oneof).
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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.fix.key: action = .fix(try reader.readMessage(merging: action?.fix))
        case Field.arm.key: action = .arm(try reader.readMessage(merging: action?.arm))
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        switch action {
        case .fix(let fix): writer.writeMessageField(Field.fix.key, fix)
        case .arm(let arm): writer.writeMessageField(Field.arm.key, arm)
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.FenceStep`, as `proto/` declares them.
    public enum Field: MessageFields {
        case fix, arm

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .fix: FieldDeclaration(1, "fix", .message(LocationFix.self))
            case .arm: FieldDeclaration(2, "arm", .message(FenceArming.self))
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.FenceStep", fields: Field.self)
}

/// `locationwire.conformance.v1.FenceArming`: regions to arm (or replace, by id) and ids to disarm.
public struct FenceArming: ProtocolMessage {
    public var regions: [Region] = []
    public var disarmRegionIds: [String] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.regions.key: try reader.readMessage(appendingTo: &regions)
        case Field.disarmRegionIds.key: try reader.readString(appendingTo: &disarmRegionIds)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writeRepeatedMessageField(Field.regions.key, regions)
        for id in disarmRegionIds { writer.writeStringField(Field.disarmRegionIds.key, id) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.FenceArming`, as `proto/` declares them.
    public enum Field: MessageFields {
        case regions, disarmRegionIds

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .regions: FieldDeclaration(1, "regions", .message(Region.self), .repeated)
            case .disarmRegionIds: FieldDeclaration(2, "disarm_region_ids", .string, .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.FenceArming", fields: Field.self)
}

/// `locationwire.conformance.v1.FenceResponse`: every event reported, in order.
public struct FenceResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var events: [FenceEvent] = []
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.events.key: try reader.readMessage(appendingTo: &events)
        case Field.skipped.key, Field.runtimeError.key:
            failure = try TesteeFailure.read(skipped: key == Field.skipped.key, from: &reader)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        writer.writeRepeatedMessageField(Field.events.key, events)
        failure?.write(to: &writer, skipped: Field.skipped.key, runtimeError: Field.runtimeError.key)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.FenceResponse`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, events, skipped, runtimeError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .events: FieldDeclaration(2, "events", .message(FenceEvent.self), .repeated)
            case .skipped: FieldDeclaration(3, "skipped", .string, .optional)
            case .runtimeError: FieldDeclaration(4, "runtime_error", .string, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.FenceResponse", fields: Field.self)
}
