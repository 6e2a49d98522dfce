/// The reporting rules a server sets for its devices (`locationwire.v1.TrackingPolicy`,
/// `proto/locationwire/v1/tracking_policy.proto`). An absent field means its default; the `effective...`
/// properties apply the defaults.
public struct TrackingPolicy: LocationWireMessage {
    /// Increases whenever the server changes the policy.
    public var policyVersion: UInt64 = 0
    /// Above this speed the device records by time, cm/s. Default 300.
    public var speedThresholdCmS: UInt32?
    /// Time between recorded fixes when fast, ms. Default 10000.
    public var timeIntervalMs: UInt32?
    /// Distance between recorded fixes when slow, m. Default 50.
    public var distanceIntervalM: UInt32?
    /// Fixes with at least this horizontal accuracy are dropped, cm. Default 200000.
    public var maxHorizontalAccuracyCm: UInt32?
    /// Upload interval, ms. Default 60000.
    public var uploadIntervalMs: UInt32?
    /// Most fixes per batch. Default 500.
    public var maxBatchSize: UInt32?
    /// Upload at the latest when the oldest unsent fix is this old, ms. Default 3600000.
    public var maxBatchAgeMs: UInt32?
    /// Stationary radius, m. Default 25.
    public var stationaryRadiusM: UInt32?
    /// Time within the stationary radius before the device counts as stopped, ms. Default 300000.
    public var stopTimeoutMs: UInt32?
    /// Heartbeat interval while stationary, ms. nil or 0: none.
    public var heartbeatIntervalMs: UInt32?
    /// The server accepts compact fixes.
    public var compactFixesAccepted: Bool = false
    /// Tracking on or off; nil = on.
    public var trackingEnabled: Bool?
    public var unknownFields = UnknownFields()

    public init() {}

    /// The defaults `proto/locationwire/v1/tracking_policy.proto` states.
    public enum Defaults {
        public static let speedThresholdCmS: UInt32 = 300
        public static let timeIntervalMs: UInt32 = 10_000
        public static let distanceIntervalM: UInt32 = 50
        public static let maxHorizontalAccuracyCm: UInt32 = 200_000
        public static let uploadIntervalMs: UInt32 = 60_000
        public static let maxBatchSize: UInt32 = 500
        public static let maxBatchAgeMs: UInt32 = 3_600_000
        public static let stationaryRadiusM: UInt32 = 25
        public static let stopTimeoutMs: UInt32 = 300_000
    }

    public var effectiveSpeedThresholdCmS: UInt32 { speedThresholdCmS ?? Defaults.speedThresholdCmS }
    public var effectiveTimeIntervalMs: UInt32 { timeIntervalMs ?? Defaults.timeIntervalMs }
    public var effectiveDistanceIntervalM: UInt32 { distanceIntervalM ?? Defaults.distanceIntervalM }
    public var effectiveMaxHorizontalAccuracyCm: UInt32 {
        maxHorizontalAccuracyCm ?? Defaults.maxHorizontalAccuracyCm
    }
    public var effectiveUploadIntervalMs: UInt32 { uploadIntervalMs ?? Defaults.uploadIntervalMs }
    public var effectiveMaxBatchSize: UInt32 { maxBatchSize ?? Defaults.maxBatchSize }
    public var effectiveMaxBatchAgeMs: UInt32 { maxBatchAgeMs ?? Defaults.maxBatchAgeMs }
    public var effectiveStationaryRadiusM: UInt32 { stationaryRadiusM ?? Defaults.stationaryRadiusM }
    public var effectiveStopTimeoutMs: UInt32 { stopTimeoutMs ?? Defaults.stopTimeoutMs }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: policyVersion = try reader.readVarint()
                case 0x10: speedThresholdCmS = try reader.readUInt32()
                case 0x18: timeIntervalMs = try reader.readUInt32()
                case 0x20: distanceIntervalM = try reader.readUInt32()
                case 0x28: maxHorizontalAccuracyCm = try reader.readUInt32()
                case 0x30: uploadIntervalMs = try reader.readUInt32()
                case 0x38: maxBatchSize = try reader.readUInt32()
                case 0x40: maxBatchAgeMs = try reader.readUInt32()
                case 0x48: stationaryRadiusM = try reader.readUInt32()
                case 0x50: stopTimeoutMs = try reader.readUInt32()
                case 0x58: heartbeatIntervalMs = try reader.readUInt32()
                case 0x60: compactFixesAccepted = try reader.readBool()
                case 0x68: trackingEnabled = try reader.readBool()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if policyVersion != 0 { writer.writeVarintField(0x08, policyVersion) }
        if let speedThresholdCmS { writer.writeVarintField(0x10, UInt64(speedThresholdCmS)) }
        if let timeIntervalMs { writer.writeVarintField(0x18, UInt64(timeIntervalMs)) }
        if let distanceIntervalM { writer.writeVarintField(0x20, UInt64(distanceIntervalM)) }
        if let maxHorizontalAccuracyCm { writer.writeVarintField(0x28, UInt64(maxHorizontalAccuracyCm)) }
        if let uploadIntervalMs { writer.writeVarintField(0x30, UInt64(uploadIntervalMs)) }
        if let maxBatchSize { writer.writeVarintField(0x38, UInt64(maxBatchSize)) }
        if let maxBatchAgeMs { writer.writeVarintField(0x40, UInt64(maxBatchAgeMs)) }
        if let stationaryRadiusM { writer.writeVarintField(0x48, UInt64(stationaryRadiusM)) }
        if let stopTimeoutMs { writer.writeVarintField(0x50, UInt64(stopTimeoutMs)) }
        if let heartbeatIntervalMs { writer.writeVarintField(0x58, UInt64(heartbeatIntervalMs)) }
        if compactFixesAccepted { writer.writeBoolField(0x60, true) }
        if let trackingEnabled { writer.writeBoolField(0x68, trackingEnabled) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.TrackingPolicy",
        fields: [
            FieldSchema(1, "policy_version", .uint64),
            FieldSchema(2, "speed_threshold_cm_s", .uint32, .optional),
            FieldSchema(3, "time_interval_ms", .uint32, .optional),
            FieldSchema(4, "distance_interval_m", .uint32, .optional),
            FieldSchema(5, "max_horizontal_accuracy_cm", .uint32, .optional),
            FieldSchema(6, "upload_interval_ms", .uint32, .optional),
            FieldSchema(7, "max_batch_size", .uint32, .optional),
            FieldSchema(8, "max_batch_age_ms", .uint32, .optional),
            FieldSchema(9, "stationary_radius_m", .uint32, .optional),
            FieldSchema(10, "stop_timeout_ms", .uint32, .optional),
            FieldSchema(11, "heartbeat_interval_ms", .uint32, .optional),
            FieldSchema(12, "compact_fixes_accepted", .bool),
            FieldSchema(13, "tracking_enabled", .bool, .optional),
        ])
}
