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
    /// The boot `elapsedRealtimeMs` was read in; 0 = the enclosing batch's `bootId`.
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
                case Field.kind.key: kind = LifecycleEventKind(rawValue: try reader.readInt32())
                case Field.timeMs.key: timeMs = Int64(bitPattern: try reader.readVarint())
                case Field.elapsedRealtimeMs.key: elapsedRealtimeMs = try reader.readVarint()
                case Field.relaunchReason.key:
                    relaunchReason = RelaunchReason(rawValue: try reader.readInt32())
                case Field.bootId.key: bootId = try reader.readFixed64()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if kind.rawValue != 0 { writer.writeInt32Field(Field.kind.key, kind.rawValue) }
        if timeMs != 0 { writer.writeVarintField(Field.timeMs.key, UInt64(bitPattern: timeMs)) }
        if let elapsedRealtimeMs {
            writer.writeVarintField(Field.elapsedRealtimeMs.key, elapsedRealtimeMs)
        }
        if relaunchReason.rawValue != 0 {
            writer.writeInt32Field(Field.relaunchReason.key, relaunchReason.rawValue)
        }
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.LifecycleEvent`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case kind, timeMs, elapsedRealtimeMs, relaunchReason, bootId

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .kind: FieldDeclaration(1, "kind", .enumeration(LifecycleEventKind.self))
            case .timeMs: FieldDeclaration(2, "time_ms", .int64)
            case .elapsedRealtimeMs: FieldDeclaration(3, "elapsed_realtime_ms", .uint64, .optional)
            case .relaunchReason:
                FieldDeclaration(4, "relaunch_reason", .enumeration(RelaunchReason.self))
            case .bootId: FieldDeclaration(5, "boot_id", .fixed64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.LifecycleEvent", fields: Field.self)
}
