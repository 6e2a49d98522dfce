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
    /// The boot `detectedElapsedRealtimeMs` was read in; 0 = the enclosing batch's `bootId`.
    public var bootId: UInt64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.eventSequence.key: eventSequence = try reader.readVarint()
                case Field.regionId.key: regionId = try reader.readString()
                case Field.regionVersion.key: regionVersion = try reader.readVarint()
                case Field.assignmentVersion.key: assignmentVersion = try reader.readVarint()
                case Field.kind.key: kind = FenceEventKind(rawValue: try reader.readInt32())
                case Field.osEventTimeMs.key: osEventTimeMs = Int64(bitPattern: try reader.readVarint())
                case Field.detectedAtMs.key: detectedAtMs = Int64(bitPattern: try reader.readVarint())
                case Field.triggerFix.key:
                    if triggerFix == nil { triggerFix = LocationFix() }
                    try reader.readMessage(into: &triggerFix!)
                case Field.source.key: source = FenceEventSource(rawValue: try reader.readInt32())
                case Field.detectedElapsedRealtimeMs.key:
                    detectedElapsedRealtimeMs = try reader.readVarint()
                case Field.dwellMs.key: dwellMs = try reader.readUInt32()
                case Field.bootId.key: bootId = try reader.readFixed64()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if eventSequence != 0 { writer.writeVarintField(Field.eventSequence.key, eventSequence) }
        if !regionId.isEmpty { writer.writeStringField(Field.regionId.key, regionId) }
        if regionVersion != 0 { writer.writeVarintField(Field.regionVersion.key, regionVersion) }
        if assignmentVersion != 0 {
            writer.writeVarintField(Field.assignmentVersion.key, assignmentVersion)
        }
        if kind.rawValue != 0 { writer.writeInt32Field(Field.kind.key, kind.rawValue) }
        if osEventTimeMs != 0 {
            writer.writeVarintField(Field.osEventTimeMs.key, UInt64(bitPattern: osEventTimeMs))
        }
        if detectedAtMs != 0 {
            writer.writeVarintField(Field.detectedAtMs.key, UInt64(bitPattern: detectedAtMs))
        }
        if let triggerFix { writer.writeMessageField(Field.triggerFix.key, triggerFix) }
        if source.rawValue != 0 { writer.writeInt32Field(Field.source.key, source.rawValue) }
        if let detectedElapsedRealtimeMs {
            writer.writeVarintField(Field.detectedElapsedRealtimeMs.key, detectedElapsedRealtimeMs)
        }
        if let dwellMs { writer.writeVarintField(Field.dwellMs.key, UInt64(dwellMs)) }
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.FenceEvent`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case eventSequence, regionId, regionVersion, assignmentVersion, kind, osEventTimeMs,
            detectedAtMs, triggerFix, source, detectedElapsedRealtimeMs, dwellMs, bootId

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .eventSequence: FieldDeclaration(1, "event_sequence", .uint64)
            case .regionId: FieldDeclaration(2, "region_id", .string)
            case .regionVersion: FieldDeclaration(3, "region_version", .uint64)
            case .assignmentVersion: FieldDeclaration(4, "assignment_version", .uint64)
            case .kind: FieldDeclaration(5, "kind", .enumeration(FenceEventKind.self))
            case .osEventTimeMs: FieldDeclaration(6, "os_event_time_ms", .int64)
            case .detectedAtMs: FieldDeclaration(7, "detected_at_ms", .int64)
            case .triggerFix: FieldDeclaration(8, "trigger_fix", .message(LocationFix.self))
            case .source: FieldDeclaration(9, "source", .enumeration(FenceEventSource.self))
            case .detectedElapsedRealtimeMs:
                FieldDeclaration(10, "detected_elapsed_realtime_ms", .uint64, .optional)
            case .dwellMs: FieldDeclaration(11, "dwell_ms", .uint32, .optional)
            case .bootId: FieldDeclaration(12, "boot_id", .fixed64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.FenceEvent", fields: Field.self)
}
