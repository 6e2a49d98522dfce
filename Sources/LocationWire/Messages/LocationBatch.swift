/// A batch of fixes and fence events uploaded by a device (`locationwire.v1.LocationBatch`,
/// `proto/locationwire/v1/location_batch.proto`).
public struct LocationBatch: LocationWireMessage {
    /// The app installation's opaque, stable id, 1 to 128 bytes.
    public var deviceId: String = ""
    /// Random id of this upload, reused when exactly the same batch is retried. 0 = not set.
    public var batchId: UInt64 = 0
    /// Random id of the device's current boot; 0 = unknown.
    public var bootId: UInt64 = 0
    /// Device wall clock at send, UTC ms.
    public var sentAtMs: Int64 = 0
    /// Monotonic clock at send, ms since boot.
    public var sentElapsedRealtimeMs: UInt64?
    /// The datum of every coordinate in the batch.
    public var datum: CoordinateDatum = .unspecified
    /// The backlog, oldest first, strictly increasing in sequence.
    public var fixes: [LocationFix] = []
    /// The current position, apart from the backlog.
    public var liveFix: LocationFix?
    /// The backlog in columnar form, instead of `fixes`.
    public var compactFixes: CompactFixes?
    /// Fence events, strictly increasing in event sequence.
    public var fenceEvents: [FenceEvent] = []
    /// Permissions and power settings at send time.
    public var deviceStatus: DeviceStatus?
    /// Lifecycle events since the last acknowledged upload, oldest first.
    public var lifecycleEvents: [LifecycleEvent] = []
    /// The regions armed right now.
    public var armedRegions: ArmedRegions?
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x0A: deviceId = try reader.readString()
                case 0x11: batchId = try reader.readFixed64()
                case 0x19: bootId = try reader.readFixed64()
                case 0x20: sentAtMs = Int64(bitPattern: try reader.readVarint())
                case 0x28: sentElapsedRealtimeMs = try reader.readVarint()
                case 0x30: datum = CoordinateDatum(rawValue: try reader.readInt32())
                case 0x3A:
                    if fixes.isEmpty { try reader.reserveCapacity(for: key, in: &fixes) }
                    try reader.readMessage(appendingTo: &fixes)
                case 0x42:
                    if liveFix == nil { liveFix = LocationFix() }
                    try reader.readMessage(into: &liveFix!)
                case 0x4A:
                    if compactFixes == nil { compactFixes = CompactFixes() }
                    try reader.readMessage(into: &compactFixes!)
                case 0x52:
                    if fenceEvents.isEmpty { try reader.reserveCapacity(for: key, in: &fenceEvents) }
                    try reader.readMessage(appendingTo: &fenceEvents)
                case 0x5A:
                    if deviceStatus == nil { deviceStatus = DeviceStatus() }
                    try reader.readMessage(into: &deviceStatus!)
                case 0x62: try reader.readMessage(appendingTo: &lifecycleEvents)
                case 0x6A:
                    if armedRegions == nil { armedRegions = ArmedRegions() }
                    try reader.readMessage(into: &armedRegions!)
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    /// What a fix takes on the wire, about: the fixture scenarios' fixes take 55 to 64 bytes with their key
    /// and length. An estimate only; the writer grows if the fixes are larger.
    static let typicalEncodedFixSize = 72

    public func encodeFields(to writer: inout WireWriter) {
        if fixes.count > 4 {
            writer.reserveCapacity(forAdditional: 128 + fixes.count * Self.typicalEncodedFixSize)
        }
        if !deviceId.isEmpty { writer.writeStringField(0x0A, deviceId) }
        if batchId != 0 { writer.writeFixed64Field(0x11, batchId) }
        if bootId != 0 { writer.writeFixed64Field(0x19, bootId) }
        if sentAtMs != 0 { writer.writeVarintField(0x20, UInt64(bitPattern: sentAtMs)) }
        if let sentElapsedRealtimeMs { writer.writeVarintField(0x28, sentElapsedRealtimeMs) }
        if datum.rawValue != 0 { writer.writeInt32Field(0x30, datum.rawValue) }
        fixes.withUnsafeBufferPointer { fixes in
            guard var fix = fixes.baseAddress else { return }
            for _ in 0..<fixes.count {
                writer.writeMessageField(0x3A) { writer in LocationFix.encodeFields(at: fix, to: &writer) }
                fix += 1
            }
        }
        if let liveFix { writer.writeMessageField(0x42, liveFix) }
        if let compactFixes { writer.writeMessageField(0x4A, compactFixes) }
        writer.writeRepeatedMessageField(0x52, fenceEvents)
        if let deviceStatus { writer.writeMessageField(0x5A, deviceStatus) }
        writer.writeRepeatedMessageField(0x62, lifecycleEvents)
        if let armedRegions { writer.writeMessageField(0x6A, armedRegions) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.LocationBatch",
        fields: [
            FieldSchema(1, "device_id", .string),
            FieldSchema(2, "batch_id", .fixed64),
            FieldSchema(3, "boot_id", .fixed64),
            FieldSchema(4, "sent_at_ms", .int64),
            FieldSchema(5, "sent_elapsed_realtime_ms", .uint64, .optional),
            FieldSchema(6, "datum", .enumeration(CoordinateDatum.schema)),
            FieldSchema(7, "fixes", .message(LocationFix.schema), .repeated),
            FieldSchema(8, "live_fix", .message(LocationFix.schema)),
            FieldSchema(9, "compact_fixes", .message(CompactFixes.schema)),
            FieldSchema(10, "fence_events", .message(FenceEvent.schema), .repeated),
            FieldSchema(11, "device_status", .message(DeviceStatus.schema)),
            FieldSchema(12, "lifecycle_events", .message(LifecycleEvent.schema), .repeated),
            FieldSchema(13, "armed_regions", .message(ArmedRegions.schema)),
        ])
}
