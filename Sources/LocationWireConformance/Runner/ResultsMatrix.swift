/// The results matrix, `conformance/RESULTS.md`: per family and implementation, how many vectors passed, and
/// every vector on which implementations disagree.
public struct ResultsMatrix {
    public let reports: [RunReport]

    public init(reports: [RunReport]) {
        self.reports = reports
    }

    /// Passed (pass), failed (fail, crash, timeout, and expected failures), unsupported.
    private enum Verdict: String {
        case pass = "pass"
        case fail = "fail"
        case unsupported = "n/a"
    }

    private func verdict(_ status: VectorStatus) -> Verdict {
        switch status {
        case .pass, .unexpectedPass: .pass
        case .fail, .expectedFailure, .crash, .timeout: .fail
        case .unsupported: .unsupported
        }
    }

    public func markdown() -> String {
        var lines: [String] = []
        lines.append("# Conformance results")
        lines.append("")
        lines.append(
            "Written by `locwire conformance matrix` from the runs of `conformance/run-all.sh`; CI checks that it is current. "
                + "A cell is *passed / run*; failures that the implementation's failure list expects (`conformance/failures/`) "
                + "are counted as failed and listed there with their reasons; *n/a* marks vectors that need a feature the "
                + "implementation does not declare (peers opt out of validation, the compact form and the session and "
                + "ledger engines; protobuf-c has no JSON)."
        )
        lines.append("")
        let families = reports.first?.families ?? []
        lines.append("| Implementation | Version | " + families.map { "\($0)" }.joined(separator: " | ") + " | all |")
        lines.append("|---|---|" + families.map { _ in "---:" }.joined(separator: "|") + "|---:|")
        for report in reports {
            var cells: [String] = []
            for family in families + ["all"] {
                let results = report.results.filter { family == "all" || $0.family == family }
                let run = results.filter { verdict($0.status) != .unsupported }
                let passed = run.filter { verdict($0.status) == .pass }.count
                cells.append(run.isEmpty ? "n/a" : "\(passed) / \(run.count)")
            }
            lines.append("| \(report.implementation) | \(report.version) | " + cells.joined(separator: " | ") + " |")
        }
        let totals = families.map { family in
            "\(family) \(reports.first?.results.filter { $0.family == family }.count ?? 0)"
        }
        lines.append("")
        lines.append("Vectors per family: " + totals.joined(separator: ", ") + ".")
        lines.append("")
        lines.append("## Where implementations disagree")
        lines.append("")
        // A cell: what the implementation did with the input (accept / reject / crash / ...), marked FAIL when the
        // verdict is a failure. A vector is listed when the implementations that ran it differ in either.
        var cellsById: [String: [String]] = [:]
        var differs: [String: Bool] = [:]
        var order: [String] = []
        var seenBehaviour: [String: Set<String>] = [:]
        for report in reports {
            for result in report.results {
                if cellsById[result.id] == nil { order.append(result.id) }
                let verdict = verdict(result.status)
                let behaviour =
                    result.outcome.map { $0 == "accepted" ? "accept" : $0 == "rejected" ? "reject" : $0 } ?? "n/a"
                let cell = verdict == .unsupported ? "n/a" : behaviour + (verdict == .fail ? " FAIL" : "")
                cellsById[result.id, default: []].append(cell)
                if verdict != .unsupported {
                    seenBehaviour[result.id, default: []].insert(cell)
                }
                differs[result.id] = (seenBehaviour[result.id]?.count ?? 0) > 1
            }
        }
        let disagreements = order.filter { differs[$0] == true }
        if disagreements.isEmpty {
            lines.append("None: every implementation that runs a vector behaves the same and gets the same verdict.")
        } else {
            lines.append(
                "\(disagreements.count) vectors. A cell says whether the implementation accepted or rejected the input, "
                    + "and FAIL when that (or its output) breaks the vector's expectation; vectors whose result is "
                    + "`acceptable` allow both. *n/a*: not run (feature not declared).")
            lines.append("")
            lines.append("| Vector | " + reports.map(\.implementation).joined(separator: " | ") + " |")
            lines.append("|---|" + reports.map { _ in "---" }.joined(separator: "|") + "|")
            for id in disagreements {
                lines.append("| `\(id)` | " + cellsById[id]!.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
