import Foundation

/// Renders a run report as text for people, JSON for tools, or JUnit XML for CI dashboards.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, junit

    public func render(_ report: RunReport) throws -> String {
        switch self {
        case .text: return Self.text(report)
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        case .junit: return Self.junit(report)
        }
    }

    static func text(_ report: RunReport) -> String {
        var lines: [String] = []
        lines.append("Conformance run: \(report.implementation) \(report.version)")
        lines.append("Features: \(report.features.joined(separator: ", "))")
        lines.append("Failure list: \(report.failureList)")
        for result in report.results where result.status.isUnexpected {
            lines.append("")
            lines.append("\(result.status.rawValue.uppercased()): \(result.id)")
            if let reason = result.listedReason { lines.append("  listed as failing: \(reason)") }
            if let detail = result.detail {
                lines.append(contentsOf: detail.split(separator: "\n").map { "  " + $0 })
            }
        }
        if !report.staleEntries.isEmpty {
            lines.append("")
            lines.append("STALE failure-list entries (remove them):")
            lines.append(contentsOf: report.staleEntries.map { "  " + $0 })
        }
        lines.append("")
        let columns: [VectorStatus] = [.pass, .fail, .expectedFailure, .unexpectedPass, .crash, .timeout, .unsupported]
        let header = ["family"] + columns.map(\.rawValue) + ["total"]
        var rows = [header]
        for family in report.families + ["all"] {
            let scope = family == "all" ? nil : family
            let counts = columns.map { String(report.count($0, family: scope)) }
            let total = report.results.filter { scope == nil || $0.family == scope }.count
            rows.append([family] + counts + [String(total)])
        }
        let widths = (0..<header.count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(
                row.enumerated().map {
                    $0.element.padding(toLength: widths[$0.offset] + 2, withPad: " ", startingAt: 0)
                }.joined())
        }
        lines.append("")
        let verdict = report.passed ? "PASSED" : "FAILED"
        let unexpected = report.results.filter { $0.status.isUnexpected }.count
        lines.append(
            "CONFORMANCE \(verdict): \(report.count(.pass)) passed, \(report.count(.expectedFailure)) expected failures, "
                + "\(unexpected) unexpected, \(report.count(.unsupported)) unsupported, \(report.staleEntries.count) stale entries "
                + "(testee started \(report.testeeStarts) time\(report.testeeStarts == 1 ? "" : "s"))")
        return lines.joined(separator: "\n") + "\n"
    }

    static func junit(_ report: RunReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = report.results.filter { $0.status.isUnexpected }.count
        let skipped = report.results.filter { $0.status == .unsupported || $0.status == .expectedFailure }.count
        xml +=
            "<testsuites name=\"locationwire-conformance\" tests=\"\(report.results.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">\n"
        for family in report.families {
            let results = report.results.filter { $0.family == family }
            let familyFailures = results.filter { $0.status.isUnexpected }.count
            let familySkipped = results.filter { $0.status == .unsupported || $0.status == .expectedFailure }.count
            xml +=
                "  <testsuite name=\"\(XMLText.escaped(report.implementation)).\(XMLText.escaped(family))\" tests=\"\(results.count)\" failures=\"\(familyFailures)\" skipped=\"\(familySkipped)\">\n"
            for result in results {
                xml += "    <testcase classname=\"\(XMLText.escaped(family))\" name=\"\(XMLText.escaped(result.id))\""
                switch result.status {
                case .pass:
                    xml += "/>\n"
                case .unsupported, .expectedFailure:
                    xml +=
                        "><skipped message=\"\(XMLText.escaped(result.status.rawValue + ": " + (result.listedReason ?? result.detail ?? "")))\"/></testcase>\n"
                default:
                    xml +=
                        "><failure message=\"\(XMLText.escaped(result.status.rawValue))\">\(XMLText.escaped(result.detail ?? result.listedReason ?? ""))</failure></testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        if !report.staleEntries.isEmpty {
            xml +=
                "  <testsuite name=\"failure-list\" tests=\"\(report.staleEntries.count)\" failures=\"\(report.staleEntries.count)\">\n"
            for entry in report.staleEntries {
                xml +=
                    "    <testcase classname=\"failure-list\" name=\"\(XMLText.escaped(entry))\"><failure message=\"stale entry\"/></testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}

/// Text for XML 1.0 attributes and elements, as the JUnit reports of `locwire conformance run` and
/// `locwire-server probe` write them.
public enum XMLText {
    /// The five predefined entities escaped, tabs and line feeds kept, and every other character XML 1.0 cannot
    /// carry, even escaped (the other C0 controls, U+FFFE, U+FFFF), replaced by U+FFFD.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
