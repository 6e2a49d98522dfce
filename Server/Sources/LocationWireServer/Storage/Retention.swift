import Logging

/// `serve --retain-days N` (`§http-retention`): items are kept `keepMs` after the server received them, then
/// removed by passes of ``ServerStorage/removeReceived(before:nowMs:rowLimit:)`` beside the ingest.
public struct Retention: Sendable {
    /// How long an item is kept after it was received, ms.
    public var keepMs: Int64
    /// The pause between two rounds of passes.
    public var interval: Duration
    /// Rows per table per pass: each pass holds SQLite's writer (or PostgreSQL's rows) only this long.
    public var rowLimit: Int

    public init(keepMs: Int64, interval: Duration = .seconds(60), rowLimit: Int = 5_000) {
        self.keepMs = keepMs
        self.interval = interval
        self.rowLimit = rowLimit
    }

    /// One round: passes until a pass leaves no table with a full `rowLimit` (nothing more is old), yielding
    /// to the ingest between passes.
    public func round(storage: any ServerStorage, nowMs: Int64) async throws -> RemovedRows {
        var removed = RemovedRows()
        while !Task.isCancelled {
            let pass = try await storage.removeReceived(
                before: nowMs - keepMs, nowMs: nowMs, rowLimit: rowLimit)
            removed = removed + pass
            let full = [pass.fixes, pass.fenceEvents, pass.lifecycleEvents, pass.deviceStatuses, pass.assignments]
                .contains { $0 >= rowLimit }
            guard full else { break }
            await Task.yield()
        }
        return removed
    }

    /// Runs rounds every ``interval`` until cancelled, logging what each removed and how fast. A round that
    /// fails is logged and tried again at the next interval: retention must not stop the server.
    public func run(
        storage: any ServerStorage, nowMs: @escaping @Sendable () -> Int64,
        logger: Logger = Logger(label: "locwire-server.retention")
    ) async {
        do {
            try await storage.prepareRetention(nowMs: nowMs())
        } catch {
            logger.error("retention cannot start", metadata: ["reason": "\(error)"])
        }
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let started = clock.now
            do {
                let removed = try await round(storage: storage, nowMs: nowMs())
                let seconds = Self.seconds(clock.now - started)
                if removed.total > 0 {
                    logger.info(
                        "retention removed rows",
                        metadata: [
                            "fixes": "\(removed.fixes)", "fenceEvents": "\(removed.fenceEvents)",
                            "lifecycleEvents": "\(removed.lifecycleEvents)",
                            "deviceStatuses": "\(removed.deviceStatuses)", "assignments": "\(removed.assignments)",
                            "partitionsDropped": "\(removed.partitionsDropped)",
                            "seconds": "\(seconds)",
                            "rowsPerSecond": "\(seconds > 0 ? Int(Double(removed.total) / seconds) : removed.total)",
                        ])
                }
            } catch {
                logger.error("retention round failed; tried again later", metadata: ["reason": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
