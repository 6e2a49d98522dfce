import Foundation

/// The spec, proto/README.md, proto/BEHAVIOR.md and proto/HTTP.md, read as the tests need it: blocks (paragraphs, list items, table rows), the rule
/// tags (a section sign and a kebab-case id) they carry, the RFC 2119 key words they use, and the validation rules table.
package struct SpecText {
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The spec's pages, relative to the repository.
    package static let pages = ["proto/README.md", "proto/BEHAVIOR.md", "proto/HTTP.md"]

    /// One unit of text that a tag covers: a paragraph, one item of a bulleted or numbered list, or one table row.
    package struct Block: CustomStringConvertible {
        package enum Kind: String { case paragraph, listItem = "list item", tableRow = "table row" }
        package let kind: Kind
        /// The page, relative to the repository.
        package let page: String
        /// The 1-based line the block starts on.
        package let line: Int
        package let text: String
        /// The section heading the block stands under.
        package let section: String

        package var description: String {
            let start = text.prefix(70).replacingOccurrences(of: "\n", with: " ")
            return "\(page):\(line) (\(kind.rawValue) in \"\(section)\"): \(start)..."
        }

        /// The rule tags of the block, in order.
        package var tags: [String] { SpecText.tags(in: text) }

        /// The uppercase RFC 2119 key words of the block (`MUST NOT` counts as MUST, and so on).
        package var keywords: Set<String> { SpecText.keywords(in: text) }
    }

    package let blocks: [Block]

    package init() throws {
        blocks = try Self.pages.flatMap { page in
            try SpecText(
                text: String(contentsOf: Self.repository.appendingPathComponent(page), encoding: .utf8), page: page
            ).blocks
        }
    }

    /// Splits markdown into blocks: a blank line, a heading, a list marker or a table row starts a new one;
    /// other lines continue the block before them.
    package init(text: String, page: String = "proto/README.md") {
        var blocks: [Block] = []
        var current: (kind: Block.Kind, line: Int, lines: [String])?
        var section = ""
        func finish() {
            if let current {
                blocks.append(
                    Block(
                        kind: current.kind, page: page, line: current.line, text: current.lines.joined(separator: "\n"),
                        section: section))
            }
            current = nil
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty {
                finish()
            } else if trimmed.hasPrefix("#") {
                finish()
                section = trimmed.drop { $0 == "#" || $0 == " " }.description
            } else if trimmed.hasPrefix("|") {
                finish()
                current = (.tableRow, index + 1, [String(line)])
                finish()
            } else if Self.startsListItem(trimmed) {
                finish()
                current = (.listItem, index + 1, [String(line)])
            } else if current != nil {
                current!.lines.append(String(line))
            } else {
                current = (.paragraph, index + 1, [String(line)])
            }
        }
        finish()
        self.blocks = blocks
    }

    /// `- item` or `12. item`.
    private static func startsListItem(_ line: Substring) -> Bool {
        if line.hasPrefix("- ") { return true }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && line.dropFirst(digits.count).hasPrefix(". ")
    }

    /// The ids of the rule tags in `text`, in order: a section sign followed by lowercase letters, digits and inner
    /// hyphens.
    package static func tags(in text: String) -> [String] {
        var tags: [String] = []
        var rest = Substring(text)
        while let sign = rest.firstIndex(of: "§") {
            rest = rest[rest.index(after: sign)...]
            let id = rest.prefix { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
            let trimmed = id.reversed().drop { $0 == "-" }.reversed()
            if !trimmed.isEmpty { tags.append(String(trimmed)) }
        }
        return tags
    }

    /// The words RFC 2119 defines, in the uppercase that makes them normative.
    package static let rfc2119Words: Set<String> = [
        "MUST", "REQUIRED", "SHALL", "SHOULD", "RECOMMENDED", "MAY", "OPTIONAL", "NOT",
    ]
    /// The key words whose blocks need a tag: requirements and recommendations (MAY and OPTIONAL grant
    /// freedom and need none).
    package static let normativeWords: Set<String> = ["MUST", "REQUIRED", "SHALL", "SHOULD", "RECOMMENDED"]

    package static func keywords(in text: String) -> Set<String> {
        let words = text.split { !($0.isASCII && $0.isLetter) }.map(String.init)
        return Set(words.filter { normativeWords.contains($0) })
    }

    /// The blocks of the section named `heading`.
    package func section(_ heading: String) -> [Block] {
        blocks.filter { $0.section == heading }
    }

    /// One row of the "Validation rules" table: its codes (one or two, split at `/`), severity and rule text.
    package struct RuleRow {
        package let codes: [String]
        package let severity: String
        package let rule: String
        package let line: Int
    }

    /// The rows of the table in "Validation rules", without its header and separator rows.
    package func validationRules() -> [RuleRow] {
        section("Validation rules").filter { $0.kind == .tableRow }.compactMap { row in
            let cells = row.text.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, cells[0].hasPrefix("`") else { return nil }
            let codes = cells[0].split(separator: "/").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            return RuleRow(codes: codes, severity: cells[1], rule: cells[2], line: row.line)
        }
    }
}
