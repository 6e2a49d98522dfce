import LocationWire
import LocationWireTestSupport
import Testing

@testable import LocationWireSession

/// The device and server engines against the rules of proto/README.md, each test naming the rule (its `§` tag) it
/// checks. The conformance vectors (`session`, `ledger`) check the same rules from the outside.
struct SessionTests {
    static let now: Int64 = 1_767_261_600_000
    static let boot: UInt64 = 0xB007

    static func fix(_ index: Int, boot: UInt64 = boot) -> LocationFix {
        var fix = LocationFix()
        fix.timeMs = now + Int64(index) * 1000
        fix.latitudeE7 = 460_511_000 + Int32(index) * 100
        fix.longitudeE7 = 145_051_000
        fix.horizontalAccuracyCm = 500
        fix.elapsedRealtimeMs = UInt64(index) * 1000
        fix.bootId = boot
        return fix
    }

    static func queue(fixes: Int, maxBatchSize: UInt32? = nil, inFlight: UInt32? = nil) -> UploadQueue {
        var queue = UploadQueue(deviceId: "device-1", installId: 0x1457)
        var policy = TrackingPolicy()
        policy.policyVersion = 1
        policy.maxBatchSize = maxBatchSize
        policy.maxBatchesInFlight = inFlight
        queue.policy = policy
        for index in 0..<fixes { queue.record(fix(index)) }
        return queue
    }

    static func range(
        _ first: UInt64, _ last: UInt64, _ result: AckResult, _ reason: RejectReason = .unspecified
    )
        -> AckRange
    {
        var range = AckRange()
        range.firstSequence = first
        range.lastSequence = last
        range.result = result
        range.rejectReason = reason
        return range
    }

    static func ack(_ batchId: UInt64, _ ranges: [AckRange], outcome: BatchOutcome = .processed) -> BatchAck {
        var ack = BatchAck()
        ack.batchId = batchId
        ack.outcome = outcome
        ack.fixResults = ranges
        ack.protocolRevision = 1
        return ack
    }

    static func sequences(_ batch: LocationBatch?) -> [UInt64] {
        guard let batch else { return [] }
        let backlog = batch.compactFixes.flatMap { try? $0.fixes() } ?? batch.fixes
        return backlog.map(\.sequence) + (batch.liveFix.map { [$0.sequence] } ?? [])
    }

    // MARK: - Device

    @Test("§sequence-consecutive §install-id: 1, 2, 3 per installation, and the counter persists with the fixes")
    func sequencesAreConsecutiveAndPersist() throws {
        var queue = Self.queue(fixes: 3)
        #expect(queue.fixes.map(\.sequence) == [1, 2, 3])
        let restored = try UploadQueue(serializedBytes: queue.serializedBytes())
        #expect(restored == queue)
        queue = restored
        #expect(queue.record(Self.fix(9)) == 4)
        #expect(queue.installId == 0x1457)
    }

    @Test("§ack-scope: an ACCEPTED range over another batch's items deletes only the answered batch's")
    func ackAppliesOnlyToItsBatch() throws {
        var queue = Self.queue(fixes: 6, maxBatchSize: 3, inFlight: 2)
        let first = queue.nextBatch(batchId: 11, bootId: Self.boot, nowMs: Self.now)
        let second = queue.nextBatch(batchId: 12, bootId: Self.boot, nowMs: Self.now)
        // The oldest as backlog, the newest as the live fix; the second batch takes what is left.
        #expect(Self.sequences(first) == [1, 2, 6])
        #expect(Self.sequences(second) == [3, 4, 5])
        let result = queue.apply(Self.ack(11, [Self.range(1, 6, .accepted)]), nowMs: Self.now)
        #expect(result.ignoreReason == nil)
        #expect(queue.fixes.map(\.sequence) == [3, 4, 5])
    }

    @Test("§ack-table: every row of the item table")
    func itemTable() throws {
        var queue = Self.queue(fixes: 8, maxBatchSize: 8)
        _ = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        var ack = Self.ack(
            1,
            [
                Self.range(1, 1, .accepted), Self.range(2, 2, .duplicate),
                Self.range(3, 3, .rejected, .invalidCoordinates),
                Self.range(4, 4, .rejected, RejectReason(rawValue: 5)),
                Self.range(5, 5, .rejected, RejectReason(rawValue: 6)), Self.range(6, 6, .retryLater),
                Self.range(7, 7, AckResult(rawValue: 42)),
            ])
        ack.protocolRevision = 1
        guard case .applied(let effect) = queue.apply(ack, nowMs: Self.now) else {
            Issue.record("ack ignored")
            return
        }
        // Deleted: stored (1, 2) and refused for a defect (3). Kept: retired reasons, retry later, an unknown
        // result, and 8, which no range covers.
        #expect(queue.fixes.map(\.sequence) == [4, 5, 6, 7, 8])
        #expect(effect.storedFixes == [1, 2])
        #expect(effect.rejectedFixes == [3])
        #expect(effect.keptFixes == [4, 5, 6, 7, 8])
    }

    @Test("§batch-outcome §hold-keeps: HOLD keeps everything and backs off; TOO_LARGE keeps and learns the limit")
    func batchOutcomes() throws {
        var queue = Self.queue(fixes: 4)
        _ = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        var hold = Self.ack(1, [], outcome: .hold)
        hold.holdReason = .quotaExceeded
        #expect(queue.apply(hold, nowMs: Self.now).ignoreReason == nil)
        #expect(queue.fixes.count == 4)
        #expect(!queue.maySend(nowMs: Self.now))
        #expect(queue.maySend(nowMs: Self.now + UploadQueue.backOffMs(consecutiveFailures: 1)))

        _ = queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: Self.now + 10_000)
        let sent = queue.batches.last!.encodedSize
        var tooLarge = Self.ack(2, [], outcome: .tooLarge)
        tooLarge.maxBatchBytes = 20_000
        #expect(queue.apply(tooLarge, nowMs: Self.now + 10_000).ignoreReason == nil)
        #expect(queue.fixes.count == 4)
        // 20000 is not below the few bytes sent: a contradiction, read as absent; the batch was within 16384
        // already, so the limit halves on (§http-shrink).
        #expect(queue.maxBatchBytes == Int(sent / 2))
    }

    @Test("§http-shrink: the limit after a batch refused as too large or late")
    func shrunkLimits() {
        func tooLarge(_ sent: UInt32, _ stated: UInt32?) -> UInt32 {
            UploadQueue.shrunkLimit(sent: sent, after: .tooLarge(stated: stated))
        }
        #expect(tooLarge(40_000, 20_000) == 20_000)
        #expect(tooLarge(40_000, 1_000) == 16_384, "a stated limit counts as at least 16384")
        #expect(tooLarge(40_000, 50_000) == 20_000, "not below what was sent: read as absent")
        #expect(tooLarge(10_000, 1_000) == 5_000, "counted as 16384, not below 10000: read as absent")
        #expect(tooLarge(40_000, nil) == 20_000)
        #expect(tooLarge(20_000, nil) == 16_384)
        #expect(tooLarge(10_000, nil) == 5_000, "within 16384 already: halves on")
        #expect(tooLarge(1, nil) == 1)
        #expect(UploadQueue.shrunkLimit(sent: 40_000, after: .timedOut) == 20_000)
        #expect(
            UploadQueue.shrunkLimit(sent: 10_000, after: .timedOut) == 16_384, "a late small body: the link's fault")
    }

    @Test("§http-shrink-alone: state reports ride only where they fit; the oldest item goes alone")
    func oneItemAlone() {
        var queue = Self.queue(fixes: 3)
        var status = DeviceStatus()
        status.observedAtMs = Self.now
        status.appVersion = "2.4.0"
        queue.update(status)
        var launched = LifecycleEvent()
        launched.kind = .launched
        launched.timeMs = Self.now
        queue.record(launched)
        let first = queue.nextBatch(batchId: 1, bootId: 1, nowMs: Self.now)
        var tooLarge = BatchAck()
        tooLarge.batchId = 1
        tooLarge.outcome = .tooLarge
        _ = queue.apply(tooLarge, nowMs: Self.now)
        #expect(queue.maxBatchBytes == (first?.serializedSize ?? 0) / 2)
        let alone = queue.nextBatch(batchId: 2, bootId: 1, nowMs: Self.now)
        #expect(alone?.liveFix?.sequence == 1 && alone?.fixes.isEmpty == true, "the oldest fix, alone")
        #expect(alone?.lifecycleEvents.isEmpty == true && alone?.deviceStatus == nil, "with nothing else")
        tooLarge.batchId = 2
        _ = queue.apply(tooLarge, nowMs: Self.now)
        #expect(queue.fixes.map(\.sequence) == [2, 3], "refused alone: discarded, a loss the floor shows")
        #expect(queue.fixSequenceFloor == 2)
    }

    @Test("§ack-ignore: every code, and nothing deleted")
    func ignoredAcks() throws {
        let cases: [(BatchAck, AckIgnoreReason)] = [
            (Self.ack(99, [Self.range(1, 4, .accepted)]), .unknownBatch),
            (Self.ack(1, [Self.range(1, 4, .accepted)], outcome: .unspecified), .outcomeMissing),
            (Self.ack(1, [Self.range(1, 4, .accepted)], outcome: BatchOutcome(rawValue: 9)), .outcomeUnknown),
            (Self.ack(1, [Self.range(3, 2, .accepted)]), .rangeInverted),
            (Self.ack(1, [Self.range(0, 2, .accepted)]), .rangeInverted),
            (Self.ack(1, [Self.range(3, 4, .accepted), Self.range(1, 2, .accepted)]), .rangesNotSorted),
            (Self.ack(1, [Self.range(1, 3, .accepted), Self.range(3, 4, .accepted)]), .rangesOverlap),
            (Self.ack(1, [Self.range(1, 4, .accepted)], outcome: .hold), .rangesWithoutProcessing),
            (Self.ack(1, [Self.range(1, 4, .rejected)]), .rejectReasonMissing),
        ]
        for (ack, reason) in cases {
            var queue = Self.queue(fixes: 4)
            _ = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
            #expect(queue.apply(ack, nowMs: Self.now).ignoreReason == reason)
            #expect(queue.fixes.count == 4)
            #expect(queue.activeBatchCount == 1, "an ignored ack leaves the batch in flight")
        }
        var queue = Self.queue(fixes: 1)
        #expect(queue.apply(ackBytes: [0xFF], nowMs: Self.now).ignoreReason == .undecodable)
        #expect(Set(AckIgnoreReason.allCases.map(\.code)).count == AckIgnoreReason.allCases.count)
    }

    @Test("§no-ack §in-flight: a given-up batch's items go out again, and its late ack still applies")
    func lateAckAfterGivingUp() throws {
        var queue = Self.queue(fixes: 3)
        #expect(Self.sequences(queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)) == [1, 2, 3])
        #expect(!queue.maySend(nowMs: Self.now), "one batch in flight by default")
        queue.giveUp(batchId: 1, nowMs: Self.now)
        let later = Self.now + 60_000
        #expect(Self.sequences(queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: later)) == [1, 2, 3])
        #expect(queue.apply(Self.ack(1, [Self.range(1, 3, .accepted)]), nowMs: later).ignoreReason == nil)
        #expect(queue.fixes.isEmpty)
        // The second attempt's ack finds nothing left to delete and changes nothing.
        #expect(queue.apply(Self.ack(2, [Self.range(1, 3, .duplicate)]), nowMs: later).ignoreReason == nil)
        #expect(queue.apply(Self.ack(2, [Self.range(1, 3, .duplicate)]), nowMs: later).ignoreReason == .unknownBatch)
    }

    @Test("§batch-composition: the newest free fix is the live fix, max_batch_size counts it, a lone fix goes live")
    func batchComposition() throws {
        var queue = Self.queue(fixes: 5, maxBatchSize: 3)
        let first = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        #expect(first?.fixes.map(\.sequence) == [1, 2])
        #expect(first?.liveFix?.sequence == 5)
        var lone = Self.queue(fixes: 1)
        let only = lone.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        #expect(only?.fixes.isEmpty == true)
        #expect(only?.liveFix?.sequence == 1)
    }

    @Test("§back-off: 1 s, doubling per failure in a row, at most 5 minutes; a PROCESSED ack that deletes resets")
    func backOff() throws {
        #expect((1...12).map { UploadQueue.backOffMs(consecutiveFailures: $0) }.prefix(4) == [1000, 2000, 4000, 8000])
        #expect(UploadQueue.backOffMs(consecutiveFailures: 40) == 300_000)
        var queue = Self.queue(fixes: 1)
        var now = Self.now
        for expected: Int64 in [1000, 2000, 4000] {
            _ = queue.nextBatch(batchId: UInt64(now), bootId: Self.boot, nowMs: now)
            queue.giveUp(batchId: UInt64(now), nowMs: now)
            #expect(queue.holdUntilMs == now + expected)
            now = queue.holdUntilMs
        }
        // A PROCESSED ack that deletes nothing is the fourth failure in a row.
        _ = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: now)
        _ = queue.apply(Self.ack(1, [Self.range(1, 1, .retryLater)]), nowMs: now)
        #expect(queue.consecutiveFailures == 4)
        #expect(queue.holdUntilMs == now + 8000)
        #expect(queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: now + 7999) == nil)
        now += 8000
        _ = queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: now)
        _ = queue.apply(Self.ack(2, [Self.range(1, 1, .accepted)]), nowMs: now)
        #expect(queue.consecutiveFailures == 0)
    }

    @Test("§batch-id: one id never names two batches with different items")
    func batchIdsAreNotReused() throws {
        var queue = Self.queue(fixes: 4, maxBatchSize: 2, inFlight: 2)
        #expect(queue.nextBatch(batchId: 5, bootId: Self.boot, nowMs: Self.now) != nil)
        #expect(queue.nextBatch(batchId: 5, bootId: Self.boot, nowMs: Self.now) == nil)
        #expect(queue.nextBatch(batchId: 6, bootId: Self.boot, nowMs: Self.now) != nil)
    }

    @Test("§retry-after: the whole queue waits")
    func retryAfter() throws {
        var queue = Self.queue(fixes: 2)
        _ = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        var ack = Self.ack(1, [Self.range(1, 1, .accepted), Self.range(2, 2, .retryLater)])
        ack.retryAfterMs = 30_000
        _ = queue.apply(ack, nowMs: Self.now)
        #expect(queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: Self.now + 29_999) == nil)
        #expect(Self.sequences(queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: Self.now + 30_000)) == [2])
    }

    @Test("§commands: each id once, expired and unknown kinds ignored")
    func commands() throws {
        var queue = Self.queue(fixes: 2, maxBatchSize: 1, inFlight: 2)
        _ = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        _ = queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: Self.now)
        var ack = Self.ack(1, [Self.range(1, 1, .accepted)])
        ack.commands = [
            DeviceCommand(commandId: 7, kind: .recordFix),
            DeviceCommand(commandId: 8, kind: DeviceCommandKind(rawValue: 99)),
            DeviceCommand(commandId: 9, kind: .uploadNow, expiresAtMs: Self.now - 1),
        ]
        guard case .applied(let effect) = queue.apply(ack, nowMs: Self.now) else {
            Issue.record("ack ignored")
            return
        }
        #expect(effect.commands.map(\.commandId) == [7])
        ack.batchId = 2
        ack.fixResults = [Self.range(2, 2, .accepted)]
        guard case .applied(let repeated) = queue.apply(ack, nowMs: Self.now) else {
            Issue.record("ack ignored")
            return
        }
        #expect(repeated.commands.isEmpty, "command 7 runs once")
    }

    @Test("§batch-size: every batch keeps within max_batch_bytes")
    func batchBytes() throws {
        var queue = Self.queue(fixes: 2000)
        var policy = queue.policy
        policy.maxBatchBytes = 16_384
        queue.policy = policy
        let next = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        let batch = try #require(next)
        #expect(batch.serializedSize <= 16_384)
        #expect(batch.fixes.count > 100)
    }

    @Test("§item-boot: a fix of another boot keeps its boot id, in rows and in the compact form")
    func itemBoot() throws {
        var queue = UploadQueue(deviceId: "d", installId: 1)
        queue.record(Self.fix(0, boot: 0xAAAA))
        queue.record(Self.fix(1, boot: 0xAAAA))
        queue.record(Self.fix(2, boot: Self.boot))
        queue.record(Self.fix(3, boot: Self.boot))
        var policy = TrackingPolicy()
        policy.compactFixesAccepted = true
        queue.policy = policy
        queue.serverRevision = 1
        let next = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        let batch = try #require(next)
        let backlog = try #require(batch.compactFixes).fixes()
        #expect(backlog.map(\.bootId) == [0xAAAA, 0xAAAA, 0])
        #expect(batch.liveFix?.bootId == 0)
    }

    @Test("§no-silent-drop: after HOLD_REASON_UNKNOWN_COMPACT_COLUMN the backlog goes as rows")
    func rowsAfterUnknownColumn() throws {
        var queue = Self.queue(fixes: 4)
        var policy = queue.policy
        policy.compactFixesAccepted = true
        queue.policy = policy
        queue.serverRevision = 1
        #expect(queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)?.compactFixes != nil)
        var hold = Self.ack(1, [], outcome: .hold)
        hold.holdReason = .unknownCompactColumn
        hold.retryAfterMs = 0
        _ = queue.apply(hold, nowMs: Self.now)
        let next = queue.nextBatch(batchId: 2, bootId: Self.boot, nowMs: Self.now)
        let batch = try #require(next)
        #expect(batch.compactFixes == nil)
        #expect(batch.fixes.count == 3)
    }

    @Test("§sequence-floor: the lowest sequence still held, never above the batch's lowest")
    func floors() throws {
        var queue = Self.queue(fixes: 5)
        _ = queue.discardOldestFixes(2)
        let next = queue.nextBatch(batchId: 1, bootId: Self.boot, nowMs: Self.now)
        let batch = try #require(next)
        #expect(batch.fixSequenceFloor == 3)
        #expect(Self.sequences(batch).min() == 3)
    }

    // MARK: - Server

    static func batch(
        _ sequences: [UInt64], installId: UInt64 = 1, floor: UInt64 = 0, batchId: UInt64 = 1
    )
        -> LocationBatch
    {
        var batch = LocationBatch()
        batch.deviceId = "device-1"
        batch.installId = installId
        batch.batchId = batchId
        batch.protocolRevision = 1
        batch.sentAtMs = now
        batch.fixSequenceFloor = floor
        batch.fixes = sequences.map {
            var fix = Self.fix(Int($0))
            fix.sequence = $0
            return fix
        }
        return batch
    }

    static func ingest(_ ledger: inout IngestLedger, _ batch: LocationBatch) -> IngestResult {
        ledger.ingest(batch, encodedSize: batch.serializedSize, nowMs: now)
    }

    @Test("§fix-key §server-durable: a key is stored once, across restarts; another installation's is another fix")
    func idempotency() throws {
        var ledger = IngestLedger()
        #expect(Self.ingest(&ledger, Self.batch([1, 2])).ack.fixResults == [Self.range(1, 2, .accepted)])
        ledger = try IngestLedger(serializedBytes: ledger.serializedBytes())
        let again = Self.ingest(&ledger, Self.batch([2, 3]))
        #expect(again.ack.fixResults == [Self.range(2, 2, .duplicate), Self.range(3, 3, .accepted)])
        #expect(again.storedFixes.map(\.sequence) == [3])
        let reinstalled = Self.ingest(&ledger, Self.batch([1, 2], installId: 2))
        #expect(reinstalled.ack.fixResults == [Self.range(1, 2, .accepted)], "a reinstall's fixes are new")
    }

    @Test("§gap-report: below the floor and never answered is lost; at or above it is pending")
    func gaps() throws {
        var ledger = IngestLedger()
        _ = Self.ingest(&ledger, Self.batch([1, 2, 6, 7], floor: 1))
        let key = IngestLedger.InstallationKey(deviceId: "device-1", installId: 1)
        #expect(ledger.lostFixes(of: key).isEmpty)
        _ = Self.ingest(&ledger, Self.batch([8], floor: 5, batchId: 2))
        #expect(ledger.lostFixes(of: key) == [3...4])
    }

    @Test("§hold-keeps §revision: passing conditions and old revisions are HOLDs, never rejections")
    func holds() throws {
        var policy = IngestLedger.Policy()
        policy.knownDevices = ["someone-else"]
        var ledger = IngestLedger(policy: policy)
        #expect(Self.ingest(&ledger, Self.batch([1])).ack.holdReason == .deviceUnknown)
        ledger.policy.knownDevices = nil
        ledger.policy.fixQuotaPerInstallation = 1
        #expect(Self.ingest(&ledger, Self.batch([1, 2])).ack.holdReason == .quotaExceeded)
        var old = Self.batch([1])
        old.protocolRevision = 0
        #expect(Self.ingest(&ledger, old).ack.holdReason == .unsupportedRevision)
        var newer = Self.batch([1])
        newer.protocolRevision = 2
        ledger.policy.fixQuotaPerInstallation = nil
        #expect(Self.ingest(&ledger, newer).ack.outcome == .processed, "a newer device is served at revision 1")
        var withoutInstall = Self.batch([1])
        withoutInstall.installId = 0
        #expect(Self.ingest(&ledger, withoutInstall).ack.holdReason == .unsupportedRevision)
        var unknownDatum = Self.batch([1])
        unknownDatum.datum = CoordinateDatum(rawValue: 12)
        let held = Self.ingest(&ledger, unknownDatum)
        #expect(held.ack.outcome == .hold && held.ack.holdReason == .unknownDatum && held.storedFixes.isEmpty)
    }

    @Test("§datum-default: a batch without a datum is read as WGS84 and stored, not held as an unknown datum")
    func unspecifiedDatumIsWGS84() throws {
        var ledger = IngestLedger()
        var batch = Self.batch([1])
        batch.datum = .unspecified
        let result = Self.ingest(&ledger, batch)
        #expect(result.ack.outcome == .processed)
        #expect(result.storedFixes.map(\.sequence) == [1])
    }

    @Test("§no-silent-drop: a compact column from a newer revision holds the batch; nothing is stored")
    func unknownCompactColumn() throws {
        var ledger = IngestLedger()
        var batch = Self.batch([])
        var compact = try CompactFixes(fixes: Self.batch([1, 2, 3]).fixes)
        // The first future column: a LocationFix field this revision does not have (length-delimited, empty).
        var column: [UInt8] = []
        appendVarint(UInt64(FieldKey.make(CompactFixes.futureColumns.lowerBound, .lengthDelimited)), to: &column)
        compact.unknownFields = UnknownFields(rawBytes: column + [0x00])
        batch.compactFixes = compact
        let result = Self.ingest(&ledger, batch)
        #expect(result.ack.outcome == .hold)
        #expect(result.ack.holdReason == .unknownCompactColumn)
        #expect(result.storedFixes.isEmpty)
    }

    @Test("§batch-size: a batch over the server's limit is TOO_LARGE with the limit, nothing stored")
    func tooLarge() throws {
        var policy = IngestLedger.Policy()
        policy.maxBatchBytes = 16_384
        var ledger = IngestLedger(policy: policy)
        let batch = Self.batch(Array(1...1000))
        let result = Self.ingest(&ledger, batch)
        #expect(result.ack.outcome == .tooLarge)
        #expect(result.ack.maxBatchBytes == 16_384)
        #expect(result.storedFixes.isEmpty)
    }

    @Test("§item-defects: only the listed defects are refused; other broken rules are stored; the first reason wins")
    func itemDefects() throws {
        var policy = IngestLedger.Policy()
        policy.acceptsMockFixes = false
        policy.oldestAcceptedTimeMs = Self.now - 1000
        var ledger = IngestLedger(policy: policy)
        var batch = Self.batch([1, 2, 3, 4, 5, 6])
        batch.fixes[0].latitudeE7 = nil
        batch.fixes[1].timeMs = 4_102_444_800_000
        batch.fixes[2].timeMs = Self.now - 5000
        batch.fixes[3].isMock = true
        batch.fixes[5].timeMs = Self.now + 3_600_000  // far after sent_at_ms: time-after-send reports, nothing refuses
        var sourceless = FenceEvent()
        sourceless.eventSequence = 1
        sourceless.regionId = "site:1"
        sourceless.kind = .exit
        batch.fenceEvents = [sourceless]
        let result = Self.ingest(&ledger, batch)
        #expect(result.rejectedFixes == [1, 2, 3, 4])
        #expect(result.rejectReasons == [.invalidCoordinates, .timestampOutOfRange, .tooOld, .mockLocation])
        #expect(result.storedFixes.map(\.sequence) == [5, 6])
        #expect(result.storedEvents.count == 1, "a fence event without source is stored")

        var twice = Self.batch([7, 7], batchId: 2)
        twice.fixes[1].latitudeE7 = nil
        #expect(Self.ingest(&ledger, twice).ack.fixResults == [Self.range(7, 7, .accepted)], "the first occurrence")

        var nobody = Self.batch([8], batchId: 3)
        nobody.deviceId = ""
        #expect(Self.ingest(&ledger, nobody).ack.holdReason == .deviceUnknown)

        ledger.policy.fixQuotaPerInstallation = 6  // 5, 6 and 7 stored: room for 3 more
        var quota = Self.batch([9, 10, 11, 12, 13], batchId: 4)
        quota.fixes[4].latitudeE7 = nil  // refused, so it does not count
        #expect(Self.ingest(&ledger, quota).ack.outcome == .hold)
        quota.fixes.removeFirst()
        #expect(Self.ingest(&ledger, quota).ack.outcome == .processed, "3 new storable fixes fit")

        ledger.policy.maxBatchBytes = 16_384
        ledger.policy.knownDevices = ["someone-else"]
        let big = Self.batch(Array(100...1200), batchId: 5)
        #expect(Self.ingest(&ledger, big).ack.outcome == .tooLarge, "TOO_LARGE comes before DEVICE_UNKNOWN")
    }

    @Test("§event-key: fence events are keyed by installation and event sequence")
    func eventKeys() throws {
        var ledger = IngestLedger()
        var batch = Self.batch([1])
        var event = FenceEvent()
        event.eventSequence = 1
        event.regionId = "site:1"
        event.kind = .enter
        batch.fenceEvents = [event]
        #expect(Self.ingest(&ledger, batch).ack.fenceEventResults == [Self.range(1, 1, .accepted)])
        #expect(Self.ingest(&ledger, batch).ack.fenceEventResults == [Self.range(1, 1, .duplicate)])
        batch.installId = 2
        #expect(Self.ingest(&ledger, batch).ack.fenceEventResults == [Self.range(1, 1, .accepted)])
    }

    @Test("SequenceSet merges, reports what is missing, and round-trips its persisted form")
    func sequenceSet() {
        var set = SequenceSet([1, 2, 3, 7, 9])
        set.insert(8)
        #expect(set.ranges == [1...3, 7...9])
        #expect(set.missing(below: 12) == [4...6, 10...11])
        #expect(SequenceSet(flattened: set.flattened) == set)
        #expect(SequenceSet(flattened: [5, 3]) == nil)
        #expect(SequenceSet(flattened: [1, 3, 4, 5]) == nil, "touching ranges are not canonical")
    }
}
