import LocationWire

/// `locationwire.conformance.v1.SessionRequest`: a device's side of a session, as a script of steps
/// (`FEATURE_SESSION`).
public struct SessionRequest: ProtocolMessage {
    public var vectorId: String = ""
    public var deviceId: String = ""
    public var installId: UInt64 = 0
    /// The policy in force at the start; nil is the default policy.
    public var policy: TrackingPolicy?
    public var steps: [SessionStep] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.deviceId.key: deviceId = try reader.readString()
        case Field.installId.key: installId = try reader.readFixed64()
        case Field.policy.key: policy = try reader.readMessage(merging: policy)
        case Field.steps.key: try reader.readMessage(appendingTo: &steps)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if !deviceId.isEmpty { writer.writeStringField(Field.deviceId.key, deviceId) }
        if installId != 0 { writer.writeFixed64Field(Field.installId.key, installId) }
        if let policy { writer.writeMessageField(Field.policy.key, policy) }
        writer.writeRepeatedMessageField(Field.steps.key, steps)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.SessionRequest`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case vectorId, deviceId, installId, policy, steps

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .deviceId: FieldDeclaration(2, "device_id", .string)
            case .installId: FieldDeclaration(3, "install_id", .fixed64)
            case .policy: FieldDeclaration(4, "policy", .message(TrackingPolicy.self))
            case .steps: FieldDeclaration(5, "steps", .message(SessionStep.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.SessionRequest", fields: Field.self)
}

/// `locationwire.conformance.v1.SessionStep`: one thing that happens to the device.
public struct SessionStep: ProtocolMessage {
    /// What happens (a oneof on the wire).
    public enum Action: Hashable, Sendable {
        case recordFix(LocationFix)
        case recordFenceEvent(FenceEvent)
        case recordLifecycleEvent(LifecycleEvent)
        case updateDeviceStatus(DeviceStatus)
        case updateArmedRegions(ArmedRegions)
        case discardOldestFixes(UInt32)
        case send(batchId: UInt64)
        case ack(BatchAck)
        case giveUp(batchId: UInt64)
        case ackBytes([UInt8])

        var fix: LocationFix? { if case .recordFix(let fix) = self { fix } else { nil } }
        var fenceEvent: FenceEvent? { if case .recordFenceEvent(let event) = self { event } else { nil } }
        var lifecycleEvent: LifecycleEvent? {
            if case .recordLifecycleEvent(let event) = self { event } else { nil }
        }
        var deviceStatus: DeviceStatus? { if case .updateDeviceStatus(let status) = self { status } else { nil } }
        var armedRegions: ArmedRegions? { if case .updateArmedRegions(let armed) = self { armed } else { nil } }
        var ack: BatchAck? { if case .ack(let ack) = self { ack } else { nil } }
    }

    public var action: Action?
    /// The device clock, UTC ms, for sending, acks and failures.
    public var nowMs: Int64 = 0
    /// The current boot, for sending.
    public var bootId: UInt64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ action: Action, nowMs: Int64 = 0, bootId: UInt64 = 0) {
        self.action = action
        self.nowMs = nowMs
        self.bootId = bootId
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.recordFix.key: action = .recordFix(try reader.readMessage(merging: action?.fix))
        case Field.recordFenceEvent.key: action = .recordFenceEvent(try reader.readMessage(merging: action?.fenceEvent))
        case Field.recordLifecycleEvent.key:
            action = .recordLifecycleEvent(try reader.readMessage(merging: action?.lifecycleEvent))
        case Field.updateDeviceStatus.key:
            action = .updateDeviceStatus(try reader.readMessage(merging: action?.deviceStatus))
        case Field.updateArmedRegions.key:
            action = .updateArmedRegions(try reader.readMessage(merging: action?.armedRegions))
        case Field.discardOldestFixes.key: action = .discardOldestFixes(try reader.readUInt32())
        case Field.sendBatchId.key: action = .send(batchId: try reader.readFixed64())
        case Field.ack.key: action = .ack(try reader.readMessage(merging: action?.ack))
        case Field.giveUpBatchId.key: action = .giveUp(batchId: try reader.readFixed64())
        case Field.ackBytes.key: action = .ackBytes(try reader.readBytes())
        case Field.nowMs.key: nowMs = Int64(bitPattern: try reader.readVarint())
        case Field.bootId.key: bootId = try reader.readFixed64()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        switch action {
        case .recordFix(let fix): writer.writeMessageField(Field.recordFix.key, fix)
        case .recordFenceEvent(let event): writer.writeMessageField(Field.recordFenceEvent.key, event)
        case .recordLifecycleEvent(let event): writer.writeMessageField(Field.recordLifecycleEvent.key, event)
        case .updateDeviceStatus(let status): writer.writeMessageField(Field.updateDeviceStatus.key, status)
        case .updateArmedRegions(let armed): writer.writeMessageField(Field.updateArmedRegions.key, armed)
        case .discardOldestFixes(let count): writer.writeVarintField(Field.discardOldestFixes.key, UInt64(count))
        case .send(let batchId): writer.writeFixed64Field(Field.sendBatchId.key, batchId)
        case .ack(let ack): writer.writeMessageField(Field.ack.key, ack)
        case .giveUp(let batchId): writer.writeFixed64Field(Field.giveUpBatchId.key, batchId)
        case .ackBytes, nil: break  // field 12, after now_ms and boot_id
        }
        if nowMs != 0 { writer.writeVarintField(Field.nowMs.key, UInt64(bitPattern: nowMs)) }
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        if case .ackBytes(let bytes) = action { writer.writeBytesField(Field.ackBytes.key, bytes) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.SessionStep`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case recordFix, recordFenceEvent, recordLifecycleEvent, updateDeviceStatus, updateArmedRegions,
            discardOldestFixes, sendBatchId, ack, giveUpBatchId, nowMs, bootId, ackBytes

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .recordFix: FieldDeclaration(1, "record_fix", .message(LocationFix.self))
            case .recordFenceEvent: FieldDeclaration(2, "record_fence_event", .message(FenceEvent.self))
            case .recordLifecycleEvent:
                FieldDeclaration(3, "record_lifecycle_event", .message(LifecycleEvent.self))
            case .updateDeviceStatus: FieldDeclaration(4, "update_device_status", .message(DeviceStatus.self))
            case .updateArmedRegions: FieldDeclaration(5, "update_armed_regions", .message(ArmedRegions.self))
            case .discardOldestFixes: FieldDeclaration(6, "discard_oldest_fixes", .uint32, .optional)
            case .sendBatchId: FieldDeclaration(7, "send_batch_id", .fixed64, .optional)
            case .ack: FieldDeclaration(8, "ack", .message(BatchAck.self))
            case .giveUpBatchId: FieldDeclaration(9, "give_up_batch_id", .fixed64, .optional)
            case .nowMs: FieldDeclaration(10, "now_ms", .int64)
            case .bootId: FieldDeclaration(11, "boot_id", .fixed64)
            case .ackBytes: FieldDeclaration(12, "ack_bytes", .bytes, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.SessionStep", fields: Field.self)
}
