/// `locationwire.v1.LocationAccuracy`, from `proto/locationwire/v1/device_state.proto`.
public struct LocationAccuracy: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = LocationAccuracy(rawValue: 0)
    public static let precise = LocationAccuracy(rawValue: 1)
    public static let approximate = LocationAccuracy(rawValue: 2)

    public static let schema = EnumSchema(
        "locationwire.v1.LocationAccuracy",
        [
            ("LOCATION_ACCURACY_UNSPECIFIED", 0),
            ("LOCATION_ACCURACY_PRECISE", 1),
            ("LOCATION_ACCURACY_APPROXIMATE", 2),
        ])
}
