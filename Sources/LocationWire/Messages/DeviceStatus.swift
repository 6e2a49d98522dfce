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
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
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

    /// The fields of `locationwire.v1.DeviceStatus`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case observedAtMs, authorization, accuracy, locationServicesEnabled, backgroundRefreshEnabled,
            lowPowerMode, platform, osVersion, appVersion

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .observedAtMs: FieldDeclaration(1, "observed_at_ms", .int64)
            case .authorization:
                FieldDeclaration(2, "authorization", .enumeration(LocationAuthorization.self))
            case .accuracy: FieldDeclaration(3, "accuracy", .enumeration(LocationAccuracy.self))
            case .locationServicesEnabled:
                FieldDeclaration(4, "location_services_enabled", .bool, .optional)
            case .backgroundRefreshEnabled:
                FieldDeclaration(5, "background_refresh_enabled", .bool, .optional)
            case .lowPowerMode: FieldDeclaration(6, "low_power_mode", .bool, .optional)
            case .platform: FieldDeclaration(7, "platform", .enumeration(Platform.self))
            case .osVersion: FieldDeclaration(8, "os_version", .string)
            case .appVersion: FieldDeclaration(9, "app_version", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.DeviceStatus", fields: Field.self)
}
