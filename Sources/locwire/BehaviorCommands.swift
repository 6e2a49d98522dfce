import ArgumentParser
import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireCatalogues
import LocationWireJSON

/// `locwire simulate record`: a trace through the recording engine and upload timer of proto/BEHAVIOR.md.
struct SimulateRecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Replay a trace through the recording rules: which fixes a phone records, why, and when it uploads.",
        discussion: """
            The trace is the fixes an OS would deliver: a GPX track (every timed track point; GPX has no accuracy \
            or monotonic clock, so each fix gets 5 m, or hdop × 5 m, and a clock that follows the GPX times), or a \
            LocationBatch in protobuf binary or proto3 JSON (backlog and live fix). The policy is a TrackingPolicy \
            in JSON or binary; without one, the default policy. The rules are proto/BEHAVIOR.md's "Recording" and \
            "Upload scheduling".

            Output (JSON): every fix recorded with its reason and position, every fix dropped with its stage's \
            code, every upload attempt, and counts. With --format binpb: a LocationBatch holding the recorded \
            fixes (sequence 1, 2, ... and their reasons), ready for `locwire validate` or a server.

            Exit status: 0 done, 1 a file does not read (the error names the file and the line or field), 2 usage.
            """)

    @OptionGroup var input: TraceReplayOptions

    func run() throws {
        let (fixes, policy) = try input.load()
        let run = RecordingRun(policy: policy, fixes: fixes)
        switch input.format {
        case .binpb:
            var batch = LocationBatch()
            batch.fixes = run.recorded.enumerated().map { place, recorded in
                var fix = fixes[recorded.index]
                fix.sequence = UInt64(place + 1)
                fix.reason = recorded.reason
                return fix
            }
            try input.write(batch)
        case .json:
            try writeText(jsonReport(report(run, fixes)), toFile: input.output)
        }
    }

    func report(_ run: RecordingRun, _ fixes: [LocationFix]) -> [String: Any] {
        var byReason: [String: Int] = [:]
        let recorded: [[String: Any]] = run.recorded.map { recorded in
            let fix = fixes[recorded.index]
            let reason = recorded.reason.name ?? String(recorded.reason.rawValue)
            byReason[reason, default: 0] += 1
            return [
                "index": recorded.index, "reason": reason, "timeMs": fix.timeMs,
                "elapsedRealtimeMs": fix.elapsedRealtimeMs ?? 0, "latitudeE7": fix.latitudeE7 ?? 0,
                "longitudeE7": fix.longitudeE7 ?? 0,
            ]
        }
        var byCode: [String: Int] = [:]
        let dropped: [[String: Any]] = run.dropped.map {
            byCode[$0.code.rawValue, default: 0] += 1
            return ["index": $0.index, "code": $0.code.rawValue]
        }
        let uploads: [[String: Any]] = run.uploads.map {
            [
                "bootId": String($0.bootId), "elapsedRealtimeMs": $0.elapsedMs, "recorded": $0.recorded,
                "succeeded": $0.succeeded,
            ]
        }
        return [
            "trace": input.trace, "policy": input.policy ?? "default", "delivered": fixes.count, "recorded": recorded,
            "dropped": dropped, "uploads": uploads,
            "summary": [
                "recorded": run.recorded.count, "recordedByReason": byReason, "dropped": run.dropped.count,
                "droppedByCode": byCode, "uploads": run.uploads.count,
            ],
        ]
    }
}

/// `locwire simulate fences`: a trace through the fence engine of proto/BEHAVIOR.md.
struct SimulateFencesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fences",
        abstract: "Replay a trace against regions: the enter, exit, dwell and state events a phone reports.",
        discussion: """
            The trace is read as `simulate record` reads it. The regions are a RegionAssignment (JSON or binary) or \
            a GeoJSON catalogue (README.md, "Region catalogues in GeoJSON"), all armed at the start; an assignment \
            with monitoring_enabled false arms none, and one with expires_at_ms disarms them all then, silently. \
            The policy's fence fields apply (fence_hysteresis_m, fence_confirm_ms, \
            fence_max_accuracy_cm; defaults 200 m, 20 s, 100 m). The rules are proto/BEHAVIOR.md's "Fences".

            Output (JSON): every FenceEvent in proto3 JSON, in order, and counts. With --format binpb: a \
            LocationBatch holding the events as fence_events.

            Exit status: 0 done, 1 a file does not read (the error names the file and the line or field), 2 usage.
            """)

    @OptionGroup var input: TraceReplayOptions

    @Option(
        help: ArgumentHelp(
            "The regions: a RegionAssignment (JSON or binary) or a GeoJSON catalogue.", valueName: "file"))
    var regions: String

    func run() throws {
        let (fixes, policy) = try input.load()
        // The catalogue reader checks every region has an id, a centre and a radius, and names the one that does not.
        let catalogue = try RegionCatalogueFile.read(regions)
        let assignment = try? RegionCatalogueFile.readAssignment(regions)
        // `§fence-assignment`: an assignment's monitoring switch and expiry hold for every region it arms.
        let armed = assignment.map { FenceEngine.regions(catalogue, armedBy: $0) } ?? catalogue
        var engine = FenceEngine(policy: policy, assignmentVersion: assignment?.assignmentVersion ?? 0)
        engine.arm(armed)
        var events: [FenceEvent] = []
        for fix in fixes { engine.evaluate(fix, into: &events) }
        switch input.format {
        case .binpb:
            var batch = LocationBatch()
            batch.fenceEvents = events
            try input.write(batch)
        case .json:
            var byKind: [String: Int] = [:]
            for event in events { byKind[event.kind.name ?? String(event.kind.rawValue), default: 0] += 1 }
            let report: [String: Any] = [
                "trace": input.trace, "regions": regions, "armed": armed.count, "delivered": fixes.count,
                "events": events.map { jsonObject($0) },
                "summary": ["events": events.count, "byKind": byKind],
            ]
            try writeText(jsonReport(report), toFile: input.output)
        }
    }
}

/// The options both replays share: the trace, the policy, and where and how the result goes.
struct TraceReplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The trace: GPX, or a LocationBatch (.json or binary).", valueName: "file"))
    var trace: String

    @Option(
        help: ArgumentHelp("How the trace is written (default: from the name, then the content).", valueName: "format"))
    var traceFormat: BehaviorInput.TraceFormat = .auto

    @Option(help: ArgumentHelp("A TrackingPolicy, JSON or binary; the default policy when absent.", valueName: "file"))
    var policy: String?

    @Flag(help: "Replay a trace that breaks the spec's rules (its violations are printed as warnings).")
    var force = false

    @Option(help: ArgumentHelp("json (default), or binpb: the result as a LocationBatch.", valueName: "format"))
    var format: WireFormatOption = .json

    @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of standard output.", valueName: "file"))
    var output: String?

    /// The trace's fixes and the policy.
    func load() throws -> ([LocationFix], TrackingPolicy) {
        let fixes = try BehaviorInput.trace(trace, format: traceFormat, force: force)
        let policy: TrackingPolicy = try self.policy.map { try BehaviorInput.message($0) } ?? TrackingPolicy()
        return (fixes, policy)
    }

    /// Writes a batch in protobuf binary to the output file or standard output.
    func write(_ batch: LocationBatch) throws {
        let bytes = batch.serializedBytes()
        try writeOutput(bytes, toFile: output)
    }
}
