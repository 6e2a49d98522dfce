/// One geofence as the server defines it (`locationwire.v1.Region`, `proto/locationwire/v1/region.proto`).
public struct Region: LocationWireMessage {
    /// Stable namespaced id, `<namespace>:<local id>`, at most 128 bytes.
    public var id: String = ""
    /// Definition version, at least 1, increasing on every change.
    public var version: UInt64 = 0
    /// The circle the OS monitors.
    public var circle: Circle?
    /// The precise outline; every vertex inside `circle`.
    public var polygon: Polygon?
    /// Level in the hierarchy.
    public var level: RegionLevel = .unspecified
    /// Id of the enclosing region one level up; empty at the top.
    public var parentId: String = ""
    public var notifyOnEntry: Bool = false
    public var notifyOnExit: Bool = false
    public var notifyOnDwell: Bool = false
    /// Time inside before a dwell event, ms; 1000 ... 86400000 when `notifyOnDwell`, else 0.
    public var loiteringDelayMs: UInt32 = 0
    /// Higher is armed first when slots are short.
    public var priority: UInt32 = 0
    /// When the region stops being valid, UTC ms; 0 = no expiry of its own.
    public var expiresAtMs: Int64 = 0
    /// Entering asks the server for a finer assignment.
    public var refineOnEntry: Bool = false
    /// Display name for logs, at most 128 bytes.
    public var name: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.id.key: id = try reader.readString()
                case Field.version.key: version = try reader.readVarint()
                case Field.circle.key:
                    if circle == nil { circle = Circle() }
                    try reader.readMessage(into: &circle!)
                case Field.polygon.key:
                    if polygon == nil { polygon = Polygon() }
                    try reader.readMessage(into: &polygon!)
                case Field.level.key: level = RegionLevel(rawValue: try reader.readInt32())
                case Field.parentId.key: parentId = try reader.readString()
                case Field.notifyOnEntry.key: notifyOnEntry = try reader.readBool()
                case Field.notifyOnExit.key: notifyOnExit = try reader.readBool()
                case Field.notifyOnDwell.key: notifyOnDwell = try reader.readBool()
                case Field.loiteringDelayMs.key: loiteringDelayMs = try reader.readUInt32()
                case Field.priority.key: priority = try reader.readUInt32()
                case Field.expiresAtMs.key: expiresAtMs = Int64(bitPattern: try reader.readVarint())
                case Field.refineOnEntry.key: refineOnEntry = try reader.readBool()
                case Field.name.key: name = try reader.readString()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    /// About the size of this region's encoding, for reserving space: its strings, its vertices and a
    /// generous allowance for the scalar fields and keys. Not a bound.
    var encodedSizeEstimate: Int {
        let vertices = (polygon?.latitudesE7.count ?? 0) + (polygon?.longitudesE7.count ?? 0)
        return 64 + id.utf8.count + parentId.utf8.count + name.utf8.count + 4 * vertices
            + unknownFields.bytes.count
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !id.isEmpty { writer.writeStringField(Field.id.key, id) }
        if version != 0 { writer.writeVarintField(Field.version.key, version) }
        if let circle { writer.writeMessageField(Field.circle.key, circle) }
        if let polygon { writer.writeMessageField(Field.polygon.key, polygon) }
        if level.rawValue != 0 { writer.writeInt32Field(Field.level.key, level.rawValue) }
        if !parentId.isEmpty { writer.writeStringField(Field.parentId.key, parentId) }
        if notifyOnEntry { writer.writeBoolField(Field.notifyOnEntry.key, true) }
        if notifyOnExit { writer.writeBoolField(Field.notifyOnExit.key, true) }
        if notifyOnDwell { writer.writeBoolField(Field.notifyOnDwell.key, true) }
        if loiteringDelayMs != 0 {
            writer.writeVarintField(Field.loiteringDelayMs.key, UInt64(loiteringDelayMs))
        }
        if priority != 0 { writer.writeVarintField(Field.priority.key, UInt64(priority)) }
        if expiresAtMs != 0 {
            writer.writeVarintField(Field.expiresAtMs.key, UInt64(bitPattern: expiresAtMs))
        }
        if refineOnEntry { writer.writeBoolField(Field.refineOnEntry.key, true) }
        if !name.isEmpty { writer.writeStringField(Field.name.key, name) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.Region`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case id, version, circle, polygon, level, parentId, notifyOnEntry, notifyOnExit, notifyOnDwell,
            loiteringDelayMs, priority, expiresAtMs, refineOnEntry, name

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .id: FieldDeclaration(1, "id", .string)
            case .version: FieldDeclaration(2, "version", .uint64)
            case .circle: FieldDeclaration(3, "circle", .message(Circle.self))
            case .polygon: FieldDeclaration(4, "polygon", .message(Polygon.self))
            case .level: FieldDeclaration(5, "level", .enumeration(RegionLevel.self))
            case .parentId: FieldDeclaration(6, "parent_id", .string)
            case .notifyOnEntry: FieldDeclaration(7, "notify_on_entry", .bool)
            case .notifyOnExit: FieldDeclaration(8, "notify_on_exit", .bool)
            case .notifyOnDwell: FieldDeclaration(9, "notify_on_dwell", .bool)
            case .loiteringDelayMs: FieldDeclaration(10, "loitering_delay_ms", .uint32)
            case .priority: FieldDeclaration(11, "priority", .uint32)
            case .expiresAtMs: FieldDeclaration(12, "expires_at_ms", .int64)
            case .refineOnEntry: FieldDeclaration(13, "refine_on_entry", .bool)
            case .name: FieldDeclaration(14, "name", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.Region", fields: Field.self)
}
