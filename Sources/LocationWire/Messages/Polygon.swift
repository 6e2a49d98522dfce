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

    /// Writes the polygon an optional field at `optional` holds, read in place; nothing when it is nil. Its
    /// length's bytes are known before its body is written (a polygon of 16 vertices or more takes 128 bytes or
    /// more), so the body is not moved to make room for a longer length.
    @inline(__always)
    static func writeField(_ key: FieldKey, ifPresentAt optional: UnsafePointer<Polygon?>, to writer: inout WireWriter)
    {
        guard let polygon = optionalPayload(optional) else { return }
        // Each packed list: a key, a length of at most 2 bytes below 4,096 values, and 4 bytes a value.
        let expectedLength =
            6 + 4 * (polygon.pointee.latitudesE7.count + polygon.pointee.longitudesE7.count)
            + polygon.pointee.unknownFields.bytes.count
        let slot = writer.beginLengthDelimitedField(key, expectedLength: expectedLength)
        polygon.pointee.encodeFields(to: &writer)
        writer.finishLengthDelimitedField(slot)
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writePackedFixed32(Field.latitudesE7.key, latitudesE7)
        writer.writePackedFixed32(Field.longitudesE7.key, longitudesE7)
        writer.writeUnknownFields(unknownFields)
    }
}
