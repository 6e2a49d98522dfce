// The hand-written codec of `locationwire.v1.RegionRequest`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region_request.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension RegionRequest {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
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
        default: return false
        }
        return true
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
}
