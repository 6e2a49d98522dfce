import Foundation

/// The figures of one load run, as `locwire-server load` prints them (text) or writes them (JSON).
public struct LoadReport: Codable, Sendable {
    public var servers: [String]
    public var devices: Int
    public var fixesPerBatch: Int
    /// The devices' batch interval, seconds; nil for a closed loop.
    public var batchIntervalSeconds: Double?
    public var plannedSeconds: Double
    /// From the first device's start to the last device's last answer, seconds.
    public var elapsedSeconds: Double
    public var batchesSent: Int
    public var batchesAcknowledged: Int
    public var fixesAcknowledged: Int
    /// Of those, the ones answered DUPLICATE: stored by an earlier attempt whose ack was lost (a resend).
    public var fixesAcknowledgedAsDuplicate: Int
    public var fixesRejected: Int
    /// Fixes acknowledged as stored per second of `elapsedSeconds`.
    public var fixesPerSecond: Double
    public var batchesPerSecond: Double
    /// Batch latency, ms; nil when no batch got an answer.
    public var latencyMs: LatencySummary?
    /// Everything that was not an applied PROCESSED ack, by kind.
    public var errors: [String: Int]
    /// Fixes recorded by the devices and not acknowledged when the run ended (kept for a next run that never
    /// comes): batches in flight at the end, and what refusals left.
    public var fixesUnacknowledgedAtEnd: Int
    /// CPU time of this process (user + system), seconds, and that over `elapsedSeconds`: the cores the load
    /// generator itself took from the machine it shares with the server.
    public var loadGeneratorCPUSeconds: Double
    public var loadGeneratorCores: Double

    public var errorCount: Int { errors.values.reduce(0, +) }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    public func text() -> String {
        func number(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        var lines = [
            "servers: \(servers.joined(separator: ", "))",
            "devices: \(devices), \(fixesPerBatch) fixes per batch, "
                + (batchIntervalSeconds.map { "one batch every \(number($0, 3)) s per device" } ?? "closed loop")
                + ", \(number(plannedSeconds, 0)) s planned, \(number(elapsedSeconds, 2)) s elapsed",
            "fixes acknowledged: \(fixesAcknowledged) (\(number(fixesPerSecond)) per second; "
                + "\(fixesAcknowledgedAsDuplicate) of them DUPLICATE); rejected: \(fixesRejected); "
                + "unacknowledged at the end: \(fixesUnacknowledgedAtEnd)",
            "batches: \(batchesSent) sent, \(batchesAcknowledged) acknowledged (\(number(batchesPerSecond)) per second)",
        ]
        if let latencyMs {
            lines.append(
                "batch latency ms: p50 \(number(latencyMs.p50, 2)), p90 \(number(latencyMs.p90, 2)), "
                    + "p99 \(number(latencyMs.p99, 2)), max \(number(latencyMs.max, 2)), "
                    + "mean \(number(latencyMs.mean, 2))")
        } else {
            lines.append("batch latency: no batch was answered")
        }
        if errors.isEmpty {
            lines.append("errors: none")
        } else {
            lines.append("errors: \(errorCount)")
            for (kind, count) in errors.sorted(by: { $0.key < $1.key }) { lines.append("  \(kind): \(count)") }
        }
        lines.append(
            "load generator CPU: \(number(loadGeneratorCPUSeconds, 2)) s, \(number(loadGeneratorCores, 2)) cores")
        return lines.joined(separator: "\n")
    }
}
