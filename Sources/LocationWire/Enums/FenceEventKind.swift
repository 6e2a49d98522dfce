/// `locationwire.v1.FenceEventKind`, from `proto/locationwire/v1/fence_event.proto`.
public struct FenceEventKind: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = FenceEventKind(rawValue: 0)
    public static let enter = FenceEventKind(rawValue: 1)
    public static let exit = FenceEventKind(rawValue: 2)
    public static let dwell = FenceEventKind(rawValue: 3)
    public static let stateInside = FenceEventKind(rawValue: 4)
    public static let stateOutside = FenceEventKind(rawValue: 5)
    public static let stateUnknown = FenceEventKind(rawValue: 6)

    public static let schema = EnumSchema(
        "locationwire.v1.FenceEventKind",
        [
            ("FENCE_EVENT_KIND_UNSPECIFIED", 0),
            ("FENCE_EVENT_KIND_ENTER", 1),
            ("FENCE_EVENT_KIND_EXIT", 2),
            ("FENCE_EVENT_KIND_DWELL", 3),
            ("FENCE_EVENT_KIND_STATE_INSIDE", 4),
            ("FENCE_EVENT_KIND_STATE_OUTSIDE", 5),
            ("FENCE_EVENT_KIND_STATE_UNKNOWN", 6),
        ])
}
