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
    /// The largest encoded LocationBatch the server takes, bytes, 16384 ... 67108864; nil = 1048576.
    public var maxBatchBytes: UInt32?
    /// Batches sent and not yet answered at once, 1 ... 16; nil = 1.
    public var maxBatchesInFlight: UInt32?
    /// One fix per window of this many ms, the most accurate (proto/BEHAVIOR.md `§rec-window`); nil or 0: none.
    public var fixWindowMs: UInt32?
    /// Duty cycle: receiver on this many ms (`§rec-duty`); off unless both on and off are above 0.
    public var dutyCycleOnMs: UInt32?
    /// Duty cycle: receiver off this many ms.
    public var dutyCycleOffMs: UInt32?
    /// A fence exit needs a fix this far past the boundary, m (`§fence-hysteresis`). Default 200.
    public var fenceHysteresisM: UInt32?
    /// A fence transition needs this long on the new side, ms (`§fence-confirm`). Default 20000.
    public var fenceConfirmMs: UInt32?
    /// Fixes this inaccurate or worse do not count for fences, cm (`§fence-gate`). Default 10000.
    public var fenceMaxAccuracyCm: UInt32?
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
        public static let fenceHysteresisM: UInt32 = 200
        public static let fenceConfirmMs: UInt32 = 20_000
        public static let fenceMaxAccuracyCm: UInt32 = 10_000
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
    public var effectiveFenceHysteresisM: UInt32 { fenceHysteresisM ?? Defaults.fenceHysteresisM }
    public var effectiveFenceConfirmMs: UInt32 { fenceConfirmMs ?? Defaults.fenceConfirmMs }
    public var effectiveFenceMaxAccuracyCm: UInt32 { fenceMaxAccuracyCm ?? Defaults.fenceMaxAccuracyCm }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.policyVersion.key: policyVersion = try reader.readVarint()
                case Field.speedThresholdCmS.key: speedThresholdCmS = try reader.readUInt32()
                case Field.timeIntervalMs.key: timeIntervalMs = try reader.readUInt32()
                case Field.distanceIntervalM.key: distanceIntervalM = try reader.readUInt32()
                case Field.maxHorizontalAccuracyCm.key: maxHorizontalAccuracyCm = try reader.readUInt32()
                case Field.uploadIntervalMs.key: uploadIntervalMs = try reader.readUInt32()
                case Field.maxBatchSize.key: maxBatchSize = try reader.readUInt32()
                case Field.maxBatchAgeMs.key: maxBatchAgeMs = try reader.readUInt32()
                case Field.stationaryRadiusM.key: stationaryRadiusM = try reader.readUInt32()
                case Field.stopTimeoutMs.key: stopTimeoutMs = try reader.readUInt32()
                case Field.heartbeatIntervalMs.key: heartbeatIntervalMs = try reader.readUInt32()
                case Field.compactFixesAccepted.key: compactFixesAccepted = try reader.readBool()
                case Field.trackingEnabled.key: trackingEnabled = try reader.readBool()
                case Field.maxBatchBytes.key: maxBatchBytes = try reader.readUInt32()
                case Field.maxBatchesInFlight.key: maxBatchesInFlight = try reader.readUInt32()
                case Field.fixWindowMs.key: fixWindowMs = try reader.readUInt32()
                case Field.dutyCycleOnMs.key: dutyCycleOnMs = try reader.readUInt32()
                case Field.dutyCycleOffMs.key: dutyCycleOffMs = try reader.readUInt32()
                case Field.fenceHysteresisM.key: fenceHysteresisM = try reader.readUInt32()
                case Field.fenceConfirmMs.key: fenceConfirmMs = try reader.readUInt32()
                case Field.fenceMaxAccuracyCm.key: fenceMaxAccuracyCm = try reader.readUInt32()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if policyVersion != 0 { writer.writeVarintField(Field.policyVersion.key, policyVersion) }
        if let speedThresholdCmS {
            writer.writeVarintField(Field.speedThresholdCmS.key, UInt64(speedThresholdCmS))
        }
        if let timeIntervalMs {
            writer.writeVarintField(Field.timeIntervalMs.key, UInt64(timeIntervalMs))
        }
        if let distanceIntervalM {
            writer.writeVarintField(Field.distanceIntervalM.key, UInt64(distanceIntervalM))
        }
        if let maxHorizontalAccuracyCm {
            writer.writeVarintField(Field.maxHorizontalAccuracyCm.key, UInt64(maxHorizontalAccuracyCm))
        }
        if let uploadIntervalMs {
            writer.writeVarintField(Field.uploadIntervalMs.key, UInt64(uploadIntervalMs))
        }
        if let maxBatchSize { writer.writeVarintField(Field.maxBatchSize.key, UInt64(maxBatchSize)) }
        if let maxBatchAgeMs { writer.writeVarintField(Field.maxBatchAgeMs.key, UInt64(maxBatchAgeMs)) }
        if let stationaryRadiusM {
            writer.writeVarintField(Field.stationaryRadiusM.key, UInt64(stationaryRadiusM))
        }
        if let stopTimeoutMs { writer.writeVarintField(Field.stopTimeoutMs.key, UInt64(stopTimeoutMs)) }
        if let heartbeatIntervalMs {
            writer.writeVarintField(Field.heartbeatIntervalMs.key, UInt64(heartbeatIntervalMs))
        }
        if compactFixesAccepted { writer.writeBoolField(Field.compactFixesAccepted.key, true) }
        if let trackingEnabled { writer.writeBoolField(Field.trackingEnabled.key, trackingEnabled) }
        if let maxBatchBytes { writer.writeVarintField(Field.maxBatchBytes.key, UInt64(maxBatchBytes)) }
        if let maxBatchesInFlight {
            writer.writeVarintField(Field.maxBatchesInFlight.key, UInt64(maxBatchesInFlight))
        }
        if let fixWindowMs { writer.writeVarintField(Field.fixWindowMs.key, UInt64(fixWindowMs)) }
        if let dutyCycleOnMs { writer.writeVarintField(Field.dutyCycleOnMs.key, UInt64(dutyCycleOnMs)) }
        if let dutyCycleOffMs { writer.writeVarintField(Field.dutyCycleOffMs.key, UInt64(dutyCycleOffMs)) }
        if let fenceHysteresisM { writer.writeVarintField(Field.fenceHysteresisM.key, UInt64(fenceHysteresisM)) }
        if let fenceConfirmMs { writer.writeVarintField(Field.fenceConfirmMs.key, UInt64(fenceConfirmMs)) }
        if let fenceMaxAccuracyCm {
            writer.writeVarintField(Field.fenceMaxAccuracyCm.key, UInt64(fenceMaxAccuracyCm))
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.TrackingPolicy`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case policyVersion, speedThresholdCmS, timeIntervalMs, distanceIntervalM,
            maxHorizontalAccuracyCm, uploadIntervalMs, maxBatchSize, maxBatchAgeMs, stationaryRadiusM,
            stopTimeoutMs, heartbeatIntervalMs, compactFixesAccepted, trackingEnabled, maxBatchBytes,
            maxBatchesInFlight, fixWindowMs, dutyCycleOnMs, dutyCycleOffMs, fenceHysteresisM, fenceConfirmMs,
            fenceMaxAccuracyCm

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .policyVersion: FieldDeclaration(1, "policy_version", .uint64)
            case .speedThresholdCmS: FieldDeclaration(2, "speed_threshold_cm_s", .uint32, .optional)
            case .timeIntervalMs: FieldDeclaration(3, "time_interval_ms", .uint32, .optional)
            case .distanceIntervalM: FieldDeclaration(4, "distance_interval_m", .uint32, .optional)
            case .maxHorizontalAccuracyCm:
                FieldDeclaration(5, "max_horizontal_accuracy_cm", .uint32, .optional)
            case .uploadIntervalMs: FieldDeclaration(6, "upload_interval_ms", .uint32, .optional)
            case .maxBatchSize: FieldDeclaration(7, "max_batch_size", .uint32, .optional)
            case .maxBatchAgeMs: FieldDeclaration(8, "max_batch_age_ms", .uint32, .optional)
            case .stationaryRadiusM: FieldDeclaration(9, "stationary_radius_m", .uint32, .optional)
            case .stopTimeoutMs: FieldDeclaration(10, "stop_timeout_ms", .uint32, .optional)
            case .heartbeatIntervalMs: FieldDeclaration(11, "heartbeat_interval_ms", .uint32, .optional)
            case .compactFixesAccepted: FieldDeclaration(12, "compact_fixes_accepted", .bool)
            case .trackingEnabled: FieldDeclaration(13, "tracking_enabled", .bool, .optional)
            case .maxBatchBytes: FieldDeclaration(14, "max_batch_bytes", .uint32, .optional)
            case .maxBatchesInFlight: FieldDeclaration(15, "max_batches_in_flight", .uint32, .optional)
            case .fixWindowMs: FieldDeclaration(16, "fix_window_ms", .uint32, .optional)
            case .dutyCycleOnMs: FieldDeclaration(17, "duty_cycle_on_ms", .uint32, .optional)
            case .dutyCycleOffMs: FieldDeclaration(18, "duty_cycle_off_ms", .uint32, .optional)
            case .fenceHysteresisM: FieldDeclaration(19, "fence_hysteresis_m", .uint32, .optional)
            case .fenceConfirmMs: FieldDeclaration(20, "fence_confirm_ms", .uint32, .optional)
            case .fenceMaxAccuracyCm: FieldDeclaration(21, "fence_max_accuracy_cm", .uint32, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.TrackingPolicy", fields: Field.self)
}
