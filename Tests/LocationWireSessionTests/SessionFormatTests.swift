import Foundation
import LocationWire
import LocationWireGeometry
import LocationWireTestSupport
import Testing

@testable import LocationWireBehavior
@testable import LocationWireSession

/// The session engines' persisted states keep decoding after any change to their code: `session-formats.json`
/// (in Tests/Goldens/) holds bytes that the hand-written persistence code of commit 7df27bd encoded from the states
/// below, each set field by field (not through the engines, whose behaviour may change). Every sample must still
/// decode to exactly its state and re-encode to exactly its bytes: an app's stored upload queue and a server's
/// stored `InstallationRecord` BLOBs stay readable and unchanged. `Tests/peers/session_formats_check.py` reads the
/// same samples with upb and `proto/locationwire/session/v1/`, proving that the .proto describes these bytes.
@Suite struct SessionFormatTests {
    struct Sample {
        let name: String
        let typeName: String
        let bytes: [UInt8]
    }

    static func samples() throws -> [Sample] {
        let url = RepositoryData.goldens.appendingPathComponent("session-formats.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let rows = try #require(object?["samples"] as? [[String: Any]], "session-formats.json has no samples")
        return try rows.map { row in
            Sample(
                name: try #require(row["name"] as? String), typeName: try #require(row["type"] as? String),
                bytes: bytes(try #require(row["hex"] as? String)))
        }
    }

    /// Every sample's state, by the sample's name.
    static let states: [String: any LocationWireMessage] = [
        "upload-queue.new": UploadQueue(),
        "upload-queue.every-field": everyFieldQueue(),
        "upload-queue.zero-values": zeroValueQueue(),
        "ingest-ledger.two-installations": twoInstallationLedger(),
        "installation-record.every-field": everyFieldRecord(deviceId: "android-2", installId: 0x00C0_FFEE),
        "installation-record.new": InstallationRecord(),
        "recording-engine.new": RecordingEngine.State(),
        "recording-engine.every-field": everyFieldRecordingEngine(),
        "upload-scheduler.new": UploadScheduler.State(),
        "upload-scheduler.every-field": everyFieldUploadScheduler(),
        "fence-engine.new": FenceEngine.State(),
        "fence-engine.every-field": everyFieldFenceEngine(),
    ]

    static func observation(_ index: Int, speedCmS: UInt32? = nil) -> RecordingEngine.Observation {
        RecordingEngine.Observation(
            index: index, point: SpherePoint(latitudeE7: 460_511_000 + Int32(index), longitudeE7: -145_051_000),
            elapsedMs: UInt64(index) * 1000, speedCmS: speedCmS, accuracyCm: 500)
    }

    /// A recording engine's state with every field set: a window open, stationary, and a field 49233 (varint 1)
    /// of a newer engine, kept and written back last.
    static func everyFieldRecordingEngine() -> RecordingEngine.State {
        var state = RecordingEngine.State()
        state.bootId = 0xB007
        state.previousElapsedMs = 41_000
        state.bootStartMs = 1_000
        state.windowIndex = 2
        state.windowBest = observation(41, speedCmS: 0)
        state.lastRecorded = observation(30)
        state.anchor = observation(20, speedCmS: 140)
        state.previousMotion = observation(30)
        state.stationary = true
        state.unknownFields = UnknownFields(rawBytes: [0x88, 0x85, 0x18, 0x01])
        return state
    }

    /// An upload timer's state with every field set: a retry wait in force and a new boot's upload due.
    static func everyFieldUploadScheduler() -> UploadScheduler.State {
        var state = UploadScheduler.State()
        state.bootId = 0xB007
        state.bootStartMs = 1_000
        state.lastUploadMs = 61_000
        state.recordedCount = 12
        state.attemptCount = 3
        state.failuresInARow = 2
        state.retryAtMs = 63_000
        state.bootDueMs = 1_000
        state.unknownFields = UnknownFields(rawBytes: [0x88, 0x85, 0x18, 0x01])
        return state
    }

    /// A fence engine's state with two regions: one inside with a pending exit and its dwell reported, one
    /// unknown (side 0, written as nothing) with a pending time of 0, which is written.
    static func everyFieldFenceEngine() -> FenceEngine.State {
        var state = FenceEngine.State()
        state.bootId = 0xB007
        state.previousElapsedMs = 41_000
        state.nextEventSequence = 5
        state.assignmentVersion = 7
        var depot = FenceEngine.ArmedRegion()
        depot.region.id = "site:depot"
        depot.region.version = 2
        depot.region.circle = Circle()
        depot.region.circle?.centerLatitudeE7 = 460_511_000
        depot.region.circle?.centerLongitudeE7 = -145_051_000
        depot.region.circle?.radiusM = 200
        depot.region.notifyOnDwell = true
        depot.region.loiteringDelayMs = 60_000
        depot.side = .inside
        depot.pendingSinceMs = 36_000
        depot.stayStartMs = 10_000
        depot.dwellReported = true
        var yard = FenceEngine.ArmedRegion()
        yard.region.id = "site:yard"
        yard.region.circle = Circle()
        yard.region.circle?.radiusM = 50
        yard.pendingSinceMs = 0
        state.regions = [depot, yard]
        state.unknownFields = UnknownFields(rawBytes: [0x88, 0x85, 0x18, 0x01])
        return state
    }

    static let now: Int64 = 1_767_261_600_000

    static func fix(_ sequence: UInt64) -> LocationFix {
        var fix = LocationFix()
        fix.sequence = sequence
        fix.timeMs = now + Int64(sequence) * 1000
        fix.latitudeE7 = 460_511_000 + Int32(sequence)
        fix.longitudeE7 = -145_051_000
        fix.horizontalAccuracyCm = 500
        fix.elapsedRealtimeMs = sequence * 1000
        fix.bootId = 0xB007
        return fix
    }

    static func deviceStatus() -> DeviceStatus {
        var status = DeviceStatus()
        status.observedAtMs = now
        status.lowPowerMode = true
        status.platform = .ios
        status.osVersion = "26.1"
        return status
    }

    static func armedRegions() -> ArmedRegions {
        var armed = ArmedRegions()
        armed.assignmentVersion = 7
        armed.regionIds = ["site:depot"]
        armed.failedRegionIds = ["site:yard"]
        armed.failureReasons = [.slotLimit]
        return armed
    }

    /// A queue with every persisted field set (and an unknown field, which must survive).
    static func everyFieldQueue() -> UploadQueue {
        var queue = UploadQueue(deviceId: "ios-7F3A", installId: 0x1D5A_7F3A_0000_0001, datum: .gcj02)
        queue.items.fixes = ItemArray([fix(10), fix(11)])
        var event = FenceEvent()
        event.eventSequence = 4
        event.regionId = "site:depot"
        event.kind = .enter
        event.osEventTimeMs = now
        queue.items.fenceEvents = ItemArray([event])
        var lifecycle = LifecycleEvent()
        lifecycle.kind = .relaunchedBySystem
        lifecycle.timeMs = now - 5000
        queue.items.lifecycleEvents.append(QueuedLifecycleEvent(id: 3, event: lifecycle))
        queue.deviceStatus = deviceStatus()
        queue.deviceStatusReported = true
        queue.armedRegions = armedRegions()
        queue.armedRegionsReported = true
        queue.nextFixSequence = 12
        queue.nextEventSequence = 5
        queue.nextLifecycleId = 4
        queue.discardedFixCount = 2
        var policy = TrackingPolicy()
        policy.policyVersion = 3
        policy.maxBatchSize = 100
        policy.trackingEnabled = true
        queue.policy = policy
        var inFlight = BatchRecord()
        inFlight.batchId = 0x5EED
        inFlight.fixSequences = [10, 11]
        inFlight.eventSequences = [4]
        inFlight.lifecycleIds = [3]
        inFlight.deviceStatus = deviceStatus()
        inFlight.armedRegions = armedRegions()
        inFlight.encodedSize = 412
        inFlight.sentAtMs = now + 60_000
        var givenUp = BatchRecord()
        givenUp.batchId = 0x5EEC
        givenUp.fixSequences = [9]
        givenUp.encodedSize = 96
        givenUp.sentAtMs = now
        givenUp.givenUp = true
        queue.batches = [givenUp, inFlight]
        queue.holdUntilMs = now + 120_000
        queue.consecutiveFailures = 3
        queue.learntBatchBytes = 65_536
        queue.rowsOnly = true
        queue.serverRevision = 1
        queue.hintedAssignmentVersion = 8
        queue.highestExecutedCommandId = 21
        // Field 49233 (varint 1), as a newer engine might write it: kept and written back last.
        queue.unknownFields = UnknownFields(rawBytes: [0x88, 0x85, 0x18, 0x01])
        return queue
    }

    /// Fields that are written even when zero: a hold until time 0 and a batch whose id is 0.
    static func zeroValueQueue() -> UploadQueue {
        var queue = UploadQueue()
        queue.holdUntilMs = 0
        queue.batches = [BatchRecord()]
        return queue
    }

    static func everyFieldRecord(deviceId: String, installId: UInt64) -> InstallationRecord {
        var record = InstallationRecord()
        record.deviceId = deviceId
        record.installId = installId
        record.storedFixes = SequenceSet([1, 2, 3, 5, 300])
        record.rejectedFixes = SequenceSet([4])
        record.storedEvents = SequenceSet([1, 2])
        record.rejectedEvents = SequenceSet([3])
        record.fixFloor = 6
        record.eventFloor = 3
        record.lifecycleKinds = [LifecycleEventKind.launched.rawValue, LifecycleEventKind.deviceRebooted.rawValue, -1]
        record.lifecycleTimes = [now, now + 1, -2]
        return record
    }

    static func twoInstallationLedger() -> IngestLedger {
        IngestLedger(
            policy: IngestLedger.Policy(),
            records: [
                everyFieldRecord(deviceId: "ios-7F3A", installId: 2),
                everyFieldRecord(deviceId: "android-2", installId: 9),
            ])
    }

    /// Prints the bytes of every state (LOCWIRE_PRINT_SESSION_FORMATS=1): how a new format's samples were captured.
    @Test func printSamples() {
        guard ProcessInfo.processInfo.environment["LOCWIRE_PRINT_SESSION_FORMATS"] == "1" else { return }
        for (name, state) in Self.states.sorted(by: { $0.key < $1.key }) {
            print("SAMPLE \(name) \(type(of: state).fullMessageName) \(hex(state.serializedBytes()))")
        }
    }

    @Test func everyStateHasASample() throws {
        let names = Set(try Self.samples().map(\.name))
        #expect(names == Set(Self.states.keys))
    }

    @Test(arguments: try samples().map(\.name))
    func storedBytesDecodeToTheirStateAndReencodeUnchanged(name: String) throws {
        let sample = try #require(try Self.samples().first { $0.name == name })
        let state = try #require(Self.states[name], "no state for \(name)")
        try Self.check(state, sample)
    }

    static func check<Message: LocationWireMessage>(_ state: Message, _ sample: Sample) throws {
        #expect(Message.fullMessageName == sample.typeName, "\(sample.name): the sample is of another type")
        let decoded = try Message(serializedBytes: sample.bytes)
        #expect(decoded == state, "\(sample.name): the stored bytes decode to another state")
        #expect(hex(decoded.serializedBytes()) == hex(sample.bytes), "\(sample.name): re-encoding changes the bytes")
        #expect(hex(state.serializedBytes()) == hex(sample.bytes), "\(sample.name): the state encodes to other bytes")
    }
}
