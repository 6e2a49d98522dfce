// The hand-written codec of `locationwire.v1.ArmedRegions`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/device_state.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension ArmedRegions {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.assignmentVersion.key: assignmentVersion = try reader.readVarint()
        case Field.regionIds.key: try reader.readString(appendingTo: &regionIds)
        case Field.failedRegionIds.key: try reader.readString(appendingTo: &failedRegionIds)
        case Field.failureReasons.key:
            try reader.readPackedVarints(appendingTo: &failureReasons) {
                ArmFailureReason(rawValue: Int32(truncatingIfNeeded: $0))
            }
        case Field.failureReasons.unpackedKey:
            try reader.checkCanAppend(to: failureReasons)
            failureReasons.append(ArmFailureReason(rawValue: try reader.readInt32()))
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if assignmentVersion != 0 {
            writer.writeVarintField(Field.assignmentVersion.key, assignmentVersion)
        }
        for id in regionIds { writer.writeStringField(Field.regionIds.key, id) }
        for id in failedRegionIds { writer.writeStringField(Field.failedRegionIds.key, id) }
        writer.writePackedVarints(Field.failureReasons.key, failureReasons) {
            UInt64(bitPattern: Int64($0.rawValue))
        }
        writer.writeUnknownFields(unknownFields)
    }
}
