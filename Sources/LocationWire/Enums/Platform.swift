/// `locationwire.v1.Platform`, from `proto/locationwire/v1/common.proto`.
public struct Platform: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = Platform(rawValue: 0)
    public static let ios = Platform(rawValue: 1)
    public static let android = Platform(rawValue: 2)
    public static let other = Platform(rawValue: 3)

    public static let schema = EnumSchema(
        "locationwire.v1.Platform",
        [
            ("PLATFORM_UNSPECIFIED", 0),
            ("PLATFORM_IOS", 1),
            ("PLATFORM_ANDROID", 2),
            ("PLATFORM_OTHER", 3),
        ])
}
