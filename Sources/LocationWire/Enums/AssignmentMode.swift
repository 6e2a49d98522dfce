/// `locationwire.v1.AssignmentMode`, from `proto/locationwire/v1/region_assignment.proto`.
public struct AssignmentMode: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = AssignmentMode(rawValue: 0)
    public static let fullReplacement = AssignmentMode(rawValue: 1)
    public static let delta = AssignmentMode(rawValue: 2)

    public static let schema = EnumSchema(
        "locationwire.v1.AssignmentMode",
        [
            ("ASSIGNMENT_MODE_UNSPECIFIED", 0),
            ("ASSIGNMENT_MODE_FULL_REPLACEMENT", 1),
            ("ASSIGNMENT_MODE_DELTA", 2),
        ])
}
