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
    /// Lifecycle events not yet acknowledged, oldest first.
    public var lifecycleEvents: [LifecycleEvent] = []
    /// The regions armed right now.
    public var armedRegions: ArmedRegions?
    /// Random id of the app installation (erased by a reinstall); part of every item's idempotency key. 0 = absent.
    public var installId: UInt64 = 0
    /// Every fix sequence below this has left the device for good (acknowledged, or discarded: a loss); never
    /// decreases. 0 = not stated.
    public var fixSequenceFloor: UInt64 = 0
    /// The same floor for fence event sequence numbers. 0 = not stated.
    public var eventSequenceFloor: UInt64 = 0
    /// The specification revision the device follows: 1 for this one, 0 for the first publication.
    public var protocolRevision: UInt32 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.deviceId.key: deviceId = try reader.readString()
                case Field.batchId.key: batchId = try reader.readFixed64()
                case Field.bootId.key: bootId = try reader.readFixed64()
                case Field.sentAtMs.key: sentAtMs = Int64(bitPattern: try reader.readVarint())
                case Field.sentElapsedRealtimeMs.key: sentElapsedRealtimeMs = try reader.readVarint()
                case Field.datum.key: datum = CoordinateDatum(rawValue: try reader.readInt32())
                case Field.fixes.key:
                    try reader.readMessage(appendingTo: &fixes)
                case Field.liveFix.key:
                    if liveFix == nil { liveFix = LocationFix() }
                    try reader.readMessage(into: &liveFix!)
                case Field.compactFixes.key:
                    if compactFixes == nil { compactFixes = CompactFixes() }
                    try reader.readMessage(into: &compactFixes!)
                case Field.fenceEvents.key:
                    try reader.readMessage(appendingTo: &fenceEvents)
                case Field.deviceStatus.key:
                    if deviceStatus == nil { deviceStatus = DeviceStatus() }
                    try reader.readMessage(into: &deviceStatus!)
                case Field.lifecycleEvents.key: try reader.readMessage(appendingTo: &lifecycleEvents)
                case Field.armedRegions.key:
                    if armedRegions == nil { armedRegions = ArmedRegions() }
                    try reader.readMessage(into: &armedRegions!)
                case Field.installId.key: installId = try reader.readFixed64()
                case Field.fixSequenceFloor.key: fixSequenceFloor = try reader.readVarint()
                case Field.eventSequenceFloor.key: eventSequenceFloor = try reader.readVarint()
                case Field.protocolRevision.key: protocolRevision = try reader.readUInt32()
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
        } else if let compactFixes {
            writer.reserveCapacity(forAdditional: 128 + compactFixes.encodedSizeEstimate)
        }
        if !deviceId.isEmpty { writer.writeStringField(Field.deviceId.key, deviceId) }
        if batchId != 0 { writer.writeFixed64Field(Field.batchId.key, batchId) }
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        if sentAtMs != 0 { writer.writeVarintField(Field.sentAtMs.key, UInt64(bitPattern: sentAtMs)) }
        if let sentElapsedRealtimeMs {
            writer.writeVarintField(Field.sentElapsedRealtimeMs.key, sentElapsedRealtimeMs)
        }
        if datum.rawValue != 0 { writer.writeInt32Field(Field.datum.key, datum.rawValue) }
        // Read once: a computed static costs a call on every access.
        let fixBound = LocationFix.maxKnownFieldsSize
        fixes.withUnsafeBufferPointer { fixes in
            guard var fix = fixes.baseAddress else { return }
            for _ in 0..<fixes.count {
                let lengthOffset = writer.beginLengthDelimitedField(Field.fixes.key)
                LocationFix.encodeFields(at: fix, to: &writer, maxKnownFieldsSize: fixBound)
                writer.finishLengthDelimitedField(at: lengthOffset)
                fix += 1
            }
        }
        if let liveFix { writer.writeMessageField(Field.liveFix.key, liveFix) }
        if let compactFixes { writer.writeMessageField(Field.compactFixes.key, compactFixes) }
        writer.writeRepeatedMessageField(Field.fenceEvents.key, fenceEvents)
        if let deviceStatus { writer.writeMessageField(Field.deviceStatus.key, deviceStatus) }
        writer.writeRepeatedMessageField(Field.lifecycleEvents.key, lifecycleEvents)
        if let armedRegions { writer.writeMessageField(Field.armedRegions.key, armedRegions) }
        if installId != 0 { writer.writeFixed64Field(Field.installId.key, installId) }
        if fixSequenceFloor != 0 { writer.writeVarintField(Field.fixSequenceFloor.key, fixSequenceFloor) }
        if eventSequenceFloor != 0 { writer.writeVarintField(Field.eventSequenceFloor.key, eventSequenceFloor) }
        if protocolRevision != 0 { writer.writeVarintField(Field.protocolRevision.key, UInt64(protocolRevision)) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.LocationBatch`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case deviceId, batchId, bootId, sentAtMs, sentElapsedRealtimeMs, datum, fixes, liveFix,
            compactFixes, fenceEvents, deviceStatus, lifecycleEvents, armedRegions, installId,
            fixSequenceFloor, eventSequenceFloor, protocolRevision

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .deviceId: FieldDeclaration(1, "device_id", .string)
            case .batchId: FieldDeclaration(2, "batch_id", .fixed64)
            case .bootId: FieldDeclaration(3, "boot_id", .fixed64)
            case .sentAtMs: FieldDeclaration(4, "sent_at_ms", .int64)
            case .sentElapsedRealtimeMs:
                FieldDeclaration(5, "sent_elapsed_realtime_ms", .uint64, .optional)
            case .datum: FieldDeclaration(6, "datum", .enumeration(CoordinateDatum.self))
            case .fixes: FieldDeclaration(7, "fixes", .message(LocationFix.self), .repeated)
            case .liveFix: FieldDeclaration(8, "live_fix", .message(LocationFix.self))
            case .compactFixes: FieldDeclaration(9, "compact_fixes", .message(CompactFixes.self))
            case .fenceEvents: FieldDeclaration(10, "fence_events", .message(FenceEvent.self), .repeated)
            case .deviceStatus: FieldDeclaration(11, "device_status", .message(DeviceStatus.self))
            case .lifecycleEvents:
                FieldDeclaration(12, "lifecycle_events", .message(LifecycleEvent.self), .repeated)
            case .armedRegions: FieldDeclaration(13, "armed_regions", .message(ArmedRegions.self))
            case .installId: FieldDeclaration(14, "install_id", .fixed64)
            case .fixSequenceFloor: FieldDeclaration(15, "fix_sequence_floor", .uint64)
            case .eventSequenceFloor: FieldDeclaration(16, "event_sequence_floor", .uint64)
            case .protocolRevision: FieldDeclaration(17, "protocol_revision", .uint32)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.LocationBatch", fields: Field.self)
}
