/// The settings that decide whether background tracking can work (`locationwire.v1.DeviceStatus`,
/// `proto/locationwire/v1/device_state.proto`).
public struct DeviceStatus: LocationWireMessage {
    /// When the snapshot was taken, UTC ms.
    public var observedAtMs: Int64 = 0
    /// The location permission the app holds.
    public var authorization: LocationAuthorization = .unspecified
    /// Precise or approximate positions.
    public var accuracy: LocationAccuracy = .unspecified
    /// Location services on for the device; nil = unknown.
    public var locationServicesEnabled: Bool?
    /// Background execution allowed; nil = unknown.
    public var backgroundRefreshEnabled: Bool?
    /// OS power saver on; nil = unknown.
    public var lowPowerMode: Bool?
    /// The operating system family.
    public var platform: Platform = .unspecified
    /// OS version as the OS prints it, at most 64 bytes.
    public var osVersion: String = ""
    /// App version as the store lists it, at most 64 bytes.
    public var appVersion: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: observedAtMs = Int64(bitPattern: try reader.readVarint())
                case 0x10: authorization = LocationAuthorization(rawValue: try reader.readInt32())
                case 0x18: accuracy = LocationAccuracy(rawValue: try reader.readInt32())
                case 0x20: locationServicesEnabled = try reader.readBool()
                case 0x28: backgroundRefreshEnabled = try reader.readBool()
                case 0x30: lowPowerMode = try reader.readBool()
                case 0x38: platform = Platform(rawValue: try reader.readInt32())
                case 0x42: osVersion = try reader.readString()
                case 0x4A: appVersion = try reader.readString()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        if observedAtMs != 0 { writer.writeVarintField(0x08, UInt64(bitPattern: observedAtMs)) }
        if authorization.rawValue != 0 { writer.writeInt32Field(0x10, authorization.rawValue) }
        if accuracy.rawValue != 0 { writer.writeInt32Field(0x18, accuracy.rawValue) }
        if let locationServicesEnabled { writer.writeBoolField(0x20, locationServicesEnabled) }
        if let backgroundRefreshEnabled { writer.writeBoolField(0x28, backgroundRefreshEnabled) }
        if let lowPowerMode { writer.writeBoolField(0x30, lowPowerMode) }
        if platform.rawValue != 0 { writer.writeInt32Field(0x38, platform.rawValue) }
        if !osVersion.isEmpty { writer.writeStringField(0x42, osVersion) }
        if !appVersion.isEmpty { writer.writeStringField(0x4A, appVersion) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.DeviceStatus",
        fields: [
            FieldSchema(1, "observed_at_ms", .int64),
            FieldSchema(2, "authorization", .enumeration(LocationAuthorization.schema)),
            FieldSchema(3, "accuracy", .enumeration(LocationAccuracy.schema)),
            FieldSchema(4, "location_services_enabled", .bool, .optional),
            FieldSchema(5, "background_refresh_enabled", .bool, .optional),
            FieldSchema(6, "low_power_mode", .bool, .optional),
            FieldSchema(7, "platform", .enumeration(Platform.schema)),
            FieldSchema(8, "os_version", .string),
            FieldSchema(9, "app_version", .string),
        ])
}
