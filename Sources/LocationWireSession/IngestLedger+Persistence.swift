import LocationWire

// The ledger persists as `locationwire.session.IngestLedger`: one InstallationRecord per installation, sorted,
// its sequence sets as flattened ranges. Like the queue's, the format is the reference engine's own. The policy
// is configuration and is not persisted.

extension IngestLedger: LocationWireMessage {
    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.installations.key:
                    var record = InstallationRecord()
                    try reader.readMessage(into: &record)
                    installations[InstallationKey(deviceId: record.deviceId, installId: record.installId)] = record
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        for key in installations.keys.sorted() {
            writer.writeMessageField(Field.installations.key, installations[key]!)
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The persisted fields (see ``MessageFields``).
    public enum Field: MessageFields {
        case installations

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .installations:
                FieldDeclaration(1, "installations", .message(InstallationRecord.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.session.IngestLedger", fields: Field.self)
}

extension InstallationRecord: LocationWireMessage {
    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.deviceId.key: deviceId = try reader.readString()
                case Field.installId.key: installId = try reader.readFixed64()
                case Field.storedFixes.key: storedFixes = try Self.readSet(&reader)
                case Field.rejectedFixes.key: rejectedFixes = try Self.readSet(&reader)
                case Field.storedEvents.key: storedEvents = try Self.readSet(&reader)
                case Field.rejectedEvents.key: rejectedEvents = try Self.readSet(&reader)
                case Field.fixFloor.key: fixFloor = try reader.readVarint()
                case Field.eventFloor.key: eventFloor = try reader.readVarint()
                case Field.lifecycleKinds.key:
                    try reader.readPackedVarints(appendingTo: &lifecycleKinds) { Int32(truncatingIfNeeded: $0) }
                case Field.lifecycleTimes.key:
                    try reader.readPackedVarints(appendingTo: &lifecycleTimes) { Int64(bitPattern: $0) }
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    /// A packed list of range bounds; a list that is not sorted, disjoint pairs is refused as a value error.
    private static func readSet(_ reader: inout WireReader) throws(DecodingError) -> SequenceSet {
        var bounds: [UInt64] = []
        try reader.readPackedVarints(appendingTo: &bounds) { $0 }
        guard let set = SequenceSet(flattened: bounds) else {
            throw DecodingError(
                code: .invalidPersistedState, offset: 0, fieldPath: FieldPath(message: Self.messageName),
                message: "a sequence set that is not sorted, disjoint ranges")
        }
        return set
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writeStringField(Field.deviceId.key, deviceId)
        writer.writeFixed64Field(Field.installId.key, installId)
        writer.writePackedVarints(Field.storedFixes.key, storedFixes.flattened) { $0 }
        writer.writePackedVarints(Field.rejectedFixes.key, rejectedFixes.flattened) { $0 }
        writer.writePackedVarints(Field.storedEvents.key, storedEvents.flattened) { $0 }
        writer.writePackedVarints(Field.rejectedEvents.key, rejectedEvents.flattened) { $0 }
        if fixFloor != 0 { writer.writeVarintField(Field.fixFloor.key, fixFloor) }
        if eventFloor != 0 { writer.writeVarintField(Field.eventFloor.key, eventFloor) }
        writer.writePackedVarints(Field.lifecycleKinds.key, lifecycleKinds) { UInt64(bitPattern: Int64($0)) }
        writer.writePackedVarints(Field.lifecycleTimes.key, lifecycleTimes) { UInt64(bitPattern: $0) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The persisted fields (see ``MessageFields``).
    public enum Field: MessageFields {
        case deviceId, installId, storedFixes, rejectedFixes, storedEvents, rejectedEvents, fixFloor, eventFloor,
            lifecycleKinds, lifecycleTimes

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .deviceId: FieldDeclaration(1, "device_id", .string)
            case .installId: FieldDeclaration(2, "install_id", .fixed64)
            case .storedFixes: FieldDeclaration(3, "stored_fixes", .uint64, .repeated)
            case .rejectedFixes: FieldDeclaration(4, "rejected_fixes", .uint64, .repeated)
            case .storedEvents: FieldDeclaration(5, "stored_events", .uint64, .repeated)
            case .rejectedEvents: FieldDeclaration(6, "rejected_events", .uint64, .repeated)
            case .fixFloor: FieldDeclaration(7, "fix_floor", .uint64)
            case .eventFloor: FieldDeclaration(8, "event_floor", .uint64)
            case .lifecycleKinds: FieldDeclaration(9, "lifecycle_kinds", .int32, .repeated)
            case .lifecycleTimes: FieldDeclaration(10, "lifecycle_times", .int64, .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.session.InstallationRecord", fields: Field.self)
}
