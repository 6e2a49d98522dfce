/// `locationwire.v1.RegionLevel`, from `proto/locationwire/v1/region.proto`.
public struct RegionLevel: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = RegionLevel(rawValue: 0)
    public static let country = RegionLevel(rawValue: 1)
    public static let province = RegionLevel(rawValue: 2)
    public static let city = RegionLevel(rawValue: 3)
    public static let district = RegionLevel(rawValue: 4)
    public static let site = RegionLevel(rawValue: 5)

    public static let schema = EnumSchema(
        "locationwire.v1.RegionLevel",
        [
            ("REGION_LEVEL_UNSPECIFIED", 0),
            ("REGION_LEVEL_COUNTRY", 1),
            ("REGION_LEVEL_PROVINCE", 2),
            ("REGION_LEVEL_CITY", 3),
            ("REGION_LEVEL_DISTRICT", 4),
            ("REGION_LEVEL_SITE", 5),
        ])
}
