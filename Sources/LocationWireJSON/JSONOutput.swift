/// The growable byte buffer the JSON printer writes into: one capacity check and a store per byte, a copy per run
/// of bytes, where `[UInt8]` paid a uniqueness check and a generic `append(contentsOf:)` (about a quarter of a
/// batch's printing, by callgrind) each time.
struct JSONOutput: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0
    /// Writing into memory the caller owns (``init(into:)``), until it would overflow it.
    private(set) var isInCallersMemory = false

    /// A buffer with room for `initialCapacity` bytes before it must grow.
    init(initialCapacity: Int = 256) {
        capacity = max(initialCapacity, 16)
        storage = .allocate(capacity: capacity)
    }

    /// Writes into `memory` (a string's storage being initialized), with no copy; should the text outgrow it,
    /// the bytes move to a buffer of the output's own and ``isInCallersMemory`` turns false.
    init(into memory: UnsafeMutableBufferPointer<UInt8>) {
        storage = memory.baseAddress!
        capacity = memory.count
        isInCallersMemory = true
    }

    deinit {
        if !isInCallersMemory { storage.deallocate() }
    }

    @inline(__always)
    private mutating func reserve(_ byteCount: Int) {
        if capacity &- count < byteCount { grow(toFit: byteCount) }
    }

    @inline(never)
    private mutating func grow(toFit byteCount: Int) {
        var newCapacity = capacity * 2
        while newCapacity - count < byteCount { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        if !isInCallersMemory { storage.deallocate() }
        isInCallersMemory = false
        storage = newStorage
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func append(contentsOf text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `byte` `count` times.
    mutating func append(_ byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (storage + count).initialize(repeating: byte, count: repeats)
        count += repeats
    }

    /// The text written (which the printer makes valid UTF-8).
    func string() -> String {
        String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self)
    }
}
