import Foundation
import LocationWireFiles

/// An expected-failure list: `conformance/failures/<implementation>.txt`.
///
/// One entry per line: a vector id, or an id prefix that ends at a `.` boundary (`wire.LocationBatch.utf8`
/// covers `wire.LocationBatch.utf8.device_id`), then `#` and the reason, which is required. Blank lines and
/// lines starting with `#` are comments. Entries go stale loudly: an entry that matches no vector, or a listed
/// vector that passes, fails the run.
public struct FailureList: Sendable {
    public struct Entry: Sendable, Hashable {
        public let pattern: String
        public let reason: String
        public let line: Int

        public func matches(_ id: String) -> Bool {
            id == pattern || id.hasPrefix(pattern + ".")
        }
    }

    public let entries: [Entry]
    public let source: String

    public init(entries: [Entry] = [], source: String = "(none)") {
        self.entries = entries
        self.source = source
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: String, source: String) throws -> FailureList {
        var entries: [Entry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let hash = line.firstIndex(of: "#") else {
                throw ParseError(description: "\(source):\(index + 1): an entry needs '# reason' after the id")
            }
            let pattern = line[..<hash].trimmingCharacters(in: .whitespaces)
            let reason = line[line.index(after: hash)...].trimmingCharacters(in: .whitespaces)
            guard !pattern.isEmpty, !pattern.contains(" "), !reason.isEmpty else {
                throw ParseError(description: "\(source):\(index + 1): expected '<id or id prefix>  # <reason>'")
            }
            entries.append(Entry(pattern: pattern, reason: reason, line: index + 1))
        }
        return FailureList(entries: entries, source: source)
    }

    public static func load(_ url: URL) throws -> FailureList {
        try parse(String(decoding: try FileAccess.read(url.path), as: UTF8.self), source: url.path)
    }

    /// The entry that covers `id`, if any (the first in file order).
    public func entry(for id: String) -> Entry? {
        entries.first { $0.matches(id) }
    }
}
