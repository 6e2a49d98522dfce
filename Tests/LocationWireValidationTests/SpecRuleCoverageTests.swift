import Foundation
import LocationWireTestSupport
import Testing

/// Every normative statement of proto/README.md carries a rule tag, each tag is defined once, and a test (or a
/// conformance vector) names each tag: no rule without a test.
@Suite struct SpecRuleCoverageTests {
    /// Statements about what no code of this package does, so no test here can check them: the transport, a
    /// server's processing, and what a device's app does with its OS. They keep their tags; a test of the
    /// component that does it (a server, the session engine) names them, and they leave this list.
    static let outsideThisPackage: [String: String] = [
        "server-orders": "how a server orders fixes before evaluating fences; no server code here",
        "datum-marked": "which SDK a device's coordinates came from is not in the message",
        "datum-convert": "how a server compares positions with regions; no server code here",
        "initial-state": "a device requesting region states from its OS after arming; no device code here",
    ]

    static let spec = Result { try SpecText() }

    /// Every section the spec sends a reader to by name (`proto/README.md "Decoding errors"`, `BEHAVIOR.md,
    /// "Recording"`, in the pages and in the schema's comments) is a heading of that page, or the bold label that
    /// opens one of its paragraphs or list items (`**Acks a device ignores.**`).
    @Test func everyQuotedSectionExists() throws {
        let proto = SpecText.repository.appendingPathComponent("proto")
        func headings(_ page: String) throws -> Set<String> {
            let text = try String(contentsOf: proto.appendingPathComponent(page), encoding: .utf8)
            var names: Set<String> = []
            for line in text.split(separator: "\n") {
                if line.hasPrefix("#") { names.insert(String(line.drop { $0 == "#" || $0 == " " })) }
                if let label = line.firstMatch(of: /^(?:- )?\*\*([^*]+)\.\*\*/) { names.insert(String(label.output.1)) }
            }
            return names
        }
        var files: [URL] = []
        for case let file as URL in FileManager.default.enumerator(at: proto, includingPropertiesForKeys: nil)!
        where ["md", "proto"].contains(file.pathExtension) {
            files.append(file)
        }
        // A page's name, then within a few words one or more quoted names joined by "and" or commas; a comment's
        // line breaks (`//`) are read as spaces, so a reference may wrap.
        let reference = /(README|HTTP|BEHAVIOR)\.md(?:'s)?[^"\n.;:]{0,24}((?:"[^"]+"(?:,? (?:and )?)?)+)/
        var checked = 0
        var missing: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
                .replacing(/\n\s*\/\/ ?/, with: " ").replacing("\n", with: " ")
            for match in text.matches(of: reference) {
                let page = "\(match.output.1).md"
                let known = try headings(page)
                for quoted in match.output.2.matches(of: /"([^"]+)"/) {
                    checked += 1
                    let name = String(quoted.output.1)
                    if !known.contains(name) { missing.append("\(file.lastPathComponent): \(page) \"\(name)\"") }
                }
            }
        }
        #expect(checked >= 15, "the references were found (\(checked))")
        #expect(missing.isEmpty, "sections named but not there: \(missing)")
    }

    @Test func everyNormativeBlockHasATag() throws {
        let untagged = try Self.spec.get().blocks.filter { !$0.keywords.isEmpty && $0.tags.isEmpty }
        #expect(untagged.isEmpty, "blocks with MUST, SHOULD, REQUIRED or RECOMMENDED but no §tag:\n\(untagged)")
    }

    @Test func everyTagIsDefinedOnce() throws {
        var places: [String: [Int]] = [:]
        for block in try Self.spec.get().blocks {
            for tag in block.tags { places[tag, default: []].append(block.line) }
        }
        let repeated = places.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
        #expect(repeated.isEmpty, "tags defined more than once (tag: lines): \(repeated)")
        #expect(places.count > 30, "the parser found the tags")
    }

    /// Each tag is named, as the literal text `§id`, by a Swift file under Tests/ or Server/Tests/ (the HTTP
    /// server's tests), a check of the HTTP probe (Server/Sources/LocationWireProbe/, which judges
    /// servers as vectors judge testees), or a conformance vector file.
    @Test func everyTagIsNamedByATest() throws {
        let defined = Set(try Self.spec.get().blocks.flatMap(\.tags))
        let named = try Self.namedTags()
        let exempt = Set(Self.outsideThisPackage.keys)
        let uncovered = defined.subtracting(named).subtracting(exempt).sorted()
        #expect(uncovered.isEmpty, "tags no test names: \(uncovered)")
        let undefinedExemptions = Set(Self.outsideThisPackage.keys).subtracting(defined).sorted()
        #expect(undefinedExemptions.isEmpty, "outsideThisPackage lists tags the spec does not define")
        let unknown = named.subtracting(defined).sorted()
        #expect(unknown.isEmpty, "tests name tags proto/README.md does not define: \(unknown)")
        let coveredAfterAll = exempt.intersection(named).sorted()
        #expect(coveredAfterAll.isEmpty, "named by a test, so remove them from the exemptions: \(coveredAfterAll)")
    }

    /// The tags in the Swift sources under Tests/, Server/Tests/ and the probe's checks (this file excepted: it
    /// only lists them) and in conformance/vectors/*.json.
    static func namedTags() throws -> Set<String> {
        let manager = FileManager.default
        let repository = SpecText.repository
        var files: [URL] = []
        for folder in ["Tests", "Server/Tests", "Server/Sources/LocationWireProbe"] {
            let url = repository.appendingPathComponent(folder)
            guard manager.fileExists(atPath: url.path) else { continue }
            for case let file as URL in manager.enumerator(at: url, includingPropertiesForKeys: nil)!
            where file.pathExtension == "swift" && file.lastPathComponent != "SpecRuleCoverageTests.swift" {
                files.append(file)
            }
        }
        let vectors = repository.appendingPathComponent("conformance/vectors")
        files += try manager.contentsOfDirectory(at: vectors, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(files.count > 10)
        var named: Set<String> = []
        for file in files {
            named.formUnion(SpecText.tags(in: try String(contentsOf: file, encoding: .utf8)))
        }
        return named
    }

    /// The parser on a small text: what makes a block, what counts as a key word and a tag.
    @Test func theParserFindsBlocksKeywordsAndTags() {
        let text = """
            # Title

            A paragraph that MUST hold,
            over two lines. `§first`

            - An item that SHOULD NOT fail.
              Continued. `§second-rule`
            - An item that MAY do anything.
            1. A numbered item, RECOMMENDED.

            | Code | Rule |
            |---|---|
            | `a` | REQUIRED here `§third` |
            A must in lowercase is no key word; nor is MUSTARD.
            """
        let blocks = SpecText(text: text).blocks
        #expect(
            blocks.map(\.kind) == [
                .paragraph, .listItem, .listItem, .listItem, .tableRow, .tableRow, .tableRow,
                .paragraph,
            ])
        #expect(blocks.map(\.line) == [3, 6, 8, 9, 11, 12, 13, 14])
        #expect(blocks.map(\.tags) == [["first"], ["second-rule"], [], [], [], [], ["third"], []])
        #expect(blocks.map(\.keywords) == [["MUST"], ["SHOULD"], [], ["RECOMMENDED"], [], [], ["REQUIRED"], []])
        #expect(blocks.allSatisfy { $0.section == "Title" })
    }
}
