/// A change in the app's process lifecycle (`locationwire.v1.LifecycleEvent`,
/// `proto/locationwire/v1/device_state.proto`).
public struct LifecycleEvent: LocationWireMessage {
    /// What happened.
    public var kind: LifecycleEventKind = .unspecified
    /// When it happened, UTC ms.
    public var timeMs: Int64 = 0
    /// Monotonic clock when it happened, ms since boot.
    public var elapsedRealtimeMs: UInt64?
    /// For system relaunches: why the OS relaunched the app.
    public var relaunchReason: RelaunchReason = .unspecified
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: kind = LifecycleEventKind(rawValue: try reader.readInt32())
                case 0x10: timeMs = Int64(bitPattern: try reader.readVarint())
                case 0x18: elapsedRealtimeMs = try reader.readVarint()
                case 0x20: relaunchReason = RelaunchReason(rawValue: try reader.readInt32())
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if kind.rawValue != 0 { writer.writeInt32Field(0x08, kind.rawValue) }
        if timeMs != 0 { writer.writeVarintField(0x10, UInt64(bitPattern: timeMs)) }
        if let elapsedRealtimeMs { writer.writeVarintField(0x18, elapsedRealtimeMs) }
        if relaunchReason.rawValue != 0 { writer.writeInt32Field(0x20, relaunchReason.rawValue) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.LifecycleEvent",
        fields: [
            FieldSchema(1, "kind", .enumeration(LifecycleEventKind.schema)),
            FieldSchema(2, "time_ms", .int64),
            FieldSchema(3, "elapsed_realtime_ms", .uint64, .optional),
            FieldSchema(4, "relaunch_reason", .enumeration(RelaunchReason.schema)),
        ])
}
