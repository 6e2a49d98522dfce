// The hand-written codec of `locationwire.v1.Polygon`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension Polygon {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.latitudesE7.key: try reader.readPackedCoordinates(appendingTo: &latitudesE7)
        case Field.latitudesE7.unpackedKey: try reader.readCoordinate(appendingTo: &latitudesE7)
        case Field.longitudesE7.key: try reader.readPackedCoordinates(appendingTo: &longitudesE7)
        case Field.longitudesE7.unpackedKey: try reader.readCoordinate(appendingTo: &longitudesE7)
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
