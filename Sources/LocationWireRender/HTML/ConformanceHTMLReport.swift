import Foundation
import LocationWire
import LocationWireConformance

/// `locwire conformance run --format html`: one self-contained page with the results matrix (family × outcome),
/// every unexpected result with its diff, and pictures of behaviour vectors — each failed `fences` or
/// `recording` vector, or, when none failed, a few passing ones, so the page always shows what such a vector is.
public struct ConformanceHTMLReport {
    public var report: RunReport
    /// The vectors of the run, to draw and to diff.
    public var vectors: [Vector]
    /// Who answers again for the pictures: the same implementation the run used.
    public var answerer: ScenarioPicture.Answerer
    /// Pictures when nothing failed.
    public var passingExamples = 3
    /// At most this many pictures, so a run with hundreds of failures still gives a page a browser opens.
    public var maximumPictures = 20
    /// Each map's size, pixels.
    public var mapWidth = 900.0
    public var mapHeight = 560.0

    public init(report: RunReport, vectors: [Vector], answerer: ScenarioPicture.Answerer) {
        self.report = report
        self.vectors = vectors
        self.answerer = answerer
    }

    static let columns: [VectorStatus] = [
        .pass, .fail, .expectedFailure, .unexpectedPass, .crash, .timeout, .unsupported,
    ]

    public func render() -> String {
        let byId = Dictionary(vectors.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var body = "<div class=\"report\">\n"
        let verdict = report.passed ? "PASSED" : "FAILED"
        body += "<h1>Conformance: \(e(report.implementation)) \(e(report.version)) — "
        body += "<span class=\"verdict-\(report.passed ? "pass" : "fail")\">\(verdict)</span></h1>\n"
        body += "<p>Features: \(e(report.features.joined(separator: ", ")))<br>Failure list: \(e(report.failureList))"
        body += "<br>Testee started \(report.testeeStarts) time\(report.testeeStarts == 1 ? "" : "s")</p>\n"
        body += matrix()
        let unexpected = report.results.filter { $0.status.isUnexpected }
        body += "<h2>Unexpected results (\(unexpected.count))</h2>\n"
        if unexpected.isEmpty { body += "<p>None.</p>\n" }
        for result in unexpected {
            body += "<section class=\"vector\" id=\"\(e(result.id))\"><h3>\(e(result.status.rawValue.uppercased())): "
            body += "\(e(result.id))</h3>\n"
            if let reason = result.listedReason { body += "<p>Listed as failing: \(e(reason))</p>\n" }
            if let comment = byId[result.id]?.comment { body += "<p>\(e(comment))</p>\n" }
            body += "<pre>\(e(result.detail ?? "(no detail)"))</pre>\n"
            if result.status == .fail, let vector = byId[result.id] { body += responseDiff(vector) }
            body += "</section>\n"
        }
        if !report.staleEntries.isEmpty {
            body += "<h2>Stale failure-list entries</h2>\n<ul>"
            body += report.staleEntries.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n"
        }
        body += pictures(byId)
        body += "</div>\n"
        return HTMLPage.page(title: "Conformance: \(report.implementation) \(verdict)", body: body)
    }

    /// A behaviour vector's whole expected response against the implementation's, line by line; nothing for
    /// other vectors, whose detail already names what differs.
    func responseDiff(_ vector: Vector) -> String {
        let responses: (expected: String, actual: String)?
        do {
            responses = try ScenarioPicture.responses(of: vector, answerer: answerer)
        } catch {
            return "<p>The response could not be asked again for a diff: \(e("\(error)"))</p>\n"
        }
        guard let responses else { return "" }
        guard let lines = LineDiff.diff(expected: responses.expected, actual: responses.actual) else {
            return "<p>The responses are too long to diff line by line; the detail above shows where they part.</p>\n"
        }
        if lines.allSatisfy({ if case .same = $0 { true } else { false } }) {
            return "<p>Asked again, the implementation gave the expected response.</p>\n"
        }
        var out = "<p>Expected (−) against \(e(report.implementation)) (+):</p>\n<pre class=\"diff\">"
        for line in lines {
            switch line {
            case .same(let text): out += "  \(e(text))\n"
            // Blocks of their own: no line feed after them, or each would leave an empty line.
            case .removed(let text): out += "<del>− \(e(text))</del>"
            case .added(let text): out += "<ins>+ \(e(text))</ins>"
            case .skipped(let count): out += "<span class=\"skip\">  … \(count) unchanged lines …</span>\n"
            }
        }
        return out + "</pre>\n"
    }

    func matrix() -> String {
        var out = "<h2>Results</h2>\n<table class=\"matrix\"><thead><tr><th>family</th>"
        out += Self.columns.map { "<th>\(e($0.rawValue))</th>" }.joined() + "<th>total</th></tr></thead><tbody>\n"
        for family in report.families + ["all"] {
            let scope = family == "all" ? nil : family
            out += "<tr><td>\(family == "all" ? "<b>all</b>" : e(family))</td>"
            for status in Self.columns {
                let count = report.count(status, family: scope)
                let tone =
                    count == 0 ? "" : status.isUnexpected ? " class=\"bad\"" : status == .pass ? " class=\"good\"" : ""
                out += "<td\(tone)>\(count)</td>"
            }
            out += "<td>\(report.results.filter { scope == nil || $0.family == scope }.count)</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// The behaviour vectors to draw: failed ones (unexpected or listed), else a few that passed of each kind.
    func chosen(_ byId: [String: Vector]) -> [(VectorResult, Vector)] {
        let drawable = report.results.compactMap { result in
            byId[result.id].flatMap { ScenarioPicture.canDraw($0) ? (result, $0) : nil }
        }
        let failed = drawable.filter { [.fail, .expectedFailure, .crash, .timeout].contains($0.0.status) }
        if !failed.isEmpty { return Array(failed.prefix(maximumPictures)) }
        let passed = drawable.filter { $0.0.status == .pass }
        // Spread over the file rather than its first few, which all test one thing.
        let allFences = passed.filter { $0.1.messageType == FenceRequest.schema.fullName }
        let stride = max(allFences.count / max(passingExamples, 1), 1)
        let fences = allFences.enumerated().filter { $0.offset % stride == 0 }.map(\.element).prefix(passingExamples)
        let recording = passed.filter { $0.1.messageType == RecordingRequest.schema.fullName }.prefix(1)
        return Array(fences) + Array(recording)
    }

    func pictures(_ byId: [String: Vector]) -> String {
        let chosen = chosen(byId)
        guard !chosen.isEmpty else {
            return "<h2>Behaviour pictures</h2>\n<p>No fences or recording vectors ran.</p>\n"
        }
        let anyFailed = chosen.contains { $0.0.status != .pass }
        var out = "<h2>Behaviour pictures (\(anyFailed ? "failed vectors" : "a few passing vectors"))</h2>\n"
        for (number, (result, vector)) in chosen.enumerated() {
            out += "<section class=\"vector\"><h3>\(e(result.status.rawValue)): \(e(vector.id))</h3>\n"
            do {
                let picture = try ScenarioPicture.picture(
                    of: vector, answerer: answerer, implementation: report.implementation)
                var map = SVGMap(width: mapWidth, height: mapHeight)
                map.standalone = false
                map.idPrefix = "v\(number)"
                out += HTMLPage.map(map.render(picture).svg) + "\n"
            } catch {
                out += "<p>No picture: \(e("\(error)"))</p>\n"
            }
            out += "</section>\n"
        }
        return out
    }

    func e(_ text: String) -> String { XMLText.escaped(text) }
}
