import Foundation

/// All measurements of a run, across rounds, and the statistics RESULTS.md reports from them.
///
/// Absolute times on a shared machine move by ±30 % between runs, so every comparison is a ratio taken inside
/// one round (both sides measured minutes apart at most) and reported as the median over the rounds, with the
/// lowest and highest round beside it.
struct Results: Codable {
    var measurements: [Measurement]
    var rounds: Int

    /// One operation's figures over the rounds.
    struct Summary {
        /// Medians of the rounds' median, 10th and 90th percentile ns per operation.
        let stats: Stats
        /// Calls to the allocator per operation (exact; the largest seen in any round), nil where unmeasured.
        let allocations: Double?
        let bytes: Int
        let fixes: Int
        let version: String
        var megabytesPerSecond: Double { Double(bytes) * 1000 / stats.median }
        var fixesPerSecond: Double { Double(fixes) * 1e9 / stats.median }
    }

    /// A ratio over the rounds.
    struct Ratio {
        let median: Double
        let lowest: Double
        let highest: Double
        let rounds: Int
    }

    func measurements(_ implementation: String, _ workload: String, _ operation: String) -> [Measurement] {
        measurements.filter {
            $0.implementation == implementation && $0.workload == workload && $0.operation == operation
        }
    }

    func summary(_ implementation: String, _ workload: String, _ operation: String) -> Summary? {
        let rows = measurements(implementation, workload, operation)
        guard let first = rows.first else { return nil }
        let allocations = rows.compactMap(\.allocations_per_op).max()
        return Summary(
            stats: Stats(
                median: median(rows.map(\.ns_per_op.median)), p10: median(rows.map(\.ns_per_op.p10)),
                p90: median(rows.map(\.ns_per_op.p90))),
            allocations: allocations, bytes: first.bytes, fixes: first.fixes, version: first.version)
    }

    /// `numerator`'s time over `denominator`'s, round by round: above 1 when the denominator is faster.
    func ratio(
        _ numerator: (implementation: String, operation: String),
        over denominator: (implementation: String, operation: String),
        workload: String
    ) -> Ratio? {
        var perRound: [Double] = []
        for round in 1...max(rounds, 1) {
            let top = measurements(numerator.implementation, workload, numerator.operation).first { $0.round == round }
            let bottom = measurements(denominator.implementation, workload, denominator.operation).first {
                $0.round == round
            }
            if let top, let bottom { perRound.append(top.ns_per_op.median / bottom.ns_per_op.median) }
        }
        guard !perRound.isEmpty else { return nil }
        return Ratio(
            median: median(perRound), lowest: perRound.min()!, highest: perRound.max()!, rounds: perRound.count)
    }

    /// Of `operations`, the one `implementation` ran fastest on `workload` (lowest median over the rounds).
    func fastest(_ implementation: String, _ workload: String, among operations: [String]) -> String? {
        operations.compactMap { operation in summary(implementation, workload, operation).map { (operation, $0) } }
            .min { $0.1.stats.median < $1.1.stats.median }?.0
    }

    var implementations: [String] {
        var seen: [String] = []
        for measurement in measurements where !seen.contains(measurement.implementation) {
            seen.append(measurement.implementation)
        }
        return seen
    }

    func operations(_ implementation: String, _ workload: String) -> [String] {
        var seen: [String] = []
        for measurement in measurements
        where measurement.implementation == implementation && measurement.workload == workload
            && !seen.contains(measurement.operation)
        {
            seen.append(measurement.operation)
        }
        return seen
    }

    func version(of implementation: String) -> String? {
        measurements.first { $0.implementation == implementation }?.version
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
