/// The regions the device armed with the OS, and the assignment they came from (`locationwire.v1.ArmedRegions`,
/// `proto/locationwire/v1/device_state.proto`).
public struct ArmedRegions: LocationWireMessage {
    /// The assignment version the device applied last; 0 before any.
    public var assignmentVersion: UInt64 = 0
    /// Ids armed with the OS right now, each once.
    public var regionIds: [String] = []
    /// Assigned ids the OS refused to arm, each once, never also in `regionIds`.
    public var failedRegionIds: [String] = []
    /// Why the OS refused each region: entry `i` is the reason for `failedRegionIds[i]`; empty or as many entries.
    public var failureReasons: [ArmFailureReason] = []
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
                case Field.regionIds.key: try reader.readString(appendingTo: &regionIds)
                case Field.failedRegionIds.key: try reader.readString(appendingTo: &failedRegionIds)
                case Field.failureReasons.key:
                    try reader.readPackedVarints(appendingTo: &failureReasons) {
                        ArmFailureReason(rawValue: Int32(truncatingIfNeeded: $0))
                    }
                case Field.failureReasons.unpackedKey:
                    try reader.checkCanAppend(to: failureReasons)
                    failureReasons.append(ArmFailureReason(rawValue: try reader.readInt32()))
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if assignmentVersion != 0 {
            writer.writeVarintField(Field.assignmentVersion.key, assignmentVersion)
        }
        for id in regionIds { writer.writeStringField(Field.regionIds.key, id) }
        for id in failedRegionIds { writer.writeStringField(Field.failedRegionIds.key, id) }
        writer.writePackedVarints(Field.failureReasons.key, failureReasons) {
            UInt64(bitPattern: Int64($0.rawValue))
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.ArmedRegions`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case assignmentVersion, regionIds, failedRegionIds, failureReasons

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .assignmentVersion: FieldDeclaration(1, "assignment_version", .uint64)
            case .regionIds: FieldDeclaration(2, "region_ids", .string, .repeated)
            case .failedRegionIds: FieldDeclaration(3, "failed_region_ids", .string, .repeated)
            case .failureReasons:
                FieldDeclaration(4, "failure_reasons", .enumeration(ArmFailureReason.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.ArmedRegions", fields: Field.self)
}
