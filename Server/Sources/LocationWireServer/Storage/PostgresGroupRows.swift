import LocationWire
import LocationWireSession
import NIOCore
import PostgresNIO

/// The rows a group of ledger steps writes, one parallel array per column, bound in the order of
/// ``PostgresSchema/writeGroup``'s parameters. Each row carries its own device, installation and reception time,
/// since a group mixes installations and each batch has its own `nowMs`.
struct PostgresGroupRows {
    private var installationDevices: [String] = []
    private var installationIds: [Int64] = []
    private var installationRecords: [ByteBuffer] = []
    private var installationUpdatedAt: [Int64] = []

    private var fixDevices: [String] = []
    private var fixInstallations: [Int64] = []
    private var fixSequences: [Int64] = []
    private var fixTimes: [Int64] = []
    /// Coordinates as BIGINT, ``PostgresSchema/absentCoordinate`` for an absent one: postgres-nio's arrays hold
    /// no NULL.
    private var fixLatitudes: [Int64] = []
    private var fixLongitudes: [Int64] = []
    private var fixBodies: [ByteBuffer] = []
    private var fixReceivedAt: [Int64] = []

    private var eventDevices: [String] = []
    private var eventInstallations: [Int64] = []
    private var eventSequences: [Int64] = []
    private var eventRegions: [String] = []
    private var eventKinds: [Int32] = []
    private var eventBodies: [ByteBuffer] = []
    private var eventReceivedAt: [Int64] = []

    private var lifecycleDevices: [String] = []
    private var lifecycleInstallations: [Int64] = []
    private var lifecycleKinds: [Int32] = []
    private var lifecycleTimes: [Int64] = []
    private var lifecycleBodies: [ByteBuffer] = []
    private var lifecycleReceivedAt: [Int64] = []

    private var statusDevices: [String] = []
    private var statusInstallations: [Int64] = []
    private var statusSentAt: [Int64] = []
    private var statusBodies: [ByteBuffer] = []
    private var statusReceivedAt: [Int64] = []

    /// How many installation records the rows update: one per step appended.
    var installationCount: Int64 { Int64(installationDevices.count) }
    /// How many fix rows the rows insert.
    var fixCount: Int64 { Int64(fixDevices.count) }

    /// Adds the rows of `step`, the ledger's answer for `waiting`'s batch; `step.record` must not be nil (HOLD
    /// and TOO_LARGE write nothing).
    mutating func append(_ step: LedgerStep, of waiting: GroupCommit.Waiting) {
        guard let record = step.record else { return }
        let deviceId = waiting.batch.deviceId
        let installId = Int64(bitPattern: waiting.batch.installId)
        let nowMs = waiting.nowMs
        installationDevices.append(deviceId)
        installationIds.append(installId)
        installationRecords.append(ByteBuffer(bytes: record.serializedBytes()))
        installationUpdatedAt.append(nowMs)
        for fix in step.result.storedFixes.lazy.map(StoredRows.Fix.init) {
            fixDevices.append(deviceId)
            fixInstallations.append(installId)
            fixSequences.append(fix.sequence)
            fixTimes.append(fix.timeMs)
            fixLatitudes.append(fix.latitudeE7.map(Int64.init) ?? PostgresSchema.absentCoordinate)
            fixLongitudes.append(fix.longitudeE7.map(Int64.init) ?? PostgresSchema.absentCoordinate)
            fixBodies.append(ByteBuffer(bytes: fix.body))
            fixReceivedAt.append(nowMs)
        }
        for event in step.result.storedEvents.lazy.map(StoredRows.FenceEvent.init) {
            eventDevices.append(deviceId)
            eventInstallations.append(installId)
            eventSequences.append(event.eventSequence)
            eventRegions.append(PostgresSchema.textColumn(event.regionId))
            eventKinds.append(event.kind)
            eventBodies.append(ByteBuffer(bytes: event.body))
            eventReceivedAt.append(nowMs)
        }
        for event in step.result.storedLifecycleEvents.lazy.map(StoredRows.LifecycleEvent.init) {
            lifecycleDevices.append(deviceId)
            lifecycleInstallations.append(installId)
            lifecycleKinds.append(event.kind)
            lifecycleTimes.append(event.timeMs)
            lifecycleBodies.append(ByteBuffer(bytes: event.body))
            lifecycleReceivedAt.append(nowMs)
        }
        if let status = StoredRows.DeviceStatus(waiting.batch) {
            statusDevices.append(deviceId)
            statusInstallations.append(installId)
            statusSentAt.append(status.sentAtMs)
            statusBodies.append(ByteBuffer(bytes: status.body))
            statusReceivedAt.append(nowMs)
        }
    }

    /// `$1` to `$30` of ``PostgresSchema/writeGroup``.
    func bindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 30)
        bindings.append(installationDevices)
        bindings.append(installationIds)
        bindings.append(installationRecords)
        bindings.append(installationUpdatedAt)
        bindings.append(fixDevices)
        bindings.append(fixInstallations)
        bindings.append(fixSequences)
        bindings.append(fixTimes)
        bindings.append(fixLatitudes)
        bindings.append(fixLongitudes)
        bindings.append(fixBodies)
        bindings.append(fixReceivedAt)
        bindings.append(eventDevices)
        bindings.append(eventInstallations)
        bindings.append(eventSequences)
        bindings.append(eventRegions)
        bindings.append(eventKinds)
        bindings.append(eventBodies)
        bindings.append(eventReceivedAt)
        bindings.append(lifecycleDevices)
        bindings.append(lifecycleInstallations)
        bindings.append(lifecycleKinds)
        bindings.append(lifecycleTimes)
        bindings.append(lifecycleBodies)
        bindings.append(lifecycleReceivedAt)
        bindings.append(statusDevices)
        bindings.append(statusInstallations)
        bindings.append(statusSentAt)
        bindings.append(statusBodies)
        bindings.append(statusReceivedAt)
        return bindings
    }
}

extension PostgresBindings {
    /// `$1` (device ids) and `$2` (install ids as BIGINT) of ``PostgresSchema/insertInstallationPlaceholders`` and
    /// ``PostgresSchema/lockInstallations``: the installations of `batches`.
    static func installationKeys(_ batches: [LocationBatch]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(batches.map(\.deviceId))
        bindings.append(batches.map { Int64(bitPattern: $0.installId) })
        return bindings
    }
}
