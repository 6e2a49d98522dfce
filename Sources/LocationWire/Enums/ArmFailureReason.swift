/// `locationwire.v1.ArmFailureReason`, from `proto/locationwire/v1/device_state.proto`.
public struct ArmFailureReason: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = ArmFailureReason(rawValue: 0)
    public static let slotLimit = ArmFailureReason(rawValue: 1)
    public static let permissionDenied = ArmFailureReason(rawValue: 2)
    public static let unavailable = ArmFailureReason(rawValue: 3)
    public static let regionInvalid = ArmFailureReason(rawValue: 4)
    public static let other = ArmFailureReason(rawValue: 5)

    public static let schema = EnumSchema(
        "locationwire.v1.ArmFailureReason",
        [
            ("ARM_FAILURE_REASON_UNSPECIFIED", 0),
            ("ARM_FAILURE_REASON_SLOT_LIMIT", 1),
            ("ARM_FAILURE_REASON_PERMISSION_DENIED", 2),
            ("ARM_FAILURE_REASON_UNAVAILABLE", 3),
            ("ARM_FAILURE_REASON_REGION_INVALID", 4),
            ("ARM_FAILURE_REASON_OTHER", 5),
        ])
}
