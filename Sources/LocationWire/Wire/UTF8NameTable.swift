/// Names as UTF-8, each with a value, for readers that match names in input bytes without making a String for each
/// (the JSON reader's member names and enum names). Names are compared byte for byte, as protobuf's own JSON
/// readers compare them, not by Unicode canonical equivalence as Swift's String equality would.
///
/// All names live in one buffer, so a lookup touches two arrays and counts no references per name.
package struct UTF8NameTable: Sendable {
    private struct Entry: Sendable {
        let start: Int
        let count: Int
        let value: Int32
    }

    private let bytes: [UInt8]
    private let entries: [Entry]

    /// A table of `names` with their values, searched in this order; the first of two equal names wins.
    package init(_ names: [(name: String, value: Int32)]) {
        var bytes: [UInt8] = []
        var entries: [Entry] = []
        for (name, value) in names {
            entries.append(Entry(start: bytes.count, count: name.utf8.count, value: value))
            bytes += name.utf8
        }
        self.bytes = bytes
        self.entries = entries
    }

    /// The value of `name`. The search starts at entry `hint` and wraps around, and leaves `hint` at the entry after
    /// the match: a reader that keeps `hint` across the members of one object finds a member that follows the
    /// previous one in table order (fields in number order, as printers write them) at the first try.
    @inline(__always)
    package func value(of name: UnsafeBufferPointer<UInt8>, hint: inout Int) -> Int32? {
        bytes.withUnsafeBufferPointer { table in
            entries.withUnsafeBufferPointer { entries in
                let total = entries.count
                guard total > 0, let base = table.baseAddress else { return nil }
                var index = hint < total && hint >= 0 ? hint : 0
                for _ in 0..<total {
                    let entry = entries[index]
                    index = index + 1 == total ? 0 : index + 1
                    if entry.count == name.count, Self.equal(base + entry.start, name.baseAddress, count: entry.count) {
                        hint = index
                        return entry.value
                    }
                }
                return nil
            }
        }
    }

    /// Whether `count` bytes at `lhs` and `rhs` are equal, compared eight at a time.
    @inline(__always)
    private static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>?, count: Int) -> Bool {
        guard let rhs else { return count == 0 }
        var offset = 0
        while offset + 8 <= count {
            let left = UnsafeRawPointer(lhs + offset).loadUnaligned(as: UInt64.self)
            let right = UnsafeRawPointer(rhs + offset).loadUnaligned(as: UInt64.self)
            if left != right { return false }
            offset += 8
        }
        while offset < count {
            if lhs[offset] != rhs[offset] { return false }
            offset += 1
        }
        return true
    }
}
