// The hand-written codec of `locationwire.v1.TrackingPolicy`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/tracking_policy.proto`
// (Sources/LocationWire/Generated/Messages.swift).
//
// An absent field means its default; the `effective...` properties apply the defaults.
extension TrackingPolicy {
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

    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
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
        case Field.retentionDays.key: retentionDays = try reader.readUInt32()
        default: return false
        }
        return true
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
        if let retentionDays { writer.writeVarintField(Field.retentionDays.key, UInt64(retentionDays)) }
        writer.writeUnknownFields(unknownFields)
    }
}
