/// `locationwire.v1.CoordinateDatum`, from `proto/locationwire/v1/common.proto`.
public struct CoordinateDatum: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = CoordinateDatum(rawValue: 0)
    public static let wgs84 = CoordinateDatum(rawValue: 1)
    public static let gcj02 = CoordinateDatum(rawValue: 2)
    public static let bd09 = CoordinateDatum(rawValue: 3)

    public static let schema = EnumSchema(
        "locationwire.v1.CoordinateDatum",
        [
            ("COORDINATE_DATUM_UNSPECIFIED", 0),
            ("COORDINATE_DATUM_WGS84", 1),
            ("COORDINATE_DATUM_GCJ02", 2),
            ("COORDINATE_DATUM_BD09", 3),
        ])
}
