/// `locationwire.v1.BatchOutcome`, from `proto/locationwire/v1/batch_ack.proto`.
public struct BatchOutcome: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = BatchOutcome(rawValue: 0)
    public static let processed = BatchOutcome(rawValue: 1)
    public static let hold = BatchOutcome(rawValue: 2)
    public static let tooLarge = BatchOutcome(rawValue: 3)

    public static let schema = EnumSchema(
        "locationwire.v1.BatchOutcome",
        [
            ("BATCH_OUTCOME_UNSPECIFIED", 0),
            ("BATCH_OUTCOME_PROCESSED", 1),
            ("BATCH_OUTCOME_HOLD", 2),
            ("BATCH_OUTCOME_TOO_LARGE", 3),
        ])
}
