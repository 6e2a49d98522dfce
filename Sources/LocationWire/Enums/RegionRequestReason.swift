/// `locationwire.v1.RegionRequestReason`, from `proto/locationwire/v1/region_request.proto`.
public struct RegionRequestReason: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = RegionRequestReason(rawValue: 0)
    public static let initial = RegionRequestReason(rawValue: 1)
    public static let movedBeyondRadius = RegionRequestReason(rawValue: 2)
    public static let expired = RegionRequestReason(rawValue: 3)
    public static let refineOnEntry = RegionRequestReason(rawValue: 4)
    public static let regionsLost = RegionRequestReason(rawValue: 5)
    public static let authorizationChanged = RegionRequestReason(rawValue: 6)
    public static let serverHint = RegionRequestReason(rawValue: 7)
    public static let deltaRejected = RegionRequestReason(rawValue: 8)

    public static let schema = EnumSchema(
        "locationwire.v1.RegionRequestReason",
        [
            ("REGION_REQUEST_REASON_UNSPECIFIED", 0),
            ("REGION_REQUEST_REASON_INITIAL", 1),
            ("REGION_REQUEST_REASON_MOVED_BEYOND_RADIUS", 2),
            ("REGION_REQUEST_REASON_EXPIRED", 3),
            ("REGION_REQUEST_REASON_REFINE_ON_ENTRY", 4),
            ("REGION_REQUEST_REASON_REGIONS_LOST", 5),
            ("REGION_REQUEST_REASON_AUTHORIZATION_CHANGED", 6),
            ("REGION_REQUEST_REASON_SERVER_HINT", 7),
            ("REGION_REQUEST_REASON_DELTA_REJECTED", 8),
        ])
}
