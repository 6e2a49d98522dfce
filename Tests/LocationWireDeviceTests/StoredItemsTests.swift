import Foundation
import LocationWire
import LocationWireSession
import Testing

@testable import LocationWireDevice

/// The device's items in SQLite answer every question of the upload queue exactly as the in-memory list does.
@Suite struct StoredItemsTests {
    func fix(_ sequence: UInt64) -> LocationFix {
        var fix = LocationFix()
        fix.sequence = sequence
        fix.timeMs = 1_700_000_000_000 + Int64(sequence)
        fix.latitudeE7 = Int32(sequence)
        return fix
    }

    /// The same random appends, removals and questions, on both lists; every answer compared.
    @Test func storedFixesAnswerAsTheArrayDoes() throws {
        let store = try DeviceStore(directory: temporaryStore())
        var stored = try StoredItems(store).fixes
        var memory = ItemArray<LocationFix>()
        var random = SystemRandomNumberGenerator()
        var next: UInt64 = 1
        for round in 0..<400 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0, 1:
                try stored.append(fix(next))
                memory.append(fix(next))
                next += 1
            case 2:
                // Keys held and not held, as a late ack names them.
                let keys = Set(
                    (0..<Int.random(in: 0...4, using: &random)).map { _ in
                        UInt64.random(in: 1...max(next, 2), using: &random)
                    })
                try stored.remove(keys)
                memory.remove(keys)
            default:
                let busy = Set(memory.keys().filter { _ in Bool.random(using: &random) })
                let limit = Int.random(in: 0...6, using: &random)
                #expect(try stored.oldest(limit, excluding: busy) == memory.oldest(limit, excluding: busy))
                #expect(try stored.newest(excluding: busy) == memory.newest(excluding: busy))
            }
            #expect(stored.count == memory.count, "round \(round)")
            #expect(try stored.oldestKey() == memory.oldestKey())
            #expect(try stored.newestKey() == memory.newestKey())
            #expect(try stored.keys() == memory.keys())
        }
    }

    /// A lifecycle event keeps its id, which its row is keyed by.
    @Test func lifecycleEventsKeepTheirIds() throws {
        let store = try DeviceStore(directory: temporaryStore())
        var events = try StoredItems(store).lifecycleEvents
        var launched = LifecycleEvent()
        launched.kind = .launched
        try events.append(QueuedLifecycleEvent(id: 7, event: launched))
        #expect(try events.oldest(1, excluding: []) == [QueuedLifecycleEvent(id: 7, event: launched)])
        #expect(try events.oldest(1, excluding: [7]).isEmpty)
        try store.commit()
        #expect(try StoredItems(store).lifecycleEvents.count == 1, "counted from the store when opened")
    }

    /// What was not committed is gone after a rollback, and a list opened again counts what is left.
    @Test func aRollbackForgetsWhatWasNotCommitted() throws {
        let store = try DeviceStore(directory: temporaryStore())
        var fixes = try StoredItems(store).fixes
        try fixes.append(fix(1))
        try store.commit()
        try fixes.append(fix(2))
        store.rollback()
        let reopened = try StoredItems(store).fixes
        #expect(reopened.count == 1)
        #expect(try reopened.keys() == [1])
    }
}
