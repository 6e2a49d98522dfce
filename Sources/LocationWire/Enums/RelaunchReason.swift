/// `locationwire.v1.RelaunchReason`, from `proto/locationwire/v1/device_state.proto`.
public struct RelaunchReason: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = RelaunchReason(rawValue: 0)
    public static let locationUpdate = RelaunchReason(rawValue: 1)
    public static let regionEvent = RelaunchReason(rawValue: 2)
    public static let significantChange = RelaunchReason(rawValue: 3)
    public static let visit = RelaunchReason(rawValue: 4)
    public static let backgroundFetch = RelaunchReason(rawValue: 5)
    public static let pushNotification = RelaunchReason(rawValue: 6)
    public static let bootCompleted = RelaunchReason(rawValue: 7)

    public static let schema = EnumSchema(
        "locationwire.v1.RelaunchReason",
        [
            ("RELAUNCH_REASON_UNSPECIFIED", 0),
            ("RELAUNCH_REASON_LOCATION_UPDATE", 1),
            ("RELAUNCH_REASON_REGION_EVENT", 2),
            ("RELAUNCH_REASON_SIGNIFICANT_CHANGE", 3),
            ("RELAUNCH_REASON_VISIT", 4),
            ("RELAUNCH_REASON_BACKGROUND_FETCH", 5),
            ("RELAUNCH_REASON_PUSH_NOTIFICATION", 6),
            ("RELAUNCH_REASON_BOOT_COMPLETED", 7),
        ])
}
