/// `locationwire.v1.AckResult`, from `proto/locationwire/v1/batch_ack.proto`.
public struct AckResult: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = AckResult(rawValue: 0)
    public static let accepted = AckResult(rawValue: 1)
    public static let duplicate = AckResult(rawValue: 2)
    public static let rejected = AckResult(rawValue: 3)
    public static let retryLater = AckResult(rawValue: 4)

    public static let schema = EnumSchema(
        "locationwire.v1.AckResult",
        [
            ("ACK_RESULT_UNSPECIFIED", 0),
            ("ACK_RESULT_ACCEPTED", 1),
            ("ACK_RESULT_DUPLICATE", 2),
            ("ACK_RESULT_REJECTED", 3),
            ("ACK_RESULT_RETRY_LATER", 4),
        ])
}
