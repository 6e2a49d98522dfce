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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.catalogue.key: try reader.readMessage(appendingTo: &catalogue)
        case Field.latitudeE7.key: latitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.longitudeE7.key: longitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.slotBudget.key: slotBudget = try reader.readUInt32()
        case Field.nowMs.key: nowMs = Int64(bitPattern: try reader.readVarint())
        case Field.previous.key: previous = try reader.readMessage(merging: previous)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        writer.writeRepeatedMessageField(Field.catalogue.key, catalogue)
        if latitudeE7 != 0 { writer.writeFixed32Field(Field.latitudeE7.key, UInt32(bitPattern: latitudeE7)) }
        if longitudeE7 != 0 { writer.writeFixed32Field(Field.longitudeE7.key, UInt32(bitPattern: longitudeE7)) }
        if slotBudget != 0 { writer.writeVarintField(Field.slotBudget.key, UInt64(slotBudget)) }
        if nowMs != 0 { writer.writeVarintField(Field.nowMs.key, UInt64(bitPattern: nowMs)) }
        if let previous { writer.writeMessageField(Field.previous.key, previous) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.PlanningRequest`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, catalogue, latitudeE7, longitudeE7, slotBudget, nowMs, previous

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .catalogue: FieldDeclaration(2, "catalogue", .message(Region.self), .repeated)
            case .latitudeE7: FieldDeclaration(3, "latitude_e7", .sfixed32)
            case .longitudeE7: FieldDeclaration(4, "longitude_e7", .sfixed32)
            case .slotBudget: FieldDeclaration(5, "slot_budget", .uint32)
            case .nowMs: FieldDeclaration(6, "now_ms", .int64)
            case .previous: FieldDeclaration(7, "previous", .message(RegionAssignment.self))
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.PlanningRequest", fields: Field.self)
}

/// `locationwire.conformance.v1.PlanningResponse`: the assignment planned.
public struct PlanningResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var assignment: RegionAssignment?
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.assignment.key: assignment = try reader.readMessage(merging: assignment)
        case Field.skipped.key, Field.runtimeError.key:
            failure = try TesteeFailure.read(skipped: key == Field.skipped.key, from: &reader)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if let assignment { writer.writeMessageField(Field.assignment.key, assignment) }
        failure?.write(to: &writer, skipped: Field.skipped.key, runtimeError: Field.runtimeError.key)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.PlanningResponse`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, assignment, skipped, runtimeError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .assignment: FieldDeclaration(2, "assignment", .message(RegionAssignment.self))
            case .skipped: FieldDeclaration(3, "skipped", .string, .optional)
            case .runtimeError: FieldDeclaration(4, "runtime_error", .string, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.PlanningResponse", fields: Field.self)
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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.assignment.key: assignment = try reader.readMessage(merging: assignment)
        case Field.slots.key: slots = try reader.readUInt32()
        case Field.position.key: position = try reader.readMessage(merging: position)
        case Field.nowMs.key: nowMs = Int64(bitPattern: try reader.readVarint())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if let assignment { writer.writeMessageField(Field.assignment.key, assignment) }
        if slots != 0 { writer.writeVarintField(Field.slots.key, UInt64(slots)) }
        if let position { writer.writeMessageField(Field.position.key, position) }
        if nowMs != 0 { writer.writeVarintField(Field.nowMs.key, UInt64(bitPattern: nowMs)) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.ArmingRequest`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, assignment, slots, position, nowMs

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .assignment: FieldDeclaration(2, "assignment", .message(RegionAssignment.self))
            case .slots: FieldDeclaration(3, "slots", .uint32)
            case .position: FieldDeclaration(4, "position", .message(LocationFix.self))
            case .nowMs: FieldDeclaration(5, "now_ms", .int64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.ArmingRequest", fields: Field.self)
}

/// `locationwire.conformance.v1.ArmingResponse`: what the device arms and what fails.
public struct ArmingResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var armed: ArmedRegions?
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.armed.key: armed = try reader.readMessage(merging: armed)
        case Field.skipped.key, Field.runtimeError.key:
            failure = try TesteeFailure.read(skipped: key == Field.skipped.key, from: &reader)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if let armed { writer.writeMessageField(Field.armed.key, armed) }
        failure?.write(to: &writer, skipped: Field.skipped.key, runtimeError: Field.runtimeError.key)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.ArmingResponse`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, armed, skipped, runtimeError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .armed: FieldDeclaration(2, "armed", .message(ArmedRegions.self))
            case .skipped: FieldDeclaration(3, "skipped", .string, .optional)
            case .runtimeError: FieldDeclaration(4, "runtime_error", .string, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.ArmingResponse", fields: Field.self)
}
