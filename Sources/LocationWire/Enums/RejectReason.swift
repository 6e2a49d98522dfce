/// `locationwire.v1.RejectReason`, from `proto/locationwire/v1/batch_ack.proto`.
public struct RejectReason: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = RejectReason(rawValue: 0)
    public static let invalid = RejectReason(rawValue: 1)
    public static let invalidCoordinates = RejectReason(rawValue: 2)
    public static let timestampOutOfRange = RejectReason(rawValue: 3)
    public static let tooOld = RejectReason(rawValue: 4)
    public static let mockLocation = RejectReason(rawValue: 7)

    public static let schema = EnumSchema(
        "locationwire.v1.RejectReason",
        [
            ("REJECT_REASON_UNSPECIFIED", 0),
            ("REJECT_REASON_INVALID", 1),
            ("REJECT_REASON_INVALID_COORDINATES", 2),
            ("REJECT_REASON_TIMESTAMP_OUT_OF_RANGE", 3),
            ("REJECT_REASON_TOO_OLD", 4),
            ("REJECT_REASON_MOCK_LOCATION", 7),
        ])
}
