// The hand-written codec of `locationwire.v1.Circle`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension Circle {
    public init(latitudeE7: Int32, longitudeE7: Int32, radiusM: UInt32) {
        self.centerLatitudeE7 = latitudeE7
        self.centerLongitudeE7 = longitudeE7
        self.radiusM = radiusM
    }

    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.centerLatitudeE7.key:
            centerLatitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.centerLongitudeE7.key:
            centerLongitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.radiusM.key: radiusM = try reader.readUInt32()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if let centerLatitudeE7 {
            writer.writeFixed32Field(Field.centerLatitudeE7.key, UInt32(bitPattern: centerLatitudeE7))
        }
        if let centerLongitudeE7 {
            writer.writeFixed32Field(Field.centerLongitudeE7.key, UInt32(bitPattern: centerLongitudeE7))
        }
        if radiusM != 0 { writer.writeVarintField(Field.radiusM.key, UInt64(radiusM)) }
        writer.writeUnknownFields(unknownFields)
    }
}
