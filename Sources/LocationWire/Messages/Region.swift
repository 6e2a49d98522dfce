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

    /// About the size of the encoding of the region at `region`, for reserving space and for the bytes of its
    /// length: its strings, its vertices and a generous allowance for the scalar fields and keys. Not a bound.
    static func encodedSizeEstimate(at region: UnsafePointer<Region>) -> Int {
        let region = UnsafeMutablePointer(mutating: region)  // only read through; `&` needs a mutable pointer
        // The polygon read in place: `polygon?.latitudesE7` would copy it (three retains).
        let vertices = withUnsafeMutablePointer(to: &region.pointee.polygon) { polygon in
            optionalPayload(polygon).map { $0.pointee.latitudesE7.count + $0.pointee.longitudesE7.count } ?? 0
        }
        return 64 + region.pointee.id.utf8.count + region.pointee.parentId.utf8.count
            + region.pointee.name.utf8.count + 4 * vertices + region.pointee.unknownFields.bytes.count
    }

    public func encodeFields(to writer: inout WireWriter) {
        withUnsafePointer(to: self) { Self.encodeFields(at: $0, to: &writer) }
    }

    /// Encodes the region at `region`, reading its fields in place: its circle and polygon are not copied (see
    /// ``LocationWireMessage/encodeFields(at:to:)``).
    public static func encodeFields(at region: UnsafePointer<Region>, to writer: inout WireWriter) {
        let region = UnsafeMutablePointer(mutating: region)  // only read through; `&` below needs a mutable pointer
        if !region.pointee.id.isEmpty { writer.writeStringField(Field.id.key, region.pointee.id) }
        if region.pointee.version != 0 { writer.writeVarintField(Field.version.key, region.pointee.version) }
        writer.writeMessageField(Field.circle.key, ifPresentAt: &region.pointee.circle)
        Polygon.writeField(Field.polygon.key, ifPresentAt: &region.pointee.polygon, to: &writer)
        if region.pointee.level.rawValue != 0 {
            writer.writeInt32Field(Field.level.key, region.pointee.level.rawValue)
        }
        if !region.pointee.parentId.isEmpty {
            writer.writeStringField(Field.parentId.key, region.pointee.parentId)
        }
        if region.pointee.notifyOnEntry { writer.writeBoolField(Field.notifyOnEntry.key, true) }
        if region.pointee.notifyOnExit { writer.writeBoolField(Field.notifyOnExit.key, true) }
        if region.pointee.notifyOnDwell { writer.writeBoolField(Field.notifyOnDwell.key, true) }
        if region.pointee.loiteringDelayMs != 0 {
            writer.writeVarintField(Field.loiteringDelayMs.key, UInt64(region.pointee.loiteringDelayMs))
        }
        if region.pointee.priority != 0 {
            writer.writeVarintField(Field.priority.key, UInt64(region.pointee.priority))
        }
        if region.pointee.expiresAtMs != 0 {
            writer.writeVarintField(Field.expiresAtMs.key, UInt64(bitPattern: region.pointee.expiresAtMs))
        }
        if region.pointee.refineOnEntry { writer.writeBoolField(Field.refineOnEntry.key, true) }
        if !region.pointee.name.isEmpty { writer.writeStringField(Field.name.key, region.pointee.name) }
        writer.writeUnknownFields(region.pointee.unknownFields)
    }
}
