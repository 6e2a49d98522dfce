import CMallocCounter
import Foundation

/// Timing statistics of one operation: nanoseconds per operation over the samples.
struct Stats: Codable, Sendable {
    var median: Double
    var p10: Double
    var p90: Double
}

extension Stats {
    /// Median and 10th/90th percentiles, interpolating linearly between ranks as the peer harnesses do.
    init(samples: [Double]) {
        let sorted = samples.sorted()
        func quantile(_ q: Double) -> Double {
            let rank = Double(sorted.count - 1) * q
            let low = Int(rank.rounded(.down))
            let high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }
        self.init(median: quantile(0.5), p10: quantile(0.1), p90: quantile(0.9))
    }
}

/// A result row, in the shape the peer harnesses print (one JSON object per line), plus the round it was
/// measured in.
struct Measurement: Codable, Sendable {
    var implementation: String
    var version: String
    var workload: String
    var operation: String
    /// The size of the workload's binary form (for encode too: encoders produce exactly those bytes).
    var bytes: Int
    var fixes: Int
    var ns_per_op: Stats
    var samples: Int
    /// Calls to malloc and friends per operation; nil where it is not measured (Python).
    var allocations_per_op: Double?
    var round: Int?

    var megabytesPerSecond: Double { Double(bytes) * 1000 / ns_per_op.median }
    var fixesPerSecond: Double { Double(fixes) * 1e9 / ns_per_op.median }
}

/// Keeps results alive so the optimizer cannot drop the work being measured.
nonisolated(unsafe) var benchmarkSink = 0

@inline(never)
func consume(_ value: Int) {
    benchmarkSink &+= value
}

enum Clock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// The measurement method, the same as the peer harnesses': a warm-up of at least 200 ms, then `samples`
/// samples, each running the operation in a loop for at least `minSampleMilliseconds`; the statistics are over
/// the samples' ns per operation. Allocations: counted over a separate run (``allocations(medianNanoseconds:_:)``).
struct Method: Sendable {
    var samples = 15
    var minSampleMilliseconds = 100.0
    var warmupMilliseconds = 200.0

    func measure(_ operation: () -> Void) -> Stats {
        let warmupEnd = Clock.nanoseconds() + UInt64(warmupMilliseconds * 1e6)
        var iterationsPerSample = 1
        while Clock.nanoseconds() < warmupEnd {
            let start = Clock.nanoseconds()
            for _ in 0..<iterationsPerSample { operation() }
            let elapsed = Clock.nanoseconds() - start
            if Double(elapsed) < minSampleMilliseconds * 1e6 / 4 { iterationsPerSample *= 2 }
        }
        var perOperation: [Double] = []
        for _ in 0..<samples {
            var iterations = 0
            let start = Clock.nanoseconds()
            var elapsed: UInt64 = 0
            repeat {
                for _ in 0..<iterationsPerSample { operation() }
                iterations += iterationsPerSample
                elapsed = Clock.nanoseconds() - start
            } while Double(elapsed) < minSampleMilliseconds * 1e6
            perOperation.append(Double(elapsed) / Double(iterations))
        }
        return Stats(samples: perOperation)
    }

    /// Allocations per operation, over up to 100 operations (fewer for slow ones: about a second's worth, at
    /// least 3), after one operation that warms caches.
    func allocations(medianNanoseconds: Double, _ operation: () -> Void) -> Double {
        let count = max(3, min(100, Int(1e9 / max(medianNanoseconds, 1))))
        operation()
        lw_allocation_counting_start()
        for _ in 0..<count { operation() }
        return Double(lw_allocation_counting_stop()) / Double(count)
    }
}
