import Foundation
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireRandom
import LocationWireSession
import LocationWireSimulation

/// One phone of a load run: a walk from `TraceSimulator`, queued and batched by the spec's device engine
/// (`UploadQueue`: consecutive sequences, floors, `§ack-scope`, back-off), uploaded with ``BindingClient``.
///
/// Only an applied PROCESSED ack deletes fixes; every other outcome (a refusal, a reset, a time-out, an ack the
/// queue ignores) gives the batch up and its fixes go out again in a later batch, after the queue's back-off or
/// the server's `Retry-After`.
struct SimulatedDevice {
    let deviceId: String
    let token: String
    let client: BindingClient
    /// ``LoadConfiguration/constantAck``.
    let constantAck: Bool
    private var queue: UploadQueue
    private var trace: TraceSimulator
    private var random: SeededRandom
    private let bootId: UInt64

    init(index: Int, token: String, client: BindingClient, seed: UInt64, constantAck: Bool = false) {
        deviceId = LoadConfiguration.deviceId(index)
        self.token = token
        self.client = client
        self.constantAck = constantAck
        var random = SeededRandom(seed: seed ^ (UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15))
        bootId = random.next() | 1
        queue = UploadQueue(deviceId: deviceId, installId: random.next() | 1)
        // Walks start within about 20 km of Ljubljana, each at its own place.
        let start = (latitude: 46.05 + random.uniform(-0.2, 0.2), longitude: 14.5 + random.uniform(-0.3, 0.3))
        trace = TraceSimulator(scenario: .walk, seed: random.next(), start: start)
        self.random = random
        var status = DeviceStatus()
        status.authorization = .always
        status.accuracy = .precise
        status.locationServicesEnabled = true
        status.platform = .android
        status.osVersion = "15"
        status.appVersion = "load-1.0"
        queue.update(status)
    }

    /// Fixes recorded and not yet acknowledged.
    var pendingFixes: Int { queue.fixes.count }

    /// Runs until `deadline`, a batch at a time; the batch in flight at the deadline is finished, and a device
    /// whose task starts only after the deadline (a busy machine, a short run) still sends its first batch, so that
    /// every run measures something.
    mutating func run(
        until deadline: ContinuousClock.Instant, interval: Duration?, fixesPerBatch: Int, timeout: Duration,
        statistics: LoadStatistics, journal: AckJournal?, requestLog: RequestLog? = nil
    ) async throws {
        let clock = ContinuousClock()
        var nextStart = clock.now
        repeat {
            if let interval {
                // A fixed schedule: a slow answer does not push later batches back.
                if nextStart > clock.now { try await Task.sleep(until: nextStart, clock: clock) }
                nextStart = nextStart.advanced(by: interval)
            }
            // A batch carries what is left unacknowledged, topped up to fixesPerBatch with new fixes, as a phone
            // that records while it waits would.
            if queue.fixes.count < fixesPerBatch {
                for _ in queue.fixes.count..<fixesPerBatch {
                    var fix = trace.nextFix()
                    fix.bootId = bootId
                    queue.record(fix)
                }
            }
            let nowMs = Self.wallClockMs()
            if !queue.maySend(nowMs: nowMs) {
                // The queue's own back-off after a failure or a HOLD, cut short by the end of the run.
                let wait = min(Duration.milliseconds(queue.holdUntilMs - nowMs), deadline - clock.now)
                if wait > .zero { try await Task.sleep(for: wait) }
                continue
            }
            guard let batch = queue.nextBatch(batchId: random.next() | 1, bootId: bootId, nowMs: nowMs) else {
                statistics.record { $0.errors["device: no batch to send", default: 0] += 1 }
                try await Task.sleep(for: .milliseconds(100))
                continue
            }
            let startedMs = Self.wallClockMs()
            let started = clock.now
            let answer: UploadAnswer
            let sentBytes = batch.serializedSize
            do {
                answer = try await client.uploadAnswer(batch, token: token, timeout: timeout)
            } catch {
                answer = .noAck(reason: Self.transportErrorKind(error))
            }
            let latencyMs = (clock.now - started).milliseconds
            let kind = try apply(
                answer, to: batch, sentBytes: sentBytes, latencyMs: latencyMs, statistics: statistics, journal: journal)
            try requestLog?.append(startMs: startedMs, deviceId: deviceId, latencyMs: latencyMs, answer: kind)
        } while clock.now < deadline
    }

    /// Applies an upload's answer to the queue (through the binding's table, `§http-device-answers`) and the
    /// counts. Waits are the queue's: the next pass sleeps until it may send.
    /// - Returns: ``RequestLog/processed`` when the ack was applied and processed, else the kind of error the
    ///   answer was counted as.
    private mutating func apply(
        _ answer: UploadAnswer, to batch: LocationBatch, sentBytes: Int, latencyMs: Double, statistics: LoadStatistics,
        journal: AckJournal?
    ) throws -> String {
        var answer = answer
        // A floor's constant ack names batch 1; taken as this batch's, it accepts every fix the batch carried.
        if constantAck, case .otherBatchAck(var ack) = answer {
            ack.batchId = batch.batchId
            answer = .ack(ack)
        }
        let (application, _) = queue.apply(
            answer, toBatch: batch.batchId, sentBytes: sentBytes, nowMs: Self.wallClockMs())
        switch (answer, application) {
        case (.ack(let ack), .applied(let effect)?) where effect.outcome == .processed:
            if let journal {
                let stored = Set(effect.storedFixes)
                // Compact backlogs go only to servers whose policy asks for them; decoded, they are the rows the
                // server stores.
                let backlog = (try? batch.compactFixes?.fixes()) ?? batch.fixes
                let sent = backlog + (batch.liveFix.map { [$0] } ?? [])
                try journal.append(
                    deviceId: deviceId, installId: batch.installId,
                    fixes: sent.filter { stored.contains($0.sequence) })
            }
            // DUPLICATE answers a resend of what a lost ack had stored: the crash soak's proof that it hit that
            // case. Ranges may span numbers the batch did not carry (§ack-scope).
            let duplicates = effect.storedFixes.count { sequence in
                ack.fixResults.contains {
                    $0.result == .duplicate && ($0.firstSequence...$0.lastSequence).contains(sequence)
                }
            }
            statistics.record {
                $0.batchesSent += 1
                $0.batchesAcknowledged += 1
                $0.fixesAcknowledged += effect.storedFixes.count
                $0.fixesAcknowledgedAsDuplicate += duplicates
                $0.fixesRejected += effect.rejectedFixes.count
                $0.latenciesMs.append(latencyMs)
            }
            return RequestLog.processed
        case (.ack(let ack), .applied(let effect)?):
            let kind = "ack \(effect.outcome)" + (ack.outcome == .hold ? " \(ack.holdReason)" : "")
            return Self.count(kind, latencyMs: latencyMs, in: statistics)
        case (_, .ignored(let reason)?):
            return Self.count("ack ignored: \(reason)", latencyMs: latencyMs, in: statistics)
        case (.noAck(let reason), _):
            return Self.count(
                String(reason.prefix(60)), latencyMs: reason.hasPrefix("transport") ? nil : latencyMs, in: statistics)
        default:
            return Self.count(Self.refusalKind(answer), latencyMs: latencyMs, in: statistics)
        }
    }

    /// Counts one batch that stored nothing, by what it got; returns the kind.
    private static func count(_ kind: String, latencyMs: Double?, in statistics: LoadStatistics) -> String {
        statistics.record {
            $0.batchesSent += 1
            if let latencyMs { $0.latenciesMs.append(latencyMs) }
            $0.errors[kind, default: 0] += 1
        }
        return kind
    }

    /// A short stable name for an answer that is neither an applied ack nor a missing one: the HTTP status (and
    /// the error body's code when the binding keeps it), so that a soak can count 503s and 401s.
    static func refusalKind(_ answer: UploadAnswer) -> String {
        switch answer {
        case .ack: "ack"
        case .otherBatchAck: "ack of another batch"
        case .malformed(let code): "http 400 or 431 \(code)"
        case .credentialsRefused(let status, let code): "http \(status) \(code)"
        case .bodyTimedOut: "http 408"
        case .tooLarge: "http 413"
        case .unsupportedEncoding(let code): "http 415 \(code)"
        case .wait(let status, _): "http \(status)"
        case .noAck(let reason): String(reason.prefix(60))
        }
    }

    /// The device clock, UTC ms.
    static func wallClockMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// A short stable name for a transport failure, so that errors of one kind add up.
    static func transportErrorKind(_ error: any Error) -> String {
        if error is CancellationError { return "transport: cancelled" }
        let text = String(describing: error).lowercased()
        for (needle, kind) in [
            ("refused", "connection refused"), ("reset", "connection reset"), ("closed", "connection closed"),
            ("timeout", "time-out"), ("timedout", "time-out"), ("deadline", "time-out"), ("eof", "connection closed"),
        ] where text.contains(needle) {
            return "transport: \(kind)"
        }
        return "transport: \(String(describing: type(of: error)))"
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
