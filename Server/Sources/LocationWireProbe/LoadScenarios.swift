import Foundation
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient

/// 503 and 429: a server that sheds load must say so with `Retry-After` and the JSON error body, and store
/// nothing of a refused batch. A server that never sheds load within the burst makes these checks
/// not-applicable, unless the probe was told to require the status (`--require-status 429,503`).
enum LoadScenarios {
    static var checks: [ProbeCheck] { [overload, rateLimit] }

    /// Every request of the burst at once: more in flight than a server with a small in-flight limit takes.
    static let overload = ProbeCheck(
        "status.503.overload", rules: ["§http-rate-limits", "§http-retry-after", "§http-error-codes"]
    ) {
        context in
        let count = context.options.burstRequests
        return try await judgeBurst(
            status: 503, code: ErrorBody.Code.unavailable, sent: try await burst(context, count, concurrency: count),
            context: context, what: "\(count) requests at once from one device")
    }

    /// A burst from one device, two at a time (few enough to pass an in-flight limit), as fast as the server
    /// answers, of up to four times `--burst-requests`, ending early once 429 came 5 times: more per second than
    /// a server with a rate limit takes, since the bucket refills while the burst runs.
    static let rateLimit = ProbeCheck(
        "status.429.rate-limit", rules: ["§http-rate-limits", "§http-retry-after", "§http-error-codes"]
    ) {
        context in
        let count = 4 * context.options.burstRequests
        let sent = try await burst(context, count, concurrency: 2, stopAfter: (429, 5))
        return try await judgeBurst(
            status: 429, code: ErrorBody.Code.rateLimited, sent: sent, context: context,
            what: "\(sent.count) requests in a burst from one device, 2 at a time")
    }

    /// Posts up to `count` batches of one fresh installation (batch i carries fix i), at most `concurrency` at
    /// once, without waiting out a 429 or 503; no more once `stopAfter`'s status came back as many times.
    static func burst(
        _ context: ProbeContext, _ count: Int, concurrency: Int, stopAfter: (status: Int, times: Int)? = nil
    ) async throws
        -> [(batch: LocationBatch, result: BindingClient.UploadResult)]
    {
        let install = context.freshInstallId()
        let batches = (1...max(count, 1)).map {
            context.batch(install: install, batchId: UInt64($0), backlog: [], live: UInt64($0))
        }
        let send: @Sendable (LocationBatch) async throws -> (LocationBatch, BindingClient.UploadResult) = { batch in
            (batch, try await context.uploadOnce(batch))
        }
        return try await withThrowingTaskGroup(of: (LocationBatch, BindingClient.UploadResult).self) { group in
            var results: [(batch: LocationBatch, result: BindingClient.UploadResult)] = []
            var waiting = batches.makeIterator()
            for _ in 0..<max(concurrency, 1) {
                guard let batch = waiting.next() else { break }
                group.addTask { try await send(batch) }
            }
            var stopping = 0
            while let item = try await group.next() {
                results.append((item.0, item.1))
                if case .refused(let status, _, _) = item.1, status == stopAfter?.status { stopping += 1 }
                if stopping >= stopAfter?.times ?? .max { continue }
                if let batch = waiting.next() { group.addTask { try await send(batch) } }
            }
            return results.sorted { $0.batch.batchId < $1.batch.batchId }
        }
    }

    static func judgeBurst(
        status: Int, code: String, sent: [(batch: LocationBatch, result: BindingClient.UploadResult)],
        context: ProbeContext, what: String
    ) async throws -> Verdict {
        var problems: [String] = []
        var acked: [LocationFix] = []
        var seen = 0
        var longestWait = 0.0
        for (batch, result) in sent {
            switch result {
            case .acknowledged:
                problems += ProbeContext.problems(
                    of: result, for: batch, expected: ProbeContext.processed([batch.batchId], "ACCEPTED")
                ).map { "batch \(batch.batchId): \($0)" }
                acked += VectorScenarios.fixes(of: batch)
            case .refused(let refusedStatus, let error, let retryAfter)
            where refusedStatus == 429 || refusedStatus == 503:
                if refusedStatus == status { seen += 1 }
                // A server sends delay-seconds (§http-retry-after); devices also read dates, servers write none.
                guard let value = retryAfter?.trimmingWhitespace(), !value.isEmpty,
                    value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                    let seconds = retryAfterSeconds(value)
                else {
                    problems.append(
                        "batch \(batch.batchId): \(refusedStatus) with Retry-After \(retryAfter.map { "\"\($0)\"" } ?? "absent"), expected delay-seconds"
                    )
                    continue
                }
                longestWait = max(longestWait, seconds)
                let expectedCode = refusedStatus == status ? code : nil
                if let error {
                    if let expectedCode, error.code != expectedCode {
                        problems.append(
                            "batch \(batch.batchId): \(refusedStatus) with code \(error.code), expected \(expectedCode)"
                        )
                    }
                } else {
                    problems.append("batch \(batch.batchId): \(refusedStatus) without a JSON error body with a code")
                }
            case .refused(let other, let error, _):
                problems.append("batch \(batch.batchId): answered \(other) (\(error?.code ?? "no error body"))")
            case .unreadableAck(let why):
                problems.append("batch \(batch.batchId): 200 with a body that is not a BatchAck: \(why)")
            }
        }
        if let install = sent.first?.batch.installId {
            let sentFixes = sent.flatMap { VectorScenarios.fixes(of: $0.batch) }
            problems += try await context.storageProblems(install: install, expected: acked, sent: sentFixes).problems
        }
        // Let the server's window pass, so that the checks after this one are not refused.
        if longestWait > 0 { try await Task.sleep(for: .milliseconds(Int64(min(longestWait, 10) * 1000))) }
        if seen == 0 {
            if !problems.isEmpty { return .failed(problems.joined(separator: "\n")) }
            let message = "\(what): no \(status) (\(acked.count) acked); the server does not shed load at this rate"
            return context.options.requiredStatuses.contains(status)
                ? .failed(message + ", and --require-status asks for it") : .notApplicable(message)
        }
        return .judging(
            problems,
            passed:
                "\(what): \(seen) answered \(status) \(code) with Retry-After, \(acked.count) acked; nothing of a refused batch stored"
        )
    }
}

/// `Retry-After` in seconds as the binding reads it (`§http-retry-after`), or nil when absent or unreadable.
func retryAfterSeconds(_ value: String?) -> Double? {
    let nowMs = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    return value.flatMap { RetryAfter.waitMs($0, nowMs: nowMs) }.map { Double($0) / 1000 }
}
