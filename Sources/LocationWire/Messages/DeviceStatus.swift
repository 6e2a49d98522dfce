// The hand-written codec of `locationwire.v1.DeviceStatus`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/device_state.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension DeviceStatus {
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.observedAtMs.key: observedAtMs = Int64(bitPattern: try reader.readVarint())
        case Field.authorization.key:
            authorization = LocationAuthorization(rawValue: try reader.readInt32())
        case Field.accuracy.key: accuracy = LocationAccuracy(rawValue: try reader.readInt32())
        case Field.locationServicesEnabled.key: locationServicesEnabled = try reader.readBool()
        case Field.backgroundRefreshEnabled.key: backgroundRefreshEnabled = try reader.readBool()
        case Field.lowPowerMode.key: lowPowerMode = try reader.readBool()
        case Field.platform.key: platform = Platform(rawValue: try reader.readInt32())
        case Field.osVersion.key: osVersion = try reader.readString()
        case Field.appVersion.key: appVersion = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if observedAtMs != 0 {
            writer.writeVarintField(Field.observedAtMs.key, UInt64(bitPattern: observedAtMs))
        }
        if authorization.rawValue != 0 {
            writer.writeInt32Field(Field.authorization.key, authorization.rawValue)
        }
        if accuracy.rawValue != 0 { writer.writeInt32Field(Field.accuracy.key, accuracy.rawValue) }
        if let locationServicesEnabled {
            writer.writeBoolField(Field.locationServicesEnabled.key, locationServicesEnabled)
        }
        if let backgroundRefreshEnabled {
            writer.writeBoolField(Field.backgroundRefreshEnabled.key, backgroundRefreshEnabled)
        }
        if let lowPowerMode { writer.writeBoolField(Field.lowPowerMode.key, lowPowerMode) }
        if platform.rawValue != 0 { writer.writeInt32Field(Field.platform.key, platform.rawValue) }
        if !osVersion.isEmpty { writer.writeStringField(Field.osVersion.key, osVersion) }
        if !appVersion.isEmpty { writer.writeStringField(Field.appVersion.key, appVersion) }
        writer.writeUnknownFields(unknownFields)
    }
}
