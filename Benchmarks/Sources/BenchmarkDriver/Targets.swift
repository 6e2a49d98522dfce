/// A target of issue 14 (and the earlier ones still held), judged from one run.
struct Target {
    let name: String
    /// What was measured, in words and figures; "not measured in this run" when nothing it needs was (a slice
    /// of the benchmark without its workloads or implementations).
    let measured: String
    /// nil when the figures needed are missing (a harness was not run).
    let met: Bool?
    /// Met or missed by the median, but the confidence interval reaches the other side.
    var withinNoise = false

    init(name: String, measured: String, met: Bool?, withinNoise: Bool = false) {
        self.name = name
        self.measured = measured.isEmpty ? "not measured in this run" : measured
        self.met = measured.isEmpty ? nil : met
        self.withinNoise = withinNoise
    }
}

enum Implementations {
    static let locationWire = LocationWireHarness.name
    static let swiftProtobuf = SwiftProtobufHarness.name
    static let cpp = "cpp-libprotobuf"
    static let upb = "upb"
    static let go = "go-protobuf"
    static let java = "java-protobuf"
    static let protobufC = "c-protobuf-c"
    static let python = "python-protobuf-upb-backend"
    /// The report's column order: the strongest peers first.
    static let peers = [cpp, upb, go, java, protobufC, swiftProtobuf, python]
}

enum Targets {
    static let lw = Implementations.locationWire
    static let rowBatches = ["batch-walk-1000", "batch-drive-1000"]
    static let compactBatches = ["batch-compact-walk-1000", "batch-compact-drive-1000"]
    /// The scaling curve: walking batches of growing size (1000 is the headline row batch).
    static let scalingWorkloads = [
        (10, "scale-walk-10"), (100, "scale-walk-100"), (1000, "batch-walk-1000"), (10_000, "scale-walk-10000"),
        (100_000, "scale-walk-100000"),
    ]
    /// Linear: the marginal cost of a fix (between consecutive sizes) varies by at most this factor.
    static let linearityTolerance = 1.5

    static func evaluate(_ results: Results, headline: [String]) -> [Target] {
        var targets: [Target] = []

        /// `peer`'s fastest variant over LocationWire's, on each workload, against `minimum`.
        func speedup(_ peer: String, _ kind: OperationKind, _ workloads: [String], minimum: Double, name: String) {
            var parts: [String] = []
            var met: Bool? = true
            var noise = false
            guard results.implementations.contains(peer) else {
                targets.append(Target(name: name, measured: "\(peer) was not run", met: nil))
                return
            }
            for workload in workloads {
                guard let ratio = results.ratio(peer, over: lw, workload, kind) else {
                    if results.fastest(lw, workload, kind) != nil {
                        parts.append("\(workload): not measured")
                        met = nil
                    }
                    continue
                }
                parts.append("\(workload) \(Format.ratio(ratio, showOperation: true))")
                if ratio.median < minimum { met = met.map { _ in false } }
                if (ratio.low < minimum) != (ratio.high < minimum) { noise = true }
            }
            targets.append(
                Target(
                    name: name, measured: parts.joined(separator: "; "), met: parts.isEmpty ? nil : met,
                    withinNoise: noise))
        }
        speedup(
            Implementations.cpp, .decode, headline, minimum: 1.0,
            name: "Decode ≥ 1.0× the fastest C++ decode, every workload")
        speedup(
            Implementations.upb, .decode, headline, minimum: 1.0,
            name: "Decode ≥ 1.0× native upb's fastest decode, every workload")
        speedup(
            Implementations.cpp, .encode, headline, minimum: 1.0,
            name: "Encode ≥ 1.0× the fastest C++ encode, every workload")
        speedup(Implementations.cpp, .jsonPrint, headline, minimum: 1.5, name: "JSON print ≥ 1.5× C++")
        speedup(Implementations.cpp, .jsonParse, headline, minimum: 1.5, name: "JSON parse ≥ 1.5× C++")
        speedup(
            Implementations.swiftProtobuf, .jsonParse, headline, minimum: 1.0, name: "JSON parse ≥ 1.0× swift-protobuf")

        var expansion: [String] = []
        var expansionMet: Bool? = true
        for workload in compactBatches {
            guard let ours = results.series(lw, workload, "decode-expand") else {
                expansionMet = nil
                continue
            }
            var part = "\(workload): \(Format.millions(ours.fixesPerSecond)) M fixes/s"
            if let cpp = results.series(Implementations.cpp, workload, "decode-expand") {
                part += " (C++'s expansion loop \(Format.millions(cpp.fixesPerSecond)) M fixes/s)"
            }
            expansion.append(part)
            if ours.fixesPerSecond < 30e6 { expansionMet = expansionMet.map { _ in false } }
        }
        targets.append(
            Target(
                name: "Compact batch decoded and expanded to rows ≥ 30 M fixes/s",
                measured: expansion.joined(separator: "; "),
                met: expansion.isEmpty ? nil : expansionMet))

        func ownRatio(_ workload: String, _ top: String, _ bottom: String) -> Ratio? {
            guard let numerator = results.series(lw, workload, top),
                let denominator = results.series(lw, workload, bottom)
            else { return nil }
            return Statistics.ratio(numerator, over: denominator)
        }
        if let ratio = ownRatio("assignment-20", "validate", "decode") {
            targets.append(
                Target(
                    name: "RegionAssignment validation ≤ 1× its decode time",
                    measured: "assignment-20: validation takes \(Format.ratio(ratio)) the decode's time",
                    met: ratio.median <= 1.0, withinNoise: (ratio.low <= 1.0) != (ratio.high <= 1.0)))
        } else {
            targets.append(
                Target(name: "RegionAssignment validation ≤ 1× its decode time", measured: "not measured", met: nil))
        }

        // Allocations: constant along the scaling curve, and fewer than one per event where events, status and a
        // 36-byte device id are present.
        let curve = scalingWorkloads.compactMap { fixes, workload in
            results.series(lw, workload, "decode")?.allocations.map { (fixes, $0) }
        }
        let full = results.series(lw, "batch-full-100", "decode")?.allocations
        var allocationParts = curve.map { "\(Format.count($0.0)) fixes: \(Format.allocations($0.1))" }
        if let full {
            allocationParts.append("batch-full-100 (36-byte id, 15 events, status): \(Format.allocations(full))")
        }
        let allocationsMet =
            curve.count == scalingWorkloads.count && full != nil
            ? Set(curve.map(\.1)).count == 1 && full! < 15 : nil
        targets.append(
            Target(
                name:
                    "Allocations per decoded batch O(1): the same at every size, and fewer than one per event with a long device id, events and status",
                measured: allocationParts.joined(separator: ", "), met: allocationsMet))

        // Targets of issue 5, still held.
        speedup(
            Implementations.swiftProtobuf, .decode, rowBatches, minimum: 4.0,
            name: "Decode of the 1000-fix row batch ≥ 4× swift-protobuf")
        var validationParts: [String] = []
        var validationMet: Bool? = true
        for workload in rowBatches {
            guard let ratio = ownRatio(workload, "validate", "decode") else {
                validationMet = nil
                continue
            }
            validationParts.append(
                "\(workload): \(Format.percent(ratio.median)) of decode (\(Format.percent(ratio.low))–\(Format.percent(ratio.high)))"
            )
            if ratio.median > 0.25 { validationMet = validationMet.map { _ in false } }
        }
        targets.append(
            Target(
                name: "Batch validation ≤ 25 % of decode time", measured: validationParts.joined(separator: "; "),
                met: validationMet))

        var linearParts: [String] = []
        var linearMet: Bool? = true
        for operation in ["decode", "encode", "validate"] {
            guard let marginal = marginalCosts(results, operation: operation) else {
                linearMet = nil
                continue
            }
            let spread = marginal.max()! / marginal.min()!
            linearParts.append(
                "\(operation): \(marginal.map { Format.nanoseconds($0) }.joined(separator: " → ")) per added fix (spread \(Format.ratioValue(spread)))"
            )
            if spread > linearityTolerance { linearMet = linearMet.map { _ in false } }
        }
        targets.append(
            Target(
                name:
                    "Cost linear in size from 10 to 100,000 fixes (each added fix costs the same, within \(Format.ratioValue(linearityTolerance)), from one size to the next)",
                measured: linearParts.joined(separator: "; "), met: linearMet))
        return targets
    }

    /// The cost of one more fix between consecutive sizes of the scaling curve: (t(n2) − t(n1)) / (n2 − n1).
    static func marginalCosts(_ results: Results, operation: String, implementation: String = lw) -> [Double]? {
        let points = scalingWorkloads.compactMap { fixes, workload in
            results.series(implementation, workload, operation).map { (fixes, $0.median) }
        }
        guard points.count == scalingWorkloads.count else { return nil }
        return zip(points, points.dropFirst()).map { ($1.1 - $0.1) / Double($1.0 - $0.0) }
    }
}
