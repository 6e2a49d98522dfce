/// `locationwire.v1.MotionActivity`, from `proto/locationwire/v1/location_fix.proto`.
public struct MotionActivity: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = MotionActivity(rawValue: 0)
    public static let unknown = MotionActivity(rawValue: 1)
    public static let still = MotionActivity(rawValue: 2)
    public static let walking = MotionActivity(rawValue: 3)
    public static let running = MotionActivity(rawValue: 4)
    public static let onFoot = MotionActivity(rawValue: 5)
    public static let cycling = MotionActivity(rawValue: 6)
    public static let inVehicle = MotionActivity(rawValue: 7)

    public static let schema = EnumSchema(
        "locationwire.v1.MotionActivity",
        [
            ("MOTION_ACTIVITY_UNSPECIFIED", 0),
            ("MOTION_ACTIVITY_UNKNOWN", 1),
            ("MOTION_ACTIVITY_STILL", 2),
            ("MOTION_ACTIVITY_WALKING", 3),
            ("MOTION_ACTIVITY_RUNNING", 4),
            ("MOTION_ACTIVITY_ON_FOOT", 5),
            ("MOTION_ACTIVITY_CYCLING", 6),
            ("MOTION_ACTIVITY_IN_VEHICLE", 7),
        ])
}
