/// `locationwire.v1.LocationAuthorization`, from `proto/locationwire/v1/device_state.proto`.
public struct LocationAuthorization: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = LocationAuthorization(rawValue: 0)
    public static let notDetermined = LocationAuthorization(rawValue: 1)
    public static let denied = LocationAuthorization(rawValue: 2)
    public static let restricted = LocationAuthorization(rawValue: 3)
    public static let whenInUse = LocationAuthorization(rawValue: 4)
    public static let always = LocationAuthorization(rawValue: 5)

    public static let schema = EnumSchema(
        "locationwire.v1.LocationAuthorization",
        [
            ("LOCATION_AUTHORIZATION_UNSPECIFIED", 0),
            ("LOCATION_AUTHORIZATION_NOT_DETERMINED", 1),
            ("LOCATION_AUTHORIZATION_DENIED", 2),
            ("LOCATION_AUTHORIZATION_RESTRICTED", 3),
            ("LOCATION_AUTHORIZATION_WHEN_IN_USE", 4),
            ("LOCATION_AUTHORIZATION_ALWAYS", 5),
        ])
}
