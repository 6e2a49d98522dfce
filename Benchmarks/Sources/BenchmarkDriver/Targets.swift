/// The targets of issue 5, evaluated from one run's results.
struct Target {
    let name: String
    /// What was measured, in words and figures.
    let measured: String
    /// nil when the figures needed are missing (a peer harness was not run).
    let met: Bool?
}

enum Targets {
    static let lw = SwiftOperations.locationWire
    static let cpp = "cpp-libprotobuf"
    /// The C++ harness's ways to decode and to encode (Benchmarks/peers/README.md); every ratio against C++ is
    /// taken against the fastest of them on that workload.
    static let cppDecodeVariants = [
        "decode-new", "decode-arena", "decode-arena-block", "decode-arena-reset", "decode-reuse",
    ]
    static let cppEncodeVariants = ["encode", "encode-reuse"]
    static let rowBatches = ["batch-walk-1000", "batch-drive-1000"]
    static let compactBatches = ["batch-compact-walk-1000", "batch-compact-drive-1000"]
    /// The scaling curve: prefixes of one walking trace.
    static let scalingWorkloads = [
        (10, "scale-walk-10"), (100, "scale-walk-100"), (1000, "batch-walk-1000"), (10_000, "scale-walk-10000"),
        (100_000, "scale-walk-100000"),
    ]
    /// Linear: the marginal cost of a fix (between consecutive sizes) varies by at most this factor.
    static let linearityTolerance = 1.5

    static func evaluate(_ results: Results) -> [Target] {
        var targets: [Target] = []

        /// `peerOperations`: the peer's variants of the operation; the fastest on each workload is the one compared.
        func speedup(_ peer: String, _ peerOperations: [String], _ operation: String, minimum: Double, name: String) {
            var parts: [String] = []
            var met: Bool? = true
            for workload in rowBatches {
                guard let peerOperation = results.fastest(peer, workload, among: peerOperations),
                    let ratio = results.ratio((peer, peerOperation), over: (lw, operation), workload: workload)
                else {
                    met = nil
                    parts.append("\(workload): not measured")
                    continue
                }
                parts.append(
                    "\(workload): \(Format.ratio(ratio))"
                        + (peerOperations.count > 1 ? " (against `\(peerOperation)`)" : ""))
                if met != nil, ratio.median < minimum { met = false }
            }
            targets.append(Target(name: name, measured: parts.joined(separator: "; "), met: met))
        }
        speedup(
            cpp, cppDecodeVariants, "decode", minimum: 1.0,
            name: "Decode of the 1000-fix row batch ≥ 1.0× the fastest C++ decode")
        speedup(
            SwiftOperations.swiftProtobuf, ["decode"], "decode", minimum: 4.0,
            name: "Decode of the 1000-fix row batch ≥ 4× swift-protobuf")
        speedup(
            cpp, cppEncodeVariants, "encode", minimum: 1.0,
            name: "Encode ≥ 1.0× the fastest C++ encode")

        // Compact decode: the message decoded into its columns (the work a C++ or upb decode does); expanding the
        // columns back into rows is reported beside it.
        var compactParts: [String] = []
        var compactMet: Bool? = true
        for workload in compactBatches {
            guard let decode = results.summary(lw, workload, "decode") else {
                compactMet = nil
                continue
            }
            var part = "\(workload): \(Format.millions(decode.fixesPerSecond)) M fixes/s"
            if let expand = results.summary(lw, workload, "decode-expand") {
                part += " (decoded and expanded to rows: \(Format.millions(expand.fixesPerSecond)) M fixes/s)"
            }
            compactParts.append(part)
            if decode.fixesPerSecond < 30e6 { compactMet = false }
        }
        targets.append(
            Target(
                name: "Compact form ≥ 30 million fixes per second decoded",
                measured: compactParts.joined(separator: "; "), met: compactMet))

        // Allocations per decode across the scaling curve.
        let allocations = scalingWorkloads.compactMap { fixes, workload in
            results.summary(lw, workload, "decode")?.allocations.map { (fixes, $0) }
        }
        let allocationsConstant = Set(allocations.map(\.1)).count == 1
        targets.append(
            Target(
                name: "Allocations per decoded batch independent of the number of fixes",
                measured: allocations.map { "\(Format.count($0.0)) fixes: \(Format.allocations($0.1))" }.joined(
                    separator: ", "),
                met: allocations.count == scalingWorkloads.count ? allocationsConstant : nil))

        var validationParts: [String] = []
        var validationMet: Bool? = true
        for workload in rowBatches {
            guard let ratio = results.ratio((lw, "validate"), over: (lw, "decode"), workload: workload) else {
                validationMet = nil
                continue
            }
            validationParts.append(
                "\(workload): \(Format.percent(ratio.median)) of decode (rounds \(Format.percent(ratio.lowest))–\(Format.percent(ratio.highest)))"
            )
            if ratio.median > 0.25 { validationMet = false }
        }
        targets.append(
            Target(
                name: "Validation ≤ 25 % of decode time", measured: validationParts.joined(separator: "; "),
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
            if spread > linearityTolerance { linearMet = false }
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
            results.summary(implementation, workload, operation).map { (fixes, $0.stats.median) }
        }
        guard points.count == scalingWorkloads.count else { return nil }
        return zip(points, points.dropFirst()).map { ($1.1 - $0.1) / Double($1.0 - $0.0) }
    }
}
