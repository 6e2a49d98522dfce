/// `locationwire.v1.FenceEventSource`, from `proto/locationwire/v1/fence_event.proto`.
public struct FenceEventSource: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = FenceEventSource(rawValue: 0)
    public static let osRegionMonitor = FenceEventSource(rawValue: 1)
    public static let appHitTest = FenceEventSource(rawValue: 2)
    public static let serverComputed = FenceEventSource(rawValue: 3)

    public static let schema = EnumSchema(
        "locationwire.v1.FenceEventSource",
        [
            ("FENCE_EVENT_SOURCE_UNSPECIFIED", 0),
            ("FENCE_EVENT_SOURCE_OS_REGION_MONITOR", 1),
            ("FENCE_EVENT_SOURCE_APP_HIT_TEST", 2),
            ("FENCE_EVENT_SOURCE_SERVER_COMPUTED", 3),
        ])
}
