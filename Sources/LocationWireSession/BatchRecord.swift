import LocationWire

/// What one batch carried, kept by the device from sending until its ack is applied, so that the ack touches
/// exactly these items and nothing else (`§ack-scope`).
public struct BatchRecord: Hashable, Sendable {
    public var batchId: UInt64 = 0
    /// Sequence numbers of the fixes it carried, backlog and live fix, ascending.
    public var fixSequences: [UInt64] = []
    /// Event sequence numbers of the fence events it carried, ascending.
    public var eventSequences: [UInt64] = []
    /// Queue-local ids of the lifecycle events it carried.
    public var lifecycleIds: [UInt64] = []
    /// The device status it carried, so a PROCESSED ack marks exactly that snapshot reported.
    public var deviceStatus: DeviceStatus?
    /// The armed regions it carried, likewise.
    public var armedRegions: ArmedRegions?
    /// The encoded size of the batch, bytes: a TOO_LARGE ack without a limit halves it.
    public var encodedSize: UInt32 = 0
    /// When it was sent, device clock, UTC ms.
    public var sentAtMs: Int64 = 0
    /// True once the device gave up waiting (transport failure or time-out): its items may go out again in a
    /// new batch, while a late ack for it still applies (`§no-ack`).
    public var givenUp = false
    public var unknownFields = UnknownFields()

    public init() {}
}
