import ArgumentParser
import Foundation
import LocationWire
import LocationWireValidation
import LocationWireInterchange
import LocationWireJSON

/// The files the behaviour commands read: traces, policies, region sets. Each error names the file and, where
/// the format knows it, the line, byte offset or field path; content that does not read is a rejection (exit 1),
/// a file that cannot be opened a usage error (exit 2).
enum BehaviorInput {
    /// How a trace file is written.
    enum TraceFormat: String, ExpressibleByArgument, CaseIterable {
        case auto, gpx, json, binpb
    }

    static func read(_ path: String) throws -> Data {
        Data(try readFile(path))
    }

    /// The fixes of a trace, in delivery order: a GPX track, or a LocationBatch (binary or proto3 JSON) whose
    /// backlog (rows or compact) and live fix are the trace. Fixes whose boot_id is 0 take the batch's, as
    /// `§item-boot` says.
    static func trace(_ path: String, format: TraceFormat = .auto, force: Bool = false) throws -> [LocationFix] {
        try traceAndEvents(path, format: format, force: force).fixes
    }

    /// Checks a trace's fixes against the spec's rules for a fix before a command replays or draws them (the
    /// batch around them, device id and the like, does not matter to a replay). A fix without a sequence number is
    /// numbered by its place, as GPX fixes are. Warnings are printed (the first few); errors refuse the trace (exit
    /// status 1) unless `force`, since an engine fed a fix dated 1901 or a latitude of 95 answers about input no
    /// device sends.
    static func check(_ fixes: [LocationFix], _ name: String, _ path: String, force: Bool) throws {
        var report = ValidationReport()
        for (index, fix) in fixes.enumerated() {
            var numbered = fix
            if numbered.sequence == 0 { numbered.sequence = UInt64(index + 1) }
            numbered.validate(into: &report, at: FieldPath(message: name).appending(index: index))
        }
        try enforce(report, on: "the trace", path, force: force)
    }

    /// Prints a report's warnings (the first few) and refuses the input (exit status 1) for its errors, unless
    /// `force`, which prints them instead: `what` names the input in the refusal ("the trace", "the catalogue").
    static func enforce(_ report: ValidationReport, on what: String, _ path: String, force: Bool) throws {
        let shown = 5
        for violation in report.warnings.prefix(shown) { printToStandardError("locwire: \(path): \(violation)") }
        if report.warnings.count > shown {
            printToStandardError("locwire: \(path): ... \(report.warnings.count - shown) more warnings")
        }
        let errors = report.errors
        guard !errors.isEmpty else { return }
        if force {
            for violation in errors.prefix(shown) { printToStandardError("locwire: \(path): \(violation) (--force)") }
            return
        }
        throw InputRejected(
            message: "\(path): \(what) breaks \(errors.count) rule\(errors.count == 1 ? "" : "s") of the spec; "
                + "the first: \(errors[0])\n(--force runs it anyway)")
    }

    /// The fixes of a trace as ``trace(_:format:)`` reads them, a LocationBatch's fence events (none for GPX), and
    /// the lifecycle events that break it into recording segments (a GPX file's from its `trkseg`s).
    static func traceAndEvents(
        _ path: String, format: TraceFormat = .auto, force: Bool = false
    ) throws -> (fixes: [LocationFix], fenceEvents: [FenceEvent], lifecycleEvents: [LifecycleEvent]) {
        let data = try read(path)
        switch format == .auto ? guess(path, data) : format {
        case .gpx:
            do {
                let trace = try GPXTrace(data: data)
                if trace.untimedPoints > 0 {
                    printToStandardError(
                        "locwire: \(path): \(trace.untimedPoints) track points have no <time> and are left out")
                }
                guard !trace.fixes.isEmpty else {
                    throw InputRejected(message: "\(path): no timed track points (<trkpt> with <time>)")
                }
                try check(trace.fixes, "trkpt", path, force: force)
                return (trace.fixes, [], trace.lifecycleEvents)
            } catch let error as GPXTrace.ReadError {
                throw InputRejected(message: "\(path): \(error)")
            }
        case .json, .binpb, .auto:
            let batch: LocationBatch = try message(path, data, format == .binpb ? .binpb : nil)
            do {
                let fixes = try BatchAssembly.fixes(of: batch)
                try check(fixes, "fixes", path, force: force)
                return (fixes, batch.fenceEvents, batch.lifecycleEvents)
            } catch {
                throw InputRejected(message: "\(path): LocationBatch.\(error)")
            }
        }
    }

    /// A message from a file in proto3 JSON or binary: `format`, or JSON when the file starts with `{`.
    static func message<Message: LocationWireMessage>(
        _ path: String, _ data: Data, _ format: WireFormatOption? = nil
    ) throws -> Message {
        let bytes = [UInt8](data)
        let isJSON = format.map { $0 == .json } ?? (bytes.first { !$0.isWhitespace } == UInt8(ascii: "{"))
        do {
            if isJSON { return try Message(jsonString: String(decoding: bytes, as: UTF8.self)) }
            return try Message(serializedBytes: bytes)
        } catch let error as JSONError {
            throw InputRejected(message: "\(path): not a \(Message.messageName) in proto3 JSON: \(error)")
        } catch let error as DecodingError {
            throw InputRejected(message: "\(path): not a \(Message.messageName) in protobuf binary: \(error)")
        }
    }

    static func message<Message: LocationWireMessage>(_ path: String) throws -> Message {
        try message(path, try read(path))
    }

    private static func guess(_ path: String, _ data: Data) -> TraceFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".binpb") || lower.hasSuffix(".pb") { return .binpb }
        switch data.first(where: { !$0.isWhitespace }) {
        case UInt8(ascii: "<"): return .gpx
        case UInt8(ascii: "{"): return .json
        default: return .binpb
        }
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

/// Writes JSON made of Foundation values, keys sorted, for the behaviour commands' reports.
func jsonReport(_ object: Any) -> String {
    guard
        let data = try? JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
        let text = String(data: data, encoding: .utf8)
    else { return "{}\n" }
    return text + "\n"
}

/// A message's proto3 JSON as a Foundation value, to embed in a report.
func jsonObject<Message: LocationWireMessage>(_ message: Message) -> Any {
    (try? JSONSerialization.jsonObject(with: Data(message.jsonString().utf8))) ?? [:]
}
