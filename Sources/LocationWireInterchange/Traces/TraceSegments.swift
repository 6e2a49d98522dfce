import LocationWire

/// Where a trace breaks into segments (`proto/README.md`, `§trace-segments`): the recording stopped and started
/// again, so the fixes on either side are not joined by a line, a distance or a speed.
///
/// A break lies between fix `i - 1` and fix `i` (in trace order) when
/// - a `LAUNCHED`, `RELAUNCHED_BY_SYSTEM` or `DEVICE_REBOOTED` lifecycle event has a time in
///   `(time(i - 1), time(i)]`: recording started at or before fix `i`;
/// - a `TERMINATED` lifecycle event has a time in `[time(i - 1), time(i))`: recording ended after fix `i - 1`;
/// - or, when a gap is given, `time(i) - time(i - 1)` is longer than it.
public enum TraceSegments {
    /// The lifecycle kinds that start a segment, and the one that ends one.
    static let startKinds: Set<LifecycleEventKind> = [.launched, .relaunchedBySystem, .deviceRebooted]

    /// The indices `i` (1 ... fixes.count - 1) with a break before fix `i`, ascending. `gapMs` nil: no break at
    /// time gaps. Fixes whose time goes backwards are never broken by an event (the interval is empty).
    public static func breaks(
        times: [Int64], lifecycleEvents: [LifecycleEvent], gapMs: Int64? = nil
    ) -> [Int] {
        guard times.count > 1 else { return [] }
        let starts = lifecycleEvents.filter { startKinds.contains($0.kind) }.map(\.timeMs).sorted()
        let ends = lifecycleEvents.filter { $0.kind == .terminated }.map(\.timeMs).sorted()
        var result: [Int] = []
        for index in 1..<times.count {
            let previous = times[index - 1]
            let current = times[index]
            let started = firstIndex(in: starts) { $0 > previous }.map { starts[$0] <= current } ?? false
            let ended = firstIndex(in: ends) { $0 >= previous }.map { ends[$0] < current } ?? false
            let gapped = gapMs.map { current &- previous > $0 } ?? false
            if started || ended || gapped { result.append(index) }
        }
        return result
    }

    /// The ranges of fix indices between the breaks: one range per segment, in order, covering every fix.
    public static func ranges(count: Int, breaks: [Int]) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let bounds = [0] + breaks + [count]
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    /// The lifecycle events that mark where segments start, for fixes in time order whose segments begin at the
    /// positions `starts` (ascending, the first being 0): one `LAUNCHED` event at the first fix of each segment
    /// after the first, at that fix's time.
    public static func markers(times: [Int64], starts: [Int]) -> [LifecycleEvent] {
        starts.dropFirst().map { position in
            var event = LifecycleEvent()
            event.kind = .launched
            event.timeMs = times[position]
            return event
        }
    }

    /// The first index of sorted `values` where `predicate` holds (binary search; `predicate` must be false,
    /// then true).
    private static func firstIndex(in values: [Int64], where predicate: (Int64) -> Bool) -> Int? {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low < values.count ? low : nil
    }
}
