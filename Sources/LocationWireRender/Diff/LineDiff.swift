/// A line diff of two texts (longest common subsequence), for showing an expected response against the one an
/// implementation gave. Bounded: beyond ``maximumCells`` (lines × lines) it does not compute and says so, so a
/// huge response cannot take the report's time or memory.
public enum LineDiff {
    public enum Line: Equatable, Sendable {
        case same(String)
        case removed(String)
        case added(String)
        /// Unchanged lines left out between the hunks.
        case skipped(Int)
    }

    public static let maximumCells = 4_000_000

    /// The diff from `expected` to `actual` with `context` unchanged lines around each change; nil when the two
    /// are too long to compare.
    public static func diff(expected: String, actual: String, context: Int = 3) -> [Line]? {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Common head and tail need no table: most responses differ in a few lines.
        var head = 0
        while head < old.count && head < new.count && old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head && tail < new.count - head
            && old[old.count - 1 - tail] == new[new.count - 1 - tail]
        {
            tail += 1
        }
        let a = Array(old[head..<(old.count - tail)])
        let b = Array(new[head..<(new.count - tail)])
        guard (a.count + 1) * (b.count + 1) <= maximumCells else { return nil }
        // lengths[i][j]: the longest common subsequence of a[i...] and b[j...], in one flat array.
        let width = b.count + 1
        var lengths = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i * width + j] =
                    a[i] == b[j]
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var lines = old[..<head].map { Line.same($0) }
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] {
                lines.append(.same(a[i]))
                (i, j) = (i + 1, j + 1)
            } else if i < a.count && (j == b.count || lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
                // On a tie the removal comes first, as diff tools show a changed line: old, then new.
                lines.append(.removed(a[i]))
                i += 1
            } else {
                lines.append(.added(b[j]))
                j += 1
            }
        }
        lines += old[(old.count - tail)...].map { Line.same($0) }
        return trimmed(lines, context: context)
    }

    /// Keeps `context` unchanged lines around each change and replaces longer runs with `.skipped`.
    static func trimmed(_ lines: [Line], context: Int) -> [Line] {
        let changed = lines.indices.filter { if case .same = lines[$0] { false } else { true } }
        var keep = [Bool](repeating: false, count: lines.count)
        for index in changed {
            for near in max(0, index - context)...min(lines.count - 1, index + context) { keep[near] = true }
        }
        var out: [Line] = []
        var skipped = 0
        for (index, line) in lines.enumerated() {
            if keep[index] {
                if skipped > 0 { out.append(.skipped(skipped)) }
                skipped = 0
                out.append(line)
            } else {
                skipped += 1
            }
        }
        if skipped > 0 { out.append(.skipped(skipped)) }
        return out
    }
}
