import LocationWire

/// A set of sequence numbers kept as sorted, disjoint, non-adjacent closed ranges, so that the millions of
/// consecutive numbers a device uploads cost one range. Used by the ledger for what it stored and refused, and by
/// the device for what a batch carried.
public struct SequenceSet: Hashable, Sendable, CustomStringConvertible {
    /// Sorted by lower bound; two ranges never overlap or touch (`a.upperBound + 1 < b.lowerBound`).
    public private(set) var ranges: [ClosedRange<UInt64>] = []

    public init() {}

    public init(_ numbers: some Sequence<UInt64>) {
        for number in numbers { insert(number) }
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// How many numbers the set holds.
    public var count: UInt64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound + 1) } }

    /// The index of the last range whose lower bound is at most `number`, or nil.
    private func lastRangeIndex(startingAtOrBelow number: UInt64) -> Int? {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound <= number { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    public func contains(_ number: UInt64) -> Bool {
        guard let index = lastRangeIndex(startingAtOrBelow: number) else { return false }
        return ranges[index].contains(number)
    }

    /// Adds `number`; returns false when it was there already.
    @discardableResult
    public mutating func insert(_ number: UInt64) -> Bool {
        insert(number...number) > 0
    }

    /// Adds every number of `range`; returns how many were new.
    @discardableResult
    public mutating func insert(_ range: ClosedRange<UInt64>) -> UInt64 {
        let before = count
        var lower = range.lowerBound
        var upper = range.upperBound
        // Every existing range that overlaps or touches the new one merges into it.
        var first = ranges.count
        var last = -1
        for (index, existing) in ranges.enumerated() {
            let touches =
                existing.lowerBound <= (upper == .max ? upper : upper + 1)
                && (existing.upperBound == .max || existing.upperBound + 1 >= lower)
            if touches {
                first = min(first, index)
                last = index
                lower = min(lower, existing.lowerBound)
                upper = max(upper, existing.upperBound)
            } else if existing.lowerBound > upper {
                break
            }
        }
        if last >= first {
            ranges.replaceSubrange(first...last, with: [lower...upper])
        } else {
            let position = ranges.firstIndex { $0.lowerBound > upper } ?? ranges.count
            ranges.insert(lower...upper, at: position)
        }
        return count - before
    }

    /// The numbers in `1 ..< floor` the set does not hold, as ranges.
    public func missing(below floor: UInt64) -> [ClosedRange<UInt64>] {
        guard floor > 1 else { return [] }
        var gaps: [ClosedRange<UInt64>] = []
        var next: UInt64 = 1
        for range in ranges {
            guard next < floor else { break }
            if range.lowerBound > next { gaps.append(next...min(range.lowerBound - 1, floor - 1)) }
            if range.upperBound == .max { return gaps }
            next = max(next, range.upperBound + 1)
        }
        if next < floor { gaps.append(next...(floor - 1)) }
        return gaps
    }

    public var description: String {
        "["
            + ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",") + "]"
    }

    /// The ranges as a flat list `[lower0, upper0, lower1, upper1, ...]`, the persisted form.
    package var flattened: [UInt64] { ranges.flatMap { [$0.lowerBound, $0.upperBound] } }

    /// Rebuilds a set from ``flattened``; nil when the list is not sorted, disjoint pairs.
    package init?(flattened list: [UInt64]) {
        guard list.count % 2 == 0 else { return nil }
        for index in stride(from: 0, to: list.count, by: 2) {
            guard list[index] <= list[index + 1] else { return nil }
            if index > 0 {
                guard list[index - 1] < .max, list[index - 1] + 1 < list[index] else { return nil }
            }
            ranges.append(list[index]...list[index + 1])
        }
    }
}
