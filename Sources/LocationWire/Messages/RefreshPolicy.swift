/// When a device asks for a new region assignment (`locationwire.v1.RefreshPolicy`,
/// `proto/locationwire/v1/region_assignment.proto`).
public struct RefreshPolicy: LocationWireMessage {
    /// Ask again beyond this distance from the anchor, m, 1 ... 10000000; nil = never for distance.
    public var refreshDistanceM: UInt32?
    /// Anchor latitude, 1e-7 degree.
    public var anchorLatitudeE7: Int32?
    /// Anchor longitude, 1e-7 degree.
    public var anchorLongitudeE7: Int32?
    /// Ask again on entering a refine-on-entry region.
    public var onRefineEntry: Bool = false
    /// Ask no more often than this, ms; 0 = no limit.
    public var minIntervalMs: UInt32 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.refreshDistanceM.key: refreshDistanceM = try reader.readUInt32()
                case Field.anchorLatitudeE7.key:
                    anchorLatitudeE7 = Int32(bitPattern: try reader.readFixed32())
                case Field.anchorLongitudeE7.key:
                    anchorLongitudeE7 = Int32(bitPattern: try reader.readFixed32())
                case Field.onRefineEntry.key: onRefineEntry = try reader.readBool()
                case Field.minIntervalMs.key: minIntervalMs = try reader.readUInt32()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if let refreshDistanceM {
            writer.writeVarintField(Field.refreshDistanceM.key, UInt64(refreshDistanceM))
        }
        if let anchorLatitudeE7 {
            writer.writeFixed32Field(Field.anchorLatitudeE7.key, UInt32(bitPattern: anchorLatitudeE7))
        }
        if let anchorLongitudeE7 {
            writer.writeFixed32Field(Field.anchorLongitudeE7.key, UInt32(bitPattern: anchorLongitudeE7))
        }
        if onRefineEntry { writer.writeBoolField(Field.onRefineEntry.key, true) }
        if minIntervalMs != 0 {
            writer.writeVarintField(Field.minIntervalMs.key, UInt64(minIntervalMs))
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.RefreshPolicy`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case refreshDistanceM, anchorLatitudeE7, anchorLongitudeE7, onRefineEntry, minIntervalMs

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .refreshDistanceM: FieldDeclaration(1, "refresh_distance_m", .uint32, .optional)
            case .anchorLatitudeE7: FieldDeclaration(2, "anchor_latitude_e7", .sfixed32, .optional)
            case .anchorLongitudeE7: FieldDeclaration(3, "anchor_longitude_e7", .sfixed32, .optional)
            case .onRefineEntry: FieldDeclaration(4, "on_refine_entry", .bool)
            case .minIntervalMs: FieldDeclaration(5, "min_interval_ms", .uint32)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.RefreshPolicy", fields: Field.self)
}
