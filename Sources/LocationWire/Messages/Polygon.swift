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

    /// The fields of `locationwire.v1.Polygon`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case latitudesE7, longitudesE7

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .latitudesE7: FieldDeclaration(1, "latitudes_e7", .sfixed32, .repeated)
            case .longitudesE7: FieldDeclaration(2, "longitudes_e7", .sfixed32, .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.Polygon", fields: Field.self)
}
