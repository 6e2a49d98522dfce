import LocationWire

// For a store that keeps the recorded items apart from the rest of the queue, one row each (the device library's
// SQLite store): recording an item is then an append, and only sends and acks rewrite the small rest.

extension UploadQueue {
    /// The queue with no recorded items: the counters, the policy, the batches in flight and the server's answers.
    /// Its size does not grow with what is pending (a batch record lists at most `max_batch_size` sequences).
    package var withoutItems: UploadQueue {
        var rest = self
        rest.fixes = []
        rest.fenceEvents = []
        rest.lifecycleEvents = []
        rest.lifecycleIds = []
        return rest
    }

    /// Puts back the items a store kept apart, each list ascending by its sequence or id, after restoring
    /// ``withoutItems``'s bytes. The counters are raised past every item restored: an item appended after the
    /// rest was last written carries the only durable record of the number it used (`§sequence-consecutive`).
    package mutating func restoreItems(
        fixes: [LocationFix], fenceEvents: [FenceEvent], lifecycle: [(id: UInt64, event: LifecycleEvent)]
    ) {
        self.fixes = fixes
        self.fenceEvents = fenceEvents
        lifecycleIds = lifecycle.map(\.id)
        lifecycleEvents = lifecycle.map(\.event)
        if let last = fixes.last { nextFixSequence = max(nextFixSequence, last.sequence + 1) }
        if let last = fenceEvents.last { nextEventSequence = max(nextEventSequence, last.eventSequence + 1) }
        if let last = lifecycle.last { nextLifecycleId = max(nextLifecycleId, last.id + 1) }
    }

    // A device whose store holds more fixes than it wants in memory gives the queue a window of them: the oldest
    // ones (at least as many as the batches in flight and the next batch can take) and the newest. The rules see
    // exactly what they read: a batch's backlog is the oldest free fixes and its live fix the newest, the floor is
    // the oldest, acks touch only what batches carried. The fixes in between wait on disk.

    /// Forgets the fix at `index` of ``fixes`` from memory (the store still holds it); O(1) for the one before the
    /// newest, which is what a window drops when a fix is recorded.
    package mutating func evictFix(at index: Int) {
        fixes.remove(at: index)
    }

    /// Replaces the fixes in memory by `window`, ascending, the oldest pending fixes and the newest among them.
    package mutating func replaceFixWindow(_ window: [LocationFix]) {
        fixes = window
    }

    /// Takes the policy an app was configured with before any server sent one (a server's newer
    /// `policy_version` replaces it as usual).
    package mutating func adopt(_ initialPolicy: TrackingPolicy) { policy = initialPolicy }

    /// The id the next lifecycle event gets, so that a store can key its row before recording it.
    package var nextLifecycleEventId: UInt64 { nextLifecycleId }
}
