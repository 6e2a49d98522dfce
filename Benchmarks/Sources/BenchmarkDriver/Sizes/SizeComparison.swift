import Foundation
import LocationWire
import LocationWireSimulation

/// Bytes per fix of LocationWire's two batch forms and of today's JSON formats, raw and gzipped, on the
/// fixture scenarios' traces and on a real GPX track.
struct SizeComparison {
    /// One input: a run of fixes and where it comes from.
    struct Input {
        let name: String
        let description: String
        let fixes: [LocationFix]
    }

    /// One encoding of one input.
    struct Entry: Codable {
        let input: String
        let encoding: String
        let fixes: Int
        let rawBytes: Int
        let gzipBytes: Int
        var rawPerFix: Double { Double(rawBytes) / Double(fixes) }
        var gzipPerFix: Double { Double(gzipBytes) / Double(fixes) }
    }

    static let encodings = [
        "LocationWire row batch", "LocationWire compact batch", "OwnTracks JSON, one message per fix",
        "Overland GeoJSON batch",
    ]

    /// The scenarios whose motion differs (offline-backlog and clock-jump are walks), 1000 fixes at 1 Hz each.
    static func scenarioInputs(fixes count: Int = 1000) -> [Input] {
        let scenarios: [TraceSimulator.Scenario] = [.walk, .run, .bike, .drive, .stationary, .urbanCanyon]
        return scenarios.map { scenario in
            Input(
                name: scenario.rawValue, description: "fixture scenario, \(count) fixes at 1 Hz",
                fixes: Workloads.batch(scenario, fixes: count, seed: 1).fixes)
        }
    }

    static func gpxInput(_ url: URL) throws -> Input {
        let track = try GPXTrack.read(url)
        guard !track.fixes.isEmpty else { throw BenchmarkError("\(url.path) has no track points with a time") }
        let intervals = zip(track.fixes.dropFirst(), track.fixes).map { Double($0.timeMs - $1.timeMs) / 1000 }.sorted()
        let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        return Input(
            name: url.lastPathComponent,
            description:
                "real GPX track: the \(track.fixes.count) track points that carry a time (\(track.pointsWithoutTime) "
                + "without one skipped), median interval \(Int(median)) s; position, elevation and time only",
            fixes: track.fixes)
    }

    /// Encodes every input every way and gzips each result (`gzip -6 -n`, what a web server does by default).
    /// OwnTracks messages travel one per request, so each is gzipped on its own; the batches are gzipped whole.
    static func measure(_ inputs: [Input]) throws -> [Entry] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-sizes-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // Write every payload as a file, gzip them all with one process, then read both sizes back.
        var files: [(input: String, encoding: String, fixes: Int, paths: [URL])] = []
        for (inputIndex, input) in inputs.enumerated() {
            var batch = Workloads.batch(.walk, fixes: 0, seed: 1)
            batch.fixes = input.fixes
            batch.sentAtMs = (input.fixes.last?.timeMs ?? 0) + 1500
            let payloads: [(String, [[UInt8]])] = [
                (encodings[0], [batch.serializedBytes()]),
                (encodings[1], [Workloads.compact(batch).serializedBytes()]),
                (encodings[2], input.fixes.map { Array(JSONStyles.ownTracksMessage($0).utf8) }),
                (encodings[3], [Array(JSONStyles.overlandBatch(input.fixes).utf8)]),
            ]
            for (encodingIndex, (encoding, messages)) in payloads.enumerated() {
                var paths: [URL] = []
                for (messageIndex, message) in messages.enumerated() {
                    let path = directory.appendingPathComponent("\(inputIndex)-\(encodingIndex)-\(messageIndex)")
                    try Data(message).write(to: path)
                    paths.append(path)
                }
                files.append((input.name, encoding, input.fixes.count, paths))
            }
        }
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-6", "-n", "-k", "-r", directory.path]
        try gzip.run()
        gzip.waitUntilExit()
        guard gzip.terminationStatus == 0 else {
            throw BenchmarkError("gzip failed with status \(gzip.terminationStatus)")
        }

        func size(_ url: URL) throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard let size = (attributes[.size] as? NSNumber)?.intValue else {
                throw BenchmarkError("no size for \(url.path)")
            }
            return size
        }
        return try files.map { file in
            var raw = 0
            var gzipped = 0
            for path in file.paths {
                raw += try size(path)
                gzipped += try size(path.appendingPathExtension("gz"))
            }
            return Entry(
                input: file.input, encoding: file.encoding, fixes: file.fixes, rawBytes: raw, gzipBytes: gzipped)
        }
    }
}
