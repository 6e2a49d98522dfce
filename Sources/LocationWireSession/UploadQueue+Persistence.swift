import LocationWire

// The queue persists as a protobuf message of its own (`locationwire.session.UploadQueue`), written and read by
// the same codec as the wire messages: the recorded items keep their wire encoding, unknown fields included.
// The format is the reference engine's, not part of the protocol: an app may persist however it likes, as long
// as a fix and the counter that numbered it are durable together (`§sequence-consecutive`).

extension UploadQueue: LocationWireMessage {
    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.deviceId.key: deviceId = try reader.readString()
                case Field.installId.key: installId = try reader.readFixed64()
                case Field.datum.key: datum = CoordinateDatum(rawValue: try reader.readInt32())
                case Field.fixes.key: try reader.readMessage(appendingTo: &fixes)
                case Field.fenceEvents.key: try reader.readMessage(appendingTo: &fenceEvents)
                case Field.lifecycleEvents.key: try reader.readMessage(appendingTo: &lifecycleEvents)
                case Field.lifecycleIds.key: try reader.readPackedVarints(appendingTo: &lifecycleIds) { $0 }
                case Field.deviceStatus.key:
                    if deviceStatus == nil { deviceStatus = DeviceStatus() }
                    try reader.readMessage(into: &deviceStatus!)
                case Field.deviceStatusReported.key: deviceStatusReported = try reader.readBool()
                case Field.armedRegions.key:
                    if armedRegions == nil { armedRegions = ArmedRegions() }
                    try reader.readMessage(into: &armedRegions!)
                case Field.armedRegionsReported.key: armedRegionsReported = try reader.readBool()
                case Field.nextFixSequence.key: nextFixSequence = try reader.readVarint()
                case Field.nextEventSequence.key: nextEventSequence = try reader.readVarint()
                case Field.nextLifecycleId.key: nextLifecycleId = try reader.readVarint()
                case Field.discardedFixCount.key: discardedFixCount = try reader.readVarint()
                case Field.policy.key: try reader.readMessage(into: &policy)
                case Field.batches.key: try reader.readMessage(appendingTo: &batches)
                case Field.holdUntilMs.key: holdUntilMs = Int64(bitPattern: try reader.readVarint())
                case Field.consecutiveFailures.key: consecutiveFailures = Int(try reader.readUInt32())
                case Field.learntBatchBytes.key: learntBatchBytes = try reader.readUInt32()
                case Field.rowsOnly.key: rowsOnly = try reader.readBool()
                case Field.serverRevision.key: serverRevision = try reader.readUInt32()
                case Field.hintedAssignmentVersion.key: hintedAssignmentVersion = try reader.readVarint()
                case Field.highestExecutedCommandId.key: highestExecutedCommandId = try reader.readVarint()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !deviceId.isEmpty { writer.writeStringField(Field.deviceId.key, deviceId) }
        if installId != 0 { writer.writeFixed64Field(Field.installId.key, installId) }
        if datum.rawValue != 0 { writer.writeInt32Field(Field.datum.key, datum.rawValue) }
        writer.writeRepeatedMessageField(Field.fixes.key, fixes)
        writer.writeRepeatedMessageField(Field.fenceEvents.key, fenceEvents)
        writer.writeRepeatedMessageField(Field.lifecycleEvents.key, lifecycleEvents)
        writer.writePackedVarints(Field.lifecycleIds.key, lifecycleIds) { $0 }
        if let deviceStatus { writer.writeMessageField(Field.deviceStatus.key, deviceStatus) }
        if deviceStatusReported { writer.writeBoolField(Field.deviceStatusReported.key, true) }
        if let armedRegions { writer.writeMessageField(Field.armedRegions.key, armedRegions) }
        if armedRegionsReported { writer.writeBoolField(Field.armedRegionsReported.key, true) }
        writer.writeVarintField(Field.nextFixSequence.key, nextFixSequence)
        writer.writeVarintField(Field.nextEventSequence.key, nextEventSequence)
        writer.writeVarintField(Field.nextLifecycleId.key, nextLifecycleId)
        if discardedFixCount != 0 { writer.writeVarintField(Field.discardedFixCount.key, discardedFixCount) }
        writer.writeMessageField(Field.policy.key, policy)
        writer.writeRepeatedMessageField(Field.batches.key, batches)
        if holdUntilMs != .min { writer.writeVarintField(Field.holdUntilMs.key, UInt64(bitPattern: holdUntilMs)) }
        if consecutiveFailures != 0 {
            writer.writeVarintField(Field.consecutiveFailures.key, UInt64(consecutiveFailures))
        }
        if learntBatchBytes != 0 { writer.writeVarintField(Field.learntBatchBytes.key, UInt64(learntBatchBytes)) }
        if rowsOnly { writer.writeBoolField(Field.rowsOnly.key, true) }
        if serverRevision != 0 { writer.writeVarintField(Field.serverRevision.key, UInt64(serverRevision)) }
        if hintedAssignmentVersion != 0 {
            writer.writeVarintField(Field.hintedAssignmentVersion.key, hintedAssignmentVersion)
        }
        if highestExecutedCommandId != 0 {
            writer.writeVarintField(Field.highestExecutedCommandId.key, highestExecutedCommandId)
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The persisted fields (see ``MessageFields``).
    public enum Field: MessageFields {
        case deviceId, installId, datum, fixes, fenceEvents, lifecycleEvents, lifecycleIds, deviceStatus,
            deviceStatusReported, armedRegions, armedRegionsReported, nextFixSequence, nextEventSequence,
            nextLifecycleId, discardedFixCount, policy, batches, holdUntilMs, consecutiveFailures,
            learntBatchBytes, rowsOnly, serverRevision, hintedAssignmentVersion, highestExecutedCommandId

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .deviceId: FieldDeclaration(1, "device_id", .string)
            case .installId: FieldDeclaration(2, "install_id", .fixed64)
            case .datum: FieldDeclaration(3, "datum", .enumeration(CoordinateDatum.self))
            case .fixes: FieldDeclaration(4, "fixes", .message(LocationFix.self), .repeated)
            case .fenceEvents: FieldDeclaration(5, "fence_events", .message(FenceEvent.self), .repeated)
            case .lifecycleEvents:
                FieldDeclaration(6, "lifecycle_events", .message(LifecycleEvent.self), .repeated)
            case .lifecycleIds: FieldDeclaration(7, "lifecycle_ids", .uint64, .repeated)
            case .deviceStatus: FieldDeclaration(8, "device_status", .message(DeviceStatus.self))
            case .deviceStatusReported: FieldDeclaration(9, "device_status_reported", .bool)
            case .armedRegions: FieldDeclaration(10, "armed_regions", .message(ArmedRegions.self))
            case .armedRegionsReported: FieldDeclaration(11, "armed_regions_reported", .bool)
            case .nextFixSequence: FieldDeclaration(12, "next_fix_sequence", .uint64)
            case .nextEventSequence: FieldDeclaration(13, "next_event_sequence", .uint64)
            case .nextLifecycleId: FieldDeclaration(14, "next_lifecycle_id", .uint64)
            case .discardedFixCount: FieldDeclaration(15, "discarded_fix_count", .uint64)
            case .policy: FieldDeclaration(16, "policy", .message(TrackingPolicy.self))
            case .batches: FieldDeclaration(17, "batches", .message(BatchRecord.self), .repeated)
            case .holdUntilMs: FieldDeclaration(18, "hold_until_ms", .int64)
            case .consecutiveFailures: FieldDeclaration(19, "consecutive_failures", .uint32)
            case .learntBatchBytes: FieldDeclaration(20, "learnt_batch_bytes", .uint32)
            case .rowsOnly: FieldDeclaration(21, "rows_only", .bool)
            case .serverRevision: FieldDeclaration(22, "server_revision", .uint32)
            case .hintedAssignmentVersion: FieldDeclaration(23, "hinted_assignment_version", .uint64)
            case .highestExecutedCommandId: FieldDeclaration(24, "highest_executed_command_id", .uint64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.session.UploadQueue", fields: Field.self)
}

extension BatchRecord: LocationWireMessage {
    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.batchId.key: batchId = try reader.readFixed64()
                case Field.fixSequences.key: try reader.readPackedVarints(appendingTo: &fixSequences) { $0 }
                case Field.eventSequences.key: try reader.readPackedVarints(appendingTo: &eventSequences) { $0 }
                case Field.lifecycleIds.key: try reader.readPackedVarints(appendingTo: &lifecycleIds) { $0 }
                case Field.deviceStatus.key:
                    if deviceStatus == nil { deviceStatus = DeviceStatus() }
                    try reader.readMessage(into: &deviceStatus!)
                case Field.armedRegions.key:
                    if armedRegions == nil { armedRegions = ArmedRegions() }
                    try reader.readMessage(into: &armedRegions!)
                case Field.encodedSize.key: encodedSize = try reader.readUInt32()
                case Field.sentAtMs.key: sentAtMs = Int64(bitPattern: try reader.readVarint())
                case Field.givenUp.key: givenUp = try reader.readBool()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writeFixed64Field(Field.batchId.key, batchId)
        writer.writePackedVarints(Field.fixSequences.key, fixSequences) { $0 }
        writer.writePackedVarints(Field.eventSequences.key, eventSequences) { $0 }
        writer.writePackedVarints(Field.lifecycleIds.key, lifecycleIds) { $0 }
        if let deviceStatus { writer.writeMessageField(Field.deviceStatus.key, deviceStatus) }
        if let armedRegions { writer.writeMessageField(Field.armedRegions.key, armedRegions) }
        if encodedSize != 0 { writer.writeVarintField(Field.encodedSize.key, UInt64(encodedSize)) }
        if sentAtMs != 0 { writer.writeVarintField(Field.sentAtMs.key, UInt64(bitPattern: sentAtMs)) }
        if givenUp { writer.writeBoolField(Field.givenUp.key, true) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The persisted fields (see ``MessageFields``).
    public enum Field: MessageFields {
        case batchId, fixSequences, eventSequences, lifecycleIds, deviceStatus, armedRegions, encodedSize,
            sentAtMs, givenUp

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .batchId: FieldDeclaration(1, "batch_id", .fixed64)
            case .fixSequences: FieldDeclaration(2, "fix_sequences", .uint64, .repeated)
            case .eventSequences: FieldDeclaration(3, "event_sequences", .uint64, .repeated)
            case .lifecycleIds: FieldDeclaration(4, "lifecycle_ids", .uint64, .repeated)
            case .deviceStatus: FieldDeclaration(5, "device_status", .message(DeviceStatus.self))
            case .armedRegions: FieldDeclaration(6, "armed_regions", .message(ArmedRegions.self))
            case .encodedSize: FieldDeclaration(7, "encoded_size", .uint32)
            case .sentAtMs: FieldDeclaration(8, "sent_at_ms", .int64)
            case .givenUp: FieldDeclaration(9, "given_up", .bool)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.session.BatchRecord", fields: Field.self)
}
