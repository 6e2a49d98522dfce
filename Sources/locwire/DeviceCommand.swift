import ArgumentParser
import Foundation
import LocationWire
import LocationWireDevice
import LocationWireJSON

/// `locwire device`: the reference device.
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Run the reference device (LocationWireDevice) against a server.",
        subcommands: [DeviceRunCommand.self])
}

/// `locwire device run`: a trace delivered to the reference device as the OS would deliver it.
struct DeviceRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay a trace into the reference device, which records, uploads and reports to a server.",
        discussion: """
            The trace is read as `simulate record` reads it (GPX, or a LocationBatch in binary or JSON) and each \
            fix is delivered to the device (the LocationWireDevice library) as the OS would: in real time \
            (--speed 1), N times faster, or as fast as possible (--speed 0, the default). The device runs the \
            recording rules, the fence rules and the upload timer of proto/BEHAVIOR.md on the fixes' own clock, \
            keeps what it records in a SQLite store in --store, uploads over the HTTP binding (proto/HTTP.md) and \
            asks for regions (POST /v1/regions) when the rules say so.

            It can be killed at any moment: started again on the same --store, it goes on from the store, at the \
            first fix whose processing was not yet durable. At the end of the trace the device sends what is left \
            (--no-drain leaves it). Progress goes to standard error once a second; the summary (delivered, \
            recorded, uploaded, acknowledged, pending, region requests, events) to standard output, as text or \
            with --json as JSON.

            Exit status: 0 done and nothing left pending (or --no-drain), 1 a file does not read or the store \
            fails, 2 usage, 3 the trace was delivered but fixes are still pending (the server did not take them).
            """)

    @Option(help: ArgumentHelp("The trace: GPX, or a LocationBatch (.json or binary).", valueName: "file"))
    var trace: String

    @Option(help: ArgumentHelp("The server's base URL, e.g. http://127.0.0.1:8080.", valueName: "url"))
    var server: String

    @Option(help: ArgumentHelp("The device's bearer token (locwire-server serve prints one).", valueName: "token"))
    var token: String

    @Option(help: ArgumentHelp("The folder of the device's store (created when absent).", valueName: "dir"))
    var store: String

    @Option(help: ArgumentHelp("A TrackingPolicy, JSON or binary, until the server sends one.", valueName: "file"))
    var policy: String?

    @Option(help: ArgumentHelp("0: as fast as possible; 1: real time; N: N times faster.", valueName: "N"))
    var speed: Double = 0

    @Option(help: ArgumentHelp("The device id the token belongs to.", valueName: "id"))
    var deviceId = "device-1"

    @Option(help: ArgumentHelp("android (100 region slots) or ios (20).", valueName: "platform"))
    var platform: DevicePlatformOption = .android

    @Option(
        help: ArgumentHelp(
            "every (sync each delivery) or a number of ms to group syncs by (the loss window).", valueName: "sync"))
    var sync = "every"

    @Option(help: ArgumentHelp("Seconds one HTTP request may take.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(help: "Never ask for regions (for a server without a catalogue).")
    var noRegions = false

    @Flag(help: "Leave what is pending at the end of the trace instead of sending it.")
    var noDrain = false

    @Option(help: ArgumentHelp("Stop after delivering this many fixes in this run (tests).", valueName: "N"))
    var stopAfter: Int?

    @Option(
        help: ArgumentHelp(
            "Append a JSON line per fix once it is durable (the mock server's client log).", valueName: "file"))
    var clientLog: String?

    @Option(
        help: ArgumentHelp(
            "Append a JSON line per region request: the delivery it applies from, the request, the HTTP status, the "
                + "assignment answered and the regions armed (proto3 JSON).", valueName: "file"))
    var regionLog: String?

    @Flag(help: "The summary as JSON.")
    var json = false

    @Flag(help: "No progress lines on standard error.")
    var quiet = false

    func validate() throws {
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be 0 or more") }
        guard URL(string: server)?.scheme != nil else { throw ValidationError("--server must be a URL") }
        _ = try syncPolicy()
    }

    func syncPolicy() throws -> SyncPolicy {
        if sync == "every" { return .everyDelivery }
        guard let milliseconds = Int(sync), milliseconds > 0 else {
            throw ValidationError("--sync must be 'every' or a number of milliseconds above 0")
        }
        return .grouped(milliseconds: milliseconds)
    }

    func run() throws {
        let fixes = try BehaviorInput.trace(trace, force: true)  // warnings only: the device replays what it is given
        let initialPolicy: TrackingPolicy? = try policy.map { try BehaviorInput.message($0) }
        var configuration = DeviceConfiguration(
            deviceId: deviceId, platform: platform.platform, platformSlotLimit: platform.slots,
            sync: try syncPolicy(), initialPolicy: initialPolicy, requestsRegions: !noRegions)
        configuration.requestsRegions = !noRegions
        let transport = URLSessionTransport(server: URL(string: server)!, token: token, timeout: timeout)
        let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
        if let clientLog {
            let log = try ClientLog(path: clientLog, installId: device.installId)
            device.recordedDurably = log.append
            device.discardedDurably = log.discarded
        }
        if let regionLog { device.regionsExchanged = try RegionLog(path: regionLog).append }
        let start = Int(min(device.delivered, UInt64(fixes.count)))
        if start > 0, !quiet { printToStandardError("device: resuming at fix \(start + 1) of \(fixes.count)") }
        var source = TraceReplay(fixes, speed: speed, start: start, limit: stopAfter)
        var progress = ProgressClock()
        while let fix = try source.nextFix() {
            try device.deliver(fix)
            if !quiet, progress.due() { printToStandardError(progressLine(device, total: fixes.count)) }
        }
        var drained = true
        if source.reachedTheEnd {
            try device.finish()
            if !noDrain {
                // Holds and back-offs are waited out on the device clock, and in real time when paced.
                drained = try device.drain(maxAttempts: 1000) { ms in
                    if speed > 0 { usleep(useconds_t(min(Double(ms) * 1000 / speed, 60_000_000))) }
                }
            }
        }
        if !quiet { printToStandardError(progressLine(device, total: fixes.count)) }
        try writeText(summaryText(device.summary, total: fixes.count), toFile: nil)
        if !drained { throw ExitCode(3) }
    }

    private func progressLine(_ device: LocationDevice, total: Int) -> String {
        let summary = device.summary
        return "device: delivered \(summary.delivered)/\(total), recorded \(summary.recorded), "
            + "uploads \(summary.uploadAttempts), acknowledged \(summary.acknowledged), pending \(summary.pendingFixes)"
    }

    private func summaryText(_ summary: DeviceSummary, total: Int) -> String {
        let fields: [(String, Any)] = [
            ("trace", trace), ("fixesInTrace", total), ("delivered", summary.delivered),
            ("recorded", summary.recorded), ("fenceEvents", summary.fenceEvents),
            ("uploadAttempts", summary.uploadAttempts), ("drainAttempts", summary.drainAttempts),
            ("bytesSent", summary.bytesSent),
            ("acksApplied", summary.acksApplied), ("acknowledged", summary.acknowledged),
            ("discarded", summary.discarded),
            ("pendingFixes", summary.pendingFixes), ("pendingFenceEvents", summary.pendingFenceEvents),
            ("regionRequests", summary.regionRequests), ("regionsArmed", summary.regionsArmed),
            ("launches", summary.launches), ("storeCommits", summary.commits),
        ]
        if json { return jsonReport(Dictionary(uniqueKeysWithValues: fields)) }
        return fields.map { "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
    }
}

/// The region log: one JSON object per line for each region request the device made, in order.
final class RegionLog {
    private let handle: FileHandle

    init(path: String) throws { handle = try appendingHandle(path, what: "region log") }

    func append(_ exchange: RegionExchange) {
        var fields = [
            "\"beforeDelivery\": \(exchange.beforeDelivery)",
            "\"request\": \(exchange.request.jsonString())",
        ]
        if let status = exchange.status { fields.append("\"status\": \(status)") }
        if let assignment = exchange.assignment { fields.append("\"assignment\": \(assignment.jsonString())") }
        if let armed = exchange.armed { fields.append("\"armed\": \(armed.jsonString())") }
        handle.write(Data(("{" + fields.joined(separator: ", ") + "}\n").utf8))
    }
}

/// A file opened for appending, created if missing.
private func appendingHandle(_ path: String, what: String) throws -> FileHandle {
    if !FileManager.default.fileExists(atPath: path) {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw InputRejected(message: "\(path): cannot create the \(what)")
        }
    }
    guard let handle = FileHandle(forWritingAtPath: path) else {
        throw InputRejected(message: "\(path): cannot write the \(what)")
    }
    handle.seekToEndOfFile()
    return handle
}

/// The client log of `locwire-server mock-server report`: one JSON line per fix recorded, appended when the fix is
/// durable, so that a kill never leaves a line for a fix the store does not hold, and one per fix discarded after a
/// refusal alone as too large, appended when the discard is durable.
final class ClientLog {
    private let handle: FileHandle
    private let installId: UInt64

    init(path: String, installId: UInt64) throws {
        handle = try appendingHandle(path, what: "client log")
        self.installId = installId
    }

    func append(_ fixes: [LocationFix]) {
        var text = ""
        for fix in fixes {
            text += "{\"installId\": \"\(installId)\", \"sequence\": \(fix.sequence), \"timeMs\": \(fix.timeMs), "
            text += "\"latitudeE7\": \(fix.latitudeE7 ?? 0), \"longitudeE7\": \(fix.longitudeE7 ?? 0)}\n"
        }
        handle.write(Data(text.utf8))
    }

    /// Fixes discarded after the server refused each alone as too large: not lost (MOCK-SERVER.md, "The client
    /// log").
    func discarded(_ sequences: [UInt64]) {
        let text = sequences.map { "{\"installId\": \"\(installId)\", \"discarded\": \($0)}\n" }.joined()
        handle.write(Data(text.utf8))
    }
}

enum DevicePlatformOption: String, ExpressibleByArgument, CaseIterable {
    case android, ios

    var platform: Platform { self == .ios ? .ios : .android }
    /// The OS's region limit (proto/README.md, "Slots").
    var slots: UInt32 { self == .ios ? 20 : 100 }
}

/// Says when a progress line is due: once a second.
struct ProgressClock {
    private var last = DispatchTime.now()

    mutating func due() -> Bool {
        let now = DispatchTime.now()
        guard now.uptimeNanoseconds - last.uptimeNanoseconds >= 1_000_000_000 else { return false }
        last = now
        return true
    }
}
