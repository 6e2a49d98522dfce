import LocationWire
@testable import LocationWireServer
import LocationWireSession
import Synchronization
import Testing

/// The queue both backends commit through (``GroupCommit``), with a commit that only records what it was given:
/// how groups are formed, whatever the database.
@Suite struct GroupCommitTests {
    /// What the recording commit saw: each group's installations, and the most groups committing at once.
    final class Recorder: Sendable {
        struct State {
            var groups: [[IngestLedger.InstallationKey]] = []
            var committing: [Set<IngestLedger.InstallationKey>] = []
            var mostAtOnce = 0
            var sharedInstallation = false
        }
        let state = Mutex(State())

        func commit(_ group: [GroupCommit.Waiting]) async -> [Result<BatchAck, any Error>] {
            let keys = group.map(\.installation)
            state.withLock { state in
                let held = state.committing.reduce(into: Set()) { $0.formUnion($1) }
                if !held.isDisjoint(with: keys) { state.sharedInstallation = true }
                state.committing.append(Set(keys))
                state.mostAtOnce = max(state.mostAtOnce, state.committing.count)
                state.groups.append(keys)
            }
            try? await Task.sleep(for: .milliseconds(2))
            state.withLock { state in
                state.committing.removeAll { $0 == Set(keys) }
            }
            return group.map { waiting in
                var ack = BatchAck()
                ack.batchId = waiting.batch.batchId
                return .success(ack)
            }
        }
    }

    /// 200 batches of 20 installations (10 each) sent at once; returns the batch id each caller got back.
    static func sendAll(through queue: GroupCommit, recorder: Recorder) async throws -> [UInt64] {
        try await withThrowingTaskGroup(of: UInt64.self) { tasks in
            for index in 0..<200 {
                var batch = LocationBatch()
                batch.deviceId = "device-\(index % 20)"
                batch.installId = 1
                batch.batchId = UInt64(index)
                tasks.addTask {
                    try await queue.ingest(batch, encodedSize: 10, nowMs: 0, policy: IngestLedger.Policy()) { group in
                        await recorder.commit(group)
                    }
                    .batchId
                }
                // Let some arrive while groups commit.
                if index.isMultiple(of: 50) { try await Task.sleep(for: .milliseconds(3)) }
            }
            var answered: [UInt64] = []
            for try await batchId in tasks { answered.append(batchId) }
            return answered
        }
    }

    @Test func postgresGroupsHoldAnInstallationOnceAndNeverInTwoGroupsAtOnce() async throws {
        let queue = GroupCommit(maxGroupSize: 8, maxConcurrentGroups: 3, oneBatchPerInstallation: true)
        let recorder = Recorder()
        let answered = try await Self.sendAll(through: queue, recorder: recorder)
        #expect(answered.sorted() == Array(0..<200), "every caller got its own batch's answer")
        recorder.state.withLock { state in
            #expect(state.groups.allSatisfy { Set($0).count == $0.count }, "a group holds an installation once")
            #expect(state.groups.allSatisfy { $0.count <= 8 })
            #expect(state.groups.contains { $0.count > 1 }, "batches that wait go together")
            #expect(!state.sharedInstallation, "no installation in two groups committing at once")
            #expect(state.mostAtOnce <= 3)
            #expect(state.mostAtOnce > 1, "groups of different installations overlap")
        }
    }

    @Test func sqliteGroupsTakeEveryWaitingBatchOneGroupAtATime() async throws {
        let queue = GroupCommit(maxGroupSize: 64)
        let recorder = Recorder()
        let answered = try await Self.sendAll(through: queue, recorder: recorder)
        #expect(answered.sorted() == Array(0..<200))
        recorder.state.withLock { state in
            #expect(state.mostAtOnce == 1)
            #expect(state.groups.contains { Set($0).count < $0.count }, "an installation may repeat in a group")
            #expect(state.groups.allSatisfy { $0.count <= 64 })
        }
    }
}
