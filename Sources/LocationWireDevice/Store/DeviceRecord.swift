import LocationWire

/// The device's own scalars, one state row (`DeviceStore.StateKey.device`): who it is, how far its fix source
/// has been read, the region requests and commands it still owes, and the counts its summary reports. Stored as
/// `locationwire.session.v1.DeviceRecord` (proto/locationwire/session/v1/device_record.proto, the schema).
///
/// It is written in the same transaction as the effects of the delivery it counts, so `delivered` and what the
/// store holds always agree: a relaunch goes on at fix number `delivered` of its source.
package struct DeviceRecord: TableCodedMessage, Hashable, Sendable {
    package var deviceId = ""
    /// The installation's random non-zero id (`§install-id`), drawn when the store is created.
    package var installId: UInt64 = 0
    /// Fixes of the source whose processing is durable.
    package var delivered: UInt64 = 0
    /// Launches of the device on this store (the first included).
    package var launches: UInt32 = 0
    /// A region request owed (a `RegionRequestReason` number, 0 for none): kept until one is answered, so that a
    /// kill between the trigger and the answer does not lose it.
    package var owedRegionRequest: UInt32 = 0
    /// The region whose entry owes a `REFINE_ON_ENTRY` request.
    package var refineRegionId = ""
    /// The last region request's monotonic time and boot, for `min_interval_ms`.
    package var lastRegionRequestMs: UInt64 = 0
    package var lastRegionRequestBootId: UInt64 = 0
    /// A `RECORD_FIX` command taken and not yet carried out: the next delivered fix is a requested one.
    package var recordFixOwed = false
    /// An `UPLOAD_NOW` command taken and not yet carried out.
    package var uploadNowOwed = false
    /// A 401 or 403 stopped uploads until the credentials change (proto/HTTP.md): the token that was refused.
    package var refusedToken = ""
    // The summary's counts, over every launch.
    package var fixesRecorded: UInt64 = 0
    package var fenceEventsRecorded: UInt64 = 0
    package var uploadAttempts: UInt64 = 0
    package var bytesSent: UInt64 = 0
    package var acksApplied: UInt64 = 0
    package var fixesAcknowledged: UInt64 = 0
    package var regionRequests: UInt64 = 0
    /// Of `uploadAttempts`, those ``LocationDevice/drain(maxAttempts:wait:)`` made rather than the timer.
    package var drainAttempts: UInt64 = 0
    package var unknownFields = UnknownFields()

    package init() {}

    package static let fieldTable = FieldTable<DeviceRecord>(
        "locationwire.session.v1.DeviceRecord",
        [
            .singular(1, "device_id", .string, \.deviceId),
            .singular(2, "install_id", .fixed64, \.installId),
            .singular(3, "delivered", .uint64, \.delivered),
            .singular(4, "launches", .uint32, \.launches),
            .singular(5, "owed_region_request", .uint32, \.owedRegionRequest),
            .singular(6, "refine_region_id", .string, \.refineRegionId),
            .singular(7, "last_region_request_ms", .uint64, \.lastRegionRequestMs),
            .singular(8, "last_region_request_boot_id", .fixed64, \.lastRegionRequestBootId),
            .singular(9, "record_fix_owed", .bool, \.recordFixOwed),
            .singular(10, "upload_now_owed", .bool, \.uploadNowOwed),
            .singular(11, "refused_token", .string, \.refusedToken),
            .singular(12, "fixes_recorded", .uint64, \.fixesRecorded),
            .singular(13, "fence_events_recorded", .uint64, \.fenceEventsRecorded),
            .singular(14, "upload_attempts", .uint64, \.uploadAttempts),
            .singular(15, "bytes_sent", .uint64, \.bytesSent),
            .singular(16, "acks_applied", .uint64, \.acksApplied),
            .singular(17, "fixes_acknowledged", .uint64, \.fixesAcknowledged),
            .singular(18, "region_requests", .uint64, \.regionRequests),
            .singular(19, "drain_attempts", .uint64, \.drainAttempts),
        ])
}
