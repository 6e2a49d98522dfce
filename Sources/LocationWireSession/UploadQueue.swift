import LocationWire

/// The device side of a LocationWire session: the reference engine for what proto/README.md says a device does
/// with its fixes, fence events and lifecycle events between recording them and deleting them.
///
/// Deterministic and Foundation-free: time comes in as arguments (device clock, UTC ms), randomness (batch ids,
/// boot ids) too. The queue decides; its items live where `Items` keeps them (``UploadItemStore``): in memory for
/// ``UploadQueue`` (the engines, the vectors, the simulator), whose every mutating call leaves a state that
/// `serializedBytes()` persists and `init(serializedBytes:)` restores; in SQLite for the reference device. The
/// rest of the queue (counters, policy, batches in flight, the server's answers) is ``UploadQueueState``.
///
/// The rules it implements, by spec tag: `§sequence-consecutive`, `§install-id`, `§batch-id` (ids come from
/// the caller), `§sequence-floor`, `§ack-scope`, `§batch-outcome`, `§ack-table`, `§retry-after`, `§ack-ignore`,
/// `§no-ack`, `§in-flight`, `§batch-size`, `§commands`, `§item-boot`, `§no-silent-drop`, `§revision`.
@dynamicMemberLookup
public struct UploadQueueEngine<Items: UploadItemStore> {
    /// The default of `TrackingPolicy.max_batch_size`.
    public static var defaultMaxBatchSize: Int { 500 }
    /// The default of `TrackingPolicy.max_batch_bytes` (1 MiB).
    public static var defaultMaxBatchBytes: Int { 1_048_576 }
    /// The smallest batch limit a server may set, and the floor of halving after a TOO_LARGE without a limit.
    public static var minimumBatchBytes: Int { 16_384 }
    /// The default of `TrackingPolicy.max_batches_in_flight`.
    public static var defaultMaxBatchesInFlight: Int { 1 }
    /// The revision of the specification this engine follows.
    public static var protocolRevision: UInt32 { 1 }
    /// How many given-up batches the device remembers, so that late acks still apply; older ones are forgotten
    /// (their acks are then ignored as `ack-unknown-batch`, which is safe).
    public static var rememberedGivenUpBatches: Int { 16 }
    /// The device's own back-off after a transport failure or a HOLD without `retry_after_ms`: 1 s, doubling
    /// with each consecutive failure, at most 5 minutes.
    public static func backOffMs(consecutiveFailures: Int) -> Int64 {
        let exponent = min(max(consecutiveFailures - 1, 0), 9)
        return min(1000 << Int64(exponent), 300_000)
    }

    /// Everything but the items: counters, policy, batches in flight, the server's answers.
    public internal(set) var state: UploadQueueState
    /// The items recorded and not yet deleted.
    public internal(set) var items: Items

    /// The queue's state, read as the queue's own properties (`queue.policy`, `queue.batches`).
    public subscript<Value>(dynamicMember property: KeyPath<UploadQueueState, Value>) -> Value {
        state[keyPath: property]
    }

    /// Writable where the property is (`unknownFields`; the package's injected faults).
    public subscript<Value>(dynamicMember property: WritableKeyPath<UploadQueueState, Value>) -> Value {
        get { state[keyPath: property] }
        set { state[keyPath: property] = newValue }
    }

    /// A queue with `state` over `items` that a store kept apart from it. The counters are raised past every item
    /// held: an item appended after the state was last written carries the only durable record of the number it
    /// used (`§sequence-consecutive`).
    public init(state: UploadQueueState, items: Items) throws(Items.Failure) {
        self.state = state
        self.items = items
        if let newest = try items.fixes.newestKey() {
            self.state.nextFixSequence = max(state.nextFixSequence, newest + 1)
        }
        if let newest = try items.fenceEvents.newestKey() {
            self.state.nextEventSequence = max(state.nextEventSequence, newest + 1)
        }
        if let newest = try items.lifecycleEvents.newestKey() {
            self.state.nextLifecycleId = max(state.nextLifecycleId, newest + 1)
        }
    }

    // MARK: - Recording

    /// Queues a fix and gives it the next sequence number (`§sequence-consecutive`). `fix.bootId` must be the
    /// boot its `elapsedRealtimeMs` was read in; the batch clears it where it equals the batch's boot.
    @discardableResult
    public mutating func record(_ fix: LocationFix) throws(Items.Failure) -> UInt64 {
        var fix = fix
        fix.sequence = state.nextFixSequence
        try items.fixes.append(fix)
        state.nextFixSequence += 1
        return fix.sequence
    }

    /// Queues a fence event and gives it the next event sequence number.
    @discardableResult
    public mutating func record(_ event: FenceEvent) throws(Items.Failure) -> UInt64 {
        var event = event
        event.eventSequence = state.nextEventSequence
        try items.fenceEvents.append(event)
        state.nextEventSequence += 1
        return event.eventSequence
    }

    /// Queues a lifecycle event under the next queue-local id, and returns the id.
    @discardableResult
    public mutating func record(_ event: LifecycleEvent) throws(Items.Failure) -> UInt64 {
        let id = state.nextLifecycleId
        try items.lifecycleEvents.append(QueuedLifecycleEvent(id: id, event: event))
        state.nextLifecycleId += 1
        return id
    }

    /// Replaces the device status to report; it is sent until a PROCESSED ack stores this snapshot.
    public mutating func update(_ status: DeviceStatus) {
        guard status != state.deviceStatus else { return }
        state.deviceStatus = status
        state.deviceStatusReported = false
    }

    /// Replaces the armed regions to report, likewise.
    public mutating func update(_ armed: ArmedRegions) {
        guard armed != state.armedRegions else { return }
        state.armedRegions = armed
        state.armedRegionsReported = false
    }

    /// Takes the policy an app was configured with before any server sent one (a server's newer
    /// `policy_version` replaces it as usual).
    public mutating func adopt(_ initialPolicy: TrackingPolicy) { state.policy = initialPolicy }

    /// Discards the `count` oldest fixes that are in no batch in flight (storage full): a real loss, which the
    /// floor then shows to the server as a gap (`§sequence-floor`). Returns their sequence numbers.
    @discardableResult
    public mutating func discardOldestFixes(_ count: Int) throws(Items.Failure) -> [UInt64] {
        let busy = sequencesInActiveBatches(\.fixSequences)
        let discarded = try items.fixes.oldest(count, excluding: busy).map(\.sequence)
        try items.fixes.remove(Set(discarded))
        state.discardedFixCount += UInt64(discarded.count)
        return discarded
    }

    // MARK: - Floors and limits

    /// The lowest fix and fence event sequences the device still holds, or the next it will assign
    /// (`§sequence-floor`).
    public func sequenceFloors() throws(Items.Failure) -> (fix: UInt64, event: UInt64) {
        (
            try items.fixes.oldestKey() ?? state.nextFixSequence,
            try items.fenceEvents.oldestKey() ?? state.nextEventSequence
        )
    }

    /// The most fixes in one batch, backlog and live fix together.
    public var maxBatchSize: Int { state.maxBatchSize }
    /// The byte limit every batch keeps to (`§batch-size`): the policy's, or a smaller one learnt from TOO_LARGE.
    public var maxBatchBytes: Int { state.maxBatchBytes }
    /// How many batches may be in flight at once (`§in-flight`), 1 ... 16.
    public var maxBatchesInFlight: Int { state.maxBatchesInFlight }
    /// Batches sent and neither answered nor given up.
    public var activeBatchCount: Int { state.batches.count { !$0.givenUp } }

    /// True when nothing recorded is left: every fix, event and lifecycle event deleted, status reported.
    public var isDrained: Bool {
        items.fixes.isEmpty && items.fenceEvents.isEmpty && items.lifecycleEvents.isEmpty
            && (state.deviceStatus == nil || state.deviceStatusReported)
            && (state.armedRegions == nil || state.armedRegionsReported)
    }

    func sequencesInActiveBatches(_ keys: KeyPath<BatchRecord, [UInt64]>) -> Set<UInt64> {
        var busy = Set<UInt64>()
        for batch in state.batches where !batch.givenUp { busy.formUnion(batch[keyPath: keys]) }
        return busy
    }
}

extension UploadQueueEngine: Equatable where Items: Equatable {}
extension UploadQueueEngine: Hashable where Items: Hashable {}
extension UploadQueueEngine: Sendable where Items: Sendable {}

/// The upload queue with its items in memory: the engines', the vectors' and the simulator's, persisted whole
/// as `locationwire.session.v1.UploadQueue`.
public typealias UploadQueue = UploadQueueEngine<QueuedItems>

extension UploadQueue {
    public init() {
        state = UploadQueueState()
        items = QueuedItems()
    }

    /// A new installation's queue: `installId` is a random non-zero value the app draws on first launch.
    public init(deviceId: String, installId: UInt64, datum: CoordinateDatum = .wgs84) {
        precondition(installId != 0, "install_id 0 is invalid (§install-id)")
        self.init()
        state.deviceId = deviceId
        state.installId = installId
        state.datum = datum
    }

    /// Fixes recorded and not yet deleted, ascending by sequence.
    public var fixes: [LocationFix] { items.fixes.elements }
    /// Fence events recorded and not yet deleted, ascending by event sequence.
    public var fenceEvents: [FenceEvent] { items.fenceEvents.elements }
    /// Lifecycle events not yet acknowledged, oldest first, with the queue-local ids batches name them by.
    public var lifecycleEvents: [LifecycleEvent] { items.lifecycleEvents.events }
    public var lifecycleIds: [UInt64] { items.lifecycleEvents.ids }

    /// The lowest fix sequence the queue still holds, or the next it will assign (`§sequence-floor`).
    public var fixSequenceFloor: UInt64 { items.fixes.oldestKey() ?? state.nextFixSequence }
    /// The same for fence events.
    public var eventSequenceFloor: UInt64 { items.fenceEvents.oldestKey() ?? state.nextEventSequence }

    /// The queue's state with no items, in memory: what a store that keeps the items apart persists.
    public init<Other>(withoutItemsOf queue: UploadQueueEngine<Other>) {
        state = queue.state
        items = QueuedItems()
    }
}

/// An upload queue's state apart from its items: who it is, its counters, the policy, the batches in flight and
/// what the server answered. Small: it does not grow with what is pending (a batch record lists at most
/// `max_batch_size` sequences).
public struct UploadQueueState: Hashable, Sendable {
    public internal(set) var deviceId: String = ""
    /// Random id of this installation (`§install-id`); never 0 in a usable queue.
    public internal(set) var installId: UInt64 = 0
    /// The datum of every coordinate recorded.
    public internal(set) var datum: CoordinateDatum = .wgs84

    /// The latest device status, and whether a PROCESSED ack has stored exactly this snapshot.
    public internal(set) var deviceStatus: DeviceStatus?
    public internal(set) var deviceStatusReported = false
    /// The latest armed regions, and whether a PROCESSED ack has stored exactly this snapshot.
    public internal(set) var armedRegions: ArmedRegions?
    public internal(set) var armedRegionsReported = false

    /// The sequence number the next fix gets (`§sequence-consecutive`): persisted with the fix it numbers.
    public internal(set) var nextFixSequence: UInt64 = 1
    public internal(set) var nextEventSequence: UInt64 = 1
    /// The id the next lifecycle event gets.
    package internal(set) var nextLifecycleId: UInt64 = 1
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

    /// The most fixes in one batch, backlog and live fix together.
    public var maxBatchSize: Int { max(1, Int(policy.maxBatchSize ?? UInt32(UploadQueue.defaultMaxBatchSize))) }

    /// The byte limit every batch keeps to (`§batch-size`): the policy's, or a smaller one learnt from TOO_LARGE.
    public var maxBatchBytes: Int {
        // A policy under the minimum breaks `§batch-size` and is not taken; a learnt limit already follows
        // ``UploadQueueEngine/shrunkLimit(sent:after:)``, which goes under the minimum only for batches that were
        // within it.
        let policyLimit = max(
            Int(policy.maxBatchBytes ?? UInt32(UploadQueue.defaultMaxBatchBytes)), UploadQueue.minimumBatchBytes)
        return learntBatchBytes == 0 ? policyLimit : min(policyLimit, Int(learntBatchBytes))
    }

    /// How many batches may be in flight at once (`§in-flight`), 1 ... 16.
    public var maxBatchesInFlight: Int {
        min(max(Int(policy.maxBatchesInFlight ?? UInt32(UploadQueue.defaultMaxBatchesInFlight)), 1), 16)
    }
}

/// Bugs the simulator and the tests switch on to prove that the invariant checks catch them.
package struct InjectedFaults: OptionSet, Hashable, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Hole 1 of issue 10: an ACCEPTED range deletes every queued fix in it, not only the answered batch's.
    package static let ackAppliesToEveryItem = InjectedFaults(rawValue: 1 << 0)
}
