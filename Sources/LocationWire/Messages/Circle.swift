/// A circle on the earth's surface, the shape the OS monitors (`locationwire.v1.Circle`,
/// `proto/locationwire/v1/region.proto`).
public struct Circle: LocationWireMessage {
    /// Centre latitude, 1e-7 degree, -900000000 ... 900000000.
    public var centerLatitudeE7: Int32?
    /// Centre longitude, 1e-7 degree, -1800000000 ... 1800000000.
    public var centerLongitudeE7: Int32?
    /// Radius, m, 1 ... 1000000.
    public var radiusM: UInt32 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public init(latitudeE7: Int32, longitudeE7: Int32, radiusM: UInt32) {
        self.centerLatitudeE7 = latitudeE7
        self.centerLongitudeE7 = longitudeE7
        self.radiusM = radiusM
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.centerLatitudeE7.key:
                    centerLatitudeE7 = Int32(bitPattern: try reader.readFixed32())
                case Field.centerLongitudeE7.key:
                    centerLongitudeE7 = Int32(bitPattern: try reader.readFixed32())
                case Field.radiusM.key: radiusM = try reader.readUInt32()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
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

    /// The fields of `locationwire.v1.Circle`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case centerLatitudeE7, centerLongitudeE7, radiusM

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .centerLatitudeE7: FieldDeclaration(1, "center_latitude_e7", .sfixed32, .optional)
            case .centerLongitudeE7: FieldDeclaration(2, "center_longitude_e7", .sfixed32, .optional)
            case .radiusM: FieldDeclaration(3, "radius_m", .uint32)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.Circle", fields: Field.self)
}
