import Foundation
import LocationWireHTTPBinding
import LocationWireTestSupport
import Testing

/// The spec's pages cite each other's sections by name (`proto/README.md "Decoding errors"`); a citation of a
/// section that does not exist sends an implementer nowhere, as proto/HTTP.md's citations of "Decoding errors"
/// and "JSON" did before those sections were written.
@Suite struct SpecReferenceTests {
    /// The files that cite sections of the spec's pages.
    static let citingFiles = [
        "proto/README.md", "proto/BEHAVIOR.md", "proto/HTTP.md", "proto/CHANGELOG.md", "README.md",
        "conformance/README.md", "Server/README.md", "Server/MOCK-SERVER.md", "proto/openapi.yaml",
    ]

    /// `proto/PAGE.md "Name"`, `proto/PAGE.md's "Name"` or `proto/PAGE.md, "Name"`, and any further names after
    /// `, ` or ` and `.
    static func citations(in text: String) -> [(page: String, section: String)] {
        var found: [(String, String)] = []
        let pattern = try! NSRegularExpression(
            pattern: #"proto/(README|BEHAVIOR|HTTP)\.md(?:'s|,)? ("[^"\n]+"(?:(?:, | and )"[^"\n]+")*)"#)
        let nsText = text as NSString
        for match in pattern.matches(in: text, range: NSRange(location: 0, length: nsText.length)) {
            let page = "proto/" + nsText.substring(with: match.range(at: 1)) + ".md"
            let names = nsText.substring(with: match.range(at: 2))
            for name in names.split(separator: "\"")
            where !name.trimmingCharacters(in: .whitespaces).isEmpty
                && name != ", " && name != " and "
            {
                found.append((page, String(name)))
            }
        }
        return found
    }

    /// A page's section names: its headings, and the bold lead-ins of paragraphs and list items
    /// (`**Acks a device ignores.**`, `- **Evolution.**`).
    static func sections(of page: String) throws -> Set<String> {
        let text = try String(contentsOf: SpecText.repository.appendingPathComponent(page), encoding: .utf8)
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "-" }.drop { $0 == " " }
            if trimmed.hasPrefix("#") {
                names.insert(trimmed.drop { $0 == "#" || $0 == " " }.trimmingCharacters(in: .whitespaces))
            } else if trimmed.hasPrefix("**"), let end = trimmed.dropFirst(2).range(of: "**") {
                var name = String(trimmed.dropFirst(2)[..<end.lowerBound])
                if name.hasSuffix(".") || name.hasSuffix(":") { name.removeLast() }
                names.insert(name)
            }
        }
        return names
    }

    @Test func everyCitedSectionExists() throws {
        var files = Self.citingFiles
        let protoRoot = SpecText.repository.appendingPathComponent("proto/locationwire")
        for case let file as URL in FileManager.default.enumerator(at: protoRoot, includingPropertiesForKeys: nil)!
        where file.pathExtension == "proto" {
            files.append(String(file.path.dropFirst(SpecText.repository.path.count + 1)))
        }
        var missing: [String] = []
        var count = 0
        for file in files {
            let text = try String(contentsOf: SpecText.repository.appendingPathComponent(file), encoding: .utf8)
            for (page, section) in Self.citations(in: text) {
                count += 1
                if try !Self.sections(of: page).contains(section) { missing.append("\(file): \(page) \"\(section)\"") }
            }
        }
        #expect(missing.isEmpty, "citations of sections that do not exist:\n\(missing.joined(separator: "\n"))")
        #expect(count > 20, "the pattern finds the citations (\(count))")
    }

    @Test func theCitationPatternReadsEveryForm() {
        let text = #"as proto/README.md "A" says; proto/HTTP.md's "B b"; proto/BEHAVIOR.md, "C", "D" and "E (f)"."#
        #expect(Self.citations(in: text).map(\.section) == ["A", "B b", "C", "D", "E (f)"])
        #expect(
            Self.citations(in: text).map(\.page) == [
                "proto/README.md", "proto/HTTP.md", "proto/BEHAVIOR.md", "proto/BEHAVIOR.md", "proto/BEHAVIOR.md",
            ])
    }

    /// The error code table of proto/HTTP.md (`§http-error-codes`) and the module's are the same rows.
    @Test func theErrorCodeTableIsTheSpecs() throws {
        let rows = try SpecText().section("Errors").filter { $0.kind == .tableRow }.compactMap {
            row -> (String, Int)? in
            let cells = row.text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`"), let status = Int(cells[0].trimmingCharacters(in: ["`"])),
                cells[1].hasPrefix("`"), !cells[1].contains(" ")
            else { return nil }
            return (cells[1].trimmingCharacters(in: ["`"]), status)
        }
        let spec = Set(rows.map { "\($0.1) \($0.0)" })
        let module = Set(ErrorBody.Code.statuses.map { "\($0.status) \($0.code)" })
        #expect(
            spec == module,
            "spec only: \(spec.subtracting(module).sorted()); module only: \(module.subtracting(spec).sorted())")
    }
}
