import LocationWire
import LocationWireSession

/// One kind of the upload queue's items in the device's store, one row each: recording is an insert, an ack's
/// deletion a delete, and a batch reads only the rows it takes. Nothing is kept in memory but the count, so the
/// device's memory does not grow with what is pending.
///
/// A view of the store's table: copies share it. Writes go into the store's open transaction, made durable by
/// `DeviceStore.commit()`.
struct StoredItemList<Item: QueuedItem>: QueuedItemList {
    typealias Failure = StoreError

    let store: DeviceStore
    let table: DeviceStore.ItemTable
    /// The item's bytes as stored.
    let encode: (Item) -> [UInt8]
    /// The item back from its row's key and bytes.
    let decode: (UInt64, [UInt8]) throws -> Item
    private(set) var count: Int

    init(
        store: DeviceStore, table: DeviceStore.ItemTable, encode: @escaping (Item) -> [UInt8],
        decode: @escaping (UInt64, [UInt8]) throws -> Item
    ) throws(StoreError) {
        self.store = store
        self.table = table
        self.encode = encode
        self.decode = decode
        count = try storeFailure { try store.itemCount(table) }
    }

    func oldestKey() throws(StoreError) -> UInt64? {
        try storeFailure { try store.edgeKey(table, ascending: true) }
    }

    func newestKey() throws(StoreError) -> UInt64? {
        try storeFailure { try store.edgeKey(table, ascending: false) }
    }

    func oldest(_ limit: Int, excluding busy: Set<UInt64>) throws(StoreError) -> [Item] {
        guard limit > 0 else { return [] }
        var taken = 0
        // At most `busy.count` rows are passed over: the read never goes further than that many beyond `limit`.
        return try storeFailure {
            let (rows, overflow) = limit.addingReportingOverflow(busy.count)
            return try store.items(table, ascending: true, limit: overflow ? .max : rows) { key in
                guard taken < limit else { return nil }
                guard !busy.contains(key) else { return false }
                taken += 1
                return true
            }.map { try decode($0.key, $0.bytes) }
        }
    }

    func newest(excluding busy: Set<UInt64>) throws(StoreError) -> Item? {
        try storeFailure {
            try store.items(table, ascending: false, limit: busy.count + 1) { key in
                busy.contains(key) ? false : true
            }.first.map { try decode($0.key, $0.bytes) }
        }
    }

    func keys() throws(StoreError) -> [UInt64] {
        try storeFailure { try store.itemKeys(table) }
    }

    mutating func append(_ item: Item) throws(StoreError) {
        try storeFailure { try store.appendItem(table, key: item.queueKey, bytes: encode(item)) }
        count += 1
    }

    mutating func remove(_ keys: Set<UInt64>) throws(StoreError) {
        guard !keys.isEmpty else { return }
        count -= try storeFailure { try store.removeItems(table, keys: keys.sorted()) }
    }
}

/// The upload queue's items in the device's SQLite store.
struct StoredItems: UploadItemStore {
    typealias Failure = StoreError

    var fixes: StoredItemList<LocationFix>
    var fenceEvents: StoredItemList<FenceEvent>
    var lifecycleEvents: StoredItemList<QueuedLifecycleEvent>

    /// The items `store` holds, counted.
    init(_ store: DeviceStore) throws(StoreError) {
        fixes = try StoredItemList(
            store: store, table: .fix, encode: { $0.serializedBytes() },
            decode: { _, bytes in try LocationFix(serializedBytes: bytes) })
        fenceEvents = try StoredItemList(
            store: store, table: .fenceEvent, encode: { $0.serializedBytes() },
            decode: { _, bytes in try FenceEvent(serializedBytes: bytes) })
        lifecycleEvents = try StoredItemList(
            store: store, table: .lifecycleEvent, encode: { $0.event.serializedBytes() },
            decode: { id, bytes in QueuedLifecycleEvent(id: id, event: try LifecycleEvent(serializedBytes: bytes)) })
    }
}

/// Runs `body`, reporting any failure as the store's: a row that does not decode is a damaged store.
func storeFailure<Result>(_ body: () throws -> Result) throws(StoreError) -> Result {
    do {
        return try body()
    } catch let error as StoreError {
        throw error
    } catch {
        throw StoreError(code: 11, message: "a stored item does not decode: \(error)")
    }
}
