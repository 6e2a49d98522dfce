/// The regions a server hands a device to monitor (`locationwire.v1.RegionAssignment`,
/// `proto/locationwire/v1/region_assignment.proto`).
public struct RegionAssignment: LocationWireMessage {
    /// Strictly increasing per device, at least 1.
    public var assignmentVersion: UInt64 = 0
    /// When the server built it, UTC ms.
    public var issuedAtMs: Int64 = 0
    /// When every region of it expires, UTC ms; 0 = no expiry.
    public var expiresAtMs: Int64 = 0
    /// Full set or change.
    public var mode: AssignmentMode = .unspecified
    /// For deltas: the version the delta applies to.
    public var baseVersion: UInt64 = 0
    /// Full set, or the regions a delta inserts or replaces; unique ids.
    public var regions: [Region] = []
    /// Deltas only: ids to disarm.
    public var removedRegionIds: [String] = []
    /// Global monitoring switch; nil = on (full) or unchanged (delta).
    public var monitoringEnabled: Bool?
    /// OS slots the assignment was planned for, at least 1.
    public var slotBudget: UInt32 = 0
    /// When to ask again.
    public var refresh: RefreshPolicy?
    /// The datum of every coordinate in `regions`.
    public var datum: CoordinateDatum = .unspecified
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: assignmentVersion = try reader.readVarint()
                case 0x10: issuedAtMs = Int64(bitPattern: try reader.readVarint())
                case 0x18: expiresAtMs = Int64(bitPattern: try reader.readVarint())
                case 0x20: mode = AssignmentMode(rawValue: try reader.readInt32())
                case 0x28: baseVersion = try reader.readVarint()
                case 0x32:
                    if regions.isEmpty { try reader.reserveCapacity(for: key, in: &regions) }
                    try reader.readMessage(appendingTo: &regions)
                case 0x3A: try reader.readString(appendingTo: &removedRegionIds)
                case 0x40: monitoringEnabled = try reader.readBool()
                case 0x48: slotBudget = try reader.readUInt32()
                case 0x52:
                    if refresh == nil { refresh = RefreshPolicy() }
                    try reader.readMessage(into: &refresh!)
                case 0x58: datum = CoordinateDatum(rawValue: try reader.readInt32())
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if assignmentVersion != 0 { writer.writeVarintField(0x08, assignmentVersion) }
        if issuedAtMs != 0 { writer.writeVarintField(0x10, UInt64(bitPattern: issuedAtMs)) }
        if expiresAtMs != 0 { writer.writeVarintField(0x18, UInt64(bitPattern: expiresAtMs)) }
        if mode.rawValue != 0 { writer.writeInt32Field(0x20, mode.rawValue) }
        if baseVersion != 0 { writer.writeVarintField(0x28, baseVersion) }
        writer.writeRepeatedMessageField(0x32, regions)
        for id in removedRegionIds { writer.writeStringField(0x3A, id) }
        if let monitoringEnabled { writer.writeBoolField(0x40, monitoringEnabled) }
        if slotBudget != 0 { writer.writeVarintField(0x48, UInt64(slotBudget)) }
        if let refresh { writer.writeMessageField(0x52, refresh) }
        if datum.rawValue != 0 { writer.writeInt32Field(0x58, datum.rawValue) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.RegionAssignment",
        fields: [
            FieldSchema(1, "assignment_version", .uint64),
            FieldSchema(2, "issued_at_ms", .int64),
            FieldSchema(3, "expires_at_ms", .int64),
            FieldSchema(4, "mode", .enumeration(AssignmentMode.schema)),
            FieldSchema(5, "base_version", .uint64),
            FieldSchema(6, "regions", .message(Region.schema), .repeated),
            FieldSchema(7, "removed_region_ids", .string, .repeated),
            FieldSchema(8, "monitoring_enabled", .bool, .optional),
            FieldSchema(9, "slot_budget", .uint32),
            FieldSchema(10, "refresh", .message(RefreshPolicy.schema)),
            FieldSchema(11, "datum", .enumeration(CoordinateDatum.schema)),
        ])
}
