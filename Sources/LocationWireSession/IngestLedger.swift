import LocationWire

/// The server side of a LocationWire session: the reference engine for what proto/README.md says a server does
/// with a batch, from reading it to the BatchAck and the items to store.
///
/// Deterministic and Foundation-free, with time passed in. What it has answered lives in ``installations``;
/// ``serializedBytes()`` persists it and a restarted server restores it, so an answer, once sent, stays true
/// (`§server-durable`: the caller stores the returned items before it sends the ack).
///
/// Rules, by spec tag: `§fix-key`, `§event-key` (the key is device, installation and sequence, across
/// installations), `§sequence-floor`, `§gap-report`, `§batch-outcome`, `§hold-keeps`, `§ack-table`,
/// `§batch-size`, `§revision`, `§no-silent-drop`.
public struct IngestLedger: Hashable, Sendable {
    /// What the server accepts; configuration, not persisted state.
    public struct Policy: Hashable, Sendable {
        /// Batches larger than this, encoded, are answered TOO_LARGE (`§batch-size`); at least 16384.
        public var maxBatchBytes: Int = UploadQueue.defaultMaxBatchBytes
        /// Device ids allowed to upload; nil allows every id. Others are held (HOLD_REASON_DEVICE_UNKNOWN).
        public var knownDevices: Set<String>?
        /// The most fixes stored per installation; a batch that would pass it is held (QUOTA_EXCEEDED).
        public var fixQuotaPerInstallation: UInt64?
        /// When set, every batch is held with this reason (an overloaded server, maintenance).
        public var holdEverything: HoldReason?
        /// `retry_after_ms` sent with every HOLD.
        public var retryAfterMs: UInt32?
        /// Mock fixes are refused for good (REJECT_REASON_MOCK_LOCATION) when false.
        public var acceptsMockFixes = true
        /// Fixes stamped before this time, UTC ms, are refused for good (REJECT_REASON_TOO_OLD).
        public var oldestAcceptedTimeMs: Int64?
        /// The tracking policy to hand out in acks; sent when the device may not have it yet.
        public var trackingPolicy: TrackingPolicy?

        public init() {}
    }

    /// One installation's record: what was stored and refused, and the highest floors seen.
    public struct InstallationKey: Hashable, Sendable, Comparable {
        public var deviceId: String
        public var installId: UInt64

        public init(deviceId: String, installId: UInt64) {
            self.deviceId = deviceId
            self.installId = installId
        }

        public static func < (a: Self, b: Self) -> Bool { (a.deviceId, a.installId) < (b.deviceId, b.installId) }
    }

    /// The earliest valid time, 2000-01-01T00:00:00Z, and the first invalid one, 2100-01-01T00:00:00Z, UTC ms.
    public static let validTimes: Range<Int64> = 946_684_800_000..<4_102_444_800_000

    public var policy: Policy
    /// Every installation the server has heard from.
    public internal(set) var installations: [InstallationKey: InstallationRecord] = [:]
    public var unknownFields = UnknownFields()

    public init() { self.policy = Policy() }

    public init(policy: Policy) { self.policy = policy }

    /// A ledger that knows `records` already: what a server that keeps its records in a database loads for the
    /// installations a batch touches, so that it never holds the whole ledger in memory. A record whose key
    /// repeats replaces the earlier one.
    public init(policy: Policy, records: some Sequence<InstallationRecord>) {
        self.policy = policy
        for record in records {
            installations[InstallationKey(deviceId: record.deviceId, installId: record.installId)] = record
        }
    }

    /// The fix sequence numbers of an installation that are lost (`§gap-report`): below the highest floor the
    /// device stated, and neither stored nor refused. Pending numbers (at or above the floor) are never listed.
    public func lostFixes(of key: InstallationKey) -> [ClosedRange<UInt64>] {
        guard let record = installations[key] else { return [] }
        var answered = record.storedFixes
        for range in record.rejectedFixes.ranges { answered.insert(range) }
        return answered.missing(below: record.fixFloor)
    }

    /// The same for fence events.
    public func lostEvents(of key: InstallationKey) -> [ClosedRange<UInt64>] {
        guard let record = installations[key] else { return [] }
        var answered = record.storedEvents
        for range in record.rejectedEvents.ranges { answered.insert(range) }
        return answered.missing(below: record.eventFloor)
    }
}

/// What a server knows of one installation (`device_id`, `install_id`).
public struct InstallationRecord: Hashable, Sendable {
    public var deviceId = ""
    public var installId: UInt64 = 0
    /// Fix sequence numbers stored, and refused for good.
    public var storedFixes = SequenceSet()
    public var rejectedFixes = SequenceSet()
    /// Fence event sequence numbers stored, and refused for good.
    public var storedEvents = SequenceSet()
    public var rejectedEvents = SequenceSet()
    /// The highest `fix_sequence_floor` and `event_sequence_floor` seen (`§sequence-floor`).
    public var fixFloor: UInt64 = 0
    public var eventFloor: UInt64 = 0
    /// Lifecycle events stored, by (kind, time_ms), so that a resent one is stored once.
    public var lifecycleKinds: [Int32] = []
    public var lifecycleTimes: [Int64] = []
    public var unknownFields = UnknownFields()

    public init() {}
}
