import Foundation
import LocationWireConformance

/// The three forms of a probe report: `text` for people, `json` for scripts, `junit` for CI systems.
public enum ProbeReportFormat: String, Sendable, CaseIterable {
    case text
    case json
    case junit
    /// The "HTTP servers" section of conformance/RESULTS.md: a table row per server, a cell per group of checks.
    case markdown

    /// - Parameter serverName: the server's name in the markdown row; the base URL when nil.
    public func render(_ report: ProbeReport, serverName: String? = nil) -> String {
        switch self {
        case .text: Self.text(report)
        case .json: Self.json(report)
        case .junit: Self.junit(report)
        case .markdown: Self.markdown(report, serverName: serverName ?? report.server)
        }
    }

    /// The groups of checks, by the first component of their names, in the order of the probe.
    static let groups = [
        "readback", "vectors", "batches", "formats", "status", "endpoints", "ledger", "regions", "policy",
    ]

    /// A section for conformance/RESULTS.md: a cell per group is *passed / run* (run: passed or failed), with the
    /// not-applicable checks counted apart, so that it depends on the outcomes only, never on timings or on the
    /// random installation ids.
    static func markdown(_ report: ProbeReport, serverName: String) -> String {
        func cell(_ results: [ProbeCheckResult]) -> String {
            let run = results.filter { $0.outcome != .notApplicable }
            return "\(run.filter { $0.outcome == .passed }.count) / \(run.count)"
        }
        func group(_ name: String) -> [ProbeCheckResult] {
            report.results.filter { $0.name.split(separator: ".").first.map(String.init) == name }
        }
        var lines = [
            "## HTTP servers", "",
            "Written by `locwire-server probe --format markdown` (conformance/run-all.sh runs it against the "
                + "reference server). A cell is *passed / run*; *n/a* counts the checks that do not apply "
                + "(optional endpoints a server leaves out, statuses it never sends). The failed checks are listed "
                + "below the table.",
            "",
            "| Server | " + groups.joined(separator: " | ") + " | all | n/a |",
            "|---|" + String(repeating: "---:|", count: groups.count + 2),
            "| \(serverName) | " + groups.map { cell(group($0)) }.joined(separator: " | ")
                + " | \(cell(report.results)) | "
                + "\(report.count(.notApplicable)) |",
        ]
        let failed = report.results.filter { $0.outcome == .failed }
        if !failed.isEmpty {
            lines.append("")
            for result in failed {
                let first = result.message.split(separator: "\n").first.map(String.init) ?? ""
                lines.append("- `\(result.name)`: \(first)")
            }
        }
        for note in report.notes where note.hasPrefix("ledger vectors") || note.hasPrefix("session vectors") {
            lines.append("")
            lines.append(note.prefix(1).uppercased() + note.dropFirst() + ".")
        }
        let rules = report.byRule
        lines += [
            "",
            "### By rule",
            "",
            "The \(rules.count) rules of proto/HTTP.md and proto/README.md the probe's checks judge; a check may judge "
                + "several. A cell is *passed / run*.",
            "",
            "| Rule | passed / run | n/a |",
            "|---|---:|---:|",
        ]
        for tally in rules {
            lines.append(
                "| `\(tally.rule)` | \(tally.passed) / \(tally.passed + tally.failed) | \(tally.notApplicable) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A line per check (`PASS`, `FAIL`, `N/A`, the name, the message), the notes, then the summary.
    static func text(_ report: ProbeReport) -> String {
        var lines = ["locwire-server probe of \(report.server) as device \(report.deviceId)"]
        for note in report.notes { lines.append("note: \(note)") }
        for result in report.results {
            let label =
                switch result.outcome {
                case .passed: "PASS"
                case .failed: "FAIL"
                case .notApplicable: "N/A "
                }
            // A failure's message may span lines (one difference a line); they are indented under the check.
            let message = result.message.replacingOccurrences(of: "\n", with: "\n       ")
            lines.append("\(label)  \(result.name): \(message)")
        }
        let rules = report.byRule
        let failing = rules.filter { $0.failed > 0 }
        for tally in failing {
            lines.append(
                "rule \(tally.rule): \(tally.failed) of \(tally.checks) failed: "
                    + tally.failedChecks.joined(separator: ", "))
        }
        lines.append("rules: \(rules.count) judged, \(failing.count) with a failed check")
        lines.append("\(report.summary) in \(String(format: "%.1f", report.durationSeconds)) s")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"format": "locwire-server-probe/1", "server": ..., "summary": {...}, "checks": [{name, rules, outcome,
    /// message, durationSeconds}], "rules": [{rule, checks, passed, failed, notApplicable, failedChecks}],
    /// "notes": [...]}`, keys sorted.
    static func json(_ report: ProbeReport) -> String {
        struct Document: Encodable {
            struct Summary: Encodable {
                var checks: Int
                var passed: Int
                var failed: Int
                var notApplicable: Int
            }
            var format = "locwire-server-probe/1"
            var server: String
            var deviceId: String
            var summary: Summary
            var durationSeconds: Double
            var notes: [String]
            var checks: [ProbeCheckResult]
            var rules: [ProbeReport.RuleTally]
        }
        let document = Document(
            server: report.server, deviceId: report.deviceId,
            summary: .init(
                checks: report.results.count, passed: report.count(.passed), failed: report.count(.failed),
                notApplicable: report.count(.notApplicable)),
            durationSeconds: report.durationSeconds, notes: report.notes, checks: report.results,
            rules: report.byRule)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Strings, numbers and arrays of them always encode.
        let data = (try? encoder.encode(document)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// JUnit XML as CI systems read it: one `<testsuite>`, a `<testcase>` per check, `<failure>` for a failed one
    /// and `<skipped>` for a not-applicable one; the class name is the check's first name component.
    static func junit(_ report: ProbeReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let time = String(format: "%.3f", report.durationSeconds)
        xml += "<testsuites name=\"locwire-server probe\" tests=\"\(report.results.count)\" "
        xml += "failures=\"\(report.count(.failed))\" skipped=\"\(report.count(.notApplicable))\" time=\"\(time)\">\n"
        xml += "  <testsuite name=\"\(XMLText.escaped(report.server))\" tests=\"\(report.results.count)\" "
        xml += "failures=\"\(report.count(.failed))\" errors=\"0\" skipped=\"\(report.count(.notApplicable))\" "
        xml += "time=\"\(time)\">\n"
        for note in report.notes {
            xml += "    <properties><property name=\"note\" value=\"\(XMLText.escaped(note))\"/></properties>\n"
        }
        for result in report.results {
            let group = result.name.split(separator: ".").first.map(String.init) ?? result.name
            xml +=
                "    <testcase classname=\"probe.\(XMLText.escaped(group))\" name=\"\(XMLText.escaped(result.name))\" "
            xml += "time=\"\(String(format: "%.3f", result.durationSeconds))\""
            if !result.rules.isEmpty {
                let rules = XMLText.escaped(result.rules.joined(separator: " "))
                xml += ">\n      <properties><property name=\"rules\" value=\"\(rules)\"/></properties"
            }
            switch result.outcome {
            case .passed:
                xml += ">\n      <system-out>\(XMLText.escaped(result.message))</system-out>\n    </testcase>\n"
            case .failed:
                let first = result.message.split(separator: "\n").first.map(String.init) ?? ""
                xml +=
                    ">\n      <failure message=\"\(XMLText.escaped(first))\">\(XMLText.escaped(result.message))</failure>\n"
                xml += "    </testcase>\n"
            case .notApplicable:
                xml += ">\n      <skipped message=\"\(XMLText.escaped(result.message))\"/>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

}
