import ArgumentParser
import Foundation
import LocationWire
import LocationWireDevice
import LocationWireInterchange
import LocationWireSession

/// `locwire-bench device`: what the reference device costs (issue 23, item 5): recording one fix with 0 to 100,000
/// fixes pending, disk syncs and bytes written per recorded fix, the store's size per pending fix, resident memory
/// with 100,000 pending, and uploads and bytes per hour on the real track with the walker policy.
struct Device: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the reference device: recording cost against what is pending, syncs, store size, memory.",
        discussion: """
            Build first: swift build -c release --package-path Benchmarks. Then, from the checkout:
            Benchmarks/.build/release/locwire-bench device [--levels 0,1000,10000,100000] [--measured 5000]
            The device is offline (every upload fails, as on a phone without network), so everything it records
            stays pending. At each level a fresh store is filled to that many pending fixes, then --measured more
            deliveries are timed, each recorded (a walk with a 1 m distance interval), under the grouped sync
            policy so that the figure is the device's CPU cost and not the disk's; the sync policy `every` is
            measured apart, for its syncs and bytes per fix. Prints a Markdown table (and writes it to --output).
            Targets: recording at 100,000 pending at most 1.5× recording at 0; resident memory with 100,000
            pending under 50 MB; the store at most 2× the fixes' wire size.
            """)

    @Option(help: "Pending fixes at which recording is timed, comma-separated.")
    var levels = "0,1000,10000,100000"
    @Option(help: "Deliveries timed at each level.")
    var measured = 5_000
    @Option(help: "Timed rounds, each timing every level in turn; each level's fastest round counts.")
    var rounds = 3
    @Option(help: "Deliveries under the sync policy `every`, for syncs and bytes per fix.")
    var synced = 500
    @Option(help: "Internal: open a device on this store, print its resident memory (kB) and exit.")
    var measureOpen: String?
    @OptionGroup var repository: RepositoryOptions
    @Option(help: "Also write the table to this file.")
    var output: String?
    @Flag(help: "Exit 1 when a target is missed (CI's short round).")
    var check = false

    func run() throws {
        if let store = measureOpen {
            let device = try LocationDevice(
                store: store, configuration: Self.configuration(sync: .grouped(milliseconds: 1000)),
                transport: Offline())
            print(device.summary.pendingFixes, Self.peakResidentKilobytes())
            return
        }
        let levels = self.levels.split(separator: ",").compactMap { Int($0) }
        var lines = [
            "| measure | value | target |", "|---|---:|---|",
        ]
        var missed: [String] = []
        // Every level's device is filled first, then the rounds time the levels in turn, and each level counts its
        // fastest round: a machine whose load changes during the run (CI runs other steps beside this one) then
        // slows every level alike, where timing one level after the other put the load into the ratio.
        var devices: [(level: Int, store: String, device: LocationDevice, walk: Walk)] = []
        for level in levels {
            let store = Self.temporaryStore()
            var walk = Walk()
            let device = try LocationDevice(
                store: store, configuration: Self.configuration(sync: .grouped(milliseconds: 1000)),
                transport: Offline())
            for _ in 0..<level { try device.deliver(walk.next()) }
            devices.append((level, store, device, walk))
        }
        var times = Array(repeating: [Double](), count: devices.count)
        for _ in 0..<rounds {
            for index in devices.indices {
                let start = Clock.nanoseconds()
                for _ in 0..<measured { try devices[index].device.deliver(devices[index].walk.next()) }
                times[index].append(Double(Clock.nanoseconds() - start) / Double(measured))
            }
        }
        var base: Double?
        var largest: (level: Int, store: String)?
        for (index, entry) in devices.enumerated() {
            try entry.device.finish()
            let fastest = times[index].min() ?? 0
            base = base ?? fastest
            let ratio = fastest / base!
            let level = entry.level
            if level == levels.last, ratio > 1.5 { missed.append("recording at \(level) pending is \(ratio)× at 0") }
            lines.append(
                "| recording one fix, \(level) pending | \(Format.nanoseconds(fastest)) (\(String(format: "%.2f", ratio))× at \(levels[0])) | \(level == levels.last ? "≤ 1.5×" : "") |"
            )
            largest = (entry.device.summary.pendingFixes, entry.store)
        }
        devices.removeAll()
        if let largest {
            let (bytesPerFix, wirePerFix) = try Self.storeSize(largest.store, pending: largest.level)
            lines.append(
                "| store size per pending fix, \(largest.level) pending | \(String(format: "%.1f", bytesPerFix)) B (\(String(format: "%.2f", bytesPerFix / wirePerFix))× the fix's \(String(format: "%.1f", wirePerFix)) B on the wire) | ≤ 2× |"
            )
            if bytesPerFix > 2 * wirePerFix {
                missed.append("the store takes \(bytesPerFix / wirePerFix)× the wire size")
            }
            let rss = try Self.residentAfterOpening(largest.store)
            if rss.kilobytes >= 50 * 1024 {
                missed.append("\(rss.kilobytes) kB resident with \(rss.pending) pending")
            }
            lines.append(
                "| resident memory of a process that opened the device, \(rss.pending) pending | \(String(format: "%.1f", Double(rss.kilobytes) / 1024)) MB | < 50 MB |"
            )
        }
        lines += try syncFigures()
        lines += try uploadFigures()
        let table = lines.joined(separator: "\n") + "\n"
        print(table, terminator: "")
        if let output { try table.write(toFile: output, atomically: true, encoding: .utf8) }
        if check, !missed.isEmpty {
            for target in missed { FileHandle.standardError.write(Data("missed: \(target)\n".utf8)) }
            throw ExitCode(1)
        }
    }

    static func configuration(sync: SyncPolicy) -> DeviceConfiguration {
        var policy = TrackingPolicy()
        policy.distanceIntervalM = 1
        policy.timeIntervalMs = 1_000
        return DeviceConfiguration(deviceId: "bench", sync: sync, initialPolicy: policy, requestsRegions: false)
    }

    static func temporaryStore() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("locwire-bench-device-\(UUID().uuidString)").path
    }

    /// Syncs and bytes written per recorded fix under the sync policy `every` (from /proc/self/io: what reached
    /// the block layer, WAL and checkpoints included).
    func syncFigures() throws -> [String] {
        var walk = Walk()
        let device = try LocationDevice(
            store: Self.temporaryStore(), configuration: Self.configuration(sync: .everyDelivery), transport: Offline())
        let commitsBefore = device.summary.commits
        let writtenBefore = Self.bytesWritten()
        let start = Clock.nanoseconds()
        for _ in 0..<synced { try device.deliver(walk.next()) }
        let elapsed = Double(Clock.nanoseconds() - start) / Double(synced)
        let recorded = Double(device.summary.recorded)
        let commits = Double(device.summary.commits - commitsBefore) / recorded
        let written = Double(Self.bytesWritten() - writtenBefore) / recorded
        return [
            "| sync policy every: syncs per recorded fix | \(String(format: "%.2f", commits)) | |",
            "| sync policy every: bytes written per recorded fix | \(String(format: "%.0f", written)) B | |",
            "| sync policy every: one delivery, synced | \(Format.nanoseconds(elapsed)) | |",
        ]
    }

    /// The real track with the walker policy, through an in-process ledger: uploads and bytes per hour of trace.
    func uploadFigures() throws -> [String] {
        let gpx = repository.gpxURL
        let trace = try GPXTrace(data: Data(contentsOf: gpx)).fixes
        let policyURL = repository.rootURL.appendingPathComponent("examples/walker-policy.json")
        let policy = try TrackingPolicy(jsonUTF8: Array(Data(contentsOf: policyURL)))
        var configuration = Self.configuration(sync: .everyDelivery)
        configuration.initialPolicy = policy
        let device = try LocationDevice(
            store: Self.temporaryStore(), configuration: configuration, transport: InProcessLedger())
        for fix in trace { try device.deliver(fix) }
        let timed = trace.compactMap(\.elapsedRealtimeMs)
        let hours = Double((timed.max() ?? 0) - (timed.min() ?? 0)) / 3_600_000
        let summary = device.summary
        return [
            "| real track, walker policy: uploads per hour | \(String(format: "%.1f", Double(summary.uploadAttempts) / hours)) (\(summary.uploadAttempts) in \(String(format: "%.2f", hours)) h, \(summary.recorded) fixes recorded) | |",
            "| real track, walker policy: bytes sent per hour | \(String(format: "%.0f", Double(summary.bytesSent) / hours)) B | |",
        ]
    }

    /// The store's bytes per pending fix after a checkpoint, and the pending fixes' mean encoded size.
    static func storeSize(_ store: String, pending: Int) throws -> (store: Double, wire: Double) {
        // Reopening checkpoints nothing by itself; the size counted is the database file plus its WAL.
        let folder = URL(fileURLWithPath: store)
        var bytes = 0
        for name in ["device.sqlite", "device.sqlite-wal"] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            bytes += (attributes?[.size] as? Int) ?? 0
        }
        var walk = Walk()
        var wire = 0
        for sequence in 1...max(pending, 1) {
            var fix = walk.next()
            fix.sequence = UInt64(sequence)
            fix.reason = .distance
            wire += fix.serializedSize
        }
        return (Double(bytes) / Double(max(pending, 1)), Double(wire) / Double(max(pending, 1)))
    }

    /// Runs this tool again to open the device on `store` alone, and reads its peak resident memory.
    static func residentAfterOpening(_ store: String) throws -> (pending: Int, kilobytes: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["device", "--measure-open", store]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let words = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            whereSeparator: \.isWhitespace)
        guard words.count == 2, let pending = Int(words[0]), let kilobytes = Int(words[1]) else {
            throw BenchmarkError("device --measure-open printed \(words)")
        }
        return (pending, kilobytes)
    }

    static func peakResidentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "0") ?? 0
    }

    static func bytesWritten() -> Int {
        let io = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? ""
        let line = io.split(separator: "\n").first { $0.hasPrefix("write_bytes:") } ?? ""
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "0") ?? 0
    }
}

/// A phone without network: every upload fails at once.
final class Offline: DeviceTransport {
    func post(path: String, messageName: String, body: [UInt8]) -> Result<HTTPAnswer, TransportFailure> {
        .failure(TransportFailure("offline"))
    }
}

/// The reference ingest ledger in the process, answering every batch.
final class InProcessLedger: DeviceTransport {
    private var ledger = IngestLedger()

    func post(path: String, messageName: String, body: [UInt8]) -> Result<HTTPAnswer, TransportFailure> {
        guard path == "/v1/batches", let batch = try? LocationBatch(serializedBytes: body) else {
            return .success(HTTPAnswer(status: 404))
        }
        let result = ledger.ingest(batch, encodedSize: body.count, nowMs: 0)
        return .success(HTTPAnswer(status: 200, body: result.ack.serializedBytes()))
    }
}

/// A walk north at 1 m/s, a fix a second, each one 1 m or more from the last: every delivery is recorded under a
/// 1 m distance interval.
struct Walk {
    private var step = 0

    mutating func next() -> LocationFix {
        defer { step += 1 }
        var fix = LocationFix()
        fix.timeMs = 1_767_225_600_000 + Int64(step) * 1_000
        fix.elapsedRealtimeMs = 60_000 + UInt64(step) * 1_000
        fix.bootId = 7
        fix.latitudeE7 = 400_000_000 + Int32(step % 1_000_000) * 100
        fix.longitudeE7 = -30_000_000
        fix.horizontalAccuracyCm = 500
        fix.speedCmS = 100
        return fix
    }
}
