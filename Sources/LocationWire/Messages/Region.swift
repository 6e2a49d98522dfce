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
                case 0x0A: id = try reader.readString()
                case 0x10: version = try reader.readVarint()
                case 0x1A:
                    if circle == nil { circle = Circle() }
                    try reader.readMessage(into: &circle!)
                case 0x22:
                    if polygon == nil { polygon = Polygon() }
                    try reader.readMessage(into: &polygon!)
                case 0x28: level = RegionLevel(rawValue: try reader.readInt32())
                case 0x32: parentId = try reader.readString()
                case 0x38: notifyOnEntry = try reader.readBool()
                case 0x40: notifyOnExit = try reader.readBool()
                case 0x48: notifyOnDwell = try reader.readBool()
                case 0x50: loiteringDelayMs = try reader.readUInt32()
                case 0x58: priority = try reader.readUInt32()
                case 0x60: expiresAtMs = Int64(bitPattern: try reader.readVarint())
                case 0x68: refineOnEntry = try reader.readBool()
                case 0x72: name = try reader.readString()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !id.isEmpty { writer.writeStringField(0x0A, id) }
        if version != 0 { writer.writeVarintField(0x10, version) }
        if let circle { writer.writeMessageField(0x1A, circle) }
        if let polygon { writer.writeMessageField(0x22, polygon) }
        if level.rawValue != 0 { writer.writeInt32Field(0x28, level.rawValue) }
        if !parentId.isEmpty { writer.writeStringField(0x32, parentId) }
        if notifyOnEntry { writer.writeBoolField(0x38, true) }
        if notifyOnExit { writer.writeBoolField(0x40, true) }
        if notifyOnDwell { writer.writeBoolField(0x48, true) }
        if loiteringDelayMs != 0 { writer.writeVarintField(0x50, UInt64(loiteringDelayMs)) }
        if priority != 0 { writer.writeVarintField(0x58, UInt64(priority)) }
        if expiresAtMs != 0 { writer.writeVarintField(0x60, UInt64(bitPattern: expiresAtMs)) }
        if refineOnEntry { writer.writeBoolField(0x68, true) }
        if !name.isEmpty { writer.writeStringField(0x72, name) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.Region",
        fields: [
            FieldSchema(1, "id", .string),
            FieldSchema(2, "version", .uint64),
            FieldSchema(3, "circle", .message(Circle.schema)),
            FieldSchema(4, "polygon", .message(Polygon.schema)),
            FieldSchema(5, "level", .enumeration(RegionLevel.schema)),
            FieldSchema(6, "parent_id", .string),
            FieldSchema(7, "notify_on_entry", .bool),
            FieldSchema(8, "notify_on_exit", .bool),
            FieldSchema(9, "notify_on_dwell", .bool),
            FieldSchema(10, "loitering_delay_ms", .uint32),
            FieldSchema(11, "priority", .uint32),
            FieldSchema(12, "expires_at_ms", .int64),
            FieldSchema(13, "refine_on_entry", .bool),
            FieldSchema(14, "name", .string),
        ])
}
