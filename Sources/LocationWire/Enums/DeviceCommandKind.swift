/// `locationwire.v1.DeviceCommandKind`, from `proto/locationwire/v1/batch_ack.proto`.
public struct DeviceCommandKind: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = DeviceCommandKind(rawValue: 0)
    public static let recordFix = DeviceCommandKind(rawValue: 1)
    public static let requestRegions = DeviceCommandKind(rawValue: 2)
    public static let uploadNow = DeviceCommandKind(rawValue: 3)

    public static let schema = EnumSchema(
        "locationwire.v1.DeviceCommandKind",
        [
            ("DEVICE_COMMAND_KIND_UNSPECIFIED", 0),
            ("DEVICE_COMMAND_KIND_RECORD_FIX", 1),
            ("DEVICE_COMMAND_KIND_REQUEST_REGIONS", 2),
            ("DEVICE_COMMAND_KIND_UPLOAD_NOW", 3),
        ])
}
