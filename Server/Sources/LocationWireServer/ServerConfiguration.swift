import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireSession

/// What the reference server is configured with; none of it is persisted.
public struct ServerConfiguration: Sendable {
    /// The largest request body taken, bytes, after content decoding; a larger one gets 413 with this limit. It
    /// is above the ledger's `maxBatchBytes` on purpose: a batch between the two gets a `TOO_LARGE` ack, which
    /// the device applies like a 413 (`§http-size`).
    public var maxBodyBytes: Int
    /// What the ledger accepts (batch size, quotas, holds) and the tracking policy acks carry.
    public var ledgerPolicy: IngestLedger.Policy
    /// The policy `GET /v1/policy` serves; nil answers 404.
    public var trackingPolicy: TrackingPolicy?
    /// The region planner over the catalogue `POST /v1/regions` plans from; nil answers 404 `no-catalogue`.
    public var planner: RegionPlanner?
    /// How long a request body may take to arrive whole before the answer is 408.
    public var bodyTimeout: Duration
    /// `Retry-After` of a 503 when the store failed, seconds.
    public var storageRetryAfterSeconds: Int
    /// Whether `GET /v1/devices/{id}/fixes` is served (`§http-read-back`).
    public var offersReadBack: Bool
    /// Requests per second each device may send (a token bucket with a burst of as many); over it, 429. Nil:
    /// no limit.
    public var rateLimitPerDevice: Int?
    /// Requests handled at once; more get 503 before their body is read. Nil: no limit.
    public var maxInFlight: Int?
    /// Request bodies read at once. One more waits, unread (its bytes stay in the socket's buffers: TCP
    /// pushes back on the client), for at most ``bodyPermitWait``, then gets 503 with `Retry-After` and its
    /// connection is closed. What bodies hold is so bounded: at most this × 2 × ``maxBodyBytes`` (a gzip body and
    /// what it decompresses to), 128 MiB with the defaults, however many clients trickle bodies in.
    public var maxConcurrentBodies: Int
    /// How long a request waits for one of the ``maxConcurrentBodies`` slots before its 503. Waiting, not a 503 at
    /// once, because a busy server (a saturated writer, every core taken) has many bodies in flight for a moment
    /// without anyone trickling: refusing those turned ordinary load into 503s.
    public var bodyPermitWait: Duration = .seconds(10)
    /// The server's clock, UTC ms; injected so tests are deterministic.
    public var nowMs: @Sendable () -> Int64
    /// The monotonic clock the rate limiter refills by; injected so tests do not depend on how fast they run.
    public var monotonicNow: @Sendable () -> ContinuousClock.Instant = { .now }
    /// A deliberately wrong choice, for the tests that show the probe catches it; nil in every real server.
    package var plantedMutant: PlantedMutant?

    public init(
        maxBodyBytes: Int = 2 * UploadQueue.defaultMaxBatchBytes,
        ledgerPolicy: IngestLedger.Policy = IngestLedger.Policy(),
        trackingPolicy: TrackingPolicy? = nil,
        planner: RegionPlanner? = nil,
        bodyTimeout: Duration = .seconds(30),
        storageRetryAfterSeconds: Int = 5,
        offersReadBack: Bool = true,
        rateLimitPerDevice: Int? = nil,
        maxInFlight: Int? = nil,
        maxConcurrentBodies: Int = 32,
        nowMs: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.ledgerPolicy = ledgerPolicy
        self.trackingPolicy = trackingPolicy
        self.planner = planner
        self.bodyTimeout = bodyTimeout
        self.storageRetryAfterSeconds = storageRetryAfterSeconds
        self.offersReadBack = offersReadBack
        self.rateLimitPerDevice = rateLimitPerDevice
        self.maxInFlight = maxInFlight
        self.maxConcurrentBodies = max(maxConcurrentBodies, 1)
        self.nowMs = nowMs
    }
}
