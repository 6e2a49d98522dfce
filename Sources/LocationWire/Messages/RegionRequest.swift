/// A device asking for a region assignment (`locationwire.v1.RegionRequest`,
/// `proto/locationwire/v1/region_request.proto`).
public struct RegionRequest: LocationWireMessage {
    /// As LocationBatch.deviceId.
    public var deviceId: String = ""
    /// Why the device asks.
    public var reason: RegionRequestReason = .unspecified
    /// The current position.
    public var currentFix: LocationFix?
    /// Regions the OS lets the app monitor at once: 20 on iOS, 100 on Android.
    public var platformSlotLimit: UInt32 = 0
    /// Slots the app keeps for its own fences; less than `platformSlotLimit`.
    public var reservedAppSlots: UInt32 = 0
    /// What the device holds now.
    public var armed: ArmedRegions?
    /// For refine-on-entry requests: the region entered.
    public var refineRegionId: String = ""
    /// The datum of `currentFix`.
    public var datum: CoordinateDatum = .unspecified
    /// Device wall clock at send, UTC ms.
    public var sentAtMs: Int64 = 0
    /// The operating system family.
    public var platform: Platform = .unspecified
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
                case Field.reason.key: reason = RegionRequestReason(rawValue: try reader.readInt32())
                case Field.currentFix.key:
                    if currentFix == nil { currentFix = LocationFix() }
                    try reader.readMessage(into: &currentFix!)
                case Field.platformSlotLimit.key: platformSlotLimit = try reader.readUInt32()
                case Field.reservedAppSlots.key: reservedAppSlots = try reader.readUInt32()
                case Field.armed.key:
                    if armed == nil { armed = ArmedRegions() }
                    try reader.readMessage(into: &armed!)
                case Field.refineRegionId.key: refineRegionId = try reader.readString()
                case Field.datum.key: datum = CoordinateDatum(rawValue: try reader.readInt32())
                case Field.sentAtMs.key: sentAtMs = Int64(bitPattern: try reader.readVarint())
                case Field.platform.key: platform = Platform(rawValue: try reader.readInt32())
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !deviceId.isEmpty { writer.writeStringField(Field.deviceId.key, deviceId) }
        if reason.rawValue != 0 { writer.writeInt32Field(Field.reason.key, reason.rawValue) }
        if let currentFix { writer.writeMessageField(Field.currentFix.key, currentFix) }
        if platformSlotLimit != 0 {
            writer.writeVarintField(Field.platformSlotLimit.key, UInt64(platformSlotLimit))
        }
        if reservedAppSlots != 0 {
            writer.writeVarintField(Field.reservedAppSlots.key, UInt64(reservedAppSlots))
        }
        if let armed { writer.writeMessageField(Field.armed.key, armed) }
        if !refineRegionId.isEmpty { writer.writeStringField(Field.refineRegionId.key, refineRegionId) }
        if datum.rawValue != 0 { writer.writeInt32Field(Field.datum.key, datum.rawValue) }
        if sentAtMs != 0 { writer.writeVarintField(Field.sentAtMs.key, UInt64(bitPattern: sentAtMs)) }
        if platform.rawValue != 0 { writer.writeInt32Field(Field.platform.key, platform.rawValue) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.RegionRequest`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case deviceId, reason, currentFix, platformSlotLimit, reservedAppSlots, armed, refineRegionId,
            datum, sentAtMs, platform

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .deviceId: FieldDeclaration(1, "device_id", .string)
            case .reason: FieldDeclaration(2, "reason", .enumeration(RegionRequestReason.self))
            case .currentFix: FieldDeclaration(3, "current_fix", .message(LocationFix.self))
            case .platformSlotLimit: FieldDeclaration(4, "platform_slot_limit", .uint32)
            case .reservedAppSlots: FieldDeclaration(5, "reserved_app_slots", .uint32)
            case .armed: FieldDeclaration(6, "armed", .message(ArmedRegions.self))
            case .refineRegionId: FieldDeclaration(7, "refine_region_id", .string)
            case .datum: FieldDeclaration(8, "datum", .enumeration(CoordinateDatum.self))
            case .sentAtMs: FieldDeclaration(9, "sent_at_ms", .int64)
            case .platform: FieldDeclaration(10, "platform", .enumeration(Platform.self))
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.RegionRequest", fields: Field.self)
}
