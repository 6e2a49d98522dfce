// The hand-written codec of `locationwire.v1.RefreshPolicy`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region_assignment.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension RefreshPolicy {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.refreshDistanceM.key: refreshDistanceM = try reader.readUInt32()
        case Field.anchorLatitudeE7.key:
            anchorLatitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.anchorLongitudeE7.key:
            anchorLongitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.onRefineEntry.key: onRefineEntry = try reader.readBool()
        case Field.minIntervalMs.key: minIntervalMs = try reader.readUInt32()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if let refreshDistanceM {
            writer.writeVarintField(Field.refreshDistanceM.key, UInt64(refreshDistanceM))
        }
        if let anchorLatitudeE7 {
            writer.writeFixed32Field(Field.anchorLatitudeE7.key, UInt32(bitPattern: anchorLatitudeE7))
        }
        if let anchorLongitudeE7 {
            writer.writeFixed32Field(Field.anchorLongitudeE7.key, UInt32(bitPattern: anchorLongitudeE7))
        }
        if onRefineEntry { writer.writeBoolField(Field.onRefineEntry.key, true) }
        if minIntervalMs != 0 {
            writer.writeVarintField(Field.minIntervalMs.key, UInt64(minIntervalMs))
        }
        writer.writeUnknownFields(unknownFields)
    }
}
