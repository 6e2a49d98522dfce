/// Why a device ignored a BatchAck as a whole (proto/README.md, "Acks a device ignores", `§ack-ignore`): it kept
/// every item, took no back-off, policy or command from it, and logged this stable code.
public enum AckIgnoreReason: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not a valid BatchAck encoding.
    case undecodable = "ack-undecodable"
    /// The batch id names no batch the device remembers (never sent, already answered, or forgotten).
    case unknownBatch = "ack-unknown-batch"
    /// The outcome is BATCH_OUTCOME_UNSPECIFIED.
    case outcomeMissing = "ack-outcome-missing"
    /// The outcome is a value this revision does not know.
    case outcomeUnknown = "ack-outcome-unknown"
    /// A range whose last sequence is below its first, or whose first sequence is 0.
    case rangeInverted = "range-inverted"
    /// Ranges not sorted by first sequence, in either list.
    case rangesNotSorted = "ranges-not-sorted"
    /// Ranges that overlap, in either list.
    case rangesOverlap = "ranges-overlap"
    /// Ranges with an outcome other than PROCESSED.
    case rangesWithoutProcessing = "ranges-without-processing"
    /// A REJECTED range without a reject reason.
    case rejectReasonMissing = "reject-reason-missing"

    /// The stable code, as proto/README.md lists it.
    public var code: String { rawValue }
    public var description: String { rawValue }
}
