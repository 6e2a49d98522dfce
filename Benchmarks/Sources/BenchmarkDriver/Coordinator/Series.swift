import Foundation
import LocationWireRandom

/// One sample: the loop's ns per operation, with the round and the position in the round it was taken at, which
/// pairs it with the other implementations' samples of the same workload.
struct Sample: Codable, Sendable {
    let round: Int
    let index: Int
    let nsPerOperation: Double
}

/// Everything measured of one (implementation, workload, operation).
struct Series: Codable, Sendable {
    let implementation: String
    let version: String
    let workload: String
    let operation: String
    /// The average size of the workload's binary inputs (for encode too: encoders write that many bytes back).
    let bytesPerInput: Double
    let fixesPerInput: Int
    var iterationsPerSample = 0
    var samples: [Sample] = []
    /// Allocator calls and requested bytes per operation (nil where the runtime cannot count them) and the
    /// process's peak resident set during the memory run, from `memory`.
    var allocations: Double?
    var allocatedBytes: Double?
    var peakRSSKiB: Int?
    /// `prepare`'s checks, as it answered them.
    var checks: [String: String] = [:]

    var kind: OperationKind { OperationKind(operation) }
    var median: Double { Statistics.quantile(samples.map(\.nsPerOperation), 0.5) }
    var p10: Double { Statistics.quantile(samples.map(\.nsPerOperation), 0.1) }
    var p90: Double { Statistics.quantile(samples.map(\.nsPerOperation), 0.9) }
    var megabytesPerSecond: Double { bytesPerInput * 1000 / median }
    var fixesPerSecond: Double { Double(fixesPerInput) * 1e9 / median }
}

/// What an operation does, whatever the harness calls its variant of it: ratios compare the fastest variant of each
/// kind (Benchmarks/peers/PROTOCOL.md).
enum OperationKind: String, CaseIterable, Codable, Sendable {
    case decode, readAll = "decode-read-all", expand = "decode-expand", encode, jsonPrint = "json-print"
    case jsonParse = "json-parse", validate

    init(_ operation: String) {
        switch operation {
        case "decode-read-all": self = .readAll
        case "decode-expand": self = .expand
        case "json-print": self = .jsonPrint
        case "json-parse": self = .jsonParse
        case "validate": self = .validate
        case _ where operation.hasPrefix("encode"): self = .encode
        default: self = .decode
        }
    }
}

/// A ratio of two series' times on one workload, from samples paired by round and position (taken within about a
/// second of each other), with a bootstrap confidence interval.
struct Ratio: Codable, Sendable {
    /// The median of the paired ratios: above 1 when the denominator is faster.
    let median: Double
    /// The 95 % percentile bootstrap interval of that median, resampling whole rounds (samples of one round share
    /// the machine's state, so they are not independent).
    let low: Double
    let high: Double
    let pairs: Int
    /// The operations compared, for the report (the fastest variants).
    let numeratorOperation: String
    let denominatorOperation: String
}

enum Statistics {
    /// Linear interpolation between ranks.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Double(sorted.count - 1) * q
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }

    static let bootstrapReplicates = 2000

    /// `numerator`'s time over `denominator`'s, paired sample by sample.
    static func ratio(_ numerator: Series, over denominator: Series) -> Ratio? {
        var byKey: [Int: Double] = [:]
        for sample in denominator.samples { byKey[sample.round * 10_000 + sample.index] = sample.nsPerOperation }
        var perRound: [Int: [Double]] = [:]
        for sample in numerator.samples {
            if let bottom = byKey[sample.round * 10_000 + sample.index] {
                perRound[sample.round, default: []].append(sample.nsPerOperation / bottom)
            }
        }
        let all = perRound.values.flatMap { $0 }
        guard !all.isEmpty else { return nil }
        let rounds = perRound.keys.sorted().map { perRound[$0]! }
        // A fixed seed: the same run gives the same interval.
        var generator = SeededRandom(seed: 0x5EED)
        var medians: [Double] = []
        medians.reserveCapacity(bootstrapReplicates)
        for _ in 0..<bootstrapReplicates {
            var resample: [Double] = []
            for _ in rounds.indices { resample += rounds[Int(generator.next() % UInt64(rounds.count))] }
            medians.append(quantile(resample, 0.5))
        }
        return Ratio(
            median: quantile(all, 0.5), low: quantile(medians, 0.025), high: quantile(medians, 0.975),
            pairs: all.count, numeratorOperation: numerator.operation, denominatorOperation: denominator.operation)
    }
}

/// All series of a run.
struct Results: Codable {
    var series: [Series]
    var rounds: Int

    func series(_ implementation: String, _ workload: String, _ operation: String) -> Series? {
        series.first { $0.implementation == implementation && $0.workload == workload && $0.operation == operation }
    }

    /// Of `implementation`'s operations of `kind` on `workload`, the one with the lowest median.
    func fastest(_ implementation: String, _ workload: String, _ kind: OperationKind) -> Series? {
        series.filter {
            $0.implementation == implementation && $0.workload == workload && $0.kind == kind && !$0.samples.isEmpty
        }
        .min { $0.median < $1.median }
    }

    /// The fastest `peer` variant's time over LocationWire's fastest, for one kind on one workload.
    func ratio(_ peer: String, over implementation: String, _ workload: String, _ kind: OperationKind) -> Ratio? {
        guard let top = fastest(peer, workload, kind), let bottom = fastest(implementation, workload, kind) else {
            return nil
        }
        return Statistics.ratio(top, over: bottom)
    }

    var implementations: [String] {
        var seen: [String] = []
        for entry in series where !seen.contains(entry.implementation) { seen.append(entry.implementation) }
        return seen
    }

    func version(of implementation: String) -> String? {
        series.first { $0.implementation == implementation }?.version
    }
}
