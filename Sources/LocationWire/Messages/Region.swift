// The hand-written codec of `locationwire.v1.Region`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension Region {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.id.key: id = try reader.readString()
        case Field.version.key: version = try reader.readVarint()
        case Field.circle.key:
            if circle == nil { circle = Circle() }
            try reader.readMessage(into: &circle!)
        case Field.polygon.key:
            if polygon == nil { polygon = Polygon() }
            try reader.readMessage(into: &polygon!)
        case Field.level.key: level = RegionLevel(rawValue: try reader.readInt32())
        case Field.parentId.key: parentId = try reader.readString()
        case Field.notifyOnEntry.key: notifyOnEntry = try reader.readBool()
        case Field.notifyOnExit.key: notifyOnExit = try reader.readBool()
        case Field.notifyOnDwell.key: notifyOnDwell = try reader.readBool()
        case Field.loiteringDelayMs.key: loiteringDelayMs = try reader.readUInt32()
        case Field.priority.key: priority = try reader.readUInt32()
        case Field.expiresAtMs.key: expiresAtMs = Int64(bitPattern: try reader.readVarint())
        case Field.refineOnEntry.key: refineOnEntry = try reader.readBool()
        case Field.name.key: name = try reader.readString()
        default: return false
        }
        return true
    }

    /// About the size of this region's encoding, for reserving space: its strings, its vertices and a
    /// generous allowance for the scalar fields and keys. Not a bound.
    var encodedSizeEstimate: Int {
        let vertices = (polygon?.latitudesE7.count ?? 0) + (polygon?.longitudesE7.count ?? 0)
        return 64 + id.utf8.count + parentId.utf8.count + name.utf8.count + 4 * vertices
            + unknownFields.bytes.count
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !id.isEmpty { writer.writeStringField(Field.id.key, id) }
        if version != 0 { writer.writeVarintField(Field.version.key, version) }
        if let circle { writer.writeMessageField(Field.circle.key, circle) }
        if let polygon { writer.writeMessageField(Field.polygon.key, polygon) }
        if level.rawValue != 0 { writer.writeInt32Field(Field.level.key, level.rawValue) }
        if !parentId.isEmpty { writer.writeStringField(Field.parentId.key, parentId) }
        if notifyOnEntry { writer.writeBoolField(Field.notifyOnEntry.key, true) }
        if notifyOnExit { writer.writeBoolField(Field.notifyOnExit.key, true) }
        if notifyOnDwell { writer.writeBoolField(Field.notifyOnDwell.key, true) }
        if loiteringDelayMs != 0 {
            writer.writeVarintField(Field.loiteringDelayMs.key, UInt64(loiteringDelayMs))
        }
        if priority != 0 { writer.writeVarintField(Field.priority.key, UInt64(priority)) }
        if expiresAtMs != 0 {
            writer.writeVarintField(Field.expiresAtMs.key, UInt64(bitPattern: expiresAtMs))
        }
        if refineOnEntry { writer.writeBoolField(Field.refineOnEntry.key, true) }
        if !name.isEmpty { writer.writeStringField(Field.name.key, name) }
        writer.writeUnknownFields(unknownFields)
    }
}
