/// One geofence transition or state report (`locationwire.v1.FenceEvent`, `proto/locationwire/v1/fence_event.proto`).
public struct FenceEvent: LocationWireMessage {
    /// Per-device fence event counter, the idempotency key; starts at 1, strictly increasing. 0 = not assigned.
    public var eventSequence: UInt64 = 0
    /// The region's namespaced id.
    public var regionId: String = ""
    /// The region definition's version when the event fired.
    public var regionVersion: UInt64 = 0
    /// The assignment the region came from; 0 for regions the app armed itself.
    public var assignmentVersion: UInt64 = 0
    /// Enter, exit, dwell, or a state report.
    public var kind: FenceEventKind = .unspecified
    /// When the OS says the event happened, UTC ms.
    public var osEventTimeMs: Int64 = 0
    /// When the app or server learned of it, UTC ms.
    public var detectedAtMs: Int64 = 0
    /// The fix that triggered the event.
    public var triggerFix: LocationFix?
    /// Who detected the event.
    public var source: FenceEventSource = .unspecified
    /// Monotonic clock at detection, ms since boot.
    public var detectedElapsedRealtimeMs: UInt64?
    /// For dwell events: time spent inside, ms.
    public var dwellMs: UInt32?
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: eventSequence = try reader.readVarint()
                case 0x12: regionId = try reader.readString()
                case 0x18: regionVersion = try reader.readVarint()
                case 0x20: assignmentVersion = try reader.readVarint()
                case 0x28: kind = FenceEventKind(rawValue: try reader.readInt32())
                case 0x30: osEventTimeMs = Int64(bitPattern: try reader.readVarint())
                case 0x38: detectedAtMs = Int64(bitPattern: try reader.readVarint())
                case 0x42:
                    if triggerFix == nil { triggerFix = LocationFix() }
                    try reader.readMessage(into: &triggerFix!)
                case 0x48: source = FenceEventSource(rawValue: try reader.readInt32())
                case 0x50: detectedElapsedRealtimeMs = try reader.readVarint()
                case 0x58: dwellMs = try reader.readUInt32()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if eventSequence != 0 { writer.writeVarintField(0x08, eventSequence) }
        if !regionId.isEmpty { writer.writeStringField(0x12, regionId) }
        if regionVersion != 0 { writer.writeVarintField(0x18, regionVersion) }
        if assignmentVersion != 0 { writer.writeVarintField(0x20, assignmentVersion) }
        if kind.rawValue != 0 { writer.writeInt32Field(0x28, kind.rawValue) }
        if osEventTimeMs != 0 { writer.writeVarintField(0x30, UInt64(bitPattern: osEventTimeMs)) }
        if detectedAtMs != 0 { writer.writeVarintField(0x38, UInt64(bitPattern: detectedAtMs)) }
        if let triggerFix { writer.writeMessageField(0x42, triggerFix) }
        if source.rawValue != 0 { writer.writeInt32Field(0x48, source.rawValue) }
        if let detectedElapsedRealtimeMs { writer.writeVarintField(0x50, detectedElapsedRealtimeMs) }
        if let dwellMs { writer.writeVarintField(0x58, UInt64(dwellMs)) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.FenceEvent",
        fields: [
            FieldSchema(1, "event_sequence", .uint64),
            FieldSchema(2, "region_id", .string),
            FieldSchema(3, "region_version", .uint64),
            FieldSchema(4, "assignment_version", .uint64),
            FieldSchema(5, "kind", .enumeration(FenceEventKind.schema)),
            FieldSchema(6, "os_event_time_ms", .int64),
            FieldSchema(7, "detected_at_ms", .int64),
            FieldSchema(8, "trigger_fix", .message(LocationFix.schema)),
            FieldSchema(9, "source", .enumeration(FenceEventSource.schema)),
            FieldSchema(10, "detected_elapsed_realtime_ms", .uint64, .optional),
            FieldSchema(11, "dwell_ms", .uint32, .optional),
        ])
}
