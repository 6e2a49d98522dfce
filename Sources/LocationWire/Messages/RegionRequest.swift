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
                case 0x0A: deviceId = try reader.readString()
                case 0x10: reason = RegionRequestReason(rawValue: try reader.readInt32())
                case 0x1A:
                    if currentFix == nil { currentFix = LocationFix() }
                    try reader.readMessage(into: &currentFix!)
                case 0x20: platformSlotLimit = try reader.readUInt32()
                case 0x28: reservedAppSlots = try reader.readUInt32()
                case 0x32:
                    if armed == nil { armed = ArmedRegions() }
                    try reader.readMessage(into: &armed!)
                case 0x3A: refineRegionId = try reader.readString()
                case 0x40: datum = CoordinateDatum(rawValue: try reader.readInt32())
                case 0x48: sentAtMs = Int64(bitPattern: try reader.readVarint())
                case 0x50: platform = Platform(rawValue: try reader.readInt32())
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !deviceId.isEmpty { writer.writeStringField(0x0A, deviceId) }
        if reason.rawValue != 0 { writer.writeInt32Field(0x10, reason.rawValue) }
        if let currentFix { writer.writeMessageField(0x1A, currentFix) }
        if platformSlotLimit != 0 { writer.writeVarintField(0x20, UInt64(platformSlotLimit)) }
        if reservedAppSlots != 0 { writer.writeVarintField(0x28, UInt64(reservedAppSlots)) }
        if let armed { writer.writeMessageField(0x32, armed) }
        if !refineRegionId.isEmpty { writer.writeStringField(0x3A, refineRegionId) }
        if datum.rawValue != 0 { writer.writeInt32Field(0x40, datum.rawValue) }
        if sentAtMs != 0 { writer.writeVarintField(0x48, UInt64(bitPattern: sentAtMs)) }
        if platform.rawValue != 0 { writer.writeInt32Field(0x50, platform.rawValue) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.RegionRequest",
        fields: [
            FieldSchema(1, "device_id", .string),
            FieldSchema(2, "reason", .enumeration(RegionRequestReason.schema)),
            FieldSchema(3, "current_fix", .message(LocationFix.schema)),
            FieldSchema(4, "platform_slot_limit", .uint32),
            FieldSchema(5, "reserved_app_slots", .uint32),
            FieldSchema(6, "armed", .message(ArmedRegions.schema)),
            FieldSchema(7, "refine_region_id", .string),
            FieldSchema(8, "datum", .enumeration(CoordinateDatum.schema)),
            FieldSchema(9, "sent_at_ms", .int64),
            FieldSchema(10, "platform", .enumeration(Platform.schema)),
        ])
}
