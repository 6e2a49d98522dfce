import ArgumentParser
import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireRandom

/// `locwire-bench engines`: the fence engine and the recording engine of proto/BEHAVIOR.md on long synthetic
/// traces, and the fence engine against the independent Python implementation
/// (conformance/testees/python-behavior) on the same request, in the same run.
struct Engines: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the fence and recording engines (and the Python fence engine on the same trace).",
        discussion: """
            Build first: swift build -c release --package-path Benchmarks. Then, from the checkout:
            Benchmarks/.build/release/locwire-bench engines [--fixes 100000] [--rounds 7] [--python-fixes 5000]
            The fence trace is a 100,000-fix drive and walk through a town with 20 armed regions (10 circles, 10
            polygons of 50 vertices) placed along it; a check is one fix against one armed region. The recording
            trace is 2,000,000 fixes of driving, walking and standing under the default policy. Prints a Markdown
            table (and writes it to --output when given).
            """)

    @Option(help: "Fixes in the fence trace.")
    var fixes = 100_000
    @Option(help: "Fixes in the recording trace.")
    var recordingFixes = 2_000_000
    @Option(help: "Timed rounds of each engine; the median counts.")
    var rounds = 7
    @Option(help: "Fixes of the fence trace given to the Python engine (0: skip it); it runs at a few µs a check.")
    var pythonFixes = 5_000
    @Option(help: "The repository root, to find the Python implementation.")
    var root = "."
    @Option(help: "Also write the table to this file.")
    var output: String?

    func run() throws {
        var lines = [
            "| engine | workload | median time | throughput | per item |", "|---|---|---:|---:|---:|",
        ]
        let (policy, regions, trace) = EngineWorkloads.fenceWorkload(fixes: fixes)
        var fenceTimes: [Double] = []
        var events = 0
        for _ in 0..<rounds {
            var engine = FenceEngine(policy: policy)
            engine.arm(regions)
            var found: [FenceEvent] = []
            found.reserveCapacity(1_024)
            let start = Clock.nanoseconds()
            // Through a buffer pointer: iterating the array would copy each LocationFix out of it, which is the
            // harness's cost, not the engine's.
            trace.withUnsafeBufferPointer { fixes in
                for index in fixes.indices { engine.evaluate(fixes[index], into: &found) }
            }
            fenceTimes.append(Double(Clock.nanoseconds() - start))
            events = found.count
        }
        let fenceMedian = fenceTimes.sorted()[fenceTimes.count / 2]
        let checks = Double(trace.count * regions.count)
        lines.append(
            "| fence engine (Swift) | \(trace.count) fixes × \(regions.count) regions (10 polygons of 50 vertices), \(events) events | \(Format.nanoseconds(fenceMedian)) | \(String(format: "%.1f", checks / fenceMedian * 1e3)) M checks/s | \(Format.nanoseconds(fenceMedian / checks)) a check |"
        )
        if pythonFixes > 0 {
            let python = try pythonFences(policy: policy, regions: regions, trace: Array(trace.prefix(pythonFixes)))
            let pythonChecks = Double(min(pythonFixes, trace.count) * regions.count)
            let perCheck = python / pythonChecks
            lines.append(
                "| fence engine (Python, python-behavior) | first \(min(pythonFixes, trace.count)) fixes of the same trace | \(Format.nanoseconds(python)) | \(String(format: "%.2f", pythonChecks / python * 1e3)) M checks/s | \(Format.nanoseconds(perCheck)) a check (\(String(format: "%.0f", perCheck / (fenceMedian / checks)))× the Swift engine's) |"
            )
        }
        let recording = EngineWorkloads.recordingTrace(fixes: recordingFixes)
        var recordingTimes: [Double] = []
        var recorded = 0
        for _ in 0..<rounds {
            var engine = RecordingEngine(policy: TrackingPolicy())
            var sink = CountingSink()
            let start = Clock.nanoseconds()
            recording.withUnsafeBufferPointer { fixes in
                for index in fixes.indices { engine.deliver(fixes[index], index: index, to: &sink) }
            }
            engine.finish(to: &sink)
            recordingTimes.append(Double(Clock.nanoseconds() - start))
            recorded = sink.recorded
        }
        let recordingMedian = recordingTimes.sorted()[recordingTimes.count / 2]
        lines.append(
            "| recording engine (Swift) | \(recording.count) fixes, default policy, \(recorded) recorded | \(Format.nanoseconds(recordingMedian)) | \(String(format: "%.1f", Double(recording.count) / recordingMedian * 1e3)) M fixes/s | \(Format.nanoseconds(recordingMedian / Double(recording.count))) a fix |"
        )
        let table = lines.joined(separator: "\n") + "\n"
        print(table, terminator: "")
        if let output { try table.write(toFile: output, atomically: true, encoding: .utf8) }
    }

    /// Runs conformance/testees/python-behavior's fence engine on the same request and returns its time, ns.
    func pythonFences(policy: TrackingPolicy, regions: [Region], trace: [LocationFix]) throws -> Double {
        let script = URL(fileURLWithPath: root).appendingPathComponent(
            "conformance/testees/python-behavior/bench_fences.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw ValidationError("\(script.path) not found: run from the checkout or pass --root")
        }
        var request = FenceRequest()
        request.policy = policy
        request.regions = regions
        request.steps = trace.map { FenceStep(.fix($0)) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fence-request-\(getpid()).binpb")
        try Data(request.serializedBytes()).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, file.path, String(rounds)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            let nanoseconds = Double(text)
        else { throw ValidationError("bench_fences.py failed (status \(process.terminationStatus))") }
        return nanoseconds
    }
}

/// Counts decisions; a sink that costs nothing, so the benchmark measures the engine.
struct CountingSink: RecordingSink {
    var recorded = 0
    var dropped = 0
    mutating func receive(_ decision: RecordingDecision) {
        if case .recorded = decision { recorded += 1 } else { dropped += 1 }
    }
}

/// The benchmark's synthetic traces and regions, seeded.
enum EngineWorkloads {
    static let start: Int64 = 1_772_352_000_000

    /// A drive and walk through a town (about 45.38° N): legs of 30 to 300 fixes at 1 to 20 m/s, one fix a
    /// second, with 3 to 30 m accuracies and stops.
    static func town(fixes count: Int, seed: UInt64) -> [LocationFix] {
        var random = SeededRandom(seed: seed)
        var latitude = 45.38
        var longitude = 14.145
        var fixes: [LocationFix] = []
        fixes.reserveCapacity(count)
        var elapsed: UInt64 = 10_000_000
        var bearing = 0.0
        while fixes.count < count {
            let leg = 30 + random.index(270)
            let speed = random.index(5) == 0 ? 0 : random.uniform(1, 20)
            bearing += random.uniform(-90, 90)
            // Stay within about 4 km of the centre so the regions keep being met.
            let distanceHome = ((latitude - 45.38) * 111_000, (longitude - 14.145) * 78_000)
            if distanceHome.0 * distanceHome.0 + distanceHome.1 * distanceHome.1 > 16e6 {
                bearing = atan2(-distanceHome.1, -distanceHome.0) * 180 / .pi
            }
            for _ in 0..<leg where fixes.count < count {
                let radians = bearing * .pi / 180
                latitude += speed * cos(radians) / 111_000
                longitude += speed * sin(radians) / (111_000 * cos(latitude * .pi / 180))
                var fix = LocationFix()
                fix.timeMs = start + Int64(elapsed)
                fix.elapsedRealtimeMs = elapsed
                fix.bootId = 1
                fix.latitudeE7 = Int32((latitude * 1e7).rounded())
                fix.longitudeE7 = Int32((longitude * 1e7).rounded())
                fix.horizontalAccuracyCm = UInt32(random.uniform(300, 3_000))
                fix.speedCmS = UInt32(speed * 100)
                fixes.append(fix)
                elapsed += 1_000
            }
        }
        return fixes
    }

    /// The fence workload: 20 regions along the town trace, every other one a 50-vertex polygon.
    static func fenceWorkload(fixes: Int) -> (TrackingPolicy, [Region], [LocationFix]) {
        let trace = town(fixes: fixes, seed: 42)
        var random = SeededRandom(seed: 7)
        var regions: [Region] = []
        for number in 0..<20 {
            let anchor = trace[random.index(trace.count)]
            let latitude = Double(anchor.latitudeE7!) * 1e-7
            let longitude = Double(anchor.longitudeE7!) * 1e-7
            var region = Region()
            region.id = "site:bench-\(number)"
            region.version = 1
            region.level = .site
            region.notifyOnEntry = true
            region.notifyOnExit = true
            let radius = random.uniform(100, 600)
            var circle = Circle()
            circle.centerLatitudeE7 = anchor.latitudeE7
            circle.centerLongitudeE7 = anchor.longitudeE7
            circle.radiusM = UInt32(radius) + 2
            region.circle = circle
            if number % 2 == 1 {
                var polygon = Polygon()
                for vertex in 0..<50 {
                    let angle = Double(vertex) / 50 * 2 * .pi
                    let reach = radius * random.uniform(0.5, 1)
                    polygon.latitudesE7.append(Int32(((latitude + reach * cos(angle) / 111_195) * 1e7).rounded()))
                    polygon.longitudesE7.append(
                        Int32(
                            ((longitude + reach * sin(angle) / (111_195 * cos(latitude * .pi / 180))) * 1e7).rounded()))
                }
                region.polygon = polygon
            }
            regions.append(region)
        }
        return (TrackingPolicy(), regions, trace)
    }

    static func recordingTrace(fixes: Int) -> [LocationFix] { town(fixes: fixes, seed: 43) }
}
