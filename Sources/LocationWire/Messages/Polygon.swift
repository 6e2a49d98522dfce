/// A simple polygon, implicitly closed, for precise hit tests (`locationwire.v1.Polygon`,
/// `proto/locationwire/v1/region.proto`).
public struct Polygon: LocationWireMessage {
    /// Vertex latitudes, 1e-7 degree.
    public var latitudesE7: [Int32] = []
    /// Vertex longitudes, 1e-7 degree, as many as `latitudesE7`.
    public var longitudesE7: [Int32] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x0A: try reader.readPackedFixed32(appendingTo: &latitudesE7) { Int32(bitPattern: $0) }
                case 0x0D:
                    try reader.checkCanAppend(to: latitudesE7)
                    latitudesE7.append(Int32(bitPattern: try reader.readFixed32()))
                case 0x12: try reader.readPackedFixed32(appendingTo: &longitudesE7) { Int32(bitPattern: $0) }
                case 0x15:
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
        writer.writePackedFixed32(0x0A, latitudesE7) { UInt32(bitPattern: $0) }
        writer.writePackedFixed32(0x12, longitudesE7) { UInt32(bitPattern: $0) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.Polygon",
        fields: [
            FieldSchema(1, "latitudes_e7", .sfixed32, .repeated),
            FieldSchema(2, "longitudes_e7", .sfixed32, .repeated),
        ])
}
