import LocationWire

/// An item an upload queue keeps until an ack deletes it, found by its key: a fix's `sequence`, a fence event's
/// `event_sequence`, a lifecycle event's queue-local id. Keys are non-zero and grow in recording order.
public protocol QueuedItem {
    var queueKey: UInt64 { get }
}

extension LocationFix: QueuedItem {
    public var queueKey: UInt64 { sequence }
}

extension FenceEvent: QueuedItem {
    public var queueKey: UInt64 { eventSequence }
}

/// A lifecycle event with the queue-local id batches name it by: lifecycle events carry no number of their own.
public struct QueuedLifecycleEvent: QueuedItem, Hashable, Sendable {
    public var id: UInt64
    public var event: LifecycleEvent
    public var queueKey: UInt64 { id }

    public init(id: UInt64, event: LifecycleEvent) {
        self.id = id
        self.event = event
    }
}

/// The items of one kind an upload queue holds, ascending by key: all the queue asks of the place that keeps them.
/// The queue decides what is sent and deleted; the list only keeps, so that where items live (memory, a database
/// with a window in memory) is the list's business and never changes a decision.
public protocol QueuedItemList<Item> {
    associatedtype Item: QueuedItem
    /// What keeping can fail with: `Never` in memory, the database's error on disk.
    associatedtype Failure: Error

    /// How many items are held.
    var count: Int { get }
    /// The lowest key held.
    func oldestKey() throws(Failure) -> UInt64?
    /// The highest key held.
    func newestKey() throws(Failure) -> UInt64?
    /// Up to `limit` of the oldest items whose keys are not in `busy`, ascending.
    func oldest(_ limit: Int, excluding busy: Set<UInt64>) throws(Failure) -> [Item]
    /// The newest item whose key is not in `busy`.
    func newest(excluding busy: Set<UInt64>) throws(Failure) -> Item?
    /// Every key held, ascending.
    func keys() throws(Failure) -> [UInt64]
    /// Keeps `item`, whose key is above every key held.
    mutating func append(_ item: Item) throws(Failure)
    /// Forgets the items with these keys; keys not held are passed over.
    mutating func remove(_ keys: Set<UInt64>) throws(Failure)
}

extension QueuedItemList {
    public var isEmpty: Bool { count == 0 }
}

/// Where an upload queue keeps what it recorded and has not yet deleted: the fixes, fence events and lifecycle
/// events. ``QueuedItems`` keeps them in memory (the engines, the vectors, the simulator); the reference device
/// keeps them in its SQLite store.
public protocol UploadItemStore {
    associatedtype Failure: Error
    associatedtype Fixes: QueuedItemList<LocationFix> where Fixes.Failure == Failure
    associatedtype FenceEvents: QueuedItemList<FenceEvent> where FenceEvents.Failure == Failure
    associatedtype LifecycleEvents: QueuedItemList<QueuedLifecycleEvent> where LifecycleEvents.Failure == Failure

    var fixes: Fixes { get set }
    var fenceEvents: FenceEvents { get set }
    var lifecycleEvents: LifecycleEvents { get set }
}

// MARK: - In memory

/// Items in an array, ascending by key.
public struct ItemArray<Item: QueuedItem & Hashable & Sendable>: QueuedItemList, Hashable, Sendable {
    public internal(set) var elements: [Item] = []

    public init(_ elements: [Item] = []) { self.elements = elements }

    public var count: Int { elements.count }
    public func oldestKey() -> UInt64? { elements.first?.queueKey }
    public func newestKey() -> UInt64? { elements.last?.queueKey }
    public func keys() -> [UInt64] { elements.map(\.queueKey) }

    public func oldest(_ limit: Int, excluding busy: Set<UInt64>) -> [Item] {
        var chosen: [Item] = []
        for item in elements where !busy.contains(item.queueKey) {
            guard chosen.count < limit else { break }
            chosen.append(item)
        }
        return chosen
    }

    public func newest(excluding busy: Set<UInt64>) -> Item? {
        elements.last { !busy.contains($0.queueKey) }
    }

    public mutating func append(_ item: Item) { elements.append(item) }

    public mutating func remove(_ keys: Set<UInt64>) {
        guard !keys.isEmpty else { return }
        elements.removeAll { keys.contains($0.queueKey) }
    }
}

/// Lifecycle events in memory, in the two parallel lists the persisted queue has (events and their ids).
public struct LifecycleEventArray: QueuedItemList, Hashable, Sendable {
    public internal(set) var events: [LifecycleEvent] = []
    public internal(set) var ids: [UInt64] = []

    public init() {}

    public var count: Int { ids.count }
    public func oldestKey() -> UInt64? { ids.first }
    public func newestKey() -> UInt64? { ids.last }
    public func keys() -> [UInt64] { ids }

    public func oldest(_ limit: Int, excluding busy: Set<UInt64>) -> [QueuedLifecycleEvent] {
        var chosen: [QueuedLifecycleEvent] = []
        for (id, event) in zip(ids, events) where !busy.contains(id) {
            guard chosen.count < limit else { break }
            chosen.append(QueuedLifecycleEvent(id: id, event: event))
        }
        return chosen
    }

    public func newest(excluding busy: Set<UInt64>) -> QueuedLifecycleEvent? {
        guard let index = ids.lastIndex(where: { !busy.contains($0) }) else { return nil }
        return QueuedLifecycleEvent(id: ids[index], event: events[index])
    }

    public mutating func append(_ item: QueuedLifecycleEvent) {
        ids.append(item.id)
        events.append(item.event)
    }

    public mutating func remove(_ keys: Set<UInt64>) {
        guard !keys.isEmpty else { return }
        let kept = zip(ids, events).filter { !keys.contains($0.0) }
        ids = kept.map(\.0)
        events = kept.map(\.1)
    }
}

/// The items in memory: what the engines, the vectors and the simulator use, persisted with the rest of the queue.
public struct QueuedItems: UploadItemStore, Hashable, Sendable {
    public var fixes = ItemArray<LocationFix>()
    public var fenceEvents = ItemArray<FenceEvent>()
    public var lifecycleEvents = LifecycleEventArray()

    public init() {}
}
