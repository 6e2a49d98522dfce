import Foundation
import LocationWire

/// The formats `locwire import` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    case gpx, geojson, owntracks, overland, csv, takeout, kml, tcx

    /// The fixes of `data` (not yet sequenced: see ``BatchAssembly``) and what became of each point. Throws
    /// ``InterchangeError`` for a file that is not the format (naming the line or element, the format it was read
    /// as, and the format it looks like when that is another), and with ``ImportOptions/strict`` for the first
    /// point that cannot be imported.
    public func read(
        _ data: Data, options: ImportOptions = ImportOptions()
    ) throws(InterchangeError) -> (fixes: [LocationFix], summary: ImportSummary) {
        let converter = try reading(ImportInput(data), options: options)
        return (converter.fixes, converter.summary)
    }

    /// The converter after reading all of `input`.
    private func reading(_ input: ImportInput, options: ImportOptions) throws(InterchangeError) -> PointConverter {
        var converter = PointConverter(options: options)
        do {
            switch self {
            case .gpx: try GPXFormat.read(input, &converter)
            case .geojson: try GeoJSONFormat.read(input, &converter)
            case .owntracks: try OwnTracksFormat.read(input, &converter)
            case .overland: try OverlandFormat.read(input, &converter)
            case .csv: try CSVFormat.read(input, &converter)
            case .takeout: try TakeoutFormat.read(input, &converter)
            case .kml: try KMLFormat.read(input, &converter)
            case .tcx: try TCXFormat.read(input, &converter)
            }
        } catch  where !error.refusedByStrict {
            throw explained(error, input.prefix(FormatDetection.prefixBytes))
        }
        return converter
    }

    /// `error` with the format it was read as and, when the content (its start, `head`) looks like another
    /// format, that one.
    private func explained(_ error: InterchangeError, _ head: Data) -> InterchangeError {
        var explained = error
        explained.message = "not valid \(displayName) (read as --from \(rawValue)): \(error.message)"
        if let likely = FormatDetection.detect(head), likely.format != self {
            explained.message +=
                "; the content looks like \(likely.format.displayName) (\(likely.evidence)): "
                + "try --from \(likely.format.rawValue)"
        }
        return explained
    }

    /// The format's name in messages.
    public var displayName: String {
        switch self {
        case .gpx: "GPX"
        case .geojson: "GeoJSON"
        case .owntracks: "OwnTracks"
        case .overland: "Overland"
        case .csv: "CSV"
        case .takeout: "Google Takeout"
        case .kml: "KML"
        case .tcx: "TCX"
        }
    }

    /// Reads `data` and builds the one batch, with the summary completed by the ordering counts. A file of
    /// several devices is refused (`importBatches(_:deviceId:installId:options:splitBy:)` splits it).
    public func importBatch(
        _ data: Data, deviceId: String, installId: UInt64? = nil, options: ImportOptions = ImportOptions()
    ) throws(InterchangeError) -> (batch: LocationBatch, summary: ImportSummary) {
        let (batches, summary) = try importBatches(data, deviceId: deviceId, installId: installId, options: options)
        return (batches[0].batch, summary)
    }

    /// Reads `data` and builds its batches, split as asked (see ``BatchAssembly``), with the summary completed by
    /// the ordering counts.
    public func importBatches(
        _ data: Data, deviceId: String, installId: UInt64? = nil, options: ImportOptions = ImportOptions(),
        splitBy: SplitBy = .none
    ) throws(InterchangeError) -> (batches: [ImportedBatch], summary: ImportSummary) {
        try importBatches(
            ImportInput(data), deviceId: deviceId, installId: installId, options: options, splitBy: splitBy)
    }

    /// `importBatches(_:deviceId:installId:options:splitBy:)` of a file or other input.
    public func importBatches(
        _ input: ImportInput, deviceId: String, installId: UInt64? = nil, options: ImportOptions = ImportOptions(),
        splitBy: SplitBy = .none
    ) throws(InterchangeError) -> (batches: [ImportedBatch], summary: ImportSummary) {
        let imported = try importFile(
            input, deviceId: deviceId, installId: installId, options: options, splitBy: splitBy)
        return (imported.batches, imported.summary)
    }

    /// What an import made: the batches, the summary, and the waypoints and route points kept on request
    /// (``ImportOptions/keep``).
    public struct Imported {
        /// In time order; empty only when the file had no fix but marked points were kept.
        public var batches: [ImportedBatch]
        public var summary: ImportSummary
        /// In file order.
        public var marked: [MarkedPoint]
    }

    /// Reads `input` and builds its batches, split as asked, and keeps the marked points asked for. A file with no
    /// point that can be imported is refused, unless marked points were kept from it.
    public func importFile(
        _ input: ImportInput, deviceId: String, installId: UInt64? = nil, options: ImportOptions = ImportOptions(),
        splitBy: SplitBy = .none
    ) throws(InterchangeError) -> Imported {
        var converter = try reading(input, options: options)
        if converter.fixes.isEmpty && !converter.marked.isEmpty {
            return Imported(batches: [], summary: converter.summary, marked: converter.marked)
        }
        guard !converter.fixes.isEmpty else {
            var message = "no point could be imported"
            if let likely = FormatDetection.detect(input.prefix(FormatDetection.prefixBytes)), likely.format != self {
                message +=
                    " as \(displayName); the content looks like \(likely.format.displayName) "
                    + "(\(likely.evidence)): try --from \(likely.format.rawValue)"
            }
            throw InterchangeError("", "\(message)\n\(converter.summary.text)")
        }
        let (fixes, origins) = converter.takeFixes()
        let (batches, outOfOrder, sameTime) = try BatchAssembly.batches(
            fixes, origins: origins, deviceId: deviceId, installId: installId,
            elapsedFromTime: options.elapsedFromTime, splitBy: splitBy, timeZone: options.timeZone)
        converter.noteOrdering(outOfOrder: outOfOrder, sameTime: sameTime)
        return Imported(batches: batches, summary: converter.summary, marked: converter.marked)
    }
}

/// The formats `locwire export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    case geojson, gpx, owntracks, overland, csv
    /// The OwnTracks Recorder's `.rec` lines.
    case owntracksRec = "owntracks-rec"

    /// Every fix of `batch` (backlog rows or compact, then the live fix) in this format, written to `sink` as it
    /// goes. Throws ``InterchangeError`` for a fix without a position, which no format can hold (before anything
    /// is written), and what the sink throws.
    public func write(_ batch: LocationBatch, to sink: any TextSink) throws {
        let fixes = try BatchAssembly.exportedFixes(of: batch)
        // Every format needs a position; writing (0, 0) for a missing one would invent a place.
        if let index = fixes.firstIndex(where: { $0.latitudeE7 == nil || $0.longitudeE7 == nil }) {
            throw InterchangeError("fix \(index + 1) of \(fixes.count)", "has no latitude and longitude to write")
        }
        switch self {
        case .geojson: try GeoJSONFormat.write(fixes, to: sink)
        case .gpx:
            try GPXFormat.write(
                fixes, name: batch.deviceId,
                breaks: TraceSegments.breaks(times: fixes.map(\.timeMs), lifecycleEvents: batch.lifecycleEvents),
                to: sink)
        case .owntracks: try OwnTracksFormat.write(fixes, to: sink)
        case .owntracksRec: try OwnTracksFormat.writeRecorder(fixes, to: sink)
        case .overland: try OverlandFormat.write(fixes, deviceId: batch.deviceId, to: sink)
        case .csv: try CSVFormat.write(fixes, to: sink)
        }
    }

    /// The whole export in memory.
    public func write(_ batch: LocationBatch) throws(InterchangeError) -> Data {
        let sink = MemorySink()
        do {
            try write(batch, to: sink)
        } catch let error as InterchangeError {
            throw error
        } catch {
            // A MemorySink does not fail.
            throw InterchangeError("", "\(error)")
        }
        return sink.data
    }
}
