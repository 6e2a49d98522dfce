import LocationWire

/// The device side of a LocationWire session: the reference engine for what proto/README.md says a device does
/// with its fixes, fence events and lifecycle events between recording them and deleting them.
///
/// Deterministic and Foundation-free: time comes in as arguments (device clock, UTC ms), randomness (batch ids,
/// boot ids) too. Every mutating call leaves the queue in a state that ``serializedBytes()`` persists and
/// ``init(serializedBytes:limits:)`` restores, so an app kill between any two calls loses nothing recorded.
///
/// The rules it implements, by spec tag: `§sequence-consecutive`, `§install-id`, `§batch-id` (ids come from
/// the caller), `§sequence-floor`, `§ack-scope`, `§batch-outcome`, `§ack-table`, `§retry-after`, `§ack-ignore`,
/// `§no-ack`, `§in-flight`, `§batch-size`, `§commands`, `§item-boot`, `§no-silent-drop`, `§revision`.
public struct UploadQueue: Hashable, Sendable {
    /// The default of `TrackingPolicy.max_batch_size`.
    public static let defaultMaxBatchSize = 500
    /// The default of `TrackingPolicy.max_batch_bytes` (1 MiB).
    public static let defaultMaxBatchBytes = 1_048_576
    /// The smallest batch limit a server may set, and the floor of halving after a TOO_LARGE without a limit.
    public static let minimumBatchBytes = 16_384
    /// The default of `TrackingPolicy.max_batches_in_flight`.
    public static let defaultMaxBatchesInFlight = 1
    /// The revision of the specification this engine follows.
    public static let protocolRevision: UInt32 = 1
    /// How many given-up batches the device remembers, so that late acks still apply; older ones are forgotten
    /// (their acks are then ignored as `ack-unknown-batch`, which is safe).
    public static let rememberedGivenUpBatches = 16
    /// The device's own back-off after a transport failure or a HOLD without `retry_after_ms`: 1 s, doubling
    /// with each consecutive failure, at most 5 minutes.
    public static func backOffMs(consecutiveFailures: Int) -> Int64 {
        let exponent = min(max(consecutiveFailures - 1, 0), 9)
        return min(1000 << Int64(exponent), 300_000)
    }

    public internal(set) var deviceId: String = ""
    /// Random id of this installation (`§install-id`); never 0 in a usable queue.
    public internal(set) var installId: UInt64 = 0
    /// The datum of every coordinate recorded.
    public internal(set) var datum: CoordinateDatum = .wgs84

    /// Fixes recorded and not yet deleted, ascending by sequence.
    public internal(set) var fixes: [LocationFix] = []
    /// Fence events recorded and not yet deleted, ascending by event sequence.
    public internal(set) var fenceEvents: [FenceEvent] = []
    /// Lifecycle events not yet acknowledged, oldest first, with the queue-local ids batches name them by.
    public internal(set) var lifecycleEvents: [LifecycleEvent] = []
    public internal(set) var lifecycleIds: [UInt64] = []
    /// The latest device status, and whether a PROCESSED ack has stored exactly this snapshot.
    public internal(set) var deviceStatus: DeviceStatus?
    public internal(set) var deviceStatusReported = false
    /// The latest armed regions, and whether a PROCESSED ack has stored exactly this snapshot.
    public internal(set) var armedRegions: ArmedRegions?
    public internal(set) var armedRegionsReported = false

    /// The sequence number the next fix gets (`§sequence-consecutive`): persisted with the fix it numbers.
    public internal(set) var nextFixSequence: UInt64 = 1
    public internal(set) var nextEventSequence: UInt64 = 1
    var nextLifecycleId: UInt64 = 1
    /// Fixes the device itself discarded (a real loss, which the floor makes visible to the server).
    public internal(set) var discardedFixCount: UInt64 = 0

    /// The policy in force (the default policy until a server sends one).
    public internal(set) var policy = TrackingPolicy()
    /// Batches sent and not yet answered, oldest first; given-up ones stay (marked) until answered or forgotten.
    public internal(set) var batches: [BatchRecord] = []
    /// No batch is sent before this time, device clock, UTC ms (`retry_after_ms` or back-off).
    public internal(set) var holdUntilMs: Int64 = .min
    /// Consecutive transport failures and HOLDs, for the back-off.
    public internal(set) var consecutiveFailures = 0
    /// A limit learnt from a TOO_LARGE answer, bytes; 0 when none.
    public internal(set) var learntBatchBytes: UInt32 = 0
    /// Set by HOLD_REASON_UNKNOWN_COMPACT_COLUMN: send rows from now on (`§no-silent-drop`).
    public internal(set) var rowsOnly = false
    /// The revision the server last stated (BatchAck.protocol_revision); compact is used only when it knows
    /// every column this revision has.
    public internal(set) var serverRevision: UInt32 = 0
    /// The latest assignment version a server hinted at (BatchAck.latest_assignment_version).
    public internal(set) var hintedAssignmentVersion: UInt64 = 0
    /// The highest command id executed (`§commands`: ids increase, so one number makes "at most once" exact).
    public internal(set) var highestExecutedCommandId: UInt64 = 0

    /// Deliberate bugs for the simulator and the model check to prove they catch them. Never set in an app.
    package var injectedFaults: InjectedFaults = []
    /// Fields of a newer engine's persisted state, kept so that a downgrade loses nothing.
    public var unknownFields = UnknownFields()

    public init() {}

    /// A new installation's queue: `installId` is a random non-zero value the app draws on first launch.
    public init(deviceId: String, installId: UInt64, datum: CoordinateDatum = .wgs84) {
        precondition(installId != 0, "install_id 0 is invalid (§install-id)")
        self.deviceId = deviceId
        self.installId = installId
        self.datum = datum
    }

    // MARK: - Recording

    /// Queues a fix and gives it the next sequence number (`§sequence-consecutive`). `fix.bootId` must be the
    /// boot its `elapsedRealtimeMs` was read in; the batch clears it where it equals the batch's boot.
    @discardableResult
    public mutating func record(_ fix: LocationFix) -> UInt64 {
        var fix = fix
        fix.sequence = nextFixSequence
        nextFixSequence += 1
        fixes.append(fix)
        return fix.sequence
    }

    /// Queues a fence event and gives it the next event sequence number.
    @discardableResult
    public mutating func record(_ event: FenceEvent) -> UInt64 {
        var event = event
        event.eventSequence = nextEventSequence
        nextEventSequence += 1
        fenceEvents.append(event)
        return event.eventSequence
    }

    /// Queues a lifecycle event.
    public mutating func record(_ event: LifecycleEvent) {
        lifecycleEvents.append(event)
        lifecycleIds.append(nextLifecycleId)
        nextLifecycleId += 1
    }

    /// Replaces the device status to report; it is sent until a PROCESSED ack stores this snapshot.
    public mutating func update(_ status: DeviceStatus) {
        guard status != deviceStatus else { return }
        deviceStatus = status
        deviceStatusReported = false
    }

    /// Replaces the armed regions to report, likewise.
    public mutating func update(_ armed: ArmedRegions) {
        guard armed != armedRegions else { return }
        armedRegions = armed
        armedRegionsReported = false
    }

    /// Discards the `count` oldest fixes that are in no batch in flight (storage full): a real loss, which the
    /// floor then shows to the server as a gap (`§sequence-floor`). Returns their sequence numbers.
    @discardableResult
    public mutating func discardOldestFixes(_ count: Int) -> [UInt64] {
        let busy = sequencesInActiveBatches(\.fixSequences)
        var discarded: [UInt64] = []
        fixes.removeAll { fix in
            guard discarded.count < count, !busy.contains(fix.sequence) else { return false }
            discarded.append(fix.sequence)
            return true
        }
        discardedFixCount += UInt64(discarded.count)
        return discarded
    }

    // MARK: - Floors and limits

    /// The lowest fix sequence the device still holds, or the next it will assign (`§sequence-floor`).
    public var fixSequenceFloor: UInt64 { fixes.first?.sequence ?? nextFixSequence }
    /// The same for fence events.
    public var eventSequenceFloor: UInt64 { fenceEvents.first?.eventSequence ?? nextEventSequence }

    /// The most fixes in one batch, backlog and live fix together.
    public var maxBatchSize: Int { max(1, Int(policy.maxBatchSize ?? UInt32(Self.defaultMaxBatchSize))) }

    /// The byte limit every batch keeps to (`§batch-size`): the policy's, or a smaller one learnt from TOO_LARGE.
    public var maxBatchBytes: Int {
        // A policy under the minimum breaks `§batch-size` and is not taken; a learnt limit already follows
        // ``shrunkLimit(sent:after:)``, which goes under the minimum only for batches that were within it.
        let policyLimit = max(Int(policy.maxBatchBytes ?? UInt32(Self.defaultMaxBatchBytes)), Self.minimumBatchBytes)
        return learntBatchBytes == 0 ? policyLimit : min(policyLimit, Int(learntBatchBytes))
    }

    /// How many batches may be in flight at once (`§in-flight`), 1 ... 16.
    public var maxBatchesInFlight: Int {
        min(max(Int(policy.maxBatchesInFlight ?? UInt32(Self.defaultMaxBatchesInFlight)), 1), 16)
    }

    /// Batches sent and neither answered nor given up.
    public var activeBatchCount: Int { batches.count { !$0.givenUp } }

    /// True when nothing recorded is left: every fix, event and lifecycle event deleted, status reported.
    public var isDrained: Bool {
        fixes.isEmpty && fenceEvents.isEmpty && lifecycleEvents.isEmpty
            && (deviceStatus == nil || deviceStatusReported) && (armedRegions == nil || armedRegionsReported)
    }

    func sequencesInActiveBatches(_ items: KeyPath<BatchRecord, [UInt64]>) -> Set<UInt64> {
        var busy = Set<UInt64>()
        for batch in batches where !batch.givenUp { busy.formUnion(batch[keyPath: items]) }
        return busy
    }
}

/// Bugs the simulator and the tests switch on to prove that the invariant checks catch them.
package struct InjectedFaults: OptionSet, Hashable, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Hole 1 of issue 10: an ACCEPTED range deletes every queued fix in it, not only the answered batch's.
    package static let ackAppliesToEveryItem = InjectedFaults(rawValue: 1 << 0)
}
