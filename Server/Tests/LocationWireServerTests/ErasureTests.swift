import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireHTTP
@testable import LocationWireServer
import LocationWireSession
import NIOCore
import Testing

/// Erasure and retention (`§http-erase`, `§http-retention`, issue 24): what is removed, what stays, and what a
/// device sees afterwards, on either backend; and the endpoint's authentication.
@Suite struct ErasureTests {
    typealias Storage = StorageTests
    static let day: Int64 = 86_400_000
    /// A region id no other row holds, to look for in the database's bytes.
    static let marker = "erase-me-region-7f3a"

    /// A batch with fixes `sequences`, one fence event, one lifecycle event and a device status.
    static func fullBatch(_ sequences: ClosedRange<UInt64>, batchId: UInt64, eventSequence: UInt64) -> LocationBatch {
        var batch = Storage.batch(sequences, batchId: batchId)
        var event = FenceEvent()
        event.eventSequence = eventSequence
        event.regionId = marker
        event.kind = .enter
        event.detectedAtMs = Storage.nowMs - 1_000
        batch.fenceEvents = [event]
        var lifecycle = LifecycleEvent()
        lifecycle.kind = .launched
        lifecycle.timeMs = Storage.nowMs - 5_000 + Int64(batchId)
        batch.lifecycleEvents = [lifecycle]
        var status = DeviceStatus()
        status.observedAtMs = Storage.nowMs - 2_000
        batch.deviceStatus = status
        return batch
    }

    @Test(arguments: StorageBackend.tested) func erasureRemovesEveryItemAndKeepsTheNumbers(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { (store) async throws -> Void in
                let first = Self.fullBatch(1...5, batchId: 1, eventSequence: 1)
                _ = try await Storage.ingest(first, into: store)
                var assignment = RegionAssignment()
                assignment.assignmentVersion = 4
                assignment.mode = .fullReplacement
                assignment.regions = [Region()]
                try await store.saveAssignment(assignment, deviceId: Storage.deviceId, nowMs: Storage.nowMs)
                var other = Storage.batch(1...2, deviceId: "someone-else")
                other.deviceId = "someone-else"
                _ = try await Storage.ingest(other, into: store)

                var expected = RemovedRows()
                expected.fixes = 5
                expected.fenceEvents = 1
                expected.lifecycleEvents = 1
                expected.deviceStatuses = 1
                expected.assignments = 1
                #expect(try await store.erase(deviceId: Storage.deviceId, nowMs: Storage.nowMs) == expected)
                #expect(
                    try await store.fixes(deviceId: Storage.deviceId, fromMs: .min, toMs: .max, limit: 100).isEmpty)
                #expect(
                    try await store.storedEventCounts(deviceId: Storage.deviceId, installId: 7)
                        == StoredEventCounts(fenceEvents: 0, lifecycleEvents: 0))
                #expect(try await store.storedDeviceStatus(deviceId: Storage.deviceId, installId: 7) == nil)
                // §http-erase-assignments: the version alone stays, so the next plan is numbered above it.
                var kept = RegionAssignment()
                kept.assignmentVersion = 4
                kept.mode = .fullReplacement
                #expect(try await store.lastAssignment(deviceId: Storage.deviceId) == kept)
                #expect(try await store.storedFixCount(deviceId: "someone-else", installId: 7) == 2, "others stay")
                // Erasing again removes nothing.
                #expect(try await store.erase(deviceId: Storage.deviceId, nowMs: Storage.nowMs) == RemovedRows())

                // What the device sees: a resend of an erased batch is DUPLICATE, the next numbers ACCEPTED.
                let again = try await Storage.ingest(first, into: store)
                #expect(again.fixResults == [AckRange(first: 1, last: 5, result: .duplicate)])
                #expect(again.fenceEventResults == [AckRange(first: 1, last: 1, result: .duplicate)])
                let next = try await Storage.ingest(Self.fullBatch(6...7, batchId: 2, eventSequence: 2), into: store)
                #expect(next.fixResults == [AckRange(first: 6, last: 7, result: .accepted)])
                #expect(try await store.storedFixCount(deviceId: Storage.deviceId, installId: 7) == 2)
            }
            // Erased bytes are gone from the rows (and, on SQLite, from the file: secure_delete).
            let leftover = try await database.withStore { store in
                try await store.erase(deviceId: Storage.deviceId, nowMs: Storage.nowMs)
            }
            #expect(leftover.fenceEvents == 1)
            #expect(try await database.holds(Self.marker, inTable: "fence_event") == false)
        }
    }

    /// Items received before the cutoff go, the rest stay; resends of removed items are DUPLICATE. On
    /// PostgreSQL the old day is a partition, dropped whole.
    @Test(arguments: StorageBackend.tested) func retentionRemovesWhatWasReceivedBeforeTheCutoff(
        _ backend: StorageBackend
    ) async throws {
        try await backend.withFreshDatabase { database in
            try await database.withStore { (store) async throws -> Void in
                let oldDay = Storage.nowMs
                let newDay = Storage.nowMs + 3 * Self.day
                try await store.prepareRetention(nowMs: oldDay)
                let old = Self.fullBatch(1...5, batchId: 1, eventSequence: 1)
                _ = try await Storage.ingest(old, into: store, nowMs: oldDay)
                _ = try await Storage.ingest(
                    Self.fullBatch(6...8, batchId: 2, eventSequence: 2), into: store, nowMs: newDay)

                let retention = Retention(keepMs: 2 * Self.day, rowLimit: 2)
                let removed = try await retention.round(storage: store, nowMs: newDay + 60_000)
                #expect(removed.fixes == 5)
                #expect(removed.fenceEvents == 1)
                #expect(removed.lifecycleEvents == 1)
                #expect(removed.deviceStatuses == 0, "the status of the newer batch replaced the old one")
                if backend == .postgres { #expect(removed.partitionsDropped == 2) }
                let kept = try await store.fixes(deviceId: Storage.deviceId, fromMs: .min, toMs: .max, limit: 100)
                #expect(kept.map(\.fix.sequence) == [6, 7, 8])
                #expect(try await retention.round(storage: store, nowMs: newDay + 60_000) == RemovedRows())

                let again = try await Storage.ingest(old, into: store, nowMs: newDay)
                #expect(again.fixResults == [AckRange(first: 1, last: 5, result: .duplicate)])
            }
        }
    }

    @Test func partitionNamesAreUTCDays() {
        let day = PostgresStorage.floorDivide(1_795_737_600_000, PostgresSchema.millisecondsPerDay)  // 2026-11-27
        #expect(PostgresSchema.dayPartitionName("fix", day: day) == "fix_d20261127")
        #expect(PostgresSchema.day(ofPartition: "fix_d20261127", table: "fix") == day)
        #expect(PostgresSchema.day(ofPartition: "fix_default", table: "fix") == nil)
        #expect(PostgresSchema.day(ofPartition: "fence_event_d20261127", table: "fix") == nil)
        #expect(PostgresStorage.floorDivide(-1, PostgresSchema.millisecondsPerDay) == -1)
    }

    /// `DELETE /v1/devices/{id}`: the device's own token or an operator token; another device's is 403, none
    /// 401; an operator token cannot upload.
    @Test func theEndpointTakesTheDeviceOrTheOperator() async throws {
        let store = try SQLiteStorage()
        let deviceToken = try await store.issueToken(forDevice: Storage.deviceId, nowMs: Storage.nowMs)
        let otherToken = try await store.issueToken(forDevice: "someone-else", nowMs: Storage.nowMs)
        let operatorToken = try await store.issueOperatorToken(nowMs: Storage.nowMs)
        #expect(try await store.deviceId(forToken: operatorToken) == nil)
        var configuration = ServerConfiguration()
        configuration.nowMs = { Storage.nowMs }
        let app = Application(
            router: makeServerRouter(storage: store, authenticator: store, configuration: configuration))
        _ = try await Storage.ingest(Self.fullBatch(1...3, batchId: 1, eventSequence: 1), into: store)
        let path = Binding.devicePath(deviceId: Storage.deviceId)
        try await app.test(.router) { client in
            func delete(_ token: String?) async throws -> (HTTPResponse.Status, String) {
                let headers: HTTPFields = token.map { [.authorization: "Bearer \($0)"] } ?? [:]
                return try await client.execute(uri: path, method: .delete, headers: headers) { response in
                    (response.status, String(buffer: response.body))
                }
            }
            #expect(try await delete(nil).0 == .unauthorized)
            #expect(try await delete(otherToken).0 == .forbidden)
            let (status, body) = try await delete(deviceToken)
            #expect(status == .ok)
            let answer = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            #expect(answer?["deviceId"] as? String == Storage.deviceId)
            #expect((answer?["removed"] as? [String: Any])?["fixes"] as? Int == 3)
            let (operatorStatus, operatorBody) = try await delete(operatorToken)
            #expect(operatorStatus == .ok)
            #expect(operatorBody.contains("\"fixes\":0"))
            let upload = try await client.execute(
                uri: Binding.batchesPath, method: .post,
                headers: [
                    .authorization: "Bearer \(operatorToken)",
                    .contentType: Binding.protobufMediaType + "; proto=locationwire.v1.LocationBatch",
                ],
                body: ByteBuffer(bytes: Storage.batch(9...9).serializedBytes())
            ) { $0.status }
            #expect(upload == .forbidden)
        }
    }
}
