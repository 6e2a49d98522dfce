extension Array {
    /// Appends up to `count` elements that `body` initializes in place, after the existing ones, reusing the
    /// array's storage when it is unique and large enough (a decoder's kept array) and allocating it otherwise.
    ///
    /// The standard library's `init(unsafeUninitializedCapacity:initializingWith:)` allocates in
    /// `_allocateBufferUninitialized`, which is not specialised: it finds the storage class's generic metadata in the
    /// runtime's hash table on every call, a few hundred instructions whose count even depends on where the linker
    /// put the type descriptors. `reserveCapacity` is specialised in the caller, which names the storage class
    /// through a cached accessor.
    ///
    /// `body` gets the first new element's address and the count it has initialized so far (zero), and must leave
    /// that count right when it returns or throws: those elements are kept, and the error is rethrown after.
    @inlinable
    package mutating func appendInPlace<Failure: Error>(
        upTo count: Int,
        initializingWith body: (UnsafeMutablePointer<Element>, inout Int) throws(Failure) -> Void
    ) throws(Failure) {
        guard count > 0 else { return }
        reserveCapacity(self.count + count)
        var failure: Failure?
        // Appending a sequence that writes into the uninitialized tail it is given: the one public way to initialize
        // an array's reserved capacity in place. The closure is made escaping only for the call, so what it captures
        // stays on the stack.
        withoutActuallyEscaping(
            { (buffer: UnsafeMutableBufferPointer<Element>) -> Int in
                var initialized = 0
                do throws(Failure) {
                    try body(buffer.baseAddress!, &initialized)
                } catch {
                    failure = error
                }
                return initialized
            },
            do: { fill in append(contentsOf: InPlaceInitializer(count: count, initialize: fill)) })
        if let failure { throw failure }
    }
}

/// A sequence that initializes the buffer `Array.append(contentsOf:)` hands it with `initialize`, and has no
/// further elements. Its underestimated count is zero, so that an initialization cut short is not a broken promise.
@usableFromInline
struct InPlaceInitializer<Element>: Sequence {
    @usableFromInline let count: Int
    @usableFromInline let initialize: (UnsafeMutableBufferPointer<Element>) -> Int

    @inlinable init(count: Int, initialize: @escaping (UnsafeMutableBufferPointer<Element>) -> Int) {
        self.count = count
        self.initialize = initialize
    }

    @usableFromInline
    struct Iterator: IteratorProtocol {
        @inlinable init() {}
        @inlinable mutating func next() -> Element? { nil }
    }

    @inlinable func makeIterator() -> Iterator { Iterator() }
    @inlinable var underestimatedCount: Int { 0 }

    @inlinable
    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>) -> (Iterator, Int) {
        precondition(buffer.count >= count, "the array reserved less than asked")
        return (Iterator(), initialize(UnsafeMutableBufferPointer(rebasing: buffer[..<count])))
    }
}
