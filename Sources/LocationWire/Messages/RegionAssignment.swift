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
                case Field.assignmentVersion.key: assignmentVersion = try reader.readVarint()
                case Field.issuedAtMs.key: issuedAtMs = Int64(bitPattern: try reader.readVarint())
                case Field.expiresAtMs.key: expiresAtMs = Int64(bitPattern: try reader.readVarint())
                case Field.mode.key: mode = AssignmentMode(rawValue: try reader.readInt32())
                case Field.baseVersion.key: baseVersion = try reader.readVarint()
                case Field.regions.key:
                    try reader.readMessage(appendingTo: &regions)
                case Field.removedRegionIds.key: try reader.readString(appendingTo: &removedRegionIds)
                case Field.monitoringEnabled.key: monitoringEnabled = try reader.readBool()
                case Field.slotBudget.key: slotBudget = try reader.readUInt32()
                case Field.refresh.key:
                    if refresh == nil { refresh = RefreshPolicy() }
                    try reader.readMessage(into: &refresh!)
                case Field.datum.key: datum = CoordinateDatum(rawValue: try reader.readInt32())
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        // A 20-region assignment outgrows the writer's first buffer several times; reserving about its size once
        // replaces those doublings and copies (an estimate: the writer still grows if it is short).
        if regions.count > 4 {
            var estimate = 64
            // Through the buffer: a `for` loop over the array would copy each region, retains included.
            regions.withUnsafeBufferPointer { regions in
                for index in regions.indices { estimate += regions[index].encodedSizeEstimate }
            }
            writer.reserveCapacity(forAdditional: estimate)
        }
        if assignmentVersion != 0 {
            writer.writeVarintField(Field.assignmentVersion.key, assignmentVersion)
        }
        if issuedAtMs != 0 {
            writer.writeVarintField(Field.issuedAtMs.key, UInt64(bitPattern: issuedAtMs))
        }
        if expiresAtMs != 0 {
            writer.writeVarintField(Field.expiresAtMs.key, UInt64(bitPattern: expiresAtMs))
        }
        if mode.rawValue != 0 { writer.writeInt32Field(Field.mode.key, mode.rawValue) }
        if baseVersion != 0 { writer.writeVarintField(Field.baseVersion.key, baseVersion) }
        writer.writeRepeatedMessageField(Field.regions.key, regions)
        for id in removedRegionIds { writer.writeStringField(Field.removedRegionIds.key, id) }
        if let monitoringEnabled {
            writer.writeBoolField(Field.monitoringEnabled.key, monitoringEnabled)
        }
        if slotBudget != 0 { writer.writeVarintField(Field.slotBudget.key, UInt64(slotBudget)) }
        if let refresh { writer.writeMessageField(Field.refresh.key, refresh) }
        if datum.rawValue != 0 { writer.writeInt32Field(Field.datum.key, datum.rawValue) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.RegionAssignment`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case assignmentVersion, issuedAtMs, expiresAtMs, mode, baseVersion, regions, removedRegionIds,
            monitoringEnabled, slotBudget, refresh, datum

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .assignmentVersion: FieldDeclaration(1, "assignment_version", .uint64)
            case .issuedAtMs: FieldDeclaration(2, "issued_at_ms", .int64)
            case .expiresAtMs: FieldDeclaration(3, "expires_at_ms", .int64)
            case .mode: FieldDeclaration(4, "mode", .enumeration(AssignmentMode.self))
            case .baseVersion: FieldDeclaration(5, "base_version", .uint64)
            case .regions: FieldDeclaration(6, "regions", .message(Region.self), .repeated)
            case .removedRegionIds: FieldDeclaration(7, "removed_region_ids", .string, .repeated)
            case .monitoringEnabled: FieldDeclaration(8, "monitoring_enabled", .bool, .optional)
            case .slotBudget: FieldDeclaration(9, "slot_budget", .uint32)
            case .refresh: FieldDeclaration(10, "refresh", .message(RefreshPolicy.self))
            case .datum: FieldDeclaration(11, "datum", .enumeration(CoordinateDatum.self))
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.RegionAssignment", fields: Field.self)
}
