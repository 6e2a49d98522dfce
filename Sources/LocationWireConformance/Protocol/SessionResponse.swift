import LocationWire

/// `locationwire.conformance.v1.SessionResponse`: what each step of a session did.
public struct SessionResponse: ProtocolMessage {
    public var vectorId: String = ""
    public var steps: [SessionStepResult] = []
    /// Set when the session did not run (a oneof on the wire).
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, steps: [SessionStepResult] = [], failure: TesteeFailure? = nil) {
        self.vectorId = vectorId
        self.steps = steps
        self.failure = failure
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.steps.key: try reader.readMessage(appendingTo: &steps)
        case Field.skipped.key, Field.runtimeError.key:
            failure = try TesteeFailure.read(skipped: key == Field.skipped.key, from: &reader)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        writer.writeRepeatedMessageField(Field.steps.key, steps)
        failure?.write(to: &writer, skipped: Field.skipped.key, runtimeError: Field.runtimeError.key)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.SessionResponse`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case vectorId, steps, skipped, runtimeError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .steps: FieldDeclaration(2, "steps", .message(SessionStepResult.self), .repeated)
            case .skipped: FieldDeclaration(3, "skipped", .string, .optional)
            case .runtimeError: FieldDeclaration(4, "runtime_error", .string, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.SessionResponse", fields: Field.self)
}

/// Why a session or ledger request did not run: the `failure` oneof of SessionResponse and LedgerResponse.
public enum TesteeFailure: Hashable, Sendable {
    /// The testee lacks the feature.
    case skipped(String)
    /// A bug, or a request the testee does not understand.
    case runtimeError(String)

    /// Reads the member whose tag was just read: `skipped`, or else `runtime_error`.
    static func read(skipped: Bool, from reader: inout WireReader) throws(DecodingError) -> TesteeFailure {
        let text = try reader.readString()
        return skipped ? .skipped(text) : .runtimeError(text)
    }

    /// Writes the member that is set, under the keys of the message's two fields.
    func write(to writer: inout WireWriter, skipped: FieldKey, runtimeError: FieldKey) {
        switch self {
        case .skipped(let reason): writer.writeStringField(skipped, reason)
        case .runtimeError(let message): writer.writeStringField(runtimeError, message)
        }
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

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.sequence.key: sequence = try reader.readVarint()
        case Field.batch.key: batch = try reader.readMessage(merging: batch)
        case Field.ackIgnored.key: ackIgnored = try reader.readString()
        case Field.executedCommandIds.key, Field.executedCommandIds.unpackedKey:
            try reader.readVarints(key, appendingTo: &executedCommandIds)
        case Field.requestRegions.key: requestRegions = try reader.readBool()
        case Field.heldFixSequences.key, Field.heldFixSequences.unpackedKey:
            try reader.readVarints(key, appendingTo: &heldFixSequences)
        case Field.heldEventSequences.key, Field.heldEventSequences.unpackedKey:
            try reader.readVarints(key, appendingTo: &heldEventSequences)
        case Field.heldLifecycleEvents.key: heldLifecycleEvents = try reader.readUInt32()
        case Field.fixSequenceFloor.key: fixSequenceFloor = try reader.readVarint()
        case Field.eventSequenceFloor.key: eventSequenceFloor = try reader.readVarint()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if sequence != 0 { writer.writeVarintField(Field.sequence.key, sequence) }
        if let batch { writer.writeMessageField(Field.batch.key, batch) }
        if !ackIgnored.isEmpty { writer.writeStringField(Field.ackIgnored.key, ackIgnored) }
        writer.writePackedVarints(Field.executedCommandIds.key, executedCommandIds) { $0 }
        if requestRegions { writer.writeBoolField(Field.requestRegions.key, true) }
        writer.writePackedVarints(Field.heldFixSequences.key, heldFixSequences) { $0 }
        writer.writePackedVarints(Field.heldEventSequences.key, heldEventSequences) { $0 }
        if heldLifecycleEvents != 0 {
            writer.writeVarintField(Field.heldLifecycleEvents.key, UInt64(heldLifecycleEvents))
        }
        if fixSequenceFloor != 0 { writer.writeVarintField(Field.fixSequenceFloor.key, fixSequenceFloor) }
        if eventSequenceFloor != 0 { writer.writeVarintField(Field.eventSequenceFloor.key, eventSequenceFloor) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.SessionStepResult`, as `proto/` declares them (see
    /// ``MessageFields``).
    public enum Field: MessageFields {
        case sequence, batch, ackIgnored, executedCommandIds, requestRegions, heldFixSequences, heldEventSequences,
            heldLifecycleEvents, fixSequenceFloor, eventSequenceFloor

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .sequence: FieldDeclaration(1, "sequence", .uint64)
            case .batch: FieldDeclaration(2, "batch", .message(LocationBatch.self))
            case .ackIgnored: FieldDeclaration(3, "ack_ignored", .string)
            case .executedCommandIds: FieldDeclaration(4, "executed_command_ids", .uint64, .repeated)
            case .requestRegions: FieldDeclaration(5, "request_regions", .bool)
            case .heldFixSequences: FieldDeclaration(6, "held_fix_sequences", .uint64, .repeated)
            case .heldEventSequences: FieldDeclaration(7, "held_event_sequences", .uint64, .repeated)
            case .heldLifecycleEvents: FieldDeclaration(8, "held_lifecycle_events", .uint32)
            case .fixSequenceFloor: FieldDeclaration(9, "fix_sequence_floor", .uint64)
            case .eventSequenceFloor: FieldDeclaration(10, "event_sequence_floor", .uint64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.SessionStepResult", fields: Field.self)
}
