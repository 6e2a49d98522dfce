import Foundation
import LocationWireHTTP
import LocationWireHTTPClient

/// A load run: N ``SimulatedDevice``s upload to the servers at once for the configured time, then the figures.
///
/// Each server URL gets one ``BindingClient`` with a connection per device it serves, so no device waits for a
/// connection of the pool; devices are spread over the URLs round-robin and keep theirs for the run.
public struct LoadRun: Sendable {
    public var configuration: LoadConfiguration
    /// Where progress lines go (standard error for the command line).
    public var progress: @Sendable (String) -> Void

    public init(configuration: LoadConfiguration, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.progress = progress
    }

    public func run() async throws -> LoadReport {
        try configuration.validate()
        let configuration = self.configuration
        let journal = try configuration.ackJournalPath.map { try AckJournal(path: $0) }
        let requestLog = try configuration.requestLogPath.map { try RequestLog(path: $0) }
        let urlCount = configuration.serverURLs.count
        let clients = configuration.serverURLs.enumerated().map { index, url in
            let served = (configuration.devices - index + urlCount - 1) / urlCount
            return BindingClient(baseURL: url, connectionsPerHost: max(served, 1))
        }
        let statistics = LoadStatistics()
        let clock = ContinuousClock()
        let cpuBefore = Self.processCPUSeconds()
        let started = clock.now
        let deadline = started.advanced(by: configuration.duration)

        let progressTask = configuration.progressInterval.map { every in
            Task { [progress] in
                var last = clock.now
                while !Task.isCancelled {
                    try? await Task.sleep(for: every)
                    if Task.isCancelled { break }
                    let now = clock.now
                    progress(Self.progressLine(statistics.takeInterval(), over: now - last, at: now - started))
                    last = now
                }
            }
        }

        let pending: Int
        do {
            pending = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<configuration.devices {
                    let client = clients[index % urlCount]
                    let token = configuration.tokens[LoadConfiguration.deviceId(index)]!
                    let delay = configuration.startSpread * (Double(index) / Double(configuration.devices))
                    group.addTask {
                        try await Task.sleep(for: delay)
                        var device = SimulatedDevice(
                            index: index, token: token, client: client, seed: configuration.seed,
                            constantAck: configuration.constantAck)
                        try await device.run(
                            until: deadline, interval: configuration.batchInterval,
                            fixesPerBatch: configuration.fixesPerBatch, timeout: configuration.requestTimeout,
                            statistics: statistics, journal: journal, requestLog: requestLog)
                        return device.pendingFixes
                    }
                }
                return try await group.reduce(0, +)
            }
        } catch {
            progressTask?.cancel()
            for client in clients { try? await client.shutdown() }
            throw error
        }
        let elapsed = (clock.now - started).milliseconds / 1000
        progressTask?.cancel()
        for client in clients { try await client.shutdown() }
        let cpu = Self.processCPUSeconds() - cpuBefore

        let counts = statistics.total
        return LoadReport(
            servers: configuration.serverURLs, devices: configuration.devices,
            fixesPerBatch: configuration.fixesPerBatch,
            batchIntervalSeconds: configuration.batchInterval.map { $0.milliseconds / 1000 },
            plannedSeconds: configuration.duration.milliseconds / 1000, elapsedSeconds: elapsed,
            batchesSent: counts.batchesSent, batchesAcknowledged: counts.batchesAcknowledged,
            fixesAcknowledged: counts.fixesAcknowledged,
            fixesAcknowledgedAsDuplicate: counts.fixesAcknowledgedAsDuplicate, fixesRejected: counts.fixesRejected,
            fixesPerSecond: Double(counts.fixesAcknowledged) / elapsed,
            batchesPerSecond: Double(counts.batchesAcknowledged) / elapsed,
            latencyMs: LatencySummary(counts.latenciesMs), errors: counts.errors, fixesUnacknowledgedAtEnd: pending,
            loadGeneratorCPUSeconds: cpu, loadGeneratorCores: cpu / elapsed)
    }

    static func progressLine(_ counts: LoadStatistics.Counts, over window: Duration, at time: Duration) -> String {
        let seconds = max(window.milliseconds / 1000, 0.001)
        let latency = LatencySummary(counts.latenciesMs)
        return String(
            format: "load: %5.1f s  %8.0f fixes/s  %6.0f batches/s  p50 %7.1f ms  p99 %7.1f ms  errors %d",
            time.milliseconds / 1000, Double(counts.fixesAcknowledged) / seconds,
            Double(counts.batchesAcknowledged) / seconds, latency?.p50 ?? 0, latency?.p99 ?? 0,
            counts.errors.values.reduce(0, +))
            + (counts.errors.isEmpty
                ? ""
                : " ("
                    + counts.errors.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                    .joined(separator: ", ") + ")")
    }

    /// User plus system CPU time of this process so far, seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
