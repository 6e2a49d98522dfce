/// `locationwire.v1.FixSource`, from `proto/locationwire/v1/location_fix.proto`.
public struct FixSource: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = FixSource(rawValue: 0)
    public static let gnss = FixSource(rawValue: 1)
    public static let network = FixSource(rawValue: 2)
    public static let fused = FixSource(rawValue: 3)
    public static let cached = FixSource(rawValue: 4)

    public static let schema = EnumSchema(
        "locationwire.v1.FixSource",
        [
            ("FIX_SOURCE_UNSPECIFIED", 0),
            ("FIX_SOURCE_GNSS", 1),
            ("FIX_SOURCE_NETWORK", 2),
            ("FIX_SOURCE_FUSED", 3),
            ("FIX_SOURCE_CACHED", 4),
        ])
}
