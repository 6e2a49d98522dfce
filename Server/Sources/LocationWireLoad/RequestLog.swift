import Foundation

/// The load run's record of every upload attempt, for a soak to take latency percentiles over chosen devices and
/// moments (the devices of one shard, the seconds of an outage) that the run's own summary cannot know.
///
/// One line per attempt, comma-separated, no header: `start_ms,device_id,latency_ms,answer` where start_ms is the
/// device's wall clock (UTC ms) just before the request, latency_ms the time to the whole answer or to the
/// failure (ms, three decimals), and answer `processed` for an applied PROCESSED ack (its fixes stored) or the
/// kind the run's `errors` count it under (`http 503`, `http 401 unauthorized`, `transport: ...`). The answer
/// is the rest of the line and may itself hold commas. Lines of different devices interleave in the order the
/// answers came.
public final class RequestLog: Sendable {
    private let file: LineFile

    /// The answer of an attempt whose ack was applied and processed.
    public static let processed = "processed"

    /// Opens `path` for appending, creating it when absent.
    public init(path: String) throws {
        file = try LineFile(path: path, option: "--request-log")
    }

    /// Appends one attempt's line.
    func append(startMs: Int64, deviceId: String, latencyMs: Double, answer: String) throws {
        try file.append("\(startMs),\(deviceId),\(String(format: "%.3f", latencyMs)),\(answer)\n")
    }
}
