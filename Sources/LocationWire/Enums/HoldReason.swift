/// `locationwire.v1.HoldReason`, from `proto/locationwire/v1/batch_ack.proto`.
public struct HoldReason: LocationWireEnum {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let unspecified = HoldReason(rawValue: 0)
    public static let serverBusy = HoldReason(rawValue: 1)
    public static let deviceUnknown = HoldReason(rawValue: 2)
    public static let quotaExceeded = HoldReason(rawValue: 3)
    public static let unknownCompactColumn = HoldReason(rawValue: 4)
    public static let unknownDatum = HoldReason(rawValue: 5)
    public static let unsupportedRevision = HoldReason(rawValue: 6)
    public static let batchMalformed = HoldReason(rawValue: 7)

    public static let schema = EnumSchema(
        "locationwire.v1.HoldReason",
        [
            ("HOLD_REASON_UNSPECIFIED", 0),
            ("HOLD_REASON_SERVER_BUSY", 1),
            ("HOLD_REASON_DEVICE_UNKNOWN", 2),
            ("HOLD_REASON_QUOTA_EXCEEDED", 3),
            ("HOLD_REASON_UNKNOWN_COMPACT_COLUMN", 4),
            ("HOLD_REASON_UNKNOWN_DATUM", 5),
            ("HOLD_REASON_UNSUPPORTED_REVISION", 6),
            ("HOLD_REASON_BATCH_MALFORMED", 7),
        ])
}
