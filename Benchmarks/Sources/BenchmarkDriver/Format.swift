import Foundation

/// Number formatting for RESULTS.md: three significant figures, units chosen to keep numbers short.
enum Format {
    static func significant(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let magnitude = abs(value)
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// A duration given in nanoseconds.
    static func nanoseconds(_ value: Double) -> String {
        if value >= 1e6 { return significant(value / 1e6) + " ms" }
        if value >= 1e3 { return significant(value / 1e3) + " µs" }
        return significant(value) + " ns"
    }

    static func ratioValue(_ value: Double) -> String { significant(value) + "×" }

    /// "1.23× (1.10–1.35)": the median of the paired ratios and its 95 % bootstrap interval; with the peer's
    /// operation when asked ("against decode-arena-block").
    static func ratio(_ ratio: Ratio, showOperation: Bool = false) -> String {
        var text = "\(ratioValue(ratio.median)) (\(significant(ratio.low))–\(significant(ratio.high)))"
        if showOperation, ratio.numeratorOperation != "decode", ratio.numeratorOperation != "encode",
            OperationKind(ratio.numeratorOperation) == .decode || OperationKind(ratio.numeratorOperation) == .encode
        {
            text += " `\(ratio.numeratorOperation)`"
        }
        return text
    }

    static func millions(_ value: Double) -> String { significant(value / 1e6) }

    static func percent(_ fraction: Double) -> String { String(format: "%.0f %%", fraction * 100) }

    static func allocations(_ value: Double?) -> String {
        guard let value else { return "–" }
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// Bytes per operation: "1.2 KB", "840 B"; "–" when not measured.
    static func bytes(_ value: Double?) -> String {
        guard let value else { return "–" }
        if value >= 1e6 { return significant(value / 1e6) + " MB" }
        if value >= 1e3 { return significant(value / 1e3) + " KB" }
        return significant(value) + " B"
    }

    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "-" : ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
