import LocationWire
import LocationWireBehavior
import LocationWireSession

/// The reference device: the engines of proto/BEHAVIOR.md and proto/README.md composed around a durable store and
/// the HTTP binding, as an app embeds them. It receives the OS's fixes one by one (``deliver(_:)``), and in that
/// call, in this order:
/// 1. the upload timer (`UploadScheduler`) runs the uploads due before the fix's time;
/// 2. a region request the device owes (at start, after a hint or a command, beyond the refresh distance, at
///    expiry) is sent with the fix's position, and the answer armed, so the fix is evaluated against it;
/// 3. the fence engine evaluates the fix; its events go into the queue;
/// 4. the recording engine decides; what it records goes into the queue (`UploadQueue`) with its sequence number;
/// 5. the uploads due at the fix's time run; an entry into a refine-on-entry region asks for regions.
///
/// Everything recorded is appended to the store (one row, never a rewrite), and is durable before it is sent and,
/// under ``SyncPolicy/everyDelivery``, before `deliver` returns. Uploads, region requests and the acks' commands
/// happen inside `deliver`, synchronously: the device acts at the moment the rules say, on the fix's clock.
///
/// Not thread-safe: one caller (the app's location callback queue) at a time.
public final class LocationDevice {
    public let configuration: DeviceConfiguration
    private let state: DeviceState
    private let regions: DeviceRegions
    private let uploads: DeviceUploads
    /// Whether this launch has settled what the earlier one left in flight (at its first timed delivery, when
    /// the device clock is known).
    private var launchSettled = false

    /// Called after each commit with the fixes it made durable, in sequence order (with their sequence numbers
    /// and reasons): the moment a fix counts as recorded. An app may log them; the soak's client log does.
    public var recordedDurably: (([LocationFix]) -> Void)? {
        get { state.recordedDurably }
        set { state.recordedDurably = newValue }
    }

    /// Called after each commit with the sequence numbers of the fixes it discarded because the server refused each
    /// alone as too large (proto/HTTP.md `§http-shrink-alone`): a loss the spec allows, which a client log records
    /// so that a judge can tell it from a lost fix.
    public var discardedDurably: (([UInt64]) -> Void)? {
        get { state.discardedDurably }
        set { state.discardedDurably = newValue }
    }

    /// Called after each region request with what was sent and answered: for logs, and for judging the device's
    /// region decisions with another implementation of the rules (`scripts/device_runs.py regions`).
    public var regionsExchanged: ((RegionExchange) -> Void)? {
        get { regions.exchanged }
        set { regions.exchanged = newValue }
    }

    /// Opens the device on its store in `directory`, creating the store on first use (with a fresh random
    /// `install_id`), and records a `LAUNCHED` lifecycle event.
    public init(store directory: String, configuration: DeviceConfiguration, transport: any DeviceTransport) throws {
        self.configuration = configuration
        state = try DeviceState(directory: directory, configuration: configuration)
        regions = DeviceRegions(state: state, transport: transport)
        uploads = DeviceUploads(state: state, regions: regions, transport: transport)
        state.record.launches += 1
        var launched = LifecycleEvent()
        launched.kind = state.record.launches == 1 ? .launched : .relaunchedBySystem
        try state.recordLifecycle(launched)
        try state.saveRecord()
        try state.commit()
        if configuration.requestsRegions, state.held.version == 0, state.record.owedRegionRequest == 0 {
            state.record.owedRegionRequest = UInt32(RegionRequestReason.initial.rawValue)
        }
    }

    /// How many fixes of its source the device has processed durably: a relaunched source goes on from there.
    public var delivered: UInt64 { state.record.delivered }

    public var summary: DeviceSummary {
        let record = state.record
        var summary = DeviceSummary()
        summary.delivered = record.delivered
        summary.recorded = record.fixesRecorded
        summary.fenceEvents = record.fenceEventsRecorded
        summary.uploadAttempts = record.uploadAttempts
        summary.drainAttempts = record.drainAttempts
        summary.bytesSent = record.bytesSent
        summary.acksApplied = record.acksApplied
        summary.acknowledged = record.fixesAcknowledged
        summary.discarded = state.queue.discardedFixCount
        summary.pendingFixes = state.queue.items.fixes.count
        summary.pendingFenceEvents = state.queue.items.fenceEvents.count
        summary.regionRequests = record.regionRequests
        summary.regionsArmed = state.fences.armedRegionIds.count
        summary.launches = record.launches
        summary.commits = state.commits
        return summary
    }

    /// The sequence numbers of every fix pending, from the store (for tests and the soak's checks).
    public var pendingFixSequences: [UInt64] {
        get throws { try state.queue.items.fixes.keys() }
    }
    public var installId: UInt64 { state.record.installId }

    /// The app's device status (battery, permissions, settings: proto/locationwire/v1/device_state.proto), sent
    /// with the next batch until a PROCESSED ack has stored this snapshot. Durable when the call returns.
    public func update(_ status: DeviceStatus) throws {
        try makingRoomWhenFull {
            state.queue.update(status)
            try state.saveQueue()
            try state.commit()
        }
    }

    // MARK: - Delivery

    /// One fix as the OS delivered it, with its `elapsed_realtime_ms` and `boot_id`.
    ///
    /// When the disk is full, the delivery's writes are rolled back, the oldest pending fixes that are in no batch
    /// in flight are discarded (`max_batch_size` at a time: a real loss, which the sequence floor shows the server,
    /// `§sequence-floor`) and the delivery is made again. It throws only when discarding every such fix did not
    /// make room, or the disk failed otherwise.
    public func deliver(_ delivered: LocationFix) throws {
        try makingRoomWhenFull { try deliverOnce(delivered) }
    }

    private func deliverOnce(_ delivered: LocationFix) throws {
        var fix = delivered
        // A RECORD_FIX command owes the next fix the recording rules let through (`§rec-requested`: it skips the
        // window and the motion rules, not the filters); it stays owed until one is recorded.
        if state.record.recordFixOwed { fix.reason = .serverRequest }
        let index = Int(state.record.delivered)
        let time = state.recording.clockTime(of: fix)
        if let time {
            state.clock = DeviceClock(bootId: fix.bootId, elapsedMs: time, wallMs: fix.timeMs)
            if !launchSettled {
                // Batches an earlier launch sent got no answer in this one: "no ack" (`§no-ack`); their items may go
                // out again, and a late ack still applies.
                for batch in state.queue.batches where !batch.givenUp {
                    state.queue.giveUp(batchId: batch.batchId, nowMs: fix.timeMs)
                }
                launchSettled = true
            }
            state.scheduler.advance(bootId: fix.bootId, to: time) { _ in uploads.attempt() }
            try uploads.afterUploads()
        }
        regions.noteFix(fix)
        // Regions first: a device that owes a request (at start, after a hint or a command, beyond the refresh
        // distance, at expiry) asks with this fix's position and arms the answer before the fix is evaluated.
        if time != nil { try regions.requestIfOwed() }
        try regions.disarmIfExpired(at: fix)
        // Fences see every delivered fix; their rules choose which count.
        var events: [FenceEvent] = []
        state.fences.evaluate(fix, into: &events)
        for event in events {
            try state.recordEvent(event)
            regions.noteEvent(event)
        }
        // Recording.
        var decisions = RecordingLog()
        state.recording.deliver(fix, index: index, to: &decisions)
        var recordedNow = 0
        for case .recorded(let recordedIndex, let reason) in decisions.decisions {
            var chosen = recordedIndex == index ? fix : (state.undecided?.fix ?? fix)
            chosen.reason = reason
            if recordedIndex == index, reason == .serverRequest { state.record.recordFixOwed = false }
            try state.recordFix(chosen, atMs: time ?? state.clock?.elapsedMs ?? 0)
            recordedNow += 1
        }
        try state.keepUndecided(fix, index: index)
        state.record.delivered += 1
        if let time { for _ in 0..<recordedNow { state.scheduler.recorded(at: time) } }
        // The state after this fix, before its uploads: each upload commits before it sends, and a kill after that
        // commit relaunches from here (the upload is made again; the batch in flight is given up). Written only when
        // an upload may follow in this delivery: encoding the engines' states is most of a delivery's cost, and
        // without an upload nothing is committed before the state written at the end.
        let uploadsMayFollow = time.map { time in state.scheduler.dueMs.map { $0 <= time } ?? false } ?? false
        if time == nil || uploadsMayFollow || state.record.uploadNowOwed { try state.saveRecordAndEngines() }
        if let time {
            state.scheduler.settle(at: time) { _ in uploads.attempt() }
            try uploads.afterUploads()
            // UPLOAD_NOW waits out a wait in force rather than being dropped (`§command-kinds`).
            if state.record.uploadNowOwed, state.queue.isDrained || state.queue.maySend(nowMs: state.wallMs()) {
                state.record.uploadNowOwed = false
                _ = try uploads.drain(maxAttempts: 1, wait: { _ in })
            }
            // An entry into a refine-on-entry region owes a request now.
            if regions.owesRefinement { try regions.requestIfOwed() }
            try state.saveRecordAndEngines()
        }
        try state.commitPerPolicy()
    }

    /// The source ended (or the app is going away): the open window closes, and what is left is committed.
    public func finish() throws {
        try makingRoomWhenFull(finishOnce)
    }

    private func finishOnce() throws {
        var decisions = RecordingLog()
        state.recording.finish(to: &decisions)
        for case .recorded(_, let reason) in decisions.decisions {
            guard var fix = state.undecided?.fix else { continue }
            fix.reason = reason
            try state.recordFix(fix, atMs: state.clock?.elapsedMs ?? 0)
            if let time = state.clock?.elapsedMs { state.scheduler.recorded(at: time) }
        }
        try state.keepUndecided(nil, index: -1)
        try state.saveRecordAndEngines()
        try state.commit()
    }

    /// Sends what is pending, whatever the timer says: what an app does when the source has ended or it is about to
    /// lose its background time. Holds, `Retry-After` and the back-off still apply: the device waits them out,
    /// moving its clock on (after the last fix, waiting is the only thing that moves it) and calling `wait` with
    /// each wait in ms, so that a caller in real time can sleep. Stops after `maxAttempts` attempts, or when the
    /// credentials were refused. Returns whether the queue drained.
    @discardableResult
    public func drain(maxAttempts: Int = .max, wait: (UInt64) -> Void = { _ in }) throws -> Bool {
        var drained = false
        try makingRoomWhenFull { drained = try uploads.drain(maxAttempts: maxAttempts, wait: wait) }
        return drained
    }

    /// Runs `work`; when the disk is full, rolls back, discards the oldest pending fixes and runs it again.
    private func makingRoomWhenFull(_ work: () throws -> Void) throws {
        try state.makingRoomWhenFull(
            rolledBack: {
                // As after a kill: batches in flight are given up at the next delivery.
                uploads.rolledBack()
                launchSettled = false
            }, work)
    }

    /// Lets the store grow by at most `pages` more pages of SQLite (4 kB each) than it holds now: a full disk, for
    /// tests. Returns the store's cap in pages.
    @discardableResult
    package func limitStoreGrowth(toPages pages: Int) throws -> Int {
        try state.store.commit()
        return try state.store.limitPages(try state.store.pageCount() + pages)
    }
}
