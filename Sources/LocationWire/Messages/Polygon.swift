// The hand-written codec of `locationwire.v1.Polygon`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/region.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension Polygon {
    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
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
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writePackedFixed32(Field.latitudesE7.key, latitudesE7)
        writer.writePackedFixed32(Field.longitudesE7.key, longitudesE7)
        writer.writeUnknownFields(unknownFields)
    }
}
