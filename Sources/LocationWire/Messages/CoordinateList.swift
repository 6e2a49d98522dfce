/// Coordinates in 1e-7 degree, in order: a polygon's latitudes (`Polygon.latitudesE7`) or its longitudes.
///
/// A collection of `Int32` that is used as `[Int32]` is: an array literal makes one, and it appends, replaces,
/// compares and hashes as an array does. What differs is where the values live. The lists one decode produces
/// share one buffer, so decoding a `RegionAssignment` of 20 polygons allocates one buffer for their 800
/// coordinates instead of 40 arrays. A list is still a value: changing a list that shares its buffer first copies
/// its own coordinates into a buffer of its own (copy on write), so no other list sees the change. A list built or
/// changed by hand owns its buffer, which grows as an array's does.
///
/// Indices run from 0 to `count - 1`, whatever part of its buffer the list uses.
///
/// `@unchecked Sendable`: `CoordinateStorage` says why sharing a buffer between threads is safe.
public struct CoordinateList: @unchecked Sendable {
    // Usable from inline code so that modules reading coordinates (validation, geometry) index them without a
    // call per value; the layout is not part of the API.
    /// The buffer that holds the coordinates, shared with other lists or not; `CoordinateStorage.empty` while the
    /// list has no buffer of its own. Not optional: a copy of an optional reference (made when a list is iterated
    /// or a polygon read in place from another module) goes through `Optional`'s generic value witness, where a
    /// plain reference is one retain (Benchmarks/NOTES.md, "Figures behind the code").
    @usableFromInline var storage: CoordinateStorage
    /// The first coordinate, in `storage` (which keeps it alive). A pointer rather than an index, so that reading a
    /// value does not go through the buffer's own accessor (Benchmarks/NOTES.md, "Figures behind the code").
    @usableFromInline var first: UnsafeMutablePointer<Int32>
    /// How many coordinates the list holds, from `first`.
    @usableFromInline var length = 0

    /// Where `first` is in `storage`, in elements; setting it needs `storage` set first.
    var offset: Int {
        get { first - storage.elements }
        set { first = storage.elements + newValue }
    }

    /// The empty list, with no buffer of its own.
    public init() {
        storage = .empty
        first = storage.elements
    }

    /// Calls `body` with the coordinates as contiguous memory, valid only inside `body`.
    @inlinable
    public func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<Int32>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // `first` stays valid while `storage` is held, which `self` does for the call.
        try body(UnsafeBufferPointer(start: first, count: length))
    }

    /// The identity of the list's buffer, nil when it has none: lists with the same identity share a buffer.
    /// For tests of the sharing, which values alone cannot show.
    package var bufferIdentity: ObjectIdentifier? {
        storage === CoordinateStorage.empty ? nil : ObjectIdentifier(storage)
    }

    // MARK: - Ownership

    /// True when this list may write into `storage`: no other list or reader holds it.
    private mutating func ownsStorage() -> Bool {
        isKnownUniquelyReferenced(&storage)
    }

    /// Makes sure this list alone holds a buffer with room for `capacity` coordinates from `offset`, copying its
    /// coordinates into a new buffer when it shares its buffer or the buffer is too small. Afterwards the buffer's
    /// used part ends at this list's end (anything after it belonged to nobody).
    private mutating func makeUnique(capacity: Int) {
        if ownsStorage(), storage.requestedCapacity - offset >= capacity {
            storage.used = offset + length
            return
        }
        let fresh = CoordinateStorage.make(capacity: Swift.max(capacity, length))
        withUnsafeBufferPointer { fresh.append($0) }
        storage = fresh
        offset = 0
    }

    /// The capacity to ask for when `needed` coordinates must fit: doubling on growth, so that appends one at a
    /// time take amortised constant time.
    private func grownCapacity(_ needed: Int) -> Int {
        needed > length ? Swift.max(needed, 2 * length, 4) : needed
    }

    // MARK: - Decoding

    /// Appends `count` little-endian 4-byte values read from `bytes` (a packed run, or one unpacked value), for the
    /// decoder: into `shared`, the buffer every list of this decode fills, when this list is empty or ends where
    /// `shared`'s used part ends; otherwise (a list whose values arrive in interleaved runs) into a buffer of its
    /// own with room to grow. `coordinatesLeft` bounds the coordinates the rest of the input can hold (its bytes
    /// over 4), so that a new shared buffer is never larger than the input could fill.
    package mutating func appendDecoded(
        _ bytes: UnsafeRawPointer, count: Int, shared: inout CoordinateStorage?, coordinatesLeft: Int
    ) {
        guard count > 0 else { return }
        let end = offset + length
        if storage === shared, storage.used == end, storage.requestedCapacity - end >= count {
            storage.load(bytes, count: count)
        } else if ownsStorage(), storage.requestedCapacity - end >= count {
            storage.used = end
            storage.load(bytes, count: count)
        } else if length == 0 {
            if shared == nil || shared!.requestedCapacity - shared!.used < count {
                // A first buffer for up to 1024 coordinates (20 polygons of 20 vertices), later ones twice the
                // last; never more than the rest of the input could fill, nor less than this run.
                let wanted = Swift.max(1024, 2 * (shared?.requestedCapacity ?? 0))
                shared = CoordinateStorage.make(capacity: Swift.max(count, Swift.min(wanted, coordinatesLeft)))
            }
            storage = shared!
            offset = shared!.used
            shared!.load(bytes, count: count)
        } else {
            makeUnique(capacity: 2 * (length + count))
            storage.load(bytes, count: count)
        }
        length += count
    }
}

// MARK: - Collection

extension CoordinateList: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    // Every index operation and the iterator are written out and inlinable, so that other modules compile them in
    // place. The standard library's defaults measured the same; these are kept so that no read of a coordinate
    // depends on how a default is specialised.
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { length }
    @inlinable public var count: Int { length }
    @inlinable public var isEmpty: Bool { length == 0 }
    @inlinable public var indices: Range<Int> { 0..<length }
    @inlinable public func index(after index: Int) -> Int { index + 1 }
    @inlinable public func index(before index: Int) -> Int { index - 1 }
    @inlinable public func formIndex(after index: inout Int) { index += 1 }
    @inlinable public func formIndex(before index: inout Int) { index -= 1 }
    @inlinable public func index(_ index: Int, offsetBy distance: Int) -> Int { index + distance }
    @inlinable public func distance(from start: Int, to end: Int) -> Int { end - start }

    /// The values in order; it holds the list, so the values stay valid while it runs.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let list: CoordinateList
        @usableFromInline var position = 0

        @inlinable init(_ list: CoordinateList) { self.list = list }

        @inlinable public mutating func next() -> Int32? {
            guard position < list.length else { return nil }
            defer { position += 1 }
            return list.first[position]
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(self) }

    public subscript(position: Int) -> Int32 {
        @inlinable get {
            precondition(position >= 0 && position < length, "CoordinateList index \(position) out of range")
            return first[position]
        }
        set {
            precondition(position >= 0 && position < length, "CoordinateList index \(position) out of range")
            makeUnique(capacity: length)
            first[position] = newValue
        }
    }

    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<Int32>) throws -> Result
    ) rethrows -> Result? {
        try withUnsafeBufferPointer { buffer in try body(buffer) }
    }
}

extension CoordinateList: RangeReplaceableCollection {
    public mutating func replaceSubrange<New: Collection<Int32>>(_ subrange: Range<Int>, with newElements: New) {
        precondition(
            subrange.lowerBound >= 0 && subrange.upperBound <= length, "CoordinateList range \(subrange) out of range")
        let newCount = length - subrange.count + newElements.count
        if subrange.upperBound == length {
            // Replacing the tail (appending, removing the last): in place when this list alone holds its buffer.
            makeUnique(capacity: grownCapacity(newCount))
            storage.used = offset + subrange.lowerBound
            storage.append(newElements)
        } else {
            let fresh = CoordinateStorage.make(capacity: newCount)
            withUnsafeBufferPointer { old in
                fresh.append(UnsafeBufferPointer(rebasing: old[..<subrange.lowerBound]))
                fresh.append(newElements)
                fresh.append(UnsafeBufferPointer(rebasing: old[subrange.upperBound...]))
            }
            storage = fresh
            offset = 0
        }
        length = newCount
    }

    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        makeUnique(capacity: Swift.max(minimumCapacity, length))
    }

    public mutating func append(_ newElement: Int32) {
        makeUnique(capacity: grownCapacity(length + 1))
        storage.append(CollectionOfOne(newElement))
        length += 1
    }

    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        if keepCapacity, ownsStorage() {
            storage.used = 0
        } else {
            storage = .empty
        }
        offset = 0
        length = 0
    }
}

// MARK: - Values

extension CoordinateList: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Int32...) {
        self.init(elements)
    }
}

extension CoordinateList: Hashable {
    public static func == (lhs: CoordinateList, rhs: CoordinateList) -> Bool {
        lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in left.elementsEqual(right) } }
    }

    /// As `[Int32]` hashes: the count, then each value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(length)
        withUnsafeBufferPointer { values in
            for value in values { hasher.combine(value) }
        }
    }
}

extension CoordinateList: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// As an array of the same values prints: `[1, 2, 3]`.
    public var description: String { Array(self).description }
    public var debugDescription: String { Array(self).debugDescription }
    /// As a collection of the values, not of the list's buffer, offset and length.
    public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }
}

// MARK: - Storage

/// The buffer of one or more ``CoordinateList``s: `requestedCapacity` values, of which the first `used` belong to
/// lists.
///
/// A plain class over a separate allocation rather than a `ManagedBuffer` subclass (one allocation): making one
/// through `ManagedBuffer.create` costs more than the second allocation saves (Benchmarks/NOTES.md, "Figures
/// behind the code").
///
/// Safe to share between threads (the lists that hold it are `Sendable`): values below `used` are written only by a
/// list that holds the buffer alone (`isKnownUniquelyReferenced`), and values from `used` on only by a list that
/// does so or by the decode that made the buffer (`CoordinateList.appendDecoded`), before any of its lists is
/// returned. No two threads can hold a buffer while either writes it.
@usableFromInline package final class CoordinateStorage: @unchecked Sendable {
    /// The first element; it never moves.
    let elements: UnsafeMutablePointer<Int32>
    /// How many values fit.
    let requestedCapacity: Int
    /// How many values, from the first, belong to lists.
    var used = 0

    private init(capacity: Int) {
        elements = .allocate(capacity: Swift.max(capacity, 1))
        requestedCapacity = capacity
    }

    deinit { elements.deallocate() }  // Int32 values need no deinitialisation

    /// The buffer of every list without one of its own: it holds nothing and has no room, so no list writes it
    /// (every write first makes sure its list alone holds a buffer with room).
    static let empty = CoordinateStorage(capacity: 0)

    /// An empty buffer for `capacity` coordinates.
    static func make(capacity: Int) -> CoordinateStorage { CoordinateStorage(capacity: capacity) }

    /// Appends `values` after `used`; the caller has made room for `values.count`. Checked, because a collection's
    /// iteration may disagree with its `count`, and these writes are to raw memory.
    func append<Values: Collection<Int32>>(_ values: Values) {
        let end = elements + requestedCapacity
        var next = elements + used
        for value in values {
            precondition(next < end, "a collection gave more values than its count")
            next.initialize(to: value)
            next += 1
        }
        precondition(next - elements == used + values.count, "a collection gave fewer values than its count")
        used = next - elements
    }

    /// Appends `count` little-endian 4-byte values from `bytes` after `used`; the caller has made room.
    func load(_ bytes: UnsafeRawPointer, count: Int) {
        assert(requestedCapacity - used >= count)
        #if _endian(little)
            UnsafeMutableRawPointer(elements + used).copyMemory(from: bytes, byteCount: 4 * count)
        #else
            for index in 0..<count {
                (elements + used + index).initialize(
                    to: Int32(bitPattern: UInt32(littleEndian: (bytes + 4 * index).loadUnaligned(as: UInt32.self))))
            }
        #endif
        used += count
    }
}
