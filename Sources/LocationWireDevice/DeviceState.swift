import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireSession

/// The device clock between fixes: the latest timed delivery's boot, monotonic time (ms) and wall clock (UTC ms).
struct DeviceClock {
    var bootId: UInt64
    var elapsedMs: UInt64
    var wallMs: Int64

    /// The clock `ms` later.
    func passing(_ ms: UInt64) -> DeviceClock {
        DeviceClock(bootId: bootId, elapsedMs: elapsedMs + ms, wallMs: wallMs + Int64(ms))
    }
}

/// What the device holds between calls, and when it is durable: the queue (its items one row each in the store,
/// its state in a row), the device's record, the regions held and the engines' states, all in one SQLite store
/// written in one open transaction that ``commit()`` ends. Whatever the store holds at a commit is what a relaunch
/// (or a rollback after a full disk) goes on from; nothing in memory outlives a rollback.
final class DeviceState {
    let configuration: DeviceConfiguration
    let store: DeviceStore

    var record: DeviceRecord
    var queue: UploadQueueEngine<StoredItems>
    var held: HeldAssignment
    var recording: RecordingEngine
    var scheduler: UploadScheduler
    var fences: FenceEngine
    /// The fix the recording engine holds in its window, by delivery index: a later delivery may record it.
    var undecided: (index: Int, fix: LocationFix)?
    /// The device clock, from the latest timed delivery (nil before the first).
    var clock: DeviceClock?
    /// The engines' states as last written to the store: a row is rewritten only when its bytes change.
    private var storedEngineStates: [DeviceStore.StateKey: [UInt8]] = [:]
    private var lastCommit = DispatchTime.now()
    /// Fixes recorded, and fixes discarded as too large alone, since the last commit.
    private var notYetDurable: [LocationFix] = []
    private var notYetDurableDiscards: [UInt64] = []

    /// Called after each commit with the fixes it made durable, in sequence order.
    var recordedDurably: (([LocationFix]) -> Void)?
    /// Called after each commit with the sequence numbers of the fixes it discarded as too large alone.
    var discardedDurably: (([UInt64]) -> Void)?

    /// Opens the store in `directory`, creating it on first use with a fresh random `install_id`.
    init(directory: String, configuration: DeviceConfiguration) throws {
        self.configuration = configuration
        store = try DeviceStore(directory: directory)
        let record = try Self.loadRecord(store, configuration: configuration)
        self.record = record
        (queue, held, recording, scheduler, fences, undecided) = try Self.loadRest(
            store, record: record, configuration: configuration)
        storedEngineStates = engineStates()
    }

    private static func loadRecord(_ store: DeviceStore, configuration: DeviceConfiguration) throws -> DeviceRecord {
        if let bytes = try store.state(.device) {
            let record = try DeviceRecord(serializedBytes: bytes)
            guard record.deviceId == configuration.deviceId else {
                throw StoreError(
                    code: 0,
                    message:
                        "the store in \(store.path) belongs to device \(record.deviceId), not \(configuration.deviceId)"
                )
            }
            return record
        }
        var created = DeviceRecord()
        created.deviceId = configuration.deviceId
        var random = SystemRandomNumberGenerator()
        while created.installId == 0 { created.installId = random.next() }
        return created
    }

    private static func loadRest(
        _ store: DeviceStore, record: DeviceRecord, configuration: DeviceConfiguration
    ) throws
        -> (
            UploadQueueEngine<StoredItems>, HeldAssignment, RecordingEngine, UploadScheduler, FenceEngine,
            (index: Int, fix: LocationFix)?
        )
    {
        var rest: UploadQueue
        if let bytes = try store.state(.queue) {
            rest = try UploadQueue(serializedBytes: bytes)
        } else {
            rest = UploadQueue(deviceId: record.deviceId, installId: record.installId)
            if let policy = configuration.initialPolicy { rest.adopt(policy) }
        }
        let queue = try UploadQueueEngine(state: rest.state, items: try StoredItems(store))
        var held = HeldAssignment()
        if let bytes = try store.state(.heldAssignment) {
            _ = held.apply(try RegionAssignment(serializedBytes: bytes))
        }
        // A relaunch is not an event for the rules (`§rec-relaunch`, `§upload-relaunch`, `§fence-relaunch`): the
        // engines continue from the state stored with the last delivery that was made durable.
        let policy = queue.policy
        var recording = RecordingEngine(policy: policy)
        var undecided: (index: Int, fix: LocationFix)?
        if let bytes = try store.state(.recordingEngine) {
            recording = RecordingEngine(policy: policy, restoring: try RecordingEngine.State(serializedBytes: bytes))
            if let index = recording.undecidedIndex, let fix = try store.state(.undecidedFix) {
                undecided = (index, try LocationFix(serializedBytes: fix))
            }
        }
        var scheduler = UploadScheduler(policy: policy)
        if let bytes = try store.state(.uploadScheduler) {
            scheduler = UploadScheduler(
                policy: policy, restoring: try UploadScheduler.State(serializedBytes: bytes),
                pending: try store.pendingForTimer())
        }
        var fences = FenceEngine(policy: policy, assignmentVersion: held.version)
        if let bytes = try store.state(.fenceEngine) {
            fences = FenceEngine(policy: policy, restoring: try FenceEngine.State(serializedBytes: bytes))
        }
        return (queue, held, recording, scheduler, fences, undecided)
    }

    // MARK: - Writing

    /// Writes the queue's state (its items are written as they are recorded and deleted).
    func saveQueue() throws {
        try store.put(.queue, UploadQueue(withoutItemsOf: queue).serializedBytes())
    }

    func saveRecord() throws {
        try store.put(.device, record.serializedBytes())
    }

    func saveHeldAssignment() throws {
        try store.put(.heldAssignment, held.fullAssignment.serializedBytes())
    }

    private func engineStates() -> [DeviceStore.StateKey: [UInt8]] {
        [
            .recordingEngine: recording.persistedState.serializedBytes(),
            .uploadScheduler: scheduler.persistedState.serializedBytes(),
            .fenceEngine: fences.persistedState.serializedBytes(),
        ]
    }

    /// Writes the device's record and each engine state whose bytes changed since they were last written.
    func saveRecordAndEngines() throws {
        try saveRecord()
        _ = scheduler.takeAttempts()  // the rules never read them; memory stays bounded
        for (key, bytes) in engineStates() where storedEngineStates[key] != bytes {
            try store.put(key, bytes)
            storedEngineStates[key] = bytes
        }
    }

    /// Records a fix in the queue and the store, with the monotonic time the upload timer counts it at.
    func recordFix(_ fix: LocationFix, atMs: UInt64) throws {
        store.timerTimeOfNextFix = (clock?.bootId ?? fix.bootId, atMs)
        let sequence = try queue.record(fix)
        record.fixesRecorded += 1
        if recordedDurably != nil {
            var stored = fix
            stored.sequence = sequence
            notYetDurable.append(stored)
        }
    }

    func recordEvent(_ event: FenceEvent) throws {
        try queue.record(event)
        record.fenceEventsRecorded += 1
    }

    func recordLifecycle(_ event: LifecycleEvent) throws {
        try queue.record(event)
    }

    /// Fixes an ack discarded as too large alone: reported to ``discardedDurably`` at the next commit.
    func noteDiscarded(_ sequences: [UInt64]) {
        if discardedDurably != nil { notYetDurableDiscards += sequences }
    }

    /// Keeps the fix the recording engine's window holds, in memory and in the store (a relaunch reads it back).
    func keepUndecided(_ fix: LocationFix?, index: Int) throws {
        let heldIndex = recording.undecidedIndex
        if heldIndex == nil {
            if undecided != nil { try store.remove(.undecidedFix) }
            undecided = nil
        } else if heldIndex == index, let fix {
            undecided = (index, fix)
            try store.put(.undecidedFix, fix.serializedBytes())
        }
    }

    /// A new policy from the server: the engines go on with what they remember, under its settings. (The spec
    /// does not say what a policy change does to the engines' memory; keeping it is what a relaunch does.)
    func adoptPolicy() {
        let policy = queue.policy
        recording = RecordingEngine(policy: policy, restoring: recording.persistedState)
        scheduler = UploadScheduler(
            policy: policy, restoring: scheduler.persistedState, pending: scheduler.pendingFixes)
        fences = FenceEngine(policy: policy, restoring: fences.persistedState)
    }

    // MARK: - Commits

    /// Makes every write so far durable, then tells the callbacks what that made durable.
    func commit() throws {
        try store.commit()
        lastCommit = DispatchTime.now()
        if !notYetDurableDiscards.isEmpty {
            let sequences = notYetDurableDiscards
            notYetDurableDiscards = []
            discardedDurably?(sequences)
        }
        guard !notYetDurable.isEmpty else { return }
        let fixes = notYetDurable
        notYetDurable = []
        recordedDurably?(fixes)
    }

    /// Commits as the configuration's ``SyncPolicy`` says: at once, or once its interval has passed.
    func commitPerPolicy() throws {
        switch configuration.sync {
        case .everyDelivery:
            try commit()
        case .grouped(let milliseconds):
            let elapsedNs = DispatchTime.now().uptimeNanoseconds - lastCommit.uptimeNanoseconds
            if elapsedNs >= UInt64(milliseconds) * 1_000_000 { try commit() }
        }
    }

    // MARK: - A full disk

    /// Runs `work`; when the disk is full, rolls back, discards the oldest pending fixes and runs it again.
    /// `rolledBack` is called after each rollback, for what the caller keeps beside this state.
    func makingRoomWhenFull(rolledBack: () -> Void, _ work: () throws -> Void) throws {
        while true {
            do {
                return try work()
            } catch let error as StoreError where error.isDiskFull {
                try rollBackToLastCommit()
                rolledBack()
                guard try discardOldestFixes() else { throw error }
                rolledBack()
            }
        }
    }

    /// Forgets every write since the last commit, in the store and in memory (as a kill would: the engines
    /// continue from the last delivery made durable). The clock is kept: it is not stored, and time went on.
    func rollBackToLastCommit() throws {
        store.rollback()
        notYetDurable = []
        notYetDurableDiscards = []
        record = try Self.loadRecord(store, configuration: configuration)
        (queue, held, recording, scheduler, fences, undecided) = try Self.loadRest(
            store, record: record, configuration: configuration)
        storedEngineStates = engineStates()
    }

    /// Discards up to `max_batch_size` of the oldest fixes in no batch in flight and commits, then reads the
    /// store back. Returns false when there was none to discard.
    private func discardOldestFixes() throws -> Bool {
        guard !(try queue.discardOldestFixes(queue.maxBatchSize)).isEmpty else { return false }
        try saveQueue()
        try commit()
        try rollBackToLastCommit()
        return true
    }

    // MARK: - Reading

    /// The device clock, UTC ms; the system's before the first timed fix.
    func wallMs() -> Int64 { clock?.wallMs ?? Int64(Date().timeIntervalSince1970 * 1000) }

    /// The store's commits (one sync of the write-ahead log each).
    var commits: Int { store.commits }
}
