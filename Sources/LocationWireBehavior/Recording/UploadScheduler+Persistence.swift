import LocationWire

// The upload timer's scalars persist as `locationwire.session.v1.UploadSchedulerState`
// (proto/locationwire/session/v1/upload_scheduler.proto, the format's specification). The pending fixes are not
// in it: an app may hold 100,000 of them, and it stores each one's record time with the fix anyway, so it gives
// them back on restore (``UploadScheduler/init(policy:restoring:pending:)``). The policy is not persisted.

extension UploadScheduler {
    /// The timer's memory apart from the pending fixes: O(1) in size. Times are ms on the monotonic clock of
    /// ``bootId``.
    public struct State: TableCodedMessage {
        /// The current boot; nil before the first fix.
        var bootId: UInt64?
        /// t₀ of the current boot: pending fixes of earlier boots count as recorded then (`§upload-boot`).
        var bootStartMs: UInt64 = 0
        /// U: the last upload time, or the boot's start.
        var lastUploadMs: UInt64 = 0
        /// How many fixes were recorded in all: the recording-order place of the next one.
        var recordedCount = 0
        /// How many attempts were made in all: the number of the next one, which picks its answer.
        var attemptCount = 0
        /// Failed attempts in a row (`§back-off`); carried over a new boot.
        var failuresInARow = 0
        /// After a failure or a HOLD: no upload before this time. nil: none in force.
        var retryAtMs: UInt64?
        /// A new boot began with something pending: an upload is due at this time (`§upload-boot`).
        var bootDueMs: UInt64?
        /// Fields a newer engine wrote: kept and written back.
        public var unknownFields = UnknownFields()

        public init() {}

        public static let fieldTable = FieldTable<State>(
            "locationwire.session.v1.UploadSchedulerState",
            [
                .optional(1, "boot_id", .fixed64, \.bootId),
                .singular(2, "boot_start_ms", .uint64, \.bootStartMs),
                .singular(3, "last_upload_ms", .uint64, \.lastUploadMs),
                .singular(4, "recorded_count", .uint64, \.persistedRecordedCount),
                .singular(5, "attempt_count", .uint64, \.persistedAttemptCount),
                .singular(6, "failures_in_a_row", .uint32, \.persistedFailuresInARow),
                .optional(7, "retry_at_ms", .uint64, \.retryAtMs),
                .optional(8, "boot_due_ms", .uint64, \.bootDueMs),
            ])

        // The counts are stored as their bit patterns, so every stored value reads back and writes back unchanged.

        /// ``recordedCount`` as stored.
        var persistedRecordedCount: UInt64 {
            get { UInt64(truncatingIfNeeded: recordedCount) }
            set { recordedCount = Int(truncatingIfNeeded: newValue) }
        }

        /// ``attemptCount`` as stored.
        var persistedAttemptCount: UInt64 {
            get { UInt64(truncatingIfNeeded: attemptCount) }
            set { attemptCount = Int(truncatingIfNeeded: newValue) }
        }

        /// ``failuresInARow`` as stored, a uint32 (the back-off stops doubling after 10).
        var persistedFailuresInARow: UInt32 {
            get { UInt32(clamping: failuresInARow) }
            set { failuresInARow = Int(newValue) }
        }
    }
}
