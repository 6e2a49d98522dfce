import LocationWire

/// `locationwire.conformance.v1.LedgerResponse`: the server's ack to each batch, and what it keeps.
public struct LedgerResponse: ProtocolMessage {
    public var vectorId: String = ""
    public var acks: [BatchAck] = []
    public var installations: [InstallationState] = []
    /// Set when the ledger did not run (a oneof on the wire).
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, failure: TesteeFailure? = nil) {
        self.vectorId = vectorId
        self.failure = failure
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.acks.key: try reader.readMessage(appendingTo: &acks)
        case Field.installations.key: try reader.readMessage(appendingTo: &installations)
        case Field.skipped.key, Field.runtimeError.key:
            failure = try TesteeFailure.read(skipped: key == Field.skipped.key, from: &reader)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        writer.writeRepeatedMessageField(Field.acks.key, acks)
        writer.writeRepeatedMessageField(Field.installations.key, installations)
        failure?.write(to: &writer, skipped: Field.skipped.key, runtimeError: Field.runtimeError.key)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.LedgerResponse`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case vectorId, acks, installations, skipped, runtimeError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .acks: FieldDeclaration(2, "acks", .message(BatchAck.self), .repeated)
            case .installations: FieldDeclaration(3, "installations", .message(InstallationState.self), .repeated)
            case .skipped: FieldDeclaration(4, "skipped", .string, .optional)
            case .runtimeError: FieldDeclaration(5, "runtime_error", .string, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.LedgerResponse", fields: Field.self)
}

/// `locationwire.conformance.v1.InstallationState`: what a server knows of one installation.
public struct InstallationState: ProtocolMessage {
    public var deviceId: String = ""
    public var installId: UInt64 = 0
    public var storedFixes: [SequenceRange] = []
    public var rejectedFixes: [SequenceRange] = []
    public var lostFixes: [SequenceRange] = []
    public var storedEvents: [SequenceRange] = []
    public var rejectedEvents: [SequenceRange] = []
    public var lostEvents: [SequenceRange] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.deviceId.key: deviceId = try reader.readString()
        case Field.installId.key: installId = try reader.readFixed64()
        case Field.storedFixes.key: try reader.readMessage(appendingTo: &storedFixes)
        case Field.rejectedFixes.key: try reader.readMessage(appendingTo: &rejectedFixes)
        case Field.lostFixes.key: try reader.readMessage(appendingTo: &lostFixes)
        case Field.storedEvents.key: try reader.readMessage(appendingTo: &storedEvents)
        case Field.rejectedEvents.key: try reader.readMessage(appendingTo: &rejectedEvents)
        case Field.lostEvents.key: try reader.readMessage(appendingTo: &lostEvents)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !deviceId.isEmpty { writer.writeStringField(Field.deviceId.key, deviceId) }
        if installId != 0 { writer.writeFixed64Field(Field.installId.key, installId) }
        writer.writeRepeatedMessageField(Field.storedFixes.key, storedFixes)
        writer.writeRepeatedMessageField(Field.rejectedFixes.key, rejectedFixes)
        writer.writeRepeatedMessageField(Field.lostFixes.key, lostFixes)
        writer.writeRepeatedMessageField(Field.storedEvents.key, storedEvents)
        writer.writeRepeatedMessageField(Field.rejectedEvents.key, rejectedEvents)
        writer.writeRepeatedMessageField(Field.lostEvents.key, lostEvents)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.InstallationState`, as `proto/` declares them (see
    /// ``MessageFields``).
    public enum Field: MessageFields {
        case deviceId, installId, storedFixes, rejectedFixes, lostFixes, storedEvents, rejectedEvents, lostEvents

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .deviceId: FieldDeclaration(1, "device_id", .string)
            case .installId: FieldDeclaration(2, "install_id", .fixed64)
            case .storedFixes: FieldDeclaration(3, "stored_fixes", .message(SequenceRange.self), .repeated)
            case .rejectedFixes: FieldDeclaration(4, "rejected_fixes", .message(SequenceRange.self), .repeated)
            case .lostFixes: FieldDeclaration(5, "lost_fixes", .message(SequenceRange.self), .repeated)
            case .storedEvents: FieldDeclaration(6, "stored_events", .message(SequenceRange.self), .repeated)
            case .rejectedEvents: FieldDeclaration(7, "rejected_events", .message(SequenceRange.self), .repeated)
            case .lostEvents: FieldDeclaration(8, "lost_events", .message(SequenceRange.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.InstallationState", fields: Field.self)
}

/// `locationwire.conformance.v1.SequenceRange`: the sequence numbers [first, last], both included.
public struct SequenceRange: ProtocolMessage {
    public var first: UInt64 = 0
    public var last: UInt64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ range: ClosedRange<UInt64>) {
        first = range.lowerBound
        last = range.upperBound
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.first.key: first = try reader.readVarint()
        case Field.last.key: last = try reader.readVarint()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if first != 0 { writer.writeVarintField(Field.first.key, first) }
        if last != 0 { writer.writeVarintField(Field.last.key, last) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.SequenceRange`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case first, last

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .first: FieldDeclaration(1, "first", .uint64)
            case .last: FieldDeclaration(2, "last", .uint64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.SequenceRange", fields: Field.self)
}
