import LocationWire
import LocationWireBehavior

/// What the app tells the device about itself; everything else comes from the server.
public struct DeviceConfiguration: Sendable {
    /// `LocationBatch.device_id`, the account's device (the bearer token belongs to it).
    public var deviceId: String
    public var platform: Platform
    /// How many regions the OS monitors for the app: 20 on iOS, 100 on Android.
    public var platformSlotLimit: UInt32
    /// Slots the app keeps for fences of its own.
    public var reservedAppSlots: UInt32
    public var sync: SyncPolicy
    /// The policy until a server sends one (an ack's `tracking_policy`); the default policy when nil.
    public var initialPolicy: TrackingPolicy?
    /// Whether the device asks `POST /v1/regions` for regions; a server without a catalogue answers 404.
    public var requestsRegions: Bool

    public init(
        deviceId: String, platform: Platform = .android, platformSlotLimit: UInt32 = 100, reservedAppSlots: UInt32 = 0,
        sync: SyncPolicy = .everyDelivery, initialPolicy: TrackingPolicy? = nil, requestsRegions: Bool = true
    ) {
        self.deviceId = deviceId
        self.platform = platform
        self.platformSlotLimit = platformSlotLimit
        self.reservedAppSlots = reservedAppSlots
        self.sync = sync
        self.initialPolicy = initialPolicy
        self.requestsRegions = requestsRegions
    }
}

/// What the device has done, over every launch on its store.
public struct DeviceSummary: Sendable, Hashable {
    /// Fixes of the source processed durably.
    public var delivered: UInt64 = 0
    public var recorded: UInt64 = 0
    public var fenceEvents: UInt64 = 0
    /// Batches sent, by the timer and by ``LocationDevice/drain(maxAttempts:wait:)``.
    public var uploadAttempts: UInt64 = 0
    /// Of those, the ones `drain` sent.
    public var drainAttempts: UInt64 = 0
    public var bytesSent: UInt64 = 0
    public var acksApplied: UInt64 = 0
    /// Fixes the server acknowledged (stored, duplicate, or refused for good) and the device deleted.
    public var acknowledged: UInt64 = 0
    /// Fixes the device discarded, to make room on a full disk or because the server refused each alone as too large
    /// (`§http-shrink-alone`): lost, and shown to the server by the sequence floor.
    public var discarded: UInt64 = 0
    /// Fixes recorded and not yet acknowledged.
    public var pendingFixes: Int = 0
    public var pendingFenceEvents: Int = 0
    public var regionRequests: UInt64 = 0
    public var regionsArmed: Int = 0
    public var launches: UInt32 = 0
    /// Store commits (one sync of the write-ahead log each).
    public var commits: Int = 0
}

/// One region request of the device and what came of it.
public struct RegionExchange: Sendable {
    /// The delivery (0-based index into what the source delivered) from which the answer's regions are armed:
    /// the fix being delivered when the request was made before evaluating it, or the next one.
    public var beforeDelivery: UInt64
    public var request: RegionRequest
    /// The HTTP status, or nil when no answer came.
    public var status: Int?
    /// The answer, when the status was 200 and it decoded.
    public var assignment: RegionAssignment?
    /// What the device armed after applying it (nil when it armed nothing new).
    public var armed: ArmedRegions?
}
