import Hummingbird
import LocationWireHTTP
import Synchronization

/// Per-device rate limiting (`429`): a token bucket per device of `requestsPerSecond`, holding at most that many
/// tokens, so a device may burst one second's worth and then sends at the rate.
///
/// Memory is bounded: the table forgets devices whose bucket is full again, when it grows past ``maxDevices``.
final class RateLimiter: Sendable {
    let requestsPerSecond: Int
    /// Devices tracked at once before full buckets are dropped.
    static let maxDevices = 100_000

    struct Bucket {
        var tokens: Double
        var updatedAt: ContinuousClock.Instant
    }

    let buckets = Mutex<[String: Bucket]>([:])

    init(requestsPerSecond: Int) {
        precondition(requestsPerSecond > 0)
        self.requestsPerSecond = requestsPerSecond
    }

    /// Takes a token for `device`; when there is none, the whole seconds until there is one.
    func admit(_ device: String, now: ContinuousClock.Instant = .now) -> Int? {
        let rate = Double(requestsPerSecond)
        return buckets.withLock { buckets in
            var bucket = buckets[device] ?? Bucket(tokens: rate, updatedAt: now)
            let elapsed = now - bucket.updatedAt
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            bucket.tokens = min(rate, bucket.tokens + seconds * rate)
            bucket.updatedAt = now
            defer {
                buckets[device] = bucket
                if buckets.count > Self.maxDevices {
                    buckets = buckets.filter { $0.value.tokens < rate }
                }
            }
            guard bucket.tokens >= 1 else {
                return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
            }
            bucket.tokens -= 1
            return nil
        }
    }
}

/// Per-device rate limiting (`429`), behind ``AuthenticationMiddleware``: the device's bucket in `limiter` pays
/// for the request, or the answer is 429 with `Retry-After` and code `rate-limited`, before the body is read.
struct RateLimitMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let limiter: RateLimiter
    /// The clock the buckets refill by (``ServerConfiguration/monotonicNow``).
    let now: @Sendable () -> ContinuousClock.Instant

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        // The operator is not limited: its requests are few, and an erasure must not wait behind a device's.
        if case .device(let device) = try context.requireAuthenticatedCaller(),
            let retryAfter = limiter.admit(device, now: now())
        {
            throw Refusal(
                status: .tooManyRequests,
                body: ErrorBody(
                    code: ErrorBody.Code.rateLimited,
                    message: "over \(limiter.requestsPerSecond) requests per second; nothing was stored"),
                headers: [.retryAfter: RetryAfter.value(seconds: retryAfter)])
        }
        return try await next(request, context)
    }
}

/// Load shedding (`503`): at most `limit` requests are handled at once; one more is answered at once with 503,
/// `Retry-After: 1` and code `unavailable`, before its body is read, so an overloaded server stays responsive.
struct InFlightLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int
    let inFlight = InFlightCounter()

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        guard inFlight.enter(limit: limit) else {
            throw Refusal(
                status: .serviceUnavailable,
                body: ErrorBody(
                    code: ErrorBody.Code.unavailable,
                    message: "the server is handling \(limit) requests; nothing was stored, send again"),
                // The body stays unread, so the connection closes after the answer (`§http-close`).
                headers: [.retryAfter: RetryAfter.value(seconds: 1), .connection: "close"])
        }
        defer { inFlight.leave() }
        return try await next(request, context)
    }
}

/// The number of requests being handled.
final class InFlightCounter: Sendable {
    let count = Mutex(0)

    /// Counts one more request, unless `limit` are already in flight.
    func enter(limit: Int) -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() {
        count.withLock { $0 -= 1 }
    }
}

/// A counting semaphore whose waiters give up: ``acquire(waitingAtMost:)`` takes one of `count` permits, waiting
/// in arrival order while none is free, at most a given time.
final class Permits: Sendable {
    private struct State {
        var available: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var lastId: UInt64 = 0
    }
    private let state: Mutex<State>

    init(_ count: Int) {
        state = Mutex(State(available: max(count, 1)))
    }

    /// True with a permit (give it back with ``release()``); false when none came within `patience`.
    func acquire(waitingAtMost patience: Duration) async -> Bool {
        let id: UInt64? = state.withLock { state in
            if state.available > 0 {
                state.available -= 1
                return nil
            }
            state.lastId += 1
            return state.lastId
        }
        guard let id else { return true }
        return await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append((id, continuation))
                return false
            }
            if granted {
                continuation.resume(returning: true)
                return
            }
            Task { [weak self] in
                try? await Task.sleep(for: patience)
                self?.giveUp(id)
            }
        }
    }

    /// Hands the permit to the longest waiter, or back to the pool.
    func release() {
        let next = state.withLock { state in
            if state.waiters.isEmpty {
                state.available += 1
                return nil as CheckedContinuation<Bool, Never>?
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// The waiter `id` stops waiting, unless it was given a permit meanwhile.
    private func giveUp(_ id: UInt64) {
        let waiter = state.withLock { state in
            state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0).continuation }
        }
        waiter?.resume(returning: false)
    }

    /// Permits free now (tests).
    var available: Int { state.withLock { $0.available } }
}
