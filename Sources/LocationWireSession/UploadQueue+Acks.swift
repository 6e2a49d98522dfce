import LocationWire

/// What applying a BatchAck did.
public enum AckApplication: Hashable, Sendable {
    /// The ack was trusted and applied.
    case applied(AckEffect)
    /// The ack was ignored as a whole: everything kept (`§ack-ignore`).
    case ignored(AckIgnoreReason)

    public var ignoreReason: AckIgnoreReason? {
        if case .ignored(let reason) = self { reason } else { nil }
    }
}

/// The effect of one applied ack on the queue, and what it asks the app to do.
public struct AckEffect: Hashable, Sendable {
    public var outcome: BatchOutcome = .unspecified
    /// Fixes deleted because the server stored them (ACCEPTED or DUPLICATE).
    public var storedFixes: [UInt64] = []
    /// Fixes deleted because the server refused them for good (REJECTED), with the reason to log.
    public var rejectedFixes: [UInt64] = []
    public var rejectReasons: [RejectReason] = []
    /// Fixes of the batch kept for a later upload.
    public var keptFixes: [UInt64] = []
    /// Fence events deleted (stored or refused) and kept.
    public var deletedEvents: [UInt64] = []
    public var keptEvents: [UInt64] = []
    /// Fixes the device discarded: the only item of a batch answered TOO_LARGE, which cannot be sent smaller
    /// (`§batch-size`); a loss the floor reports.
    public var discardedFixes: [UInt64] = []
    /// Commands to execute now (each id once, unexpired, of a known kind).
    public var commands: [DeviceCommand] = []
    /// The server holds a newer assignment than the device applied: send a RegionRequest (SERVER_HINT).
    public var requestRegions = false

    public init() {}
}

extension UploadQueueEngine {
    /// Decodes and applies an ack; undecodable bytes are ignored as `ack-undecodable`.
    public mutating func apply(ackBytes: [UInt8], nowMs: Int64) throws(Items.Failure) -> AckApplication {
        guard let ack = try? BatchAck(serializedBytes: ackBytes) else { return .ignored(.undecodable) }
        return try apply(ack, nowMs: nowMs)
    }

    /// Applies a BatchAck to the items of the batch it names, and only to them (`§ack-scope`): the outcome table
    /// (`§batch-outcome`), the item table (`§ack-table`), retry-after (`§retry-after`), policy, hints and commands
    /// (`§commands`). An ack that cannot be trusted changes nothing and says why (`§ack-ignore`).
    public mutating func apply(_ ack: BatchAck, nowMs: Int64) throws(Items.Failure) -> AckApplication {
        guard let index = state.batches.firstIndex(where: { $0.batchId == ack.batchId }) else {
            return .ignored(.unknownBatch)
        }
        if let reason = Self.reasonToIgnore(ack) {
            // An ack for a batch in flight that cannot be trusted is a failure (`§back-off`); an
            // ack-unknown-batch answers no batch in flight, and counts for nothing.
            state.consecutiveFailures += 1
            state.holdUntilMs = max(
                state.holdUntilMs, nowMs + Self.backOffMs(consecutiveFailures: state.consecutiveFailures))
            return .ignored(reason)
        }
        let record = state.batches.remove(at: index)

        var effect = AckEffect()
        effect.outcome = ack.outcome
        switch ack.outcome {
        case .processed:
            try applyItemResults(of: ack, to: record, effect: &effect)
            let deletedAny =
                !effect.storedFixes.isEmpty || !effect.rejectedFixes.isEmpty || !effect.deletedEvents.isEmpty
                || !record.lifecycleIds.isEmpty
            if deletedAny {
                state.consecutiveFailures = 0
            } else if !effect.keptFixes.isEmpty || !effect.keptEvents.isEmpty {
                // Every item kept (RETRY_LATER, unknown, uncovered): a failure, so that a server that keeps
                // answering so is not asked again at once (`§back-off`).
                state.consecutiveFailures += 1
                if ack.retryAfterMs == nil {
                    state.holdUntilMs = max(
                        state.holdUntilMs, nowMs + Self.backOffMs(consecutiveFailures: state.consecutiveFailures))
                }
            }
        case .hold:
            if ack.holdReason == .unknownCompactColumn || ack.holdReason == .batchMalformed { state.rowsOnly = true }
            state.consecutiveFailures += 1
            if ack.retryAfterMs == nil {
                state.holdUntilMs = max(
                    state.holdUntilMs, nowMs + Self.backOffMs(consecutiveFailures: state.consecutiveFailures))
            }
        case .tooLarge:
            learnBatchBytes(Self.shrunkLimit(sent: record.encodedSize, after: .tooLarge(stated: ack.maxBatchBytes)))
            try discardIfAlone(record, effect: &effect)
        default:
            preconditionFailure("reasonToIgnore lets only known outcomes through")
        }
        if let retryAfterMs = ack.retryAfterMs {
            state.holdUntilMs = max(state.holdUntilMs, nowMs + Int64(retryAfterMs))
        }
        if ack.protocolRevision != 0 { state.serverRevision = ack.protocolRevision }
        if let newPolicy = ack.trackingPolicy, newPolicy.policyVersion > state.policy.policyVersion {
            state.policy = newPolicy
        }
        if ack.latestAssignmentVersion > (state.armedRegions?.assignmentVersion ?? 0),
            ack.latestAssignmentVersion > state.hintedAssignmentVersion
        {
            state.hintedAssignmentVersion = ack.latestAssignmentVersion
            effect.requestRegions = true
        }
        effect.commands = takeCommands(ack.commands, nowMs: nowMs)
        return .applied(effect)
    }

    /// Why a batch's size was refused: as too large (a `TOO_LARGE` ack or a `413`, with the limit it stated, if
    /// any), or by a `408`, whose body did not arrive in time.
    public enum SizeRefusal: Equatable, Sendable {
        case tooLarge(stated: UInt32?)
        case timedOut
    }

    /// The batch limit after a batch of `sent` bytes was refused (proto/HTTP.md `§http-shrink`), bytes. A stated
    /// limit counts as at least ``minimumBatchBytes``, and is read as absent unless it is then below `sent`;
    /// without one, half of `sent`, never under the minimum unless `sent` was within it already; after a
    /// time-out, half of `sent` and never under the minimum.
    public static func shrunkLimit(sent: UInt32, after refusal: SizeRefusal) -> UInt32 {
        let minimum = UInt32(minimumBatchBytes)
        switch refusal {
        case .timedOut:
            return max(sent / 2, minimum)
        case .tooLarge(let stated):
            if let stated, max(stated, minimum) < sent { return max(stated, minimum) }
            return sent <= minimum ? max(sent / 2, 1) : max(sent / 2, minimum)
        }
    }

    /// Takes `limit` as the largest batch from now on, when it is below the one learnt before (`§batch-size`,
    /// `§batch-composition`).
    public mutating func learnBatchBytes(_ limit: UInt32) {
        state.learntBatchBytes = state.learntBatchBytes == 0 ? limit : min(state.learntBatchBytes, limit)
    }

    /// A batch of one item and nothing else that is too large cannot be sent smaller: the item is discarded, a
    /// loss its floor reports, rather than sent for ever; a batch of state reports alone drops them until they
    /// change (proto/HTTP.md `§http-shrink-alone`).
    private mutating func discardIfAlone(_ record: BatchRecord, effect: inout AckEffect) throws(Items.Failure) {
        let itemCount = record.fixSequences.count + record.eventSequences.count + record.lifecycleIds.count
        if itemCount == 0 {
            if let status = record.deviceStatus, status == state.deviceStatus { state.deviceStatusReported = true }
            if let armed = record.armedRegions, armed == state.armedRegions { state.armedRegionsReported = true }
            return
        }
        guard itemCount == 1, record.deviceStatus == nil, record.armedRegions == nil else { return }
        if let sequence = record.fixSequences.first {
            try items.fixes.remove([sequence])
            state.discardedFixCount += 1
            effect.discardedFixes.append(sequence)
        } else if let sequence = record.eventSequences.first {
            try items.fenceEvents.remove([sequence])
        } else if let id = record.lifecycleIds.first {
            try items.lifecycleEvents.remove([id])
        }
    }

    /// The structural checks of `§ack-ignore`, in the table's order.
    static func reasonToIgnore(_ ack: BatchAck) -> AckIgnoreReason? {
        switch ack.outcome {
        case .unspecified: return .outcomeMissing
        case .processed, .hold, .tooLarge: break
        default: return .outcomeUnknown
        }
        // The first row of the table that applies gives the code: every range's bounds before the lists' order.
        let allRanges = ack.fixResults + ack.fenceEventResults
        if allRanges.contains(where: { $0.firstSequence == 0 || $0.lastSequence < $0.firstSequence }) {
            return .rangeInverted
        }
        for ranges in [ack.fixResults, ack.fenceEventResults] {
            var previous: AckRange?
            for range in ranges {
                if let previous {
                    if range.firstSequence < previous.firstSequence { return .rangesNotSorted }
                    if range.firstSequence <= previous.lastSequence { return .rangesOverlap }
                }
                previous = range
            }
        }
        let hasRanges = !ack.fixResults.isEmpty || !ack.fenceEventResults.isEmpty
        if ack.outcome != .processed, hasRanges { return .rangesWithoutProcessing }
        let rejectsWithoutReason = allRanges.contains {
            $0.result == .rejected && $0.rejectReason == .unspecified
        }
        if rejectsWithoutReason { return .rejectReasonMissing }
        return nil
    }

    /// Whether an item with this result leaves the device (`§ack-table`). Unknown results, RETRY_LATER, and
    /// revision 0's passing reject reasons (5, 6) keep it.
    static func deletes(_ range: AckRange?) -> Bool {
        guard let range else { return false }
        switch range.result {
        case .accepted, .duplicate: return true
        case .rejected: return range.rejectReason.rawValue != 5 && range.rejectReason.rawValue != 6
        default: return false
        }
    }

    /// The range covering `sequence` in sorted, non-overlapping `ranges`.
    static func range(covering sequence: UInt64, in ranges: [AckRange]) -> AckRange? {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lastSequence < sequence { low = middle + 1 } else { high = middle }
        }
        guard low < ranges.count, ranges[low].firstSequence <= sequence else { return nil }
        return ranges[low]
    }

    private mutating func applyItemResults(
        of ack: BatchAck, to record: BatchRecord, effect: inout AckEffect
    ) throws(Items.Failure) {
        var deleteFixes = Set<UInt64>()
        let scope: [UInt64]
        if state.injectedFaults.contains(.ackAppliesToEveryItem) {
            scope = try items.fixes.keys()  // the bug of hole 1: every item the device has
        } else {
            scope = record.fixSequences
        }
        for sequence in scope {
            let range = Self.range(covering: sequence, in: ack.fixResults)
            if Self.deletes(range) {
                deleteFixes.insert(sequence)
                if range!.result == .rejected {
                    effect.rejectedFixes.append(sequence)
                    effect.rejectReasons.append(range!.rejectReason)
                } else {
                    effect.storedFixes.append(sequence)
                }
            } else {
                effect.keptFixes.append(sequence)
            }
        }
        try items.fixes.remove(deleteFixes)

        var deleteEvents = Set<UInt64>()
        for sequence in record.eventSequences {
            if Self.deletes(Self.range(covering: sequence, in: ack.fenceEventResults)) {
                deleteEvents.insert(sequence)
                effect.deletedEvents.append(sequence)
            } else {
                effect.keptEvents.append(sequence)
            }
        }
        try items.fenceEvents.remove(deleteEvents)

        // Batch-level items are stored with a PROCESSED outcome.
        try items.lifecycleEvents.remove(Set(record.lifecycleIds))
        if let status = record.deviceStatus, status == state.deviceStatus { state.deviceStatusReported = true }
        if let armed = record.armedRegions, armed == state.armedRegions { state.armedRegionsReported = true }
    }

    /// The commands to execute, in ascending id order: each id above the highest executed so far, unexpired, of a
    /// kind this revision knows (`§commands`).
    private mutating func takeCommands(_ commands: [DeviceCommand], nowMs: Int64) -> [DeviceCommand] {
        var taken: [DeviceCommand] = []
        for command in commands.sorted(by: { $0.commandId < $1.commandId })
        where command.commandId > state.highestExecutedCommandId {
            guard command.kind.isKnown, command.kind != .unspecified else { continue }
            guard command.expiresAtMs == 0 || nowMs <= command.expiresAtMs else { continue }
            taken.append(command)
            state.highestExecutedCommandId = command.commandId
        }
        return taken
    }
}
