// The hand-written codec of `locationwire.v1.RegionAssignment`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region_assignment.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension RegionAssignment {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.assignmentVersion.key: assignmentVersion = try reader.readVarint()
        case Field.issuedAtMs.key: issuedAtMs = Int64(bitPattern: try reader.readVarint())
        case Field.expiresAtMs.key: expiresAtMs = Int64(bitPattern: try reader.readVarint())
        case Field.mode.key: mode = AssignmentMode(rawValue: try reader.readInt32())
        case Field.baseVersion.key: baseVersion = try reader.readVarint()
        case Field.regions.key:
            try reader.readMessage(appendingTo: &regions)
        case Field.removedRegionIds.key: try reader.readString(appendingTo: &removedRegionIds)
        case Field.monitoringEnabled.key: monitoringEnabled = try reader.readBool()
        case Field.slotBudget.key: slotBudget = try reader.readUInt32()
        case Field.refresh.key:
            if refresh == nil { refresh = RefreshPolicy() }
            try reader.readMessage(into: &refresh!)
        case Field.datum.key: datum = CoordinateDatum(rawValue: try reader.readInt32())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        // A 20-region assignment outgrows the writer's first buffer several times; reserving about its size once
        // replaces those doublings and copies (an estimate: the writer still grows if it is short).
        // Through the buffer's pointer: a `for` loop over the array, or a subscript, would copy each region.
        regions.withUnsafeBufferPointer { regions in
            guard var region = regions.baseAddress, regions.count > 4 else { return }
            var estimate = 64
            for _ in 0..<regions.count {
                estimate += Region.encodedSizeEstimate(at: region)
                region += 1
            }
            writer.reserveCapacity(forAdditional: estimate)
        }
        if assignmentVersion != 0 {
            writer.writeVarintField(Field.assignmentVersion.key, assignmentVersion)
        }
        if issuedAtMs != 0 {
            writer.writeVarintField(Field.issuedAtMs.key, UInt64(bitPattern: issuedAtMs))
        }
        if expiresAtMs != 0 {
            writer.writeVarintField(Field.expiresAtMs.key, UInt64(bitPattern: expiresAtMs))
        }
        if mode.rawValue != 0 { writer.writeInt32Field(Field.mode.key, mode.rawValue) }
        if baseVersion != 0 { writer.writeVarintField(Field.baseVersion.key, baseVersion) }
        regions.withUnsafeBufferPointer { regions in
            guard var region = regions.baseAddress else { return }
            for _ in 0..<regions.count {
                // A region with a polygon takes 128 bytes or more: its length's bytes are guessed from its estimate,
                // so that the region is not moved to make room for a longer length.
                let slot = writer.beginLengthDelimitedField(
                    Field.regions.key, expectedLength: Region.encodedSizeEstimate(at: region))
                Region.encodeFields(at: region, to: &writer)
                writer.finishLengthDelimitedField(slot)
                region += 1
            }
        }
        for id in removedRegionIds { writer.writeStringField(Field.removedRegionIds.key, id) }
        if let monitoringEnabled {
            writer.writeBoolField(Field.monitoringEnabled.key, monitoringEnabled)
        }
        if slotBudget != 0 { writer.writeVarintField(Field.slotBudget.key, UInt64(slotBudget)) }
        withUnsafePointer(to: self) { assignment in
            let fields = UnsafeMutablePointer(mutating: assignment)
            writer.writeMessageField(Field.refresh.key, ifPresentAt: &fields.pointee.refresh)
        }
        if datum.rawValue != 0 { writer.writeInt32Field(Field.datum.key, datum.rawValue) }
        writer.writeUnknownFields(unknownFields)
    }
}
