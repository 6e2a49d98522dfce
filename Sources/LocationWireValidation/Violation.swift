import LocationWire

/// One broken rule of the spec: a stable code, its severity, where, and a sentence for humans.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// How bad a broken rule is (proto/README.md, "Validation rules"): an error breaks a MUST, so the message
    /// does not conform; a warning breaks a SHOULD, and the message still conforms.
    public enum Severity: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case error
        case warning
        public var description: String { rawValue }
    }

    /// A stable, machine-readable rule id with its fixed severity. proto/README.md lists every code with its
    /// severity and rule.
    public struct Code: Hashable, Sendable, CustomStringConvertible, Comparable {
        public let rawValue: String
        /// The severity of every violation of this rule.
        public let severity: Severity
        public init(_ rawValue: String, severity: Severity = .error) {
            self.rawValue = rawValue
            self.severity = severity
        }
        public var description: String { rawValue }
        public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rawValue < rhs.rawValue }

        // Generic checks, told apart by the path.
        /// A field the spec requires is absent, zero, empty or UNSPECIFIED.
        public static let requiredFieldMissing = Code("required-field-missing")
        /// A number outside the range the field's comment states.
        public static let valueOutOfRange = Code("value-out-of-range")
        /// A time before 2000-01-01 or from 2100-01-01 on.
        public static let timeOutOfRange = Code("time-out-of-range")
        /// A string longer than the field allows.
        public static let stringTooLong = Code("string-too-long")
        /// A region id that is not `<namespace>:<local id>` with the allowed characters and lengths.
        public static let regionIdMalformed = Code("region-id-malformed")

        // Fixes and batches.
        /// A fix at exactly latitude 0, longitude 0.
        public static let nullIsland = Code("null-island")
        /// An accuracy (horizontal, vertical, speed, course) that is present but 0.
        public static let accuracyNotPositive = Code("accuracy-not-positive")
        /// A fix's sequence number not greater than the previous fix's in the batch.
        public static let sequenceNotIncreasing = Code("sequence-not-increasing")
        /// The live fix's sequence number not greater than every backlog fix's.
        public static let liveFixNotLatest = Code("live-fix-not-latest")
        /// A fix sequence floor above a fix sequence of the batch, or an event sequence floor above an event
        /// sequence of it: the batch holds what the device says has left it for good.
        public static let sequenceFloorAboveBatch = Code("sequence-floor-above-batch")
        /// A fix time, backlog or live, more than 10 minutes after the batch's send time.
        public static let timeAfterSend = Code("time-after-send")
        /// Two consecutive fixes of one boot whose wall-clock and monotonic differences differ by more than 1 s.
        public static let clockJump = Code("clock-jump", severity: .warning)
        /// A batch that uses both `fixes` and `compact_fixes` (a `compact_fixes` field with `count` 0 included).
        public static let rowsAndCompact = Code("rows-and-compact")
        /// A fence event's sequence number not greater than the previous event's in the batch.
        public static let eventSequenceNotIncreasing = Code("event-sequence-not-increasing")
        /// Lifecycle events not oldest first.
        public static let lifecycleEventsNotOrdered = Code("lifecycle-events-not-ordered")
        /// A relaunch reason on an event that is not a system relaunch.
        public static let relaunchReasonWithoutRelaunch = Code("relaunch-reason-without-relaunch")
        /// A fence event detected before the OS says it happened.
        public static let detectedBeforeEvent = Code("detected-before-event")
        /// A dwell time on a fence event that is not a dwell.
        public static let dwellWithoutDwellKind = Code("dwell-without-dwell-kind")
        /// A DWELL fence event without a dwell time.
        public static let dwellMsMissing = Code("dwell-ms-missing")

        // Regions.
        /// The same region id twice in one list, or in one assignment.
        public static let duplicateRegionId = Code("duplicate-region-id")
        /// A region id listed both as armed and as failed.
        public static let regionArmedAndFailed = Code("region-armed-and-failed")
        /// Failure reasons neither absent nor one for each failed region id.
        public static let failureReasonsLengthMismatch = Code("failure-reasons-length-mismatch")
        public static let polygonTooFewVertices = Code("polygon-too-few-vertices")
        public static let polygonTooManyVertices = Code("polygon-too-many-vertices")
        /// Different numbers of polygon latitudes and longitudes.
        public static let polygonLengthMismatch = Code("polygon-length-mismatch")
        /// A polygon vertex outside the region's circle.
        public static let polygonOutsideCircle = Code("polygon-outside-circle")
        /// A region that names itself as its parent.
        public static let parentIsSelf = Code("parent-is-self")
        /// A region whose parent (in the same assignment) is not at a coarser level.
        public static let parentLevelNotCoarser = Code("parent-level-not-coarser")
        /// A region whose parent (in the same assignment) does not enclose it: centre distance plus the child's
        /// radius above the parent's radius plus 1 m.
        public static let childOutsideParent = Code("child-outside-parent")
        /// A region that notifies on nothing.
        public static let noTransition = Code("no-transition")
        /// A loitering delay on a region that does not notify on dwell.
        public static let loiteringDelayWithoutDwell = Code("loitering-delay-without-dwell")
        /// An expiry not after the issue time.
        public static let expiresBeforeIssued = Code("expires-before-issued")
        /// A full replacement with a base version.
        public static let baseVersionInFull = Code("base-version-in-full")
        /// A full replacement with removals.
        public static let removalsInFull = Code("removals-in-full")
        /// A delta whose base version is not older than its own version.
        public static let baseVersionNotOlder = Code("base-version-not-older")
        /// A full replacement with more regions than its slot budget, or a delta whose upserts alone are more.
        public static let regionCountExceedsBudget = Code("region-count-exceeds-budget")
        /// A delta that both removes and upserts one id.
        public static let regionRemovedAndUpserted = Code("region-removed-and-upserted")
        /// A refresh distance without both anchor coordinates.
        public static let refreshAnchorMissing = Code("refresh-anchor-missing")
        /// A request keeping at least as many slots for the app as the platform has.
        public static let reservedSlotsExceedLimit = Code("reserved-slots-exceed-limit")
        /// A refine region id on a request whose reason is not REFINE_ON_ENTRY.
        public static let refineRegionWithoutRefineReason = Code("refine-region-without-refine-reason")

        // Acks.
        /// An ack range whose first sequence number is greater than its last.
        public static let rangeInverted = Code("range-inverted")
        /// Ack ranges that overlap.
        public static let rangesOverlap = Code("ranges-overlap")
        /// Ack ranges not sorted by first sequence number.
        public static let rangesNotSorted = Code("ranges-not-sorted")
        /// A REJECTED range without a reason.
        public static let rejectReasonMissing = Code("reject-reason-missing")
        /// A reject reason on a range that is not REJECTED.
        public static let rejectReasonWithoutRejection = Code("reject-reason-without-rejection")
        /// A REJECTED range with reason 5 or 6: revision 0's DEVICE_UNKNOWN and QUOTA_EXCEEDED, passing
        /// conditions that are a HOLD now.
        public static let rejectReasonRetired = Code("reject-reason-retired")
        /// Ack ranges with an outcome other than PROCESSED.
        public static let rangesWithoutProcessing = Code("ranges-without-processing")
        /// A HOLD outcome without a hold reason.
        public static let holdReasonMissing = Code("hold-reason-missing")
        /// A hold reason with an outcome other than HOLD.
        public static let holdReasonWithoutHold = Code("hold-reason-without-hold")
        /// Two commands of one ack with the same command id.
        public static let duplicateCommandId = Code("duplicate-command-id")

        /// Not a rule: the last entry of a list cut at ``ValidationReport/maxViolations``, saying how many more
        /// violations were found.
        public static let violationsOmitted = Code("violations-omitted")

        /// A compact-form error: the code of the CompactFixesError.
        public static func compact(_ code: CompactFixesError.Code) -> Code { Code(code.rawValue) }

        /// Every code of a rule, for documentation and exhaustive tests (not ``violationsOmitted``), in the order
        /// of proto/README.md's table. The compact codes are those a validator can meet when it expands a
        /// received CompactFixes; `compact-unknown-fields` and `compact-count-overflow` arise only when fixes are
        /// converted to the compact form.
        public static let all: [Code] =
            [
                .requiredFieldMissing, .valueOutOfRange, .timeOutOfRange, .stringTooLong, .regionIdMalformed,
                .nullIsland, .accuracyNotPositive, .sequenceNotIncreasing, .liveFixNotLatest,
                .sequenceFloorAboveBatch, .timeAfterSend, .clockJump, .rowsAndCompact, .eventSequenceNotIncreasing,
                .lifecycleEventsNotOrdered, .relaunchReasonWithoutRelaunch, .detectedBeforeEvent,
                .dwellWithoutDwellKind, .dwellMsMissing, .duplicateRegionId, .regionArmedAndFailed,
                .failureReasonsLengthMismatch, .polygonTooFewVertices, .polygonTooManyVertices,
                .polygonLengthMismatch, .polygonOutsideCircle, .parentIsSelf, .parentLevelNotCoarser,
                .childOutsideParent, .noTransition, .loiteringDelayWithoutDwell, .expiresBeforeIssued,
                .baseVersionInFull, .removalsInFull, .baseVersionNotOlder, .regionCountExceedsBudget,
                .regionRemovedAndUpserted, .refreshAnchorMissing, .reservedSlotsExceedLimit,
                .refineRegionWithoutRefineReason, .rangeInverted, .rangesOverlap, .rangesNotSorted,
                .rejectReasonMissing, .rejectReasonWithoutRejection, .rejectReasonRetired, .rangesWithoutProcessing,
                .holdReasonMissing, .holdReasonWithoutHold, .duplicateCommandId,
            ]
            + [.runLengthsMismatch, .columnTooLong, .presenceMismatch, .valueOutOfRange, .tooManyFixes].map(compact)
    }

    public let code: Code
    public let path: FieldPath
    public let message: String

    public init(code: Code, path: FieldPath, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The severity of the rule broken: fixed per code.
    public var severity: Severity { code.severity }

    public var description: String { "\(severity): \(code) at \(path): \(message)" }
}
