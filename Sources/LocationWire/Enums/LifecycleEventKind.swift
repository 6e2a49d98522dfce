/// `locationwire.v1.LifecycleEventKind`, from `proto/locationwire/v1/device_state.proto`.
public struct LifecycleEventKind: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = LifecycleEventKind(rawValue: 0)
    public static let launched = LifecycleEventKind(rawValue: 1)
    public static let enteredBackground = LifecycleEventKind(rawValue: 2)
    public static let cameToForeground = LifecycleEventKind(rawValue: 3)
    public static let terminated = LifecycleEventKind(rawValue: 4)
    public static let relaunchedBySystem = LifecycleEventKind(rawValue: 5)
    public static let deviceRebooted = LifecycleEventKind(rawValue: 6)

    public static let schema = EnumSchema(
        "locationwire.v1.LifecycleEventKind",
        [
            ("LIFECYCLE_EVENT_KIND_UNSPECIFIED", 0),
            ("LIFECYCLE_EVENT_KIND_LAUNCHED", 1),
            ("LIFECYCLE_EVENT_KIND_ENTERED_BACKGROUND", 2),
            ("LIFECYCLE_EVENT_KIND_CAME_TO_FOREGROUND", 3),
            ("LIFECYCLE_EVENT_KIND_TERMINATED", 4),
            ("LIFECYCLE_EVENT_KIND_RELAUNCHED_BY_SYSTEM", 5),
            ("LIFECYCLE_EVENT_KIND_DEVICE_REBOOTED", 6),
        ])
}
