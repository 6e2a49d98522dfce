import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireSession
import LocationWireTestSupport
import Testing

@testable import LocationWireDevice

/// What the device holds, and when it is durable: a commit keeps, a rollback forgets, a reopening reads back.
@Suite struct DeviceStateTests {
    let configuration = DeviceConfiguration(deviceId: "device-1", requestsRegions: false)

    @Test func aNewStoreDrawsAnInstallIdAndKeepsIt() throws {
        let directory = temporaryStore()
        let first = try DeviceState(directory: directory, configuration: configuration)
        #expect(first.record.installId != 0)
        try first.saveRecord()
        try first.commit()
        let again = try DeviceState(directory: directory, configuration: configuration)
        #expect(again.record.installId == first.record.installId)
        #expect(throws: StoreError.self, "a store belongs to one device") {
            try DeviceState(directory: directory, configuration: DeviceConfiguration(deviceId: "device-2"))
        }
    }

    @Test func aRollbackForgetsEverythingSinceTheLastCommit() throws {
        let state = try DeviceState(directory: temporaryStore(), configuration: configuration)
        let fixes = walk(3)
        try state.recordFix(fixes[0], atMs: 1)
        try state.saveQueue()
        try state.saveRecord()
        try state.commit()
        try state.recordFix(fixes[1], atMs: 2)
        try state.recordFix(fixes[2], atMs: 3)
        state.record.delivered = 3
        try state.rollBackToLastCommit()
        #expect(try state.queue.items.fixes.keys() == [1])
        #expect(state.record.delivered == 0)
        #expect(state.record.fixesRecorded == 1)
        try state.recordFix(fixes[1], atMs: 2)
        #expect(try state.queue.items.fixes.keys() == [1, 2], "the number rolled back is used again")
    }

    @Test func recordedDurablyHearsOfFixesOnlyAtTheCommit() throws {
        let state = try DeviceState(directory: temporaryStore(), configuration: configuration)
        var heard: [UInt64] = []
        state.recordedDurably = { heard += $0.map(\.sequence) }
        for fix in walk(2) { try state.recordFix(fix, atMs: 0) }
        #expect(heard.isEmpty)
        try state.commit()
        #expect(heard == [1, 2])
    }

    /// A store written by the device before its queue kept its items in the store (main at eb3f509, made as
    /// Tests/Goldens/README.md says) is opened and continued: every fix, fence event and lifecycle event it held
    /// reaches the server once, and the numbers go on from where it stopped.
    @Test func aStoreWrittenByTheEarlierDeviceIsContinued() throws {
        let directory = temporaryStore()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: RepositoryData.goldens.appendingPathComponent("device-store-eb3f509.sqlite"),
            to: URL(fileURLWithPath: directory).appendingPathComponent("device.sqlite"))
        let transport = LedgerTransport()
        let device = try LocationDevice(store: directory, configuration: configuration, transport: transport)
        #expect(device.installId == 0x42B5_0679_AF04_32A0)
        #expect(device.delivered == 470)
        #expect(device.summary.launches == 3)
        #expect(try device.pendingFixSequences == Array(178...227))
        #expect(device.summary.pendingFenceEvents == 10)
        let recordedBefore = device.summary.recorded
        #expect(recordedBefore == 227)

        for fix in walk(40, bootId: 99) { try device.deliver(fix) }
        try device.finish()
        #expect(try device.drain())
        let summary = device.summary
        #expect(summary.pendingFixes == 0 && summary.pendingFenceEvents == 0)
        #expect(summary.recorded > recordedBefore, "the walk recorded fixes too")
        let stored = transport.stored.map(\.sequence).sorted()
        #expect(stored == Array(178...summary.recorded), "the old pending fixes and the new, each once, in order")
    }
}
