import ArgumentParser
import LocationWire
import LocationWireSession

/// `locwire compact`: a batch's backlog from rows to the canonical columnar form.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Turn a LocationBatch's backlog from rows (fixes) into the compact columnar form (compact_fixes).",
        discussion: """
            The output is canonical (proto/README.md, the compact form): equal fixes always give equal bytes, and \
            `locwire expand` gives the rows back exactly. The live fix and everything else in the batch stay as \
            they are. A batch that is already compact is written again canonically.

            Refused, with the reason and exit status 1: a fix with unknown fields (columns cannot hold them; send \
            such a backlog as rows), a batch that has both rows and compact fixes, and input that is not a \
            LocationBatch.
            """
    )

    @OptionGroup var input: BatchInputOptions
    @OptionGroup var output: BatchOutputOptions

    func run() throws {
        let (batch, format) = try input.readBatch()
        let compacted = try BacklogForm.compact(batch, name: input.inputName)
        try output.write(compacted, inputFormat: format)
    }
}

/// `locwire expand`: a batch's compact backlog back to rows.
struct ExpandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand",
        abstract: "Turn a LocationBatch's compact backlog (compact_fixes) back into rows (fixes).",
        discussion: """
            Expansion follows the reconstruction rule of compact_fixes.proto exactly and loses nothing: \
            `locwire compact` of the result gives the canonical compact form back. A batch that has rows only is \
            written unchanged.

            Refused, with the reason and exit status 1: a compact column the schema does not know (field numbers \
            \(CompactFixes.futureColumns.lowerBound) to \(CompactFixes.futureColumns.upperBound) of CompactFixes; \
            a receiver answers HOLD with HOLD_REASON_UNKNOWN_COMPACT_COLUMN), a column that does not rebuild (the \
            compact-* validation codes), more than --limit fixes, and a batch with both rows and compact fixes.
            """
    )

    @OptionGroup var input: BatchInputOptions
    @OptionGroup var output: BatchOutputOptions

    @Option(help: "The most fixes to expand; a larger count is refused before anything is allocated.")
    var limit = CompactFixes.defaultFixLimit

    func run() throws {
        let (batch, format) = try input.readBatch()
        let expanded = try BacklogForm.expand(batch, name: input.inputName, limit: limit)
        try output.write(expanded, inputFormat: format)
    }
}

/// The two conversions, with the refusals the commands report.
enum BacklogForm {
    static func compact(_ batch: LocationBatch, name: String) throws -> LocationBatch {
        var result = try expand(batch, name: name, limit: CompactFixes.defaultFixLimit)
        do {
            result.compactFixes = try CompactFixes(fixes: result.fixes)
        } catch {
            throw InputRejected(message: "\(name): cannot compact: \(error)")
        }
        result.fixes = []
        return result
    }

    static func expand(_ batch: LocationBatch, name: String, limit: Int) throws -> LocationBatch {
        guard let compact = batch.compactFixes else { return batch }
        guard batch.fixes.isEmpty else {
            throw InputRejected(
                message: "\(name): rows-and-compact: the batch has both fixes and compact_fixes, which a batch "
                    + "never does; there is no one backlog to convert")
        }
        if let unknown = compact.unknownFields.fieldNumbers.first {
            // The numbers compact_fixes.proto reserves are columns of a later schema; anything else unknown is no
            // column at all. Rows can hold neither, so expanding would drop data.
            if CompactFixes.futureColumns.contains(unknown) {
                throw InputRejected(
                    message: "\(name): compact_fixes has column \(unknown), which this schema does not know; its "
                        + "values cannot be put in rows without loss (a server answers HOLD with "
                        + "HOLD_REASON_UNKNOWN_COMPACT_COLUMN)")
            }
            throw InputRejected(
                message: "\(name): compact_fixes carries an unknown field \(unknown) (or a known number with another "
                    + "wire type), which rows cannot carry; expanding would drop it")
        }
        var result = batch
        do {
            result.fixes = try compact.fixes(limit: limit)
        } catch {
            throw InputRejected(message: "\(name): compact_fixes does not expand: \(error)")
        }
        result.compactFixes = nil
        return result
    }
}
