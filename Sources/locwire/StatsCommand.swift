import ArgumentParser
import Foundation
import LocationWire
import LocationWireInterchange

/// `locwire stats`: what a batch holds and what it costs on the wire.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Report a LocationBatch's fixes, time span, distance, gaps, accuracy and speed, and bytes per fix.",
        discussion: """
            Fixes are the backlog (rows or compact) and the live fix, in batch order. Distance sums the \
            great-circle distances between consecutive fixes with a position, on the spec's sphere, within each \
            recording segment: a LAUNCHED, RELAUNCHED_BY_SYSTEM or DEVICE_REBOOTED lifecycle event starts a \
            segment and TERMINATED ends one (proto/README.md, trace segments; import writes them for GPX \
            trkseg, GeoJSON lines), and segments are listed with their own distance. A gap is an \
            interval between consecutive fixes longer than --gap-seconds. Distributions give nearest-rank \
            percentiles. Sizes are of the whole batch with its backlog as rows and as canonical compact fixes, \
            and gzipped (zlib, level 6); per-fix figures divide by every fix.

            To measure a GPX, OwnTracks, Overland or CSV file, import it first: locwire import track.gpx \
            --device-id d1 | locwire stats
            """
    )

    @OptionGroup var input: BatchInputOptions

    @Option(help: "An interval longer than this many seconds is a gap.")
    var gapSeconds: Double = 60

    @Option(help: "The most gaps to list, longest first (all are counted).")
    var gapsListed = 10

    @Option(help: "Output format: text or json.")
    var format: StatsFormat = .text

    @Option(help: ArgumentHelp("Write the report here instead of standard output.", valueName: "file"))
    var output: String?

    enum StatsFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        guard gapSeconds > 0, gapSeconds.isFinite, gapSeconds < 1e12 else {
            throw ValidationError("--gap-seconds must be a positive number of seconds")
        }
        guard gapsListed >= 0 else { throw ValidationError("--gaps-listed must be 0 or more") }
    }

    func run() throws {
        let (batch, _) = try input.readBatch()
        let statistics: TrackStatistics
        do {
            statistics = try TrackStatistics(batch: batch, gapThresholdMs: Int64((gapSeconds * 1000).rounded()))
        } catch {
            throw InputRejected(message: "\(input.inputName): compact_fixes does not expand: \(error)")
        }
        switch format {
        case .text: try writeText(StatsReport.text(statistics, gapsListed: gapsListed), toFile: output)
        case .json: try writeText(jsonReport(StatsReport.json(statistics, gapsListed: gapsListed)), toFile: output)
        }
    }
}

/// The two renderings of ``TrackStatistics``; JSON names carry their units.
enum StatsReport {
    /// The most segments the text lists (the JSON lists every one).
    static let segmentsListed = 20

    static func text(_ statistics: TrackStatistics, gapsListed: Int) -> String {
        var lines: [String] = []
        lines.append("fixes            \(statistics.fixes) (\(statistics.positionedFixes) with a position)")
        if let first = statistics.firstTimeMs, let last = statistics.lastTimeMs {
            lines.append(
                "time             \(timestamp(first)) to \(timestamp(last)) (\(duration(statistics.spanMs)))")
        }
        lines.append("distance         \(String(format: "%.1f", statistics.distanceM)) m")
        if statistics.segments.count > 1 {
            lines.append(
                "segments         \(statistics.segments.count) (recording stopped and started again; no distance "
                    + "across them)")
            for segment in statistics.segments.prefix(segmentsListed) {
                lines.append(
                    "                   \(segment.fixes) fixes from fix \(segment.firstFixIndex), "
                        + "\(String(format: "%.1f", segment.distanceM)) m, \(timestamp(segment.firstTimeMs)) to "
                        + "\(timestamp(segment.lastTimeMs))")
            }
            if statistics.segments.count > segmentsListed {
                lines.append("                   ... \(statistics.segments.count - segmentsListed) more")
            }
        }
        if let interval = statistics.intervalMs {
            lines.append(
                "interval         median \(duration(Int64(interval.p50))), p90 \(duration(Int64(interval.p90))), "
                    + "max \(duration(Int64(interval.maximum)))")
        }
        if statistics.backwardSteps > 0 {
            lines.append("backward steps   \(statistics.backwardSteps) (time_ms goes back between consecutive fixes)")
        }
        lines.append(
            "gaps             \(statistics.gaps.count) longer than \(duration(statistics.gapThresholdMs))"
                + (statistics.gaps.isEmpty ? "" : ", longest \(duration(statistics.gaps[0].durationMs))"))
        for gap in statistics.gaps.prefix(gapsListed) {
            lines.append(
                "                   \(duration(gap.durationMs)) before fix \(gap.afterFixIndex), "
                    + "\(timestamp(gap.fromTimeMs)) to \(timestamp(gap.toTimeMs))")
        }
        lines.append("accuracy (m)     " + distribution(statistics.horizontalAccuracyM))
        lines.append("speed (m/s)      " + distribution(statistics.speedMS))
        let sizes = statistics.encoding
        let count = max(statistics.fixes, 1)
        func perFix(_ bytes: Int) -> String { String(format: "%.2f", Double(bytes) / Double(count)) }
        lines.append("bytes            form       batch    per fix  gzipped  per fix")
        lines.append(
            "                 rows   \(pad(sizes.rowBytes, 9)) \(pad(perFix(sizes.rowBytes), 10)) "
                + "\(pad(sizes.rowGzipBytes, 8)) \(pad(perFix(sizes.rowGzipBytes), 8))")
        if let compact = sizes.compactBytes, let compactGzip = sizes.compactGzipBytes {
            lines.append(
                "                 compact\(pad(compact, 9)) \(pad(perFix(compact), 10)) "
                    + "\(pad(compactGzip, 8)) \(pad(perFix(compactGzip), 8))")
        } else {
            lines.append("                 compact  cannot be made: \(sizes.compactRefusal ?? "?")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ statistics: TrackStatistics, gapsListed: Int) -> [String: Any] {
        var object: [String: Any] = [
            "fixes": statistics.fixes,
            "positionedFixes": statistics.positionedFixes,
            "spanMs": statistics.spanMs,
            "distanceM": (statistics.distanceM * 10).rounded() / 10,
            "segments": statistics.segments.map {
                [
                    "firstFixIndex": $0.firstFixIndex, "fixes": $0.fixes, "firstTimeMs": $0.firstTimeMs,
                    "lastTimeMs": $0.lastTimeMs, "distanceM": ($0.distanceM * 10).rounded() / 10,
                ] as [String: Any]
            },
            "backwardSteps": statistics.backwardSteps,
            "gapThresholdMs": statistics.gapThresholdMs,
            "gapCount": statistics.gaps.count,
            "gaps": statistics.gaps.prefix(gapsListed).map {
                [
                    "afterFixIndex": $0.afterFixIndex, "fromTimeMs": $0.fromTimeMs, "toTimeMs": $0.toTimeMs,
                    "durationMs": $0.durationMs,
                ]
            },
        ]
        if let first = statistics.firstTimeMs, let last = statistics.lastTimeMs {
            object["firstTimeMs"] = first
            object["lastTimeMs"] = last
        }
        if let interval = statistics.intervalMs { object["intervalMs"] = json(interval) }
        if let accuracy = statistics.horizontalAccuracyM { object["horizontalAccuracyM"] = json(accuracy) }
        if let speed = statistics.speedMS { object["speedMS"] = json(speed) }
        let sizes = statistics.encoding
        var encoding: [String: Any] = ["rowBytes": sizes.rowBytes, "rowGzipBytes": sizes.rowGzipBytes]
        if let compact = sizes.compactBytes { encoding["compactBytes"] = compact }
        if let compactGzip = sizes.compactGzipBytes { encoding["compactGzipBytes"] = compactGzip }
        if let refusal = sizes.compactRefusal { encoding["compactRefusal"] = refusal }
        object["encoding"] = encoding
        return object
    }

    private static func json(_ distribution: TrackStatistics.Distribution) -> [String: Any] {
        [
            "count": distribution.count, "min": distribution.minimum, "p50": distribution.p50,
            "p90": distribution.p90, "p99": distribution.p99, "max": distribution.maximum,
            "mean": (distribution.mean * 1000).rounded() / 1000,
        ]
    }

    private static func distribution(_ distribution: TrackStatistics.Distribution?) -> String {
        guard let distribution else { return "none reported" }
        func number(_ value: Double) -> String { String(format: "%g", value) }
        return "min \(number(distribution.minimum)), median \(number(distribution.p50)), "
            + "p90 \(number(distribution.p90)), p99 \(number(distribution.p99)), max \(number(distribution.maximum)) "
            + "(\(distribution.count) fixes)"
    }

    private static func timestamp(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    private static func duration(_ milliseconds: Int64) -> String {
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let seconds = Double(milliseconds) / 1000
        if seconds < 120 { return String(format: "%g s", (seconds * 10).rounded() / 10) }
        let whole = Int64(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole % 3600 / 60, whole % 60)
        return hours > 0 ? "\(hours) h \(minutes) min \(rest) s" : "\(minutes) min \(rest) s"
    }

    private static func pad(_ value: some CustomStringConvertible, _ width: Int) -> String {
        let text = value.description
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
