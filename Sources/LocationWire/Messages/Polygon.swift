// The hand-written codec of `locationwire.v1.Polygon`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension Polygon {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.latitudesE7.key:
            try reader.readPackedFixed32(appendingTo: &latitudesE7) { Int32(bitPattern: $0) }
        case Field.latitudesE7.unpackedKey:
            try reader.checkCanAppend(to: latitudesE7)
            latitudesE7.append(Int32(bitPattern: try reader.readFixed32()))
        case Field.longitudesE7.key:
            try reader.readPackedFixed32(appendingTo: &longitudesE7) { Int32(bitPattern: $0) }
        case Field.longitudesE7.unpackedKey:
            try reader.checkCanAppend(to: longitudesE7)
            longitudesE7.append(Int32(bitPattern: try reader.readFixed32()))
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writePackedFixed32(Field.latitudesE7.key, latitudesE7)
        writer.writePackedFixed32(Field.longitudesE7.key, longitudesE7)
        writer.writeUnknownFields(unknownFields)
    }
}
