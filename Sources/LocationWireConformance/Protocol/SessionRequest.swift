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

    public static let fieldTable = FieldTable<SessionRequest>(
        "locationwire.conformance.v1.SessionRequest",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .singular(2, "device_id", .string, \.deviceId),
            .singular(3, "install_id", .fixed64, \.installId),
            .optional(4, "policy", .message, \.policy),
            .repeated(5, "steps", .message, \.steps),
        ])
}

/// `locationwire.conformance.v1.SessionStep`: one thing that happens to the device.
public struct SessionStep: ProtocolMessage {
    /// What happens (the oneof `action`).
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
        var discardCount: UInt32? { if case .discardOldestFixes(let count) = self { count } else { nil } }
        var sendBatchId: UInt64? { if case .send(let batchId) = self { batchId } else { nil } }
        var ack: BatchAck? { if case .ack(let ack) = self { ack } else { nil } }
        var giveUpBatchId: UInt64? { if case .giveUp(let batchId) = self { batchId } else { nil } }
        var ackBytes: [UInt8]? { if case .ackBytes(let bytes) = self { bytes } else { nil } }
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

    public static let fieldTable = FieldTable<SessionStep>(
        "locationwire.conformance.v1.SessionStep",
        [
            .oneofMember(1, "record_fix", .message, in: \.action, Action.recordFix, \.fix),
            .oneofMember(2, "record_fence_event", .message, in: \.action, Action.recordFenceEvent, \.fenceEvent),
            .oneofMember(
                3, "record_lifecycle_event", .message, in: \.action, Action.recordLifecycleEvent, \.lifecycleEvent),
            .oneofMember(
                4, "update_device_status", .message, in: \.action, Action.updateDeviceStatus, \.deviceStatus),
            .oneofMember(
                5, "update_armed_regions", .message, in: \.action, Action.updateArmedRegions, \.armedRegions),
            .oneofMember(6, "discard_oldest_fixes", .uint32, in: \.action, Action.discardOldestFixes, \.discardCount),
            .oneofMember(7, "send_batch_id", .fixed64, in: \.action, Action.send, \.sendBatchId),
            .oneofMember(8, "ack", .message, in: \.action, Action.ack, \.ack),
            .oneofMember(9, "give_up_batch_id", .fixed64, in: \.action, Action.giveUp, \.giveUpBatchId),
            .singular(10, "now_ms", .int64, \.nowMs),
            .singular(11, "boot_id", .fixed64, \.bootId),
            .oneofMember(12, "ack_bytes", .bytes, in: \.action, Action.ackBytes, \.ackBytes),
        ])
}
