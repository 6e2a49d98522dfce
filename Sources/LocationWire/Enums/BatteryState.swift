/// `locationwire.v1.BatteryState`, from `proto/locationwire/v1/location_fix.proto`.
public struct BatteryState: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = BatteryState(rawValue: 0)
    public static let unplugged = BatteryState(rawValue: 1)
    public static let charging = BatteryState(rawValue: 2)
    public static let full = BatteryState(rawValue: 3)

    public static let schema = EnumSchema(
        "locationwire.v1.BatteryState",
        [
            ("BATTERY_STATE_UNSPECIFIED", 0),
            ("BATTERY_STATE_UNPLUGGED", 1),
            ("BATTERY_STATE_CHARGING", 2),
            ("BATTERY_STATE_FULL", 3),
        ])
}
