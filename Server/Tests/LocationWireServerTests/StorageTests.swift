import Foundation
import LocationWire
@testable import LocationWireServer
import LocationWireSession
import Testing

/// What every ``ServerStorage`` backend must do alike, run against each of ``StorageBackend/tested``: the acks,
/// de-duplication across resends and restarts, what is kept, the read-back, tokens and assignments, and two
/// stores (two server processes) ingesting one installation's batches at once.
@Suite struct StorageTests {
    static let nowMs: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z
    static let deviceId = "device-storage"
    static let policy = IngestLedger.Policy()

    /// A valid batch of fixes `sequences` of installation `installId`; fix `n` has `time_ms` = now - 60 s + n.
    static func batch(
        _ sequences: ClosedRange<UInt64>, installId: UInt64 = 7, batchId: UInt64 = 1, deviceId: String = deviceId
    ) -> LocationBatch {
        var batch = LocationBatch()
        batch.deviceId = deviceId
        batch.installId = installId
        batch.batchId = batchId
        batch.protocolRevision = IngestLedger.protocolRevision
        batch.datum = .wgs84
        batch.sentAtMs = nowMs
        batch.fixSequenceFloor = 1
        batch.fixes = sequences.map { sequence in
            var fix = LocationFix()
            fix.sequence = sequence
            fix.timeMs = nowMs - 60_000 + Int64(sequence)
            fix.latitudeE7 = 525_200_000 + Int32(sequence)
            fix.longitudeE7 = 134_050_000
            return fix
        }
        return batch
    }

    static func ingest(
        _ batch: LocationBatch, into store: some ServerStorage, nowMs: Int64 = nowMs
    ) async throws
        -> BatchAck
    {
        try await store.ingest(batch, encodedSize: batch.serializedSize, nowMs: nowMs, policy: policy)
    }

    @Test(arguments: StorageBackend.tested) func batchIsStoredAndAcked(_ backend: StorageBackend) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                let ack = try await Self.ingest(Self.batch(1...3, batchId: 9), into: store)
                #expect(ack.batchId == 9)
                #expect(ack.outcome == .processed)
                #expect(ack.serverTimeMs == Self.nowMs)
                #expect(ack.fixResults == [AckRange(first: 1, last: 3, result: .accepted)])
                #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 7) == 3)
                #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 8) == 0)
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func resendIsDuplicateAndOverlapStoresOnlyTheNew(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                _ = try await Self.ingest(Self.batch(1...3), into: store)
                let again = try await Self.ingest(Self.batch(1...3), into: store)
                #expect(again.outcome == .processed)
                #expect(again.fixResults == [AckRange(first: 1, last: 3, result: .duplicate)])
                let overlapping = try await Self.ingest(Self.batch(3...5, batchId: 2), into: store)
                #expect(
                    overlapping.fixResults == [
                        AckRange(first: 3, last: 3, result: .duplicate),
                        AckRange(first: 4, last: 5, result: .accepted),
                    ])
                #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 7) == 5)
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func ledgerSurvivesANewStore(_ backend: StorageBackend) async throws {
        try await backend.withFreshDatabase { database in
            let batch = Self.batch(1...2)
            try await database.withStore { first in
                let ack = try await Self.ingest(batch, into: first)
                #expect(ack.fixResults.map(\.result) == [.accepted])
            }
            // A restarted server: a new store over the same database answers from what was committed.
            try await database.withStore { second in
                let again = try await Self.ingest(batch, into: second)
                #expect(again.fixResults == [AckRange(first: 1, last: 2, result: .duplicate)])
                #expect(try await second.storedFixCount(deviceId: Self.deviceId, installId: 7) == 2)
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func tooLargeStoresNothingAndTheBatchIsTakenLater(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                let batch = Self.batch(1...4)
                let refused = try await store.ingest(
                    batch, encodedSize: 100 * Self.policy.maxBatchBytes, nowMs: Self.nowMs, policy: Self.policy)
                #expect(refused.outcome == .tooLarge)
                #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 7) == 0)
                // Whatever the refusal left behind (PostgreSQL's placeholder row) reads as "no record yet".
                let ack = try await Self.ingest(batch, into: store)
                #expect(ack.fixResults == [AckRange(first: 1, last: 4, result: .accepted)])
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func eventsAreStoredOnce(_ backend: StorageBackend) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                var batch = Self.batch(1...1)
                batch.fenceEvents = (UInt64(1)...3).map { sequence in
                    var event = FenceEvent()
                    event.eventSequence = sequence
                    event.regionId = "region-\(sequence)"
                    event.kind = .enter
                    event.detectedAtMs = Self.nowMs - 1_000
                    return event
                }
                batch.lifecycleEvents = [LifecycleEventKind.launched, .enteredBackground].enumerated().map {
                    index, kind in
                    var event = LifecycleEvent()
                    event.kind = kind
                    event.timeMs = Self.nowMs - 5_000 + Int64(index)
                    return event
                }
                let ack = try await Self.ingest(batch, into: store)
                #expect(ack.fenceEventResults == [AckRange(first: 1, last: 3, result: .accepted)])
                let again = try await Self.ingest(batch, into: store)
                #expect(again.fenceEventResults == [AckRange(first: 1, last: 3, result: .duplicate)])
                #expect(
                    try await store.storedEventCounts(deviceId: Self.deviceId, installId: 7)
                        == StoredEventCounts(fenceEvents: 3, lifecycleEvents: 2))
            }
        }
    }

    /// A protobuf string may carry U+0000, which PostgreSQL's TEXT cannot: the event is stored all the same,
    /// or the device would get 503 for that batch for ever.
    @Test(arguments: StorageBackend.tested) func aRegionIdWithNulIsStored(_ backend: StorageBackend) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                var batch = Self.batch(1...1)
                var event = FenceEvent()
                event.eventSequence = 1
                event.regionId = "zone\u{0}1"
                event.kind = .exit
                batch.fenceEvents = [event]
                let ack = try await Self.ingest(batch, into: store)
                #expect(ack.fenceEventResults == [AckRange(first: 1, last: 1, result: .accepted)])
                #expect(
                    try await store.storedEventCounts(deviceId: Self.deviceId, installId: 7)
                        == StoredEventCounts(fenceEvents: 1, lifecycleEvents: 0))
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func deviceStatusIsTheNewestSent(_ backend: StorageBackend) async throws {
        func batch(sentAtMs: Int64, batchId: UInt64, lowPower: Bool) -> LocationBatch {
            var batch = Self.batch(batchId...batchId, batchId: batchId)
            batch.sentAtMs = sentAtMs
            var status = DeviceStatus()
            status.observedAtMs = sentAtMs
            status.authorization = .denied
            status.lowPowerMode = lowPower
            batch.deviceStatus = status
            return batch
        }
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                _ = try await Self.ingest(batch(sentAtMs: Self.nowMs, batchId: 1, lowPower: true), into: store)
                // A backlog sent earlier, arriving later, does not replace the newer status.
                _ = try await Self.ingest(
                    batch(sentAtMs: Self.nowMs - 10_000, batchId: 2, lowPower: false), into: store)
                var kept = try await store.storedDeviceStatus(deviceId: Self.deviceId, installId: 7)
                #expect(kept?.sentAtMs == Self.nowMs)
                #expect(kept?.status.lowPowerMode == true)
                // The same sent_at_ms arriving later wins the tie.
                _ = try await Self.ingest(batch(sentAtMs: Self.nowMs, batchId: 3, lowPower: false), into: store)
                kept = try await store.storedDeviceStatus(deviceId: Self.deviceId, installId: 7)
                #expect(kept?.status.lowPowerMode == false)
                #expect(try await store.storedDeviceStatus(deviceId: Self.deviceId, installId: 8) == nil)
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func readBackIsOrderedByTimeThenInstallationThenSequence(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                // Installations 8 and 7 with the same times (fix n at now - 60 s + n), and another device's fixes.
                _ = try await Self.ingest(Self.batch(1...4, installId: 8), into: store)
                _ = try await Self.ingest(Self.batch(1...4, installId: 7), into: store)
                _ = try await Self.ingest(Self.batch(1...4, deviceId: "someone-else"), into: store)
                let start = Self.nowMs - 60_000
                let all = try await store.fixes(deviceId: Self.deviceId, fromMs: start, toMs: Self.nowMs, limit: 100)
                #expect(
                    all.map { "\($0.installId)/\($0.fix.sequence)" } == [
                        "7/1", "8/1", "7/2", "8/2", "7/3", "8/3", "7/4", "8/4",
                    ])
                #expect(all.allSatisfy { $0.receivedAtMs == Self.nowMs })
                #expect(all.first?.fix == Self.batch(1...1).fixes[0])
                // The range's end is excluded, its start included; the limit cuts the ordered list.
                let window = try await store.fixes(
                    deviceId: Self.deviceId, fromMs: start + 2, toMs: start + 4, limit: 3)
                #expect(window.map { "\($0.installId)/\($0.fix.sequence)" } == ["7/2", "8/2", "7/3"])
            }
        }
    }

    /// `§http-bearer`: tokens are 64 hex digits, the device's bucket then 224 random bits, kept as digests, one
    /// device each, on either backend.
    @Test(arguments: StorageBackend.tested) func tokensAreRandomHexAndKeptAsDigests(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            let token = try await database.withStore { store in
                let token = try #require(try await store.issueFirstToken(forDevice: Self.deviceId, nowMs: Self.nowMs))
                #expect(token.count == 64)
                #expect(token.allSatisfy { "0123456789abcdef".contains($0) })
                #expect(token.hasPrefix(ShardMap.hex(ShardMap.bucket(ofDevice: Self.deviceId))))
                #expect(try await store.issueFirstToken(forDevice: Self.deviceId, nowMs: Self.nowMs + 1) == nil)
                let second = try await store.issueToken(forDevice: Self.deviceId, nowMs: Self.nowMs)
                #expect(second != token)
                #expect(try await store.deviceId(forToken: second) == Self.deviceId)
                #expect(try await store.deviceId(forToken: String(repeating: "0", count: 64)) == nil)
                #expect(try await store.issueFirstToken(forDevice: "another", nowMs: Self.nowMs) != token)
                return token
            }
            // A restart keeps the token valid and cannot show it again.
            try await database.withStore { (store) async throws -> Void in
                #expect(try await store.issueFirstToken(forDevice: Self.deviceId, nowMs: Self.nowMs + 2) == nil)
                #expect(try await store.deviceId(forToken: token) == Self.deviceId)
            }
            // Nothing in the database holds a token in clear: a copy of it does not let anyone act as the device.
            #expect(try await database.holds(token, inTable: "device_token") == false)
            #expect(try await database.holds(StoredRows.tokenDigest(token), inTable: "device_token"))
        }
    }

    @Test(arguments: StorageBackend.tested) func firstTokenIsMadeOnceByStoresStartingAtOnce(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { first in
                try await database.withStore { second in
                    async let a = first.issueFirstToken(forDevice: Self.deviceId, nowMs: Self.nowMs)
                    async let b = second.issueFirstToken(forDevice: Self.deviceId, nowMs: Self.nowMs)
                    let made = try await [a, b].compactMap { $0 }
                    #expect(made.count == 1)
                }
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func assignmentIsReplacedByTheNext(_ backend: StorageBackend) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                #expect(try await store.lastAssignment(deviceId: Self.deviceId) == nil)
                var assignment = RegionAssignment()
                assignment.assignmentVersion = 3
                assignment.issuedAtMs = Self.nowMs
                assignment.removedRegionIds = ["gone"]
                try await store.saveAssignment(assignment, deviceId: Self.deviceId, nowMs: Self.nowMs)
                #expect(try await store.lastAssignment(deviceId: Self.deviceId) == assignment)
                assignment.assignmentVersion = 4
                try await store.saveAssignment(assignment, deviceId: Self.deviceId, nowMs: Self.nowMs + 1)
                #expect(try await store.lastAssignment(deviceId: Self.deviceId)?.assignmentVersion == 4)
                #expect(try await store.lastAssignment(deviceId: "someone-else") == nil)
            }
        }
    }

    /// Two stores over one database, as two server processes behind a load balancer: overlapping batches of one
    /// installation, sent to both at once. Each fix must be stored once and acked `ACCEPTED` exactly once;
    /// every other ack of it says `DUPLICATE`.
    /// Group commit: batches sent at once share transactions, and a batch the tables refuse (here, a fix row the
    /// ledger does not know of is in the way) fails alone: the others of its group are acked and stored, and its
    /// installation's record is not written, so that the same batch is stored once the row is gone.
    @Test(arguments: StorageBackend.tested) func aBatchTheTablesRefuseFailsAloneInItsGroup(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { store in
                // The store has made its tables; the row in the way of installation 9's first fix.
                let body = if case .postgres = database { "'\\x00'::BYTEA" } else { "X'00'" }
                try await database.execute(
                    """
                    INSERT INTO fix (device_id, install_id, sequence, time_ms, latitude_e7, longitude_e7, body,
                        received_at_ms) VALUES ('\(Self.deviceId)', 9, 1, 0, NULL, NULL, \(body), \(Self.nowMs))
                    """)
                let answers = await withTaskGroup(of: (UInt64, Result<BatchAck, any Error>).self) { group in
                    for installId in UInt64(1)...20 {
                        group.addTask {
                            let batch = Self.batch(1...2, installId: installId)
                            do {
                                return (installId, .success(try await Self.ingest(batch, into: store)))
                            } catch {
                                return (installId, .failure(error))
                            }
                        }
                    }
                    var answers: [UInt64: Result<BatchAck, any Error>] = [:]
                    for await (installId, answer) in group { answers[installId] = answer }
                    return answers
                }
                for installId in UInt64(1)...20 {
                    let stored = try await store.storedFixCount(deviceId: Self.deviceId, installId: installId)
                    if installId == 9 {
                        #expect(throws: (any Error).self) { try answers[installId]?.get() }
                        #expect(stored == 1, "only the row put in the way")
                    } else {
                        #expect((try? answers[installId]?.get())?.outcome == .processed, "installation \(installId)")
                        #expect(stored == 2, "installation \(installId)")
                    }
                }
                try await database.execute("DELETE FROM fix WHERE install_id = 9")
                let ack = try await Self.ingest(Self.batch(1...2, installId: 9), into: store)
                #expect(ack.fixResults == [AckRange(first: 1, last: 2, result: .accepted)])
                #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 9) == 2)
            }
        }
    }

    @Test(arguments: StorageBackend.tested) func twoStoresIngestingOneInstallationAtOnceStoreEachFixOnce(
        _ backend: StorageBackend
    ) async throws {
        let batchCount = 40
        let step: UInt64 = 25
        let width: UInt64 = 50
        let batches = (0..<UInt64(batchCount)).map { k in
            Self.batch((k * step + 1)...(k * step + width), batchId: k + 1)
        }
        let highest = UInt64(batchCount - 1) * step + width
        try await backend.withFreshDatabase { database in
            let acks = try await database.withStore { first in
                try await database.withStore { second in
                    try await withThrowingTaskGroup(of: BatchAck.self) { group in
                        for (index, batch) in batches.enumerated() {
                            let store: any ServerStorage = index.isMultiple(of: 2) ? first : second
                            group.addTask { try await Self.ingest(batch, into: store) }
                        }
                        var acks: [BatchAck] = []
                        for try await ack in group { acks.append(ack) }
                        return acks
                    }
                }
            }
            #expect(acks.count == batchCount)
            #expect(acks.allSatisfy { $0.outcome == .processed })
            var accepted: [UInt64: Int] = [:]
            var answered: [UInt64: Int] = [:]
            for ack in acks {
                for range in ack.fixResults {
                    #expect(range.result == .accepted || range.result == .duplicate)
                    for sequence in range.firstSequence...range.lastSequence {
                        answered[sequence, default: 0] += 1
                        if range.result == .accepted { accepted[sequence, default: 0] += 1 }
                    }
                }
            }
            // Each batch's ack answers each of its fixes once; the overlaps answer most fixes twice.
            for sequence in 1...highest {
                #expect(accepted[sequence] == 1, "fix \(sequence) accepted \(accepted[sequence] ?? 0) times")
                #expect(answered[sequence] == (sequence <= step || sequence > highest - step ? 1 : 2))
            }
            try await database.withStore { store in
                #expect(try await store.storedFixCount(deviceId: Self.deviceId, installId: 7) == Int(highest))
                let stored = try await store.fixes(
                    deviceId: Self.deviceId, fromMs: .min, toMs: .max, limit: Int(highest) + 10)
                #expect(stored.map(\.fix.sequence) == Array(1...highest))
            }
        }
    }
}
