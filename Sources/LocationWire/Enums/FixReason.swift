/// `locationwire.v1.FixReason`, from `proto/locationwire/v1/location_fix.proto`.
public struct FixReason: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = FixReason(rawValue: 0)
    public static let periodic = FixReason(rawValue: 1)
    public static let distance = FixReason(rawValue: 2)
    public static let motionStart = FixReason(rawValue: 3)
    public static let motionStop = FixReason(rawValue: 4)
    public static let heartbeat = FixReason(rawValue: 5)
    public static let regionEvent = FixReason(rawValue: 6)
    public static let visit = FixReason(rawValue: 7)
    public static let significantChange = FixReason(rawValue: 8)
    public static let manual = FixReason(rawValue: 9)
    public static let serverRequest = FixReason(rawValue: 10)
    public static let providerChange = FixReason(rawValue: 11)
    public static let systemRelaunch = FixReason(rawValue: 12)

    public static let schema = EnumSchema(
        "locationwire.v1.FixReason",
        [
            ("FIX_REASON_UNSPECIFIED", 0),
            ("FIX_REASON_PERIODIC", 1),
            ("FIX_REASON_DISTANCE", 2),
            ("FIX_REASON_MOTION_START", 3),
            ("FIX_REASON_MOTION_STOP", 4),
            ("FIX_REASON_HEARTBEAT", 5),
            ("FIX_REASON_REGION_EVENT", 6),
            ("FIX_REASON_VISIT", 7),
            ("FIX_REASON_SIGNIFICANT_CHANGE", 8),
            ("FIX_REASON_MANUAL", 9),
            ("FIX_REASON_SERVER_REQUEST", 10),
            ("FIX_REASON_PROVIDER_CHANGE", 11),
            ("FIX_REASON_SYSTEM_RELAUNCH", 12),
        ])
}
