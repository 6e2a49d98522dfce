import Synchronization

/// What the devices of a load run have done so far, shared by all of them; each batch's outcome is one short
/// locked update.
final class LoadStatistics: Sendable {
    struct Counts {
        /// Upload attempts that got any answer or failed, and those answered with an ack that was applied.
        var batchesSent = 0
        var batchesAcknowledged = 0
        /// Fixes the acks reported stored (ACCEPTED or DUPLICATE) and refused for good (REJECTED).
        var fixesAcknowledged = 0
        /// Of those, the ones answered DUPLICATE: stored by an earlier attempt whose ack never arrived.
        var fixesAcknowledgedAsDuplicate = 0
        var fixesRejected = 0
        /// Batch latencies, ms, from just before the request to the answer read whole; every attempt that got an
        /// HTTP answer counts, acked or not (a refused batch is a batch the server answered).
        var latenciesMs: [Double] = []
        /// Everything that was not an applied PROCESSED ack, by kind: `transport: ...`, `http 503`, `http 401 ...`,
        /// `ack hold ...`, `ack ignored ...`.
        var errors: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())
    /// What happened since the last progress line.
    private let interval = Mutex(Counts())

    func record(_ update: (inout Counts) -> Void) {
        counts.withLock { update(&$0) }
        interval.withLock { update(&$0) }
    }

    var total: Counts { counts.withLock { $0 } }

    /// The counts since the previous call, reset.
    func takeInterval() -> Counts {
        interval.withLock { counts in
            defer { counts = Counts() }
            return counts
        }
    }
}

/// Percentiles of a latency sample by the nearest-rank method, ms.
public struct LatencySummary: Codable, Hashable, Sendable {
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double
    public var mean: Double

    /// nil for an empty sample.
    public init?(_ sample: [Double]) {
        guard !sample.isEmpty else { return nil }
        let sorted = sample.sorted()
        func rank(_ fraction: Double) -> Double {
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(index, sorted.count - 1))]
        }
        p50 = rank(0.50)
        p90 = rank(0.90)
        p99 = rank(0.99)
        max = sorted[sorted.count - 1]
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }
}
