import LocationWire

/// One broken rule of the spec: a stable code, where, and a sentence for humans.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable rule id. proto/README.md lists every code with its rule.
    public struct Code: Hashable, Sendable, CustomStringConvertible, Comparable {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
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
        /// A fix time more than 10 minutes after the batch's send time.
        public static let timeAfterSend = Code("time-after-send")
        /// A batch that uses both `fixes` and `compact_fixes`.
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

        // Regions.
        /// The same region id twice in one list, or in one assignment.
        public static let duplicateRegionId = Code("duplicate-region-id")
        /// A region id listed both as armed and as failed.
        public static let regionArmedAndFailed = Code("region-armed-and-failed")
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
        /// A full replacement with more regions than its slot budget.
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

        /// Not a rule: the last entry of a list cut at ``ValidationReport/maxViolations``, saying how many more
        /// violations were found.
        public static let violationsOmitted = Code("violations-omitted")

        /// A compact-form error: the code of the CompactFixesError.
        public static func compact(_ code: CompactFixesError.Code) -> Code { Code(code.rawValue) }

        /// Every code of a rule, for documentation and exhaustive tests (not ``violationsOmitted``).
        public static let all: [Code] =
            [
                .requiredFieldMissing, .valueOutOfRange, .timeOutOfRange, .stringTooLong, .regionIdMalformed,
                .nullIsland, .accuracyNotPositive, .sequenceNotIncreasing, .liveFixNotLatest, .timeAfterSend,
                .rowsAndCompact, .eventSequenceNotIncreasing, .lifecycleEventsNotOrdered,
                .relaunchReasonWithoutRelaunch, .detectedBeforeEvent, .dwellWithoutDwellKind, .duplicateRegionId,
                .regionArmedAndFailed, .polygonTooFewVertices, .polygonTooManyVertices, .polygonLengthMismatch,
                .polygonOutsideCircle, .parentIsSelf, .parentLevelNotCoarser, .noTransition,
                .loiteringDelayWithoutDwell, .expiresBeforeIssued, .baseVersionInFull, .removalsInFull,
                .baseVersionNotOlder, .regionCountExceedsBudget, .regionRemovedAndUpserted, .refreshAnchorMissing,
                .reservedSlotsExceedLimit, .refineRegionWithoutRefineReason, .rangeInverted, .rangesOverlap,
                .rangesNotSorted, .rejectReasonMissing, .rejectReasonWithoutRejection,
            ]
            + CompactFixesError.Code.all.filter { $0 != .tooManyFixes && $0 != .unknownFields && $0 != .countOverflow }
            .map { Code($0.rawValue) }
    }

    public let code: Code
    public let path: FieldPath
    public let message: String

    public init(code: Code, path: FieldPath, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(code) at \(path): \(message)" }
}
