import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireDevice
import LocationWireSession
import Testing

/// A server in the process: the reference ingest ledger behind whatever HTTP answers a test scripts. Every fix the
/// ledger stores is kept, so a test can check that nothing was lost or stored twice.
final class LedgerTransport: DeviceTransport {
    var ledger = IngestLedger()
    var stored: [LocationFix] = []
    /// Answers to give instead of the ledger's, one per request, in order (nil: the ledger answers).
    var scripted: [HTTPAnswer?] = []
    /// When true, the ledger stores the batch and the answer is lost (a reset after the commit).
    var dropAfterCommit = false
    var requests = 0
    /// The device status of each batch that carried one.
    var statuses: [DeviceStatus] = []
    /// Commands every ack of the ledger carries.
    var commands: [DeviceCommand] = []
    /// Changes every ack of the ledger before it is sent.
    var adjust: (inout BatchAck) -> Void = { _ in }
    /// The credentials the transport sends (`credentialFingerprint`), and those each batch request went with.
    var credentials = "token-a"
    var batchCredentials: [String] = []
    /// Requests to `/v1/regions`, answered 404 `not-offered`.
    var regionRequests = 0

    var credentialFingerprint: String { credentials }

    /// A server that answers 503 to everything (until `scripted` is emptied).
    static func offline() -> LedgerTransport {
        let transport = LedgerTransport()
        transport.scripted = Array(repeating: HTTPAnswer(status: 503), count: 100_000)
        return transport
    }

    func post(path: String, messageName: String, body: [UInt8]) -> Result<HTTPAnswer, TransportFailure> {
        requests += 1
        guard path == "/v1/batches" else {
            regionRequests += 1
            return .success(HTTPAnswer(status: 404, body: Array(#"{"code":"not-offered","message":"-"}"#.utf8)))
        }
        batchCredentials.append(credentials)
        if !scripted.isEmpty, let answer = scripted.removeFirst() { return .success(answer) }
        guard let batch = try? LocationBatch(serializedBytes: body) else { return .success(HTTPAnswer(status: 400)) }
        let result = ledger.ingest(batch, encodedSize: body.count, nowMs: 0)
        stored += result.storedFixes
        if let status = batch.deviceStatus { statuses.append(status) }
        if dropAfterCommit { return .failure(TransportFailure("reset after commit")) }
        var ack = result.ack
        ack.commands = commands
        adjust(&ack)
        return .success(HTTPAnswer(status: 200, body: ack.serializedBytes()))
    }
}

/// A walk that records a fix at every delivery under a policy of 1 m distance and 1 s intervals.
func walk(_ count: Int, bootId: UInt64 = 1, startMs: UInt64 = 10_000) -> [LocationFix] {
    (0..<count).map { step in
        var fix = LocationFix()
        fix.timeMs = 1_700_000_000_000 + Int64(step) * 5_000
        fix.elapsedRealtimeMs = startMs + UInt64(step) * 5_000
        fix.bootId = bootId
        fix.latitudeE7 = 525_200_000 + Int32(step) * 1_000
        fix.longitudeE7 = 134_050_000
        fix.horizontalAccuracyCm = 500
        return fix
    }
}

func temporaryStore() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("device-test-\(UUID().uuidString)").path
    return path
}

@Suite struct DeviceTests {
    let configuration = DeviceConfiguration(deviceId: "device-1", requestsRegions: false)

    /// The configuration with a policy that records every fix of ``walk(_:bootId:startMs:)`` in batches of at most
    /// `maxBatchSize`.
    func configuration(maxBatchSize: UInt32) -> DeviceConfiguration {
        var small = configuration
        var policy = TrackingPolicy()
        policy.maxBatchSize = maxBatchSize
        policy.distanceIntervalM = 1
        small.initialPolicy = policy
        return small
    }

    @Test func everyRecordedFixReachesTheLedgerOnce() throws {
        let transport = LedgerTransport()
        let device = try LocationDevice(store: temporaryStore(), configuration: configuration, transport: transport)
        var source = TraceReplay(walk(200))
        try device.run(&source)
        #expect(source.reachedTheEnd)
        #expect(try device.drain())
        let summary = device.summary
        #expect(summary.recorded > 0)
        #expect(summary.pendingFixes == 0)
        #expect(transport.stored.map(\.sequence) == Array(1...summary.recorded))
    }

    @Test func aRelaunchGoesOnFromTheStore() throws {
        let store = temporaryStore()
        let transport = LedgerTransport()
        transport.scripted = Array(repeating: HTTPAnswer(status: 503), count: 1000)
        let fixes = walk(100)
        var recorded: UInt64 = 0
        do {
            let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
            for fix in fixes.prefix(60) { try device.deliver(fix) }
            recorded = device.summary.recorded
            #expect(device.summary.pendingFixes == Int(recorded), "a server answering 503 deletes nothing")
        }
        transport.scripted = []
        let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
        #expect(device.delivered == 60)
        #expect(device.summary.launches == 2)
        #expect(try device.pendingFixSequences == Array(1...recorded), "what the first launch recorded is all there")
        for fix in fixes.dropFirst(60) { try device.deliver(fix) }
        try device.finish()
        #expect(try device.drain())
        let sequences = transport.stored.map(\.sequence)
        #expect(sequences.sorted() == Array(1...device.summary.recorded), "sequences go on; none reused or lost")
    }

    @Test func groupedSyncLosesOnlyWhatWasNeverReportedOrSent() throws {
        let store = temporaryStore()
        let transport = LedgerTransport()
        transport.scripted = Array(repeating: HTTPAnswer(status: 503), count: 1000)
        var grouped = configuration
        grouped.sync = .grouped(milliseconds: 3_600_000)
        var reported: [UInt64] = []
        do {
            let device = try LocationDevice(store: store, configuration: grouped, transport: transport)
            device.recordedDurably = { reported += $0.map(\.sequence) }
            // A batch goes out (and fails) now and then, and every send commits first.
            for fix in walk(40) { try device.deliver(fix) }
            // The device object goes away without a commit: an app killed.
        }
        let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
        #expect(try device.pendingFixSequences == reported, "exactly what was reported durable survives")
    }

    @Test(arguments: [
        (HTTPAnswer(status: 413, body: Array(#"{"code":"body-too-large","maxBatchBytes":20000}"#.utf8)), "too-large"),
        (HTTPAnswer(status: 429, headers: ["retry-after": "7"]), "hold"),
        (HTTPAnswer(status: 401), "refused"),
        (HTTPAnswer(status: 500), "kept"),
        (HTTPAnswer(status: 200, body: [0xff]), "kept"),
    ])
    func statusesKeepEverythingButA200Ack(answer: HTTPAnswer, kind: String) throws {
        let transport = LedgerTransport()
        transport.scripted = [answer]
        let device = try LocationDevice(store: temporaryStore(), configuration: configuration, transport: transport)
        try device.deliver(walk(1)[0])
        try device.finish()
        _ = try device.drain(maxAttempts: 1)
        #expect(device.summary.pendingFixes == 1, "\(kind): nothing deleted")
        #expect(transport.stored.isEmpty)
    }

    /// The queue's items live in the store, and a batch of at most 4 fixes reads only those it takes: what goes out,
    /// and in what order, is still what the rules say of the whole queue.
    @Test func theQueueLivesOnDisk() throws {
        let store = temporaryStore()
        let transport = LedgerTransport()
        let small = configuration(maxBatchSize: 4)
        let offline = LedgerTransport.offline()
        do {
            let device = try LocationDevice(store: store, configuration: small, transport: offline)
            for fix in walk(120) { try device.deliver(fix) }
            #expect(try device.pendingFixSequences.count == device.summary.pendingFixes)
            #expect(device.summary.pendingFixes == Int(device.summary.recorded))
        }
        let device = try LocationDevice(store: store, configuration: small, transport: transport)
        #expect(try device.drain())
        let sequences = transport.stored.map(\.sequence)
        #expect(sequences.sorted() == Array(1...device.summary.recorded), "every fix once, none left on disk")
        // Each batch: the oldest three pending as backlog, the newest as the live fix (§batch-composition).
        let firstBatch = Array(sequences.prefix(4))
        #expect(firstBatch == [1, 2, 3, device.summary.recorded])
    }

    @Test func aDeviceStatusIsSentUntilStoredAndSurvivesARelaunch() throws {
        let store = temporaryStore()
        let transport = LedgerTransport()
        var status = DeviceStatus()
        status.observedAtMs = 1_700_000_000_000
        status.lowPowerMode = true
        do {
            let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
            try device.update(status)
        }
        let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
        try device.deliver(walk(1)[0])
        try device.finish()
        #expect(try device.drain())
        #expect(transport.statuses == [status], "sent once, after the relaunch, and not again once stored")
    }

    @Test func aLostAnswerIsResentAndStoredOnce() throws {
        let transport = LedgerTransport()
        transport.dropAfterCommit = true
        let device = try LocationDevice(store: temporaryStore(), configuration: configuration, transport: transport)
        for fix in walk(30) { try device.deliver(fix) }
        transport.dropAfterCommit = false
        try device.finish()
        #expect(try device.drain())
        let sequences = transport.stored.map(\.sequence)
        #expect(Set(sequences).count == sequences.count, "the ledger answers DUPLICATE to a resend")
        #expect(sequences.sorted() == Array(1...device.summary.recorded))
    }

    /// On a full disk the device discards its oldest pending fixes, a batch's worth at a time, and goes on: the
    /// newest are kept, the server stores each of them once, and the floor shows it exactly the fixes discarded.
    @Test func aFullDiskDiscardsTheOldestFixesAndGoesOn() throws {
        let small = configuration(maxBatchSize: 20)
        let offline = LedgerTransport.offline()
        let device = try LocationDevice(store: temporaryStore(), configuration: small, transport: offline)
        let fixes = walk(3_000)
        for fix in fixes.prefix(100) { try device.deliver(fix) }
        try device.limitStoreGrowth(toPages: 8)
        for fix in fixes.dropFirst(100) { try device.deliver(fix) }
        try device.finish()
        let summary = device.summary
        #expect(summary.discarded > 0, "the cap was reached")
        #expect(summary.discarded % 20 == 0, "a batch's worth at a time")
        #expect(UInt64(summary.pendingFixes) + summary.discarded == summary.recorded)
        let pending = try device.pendingFixSequences
        #expect(pending == Array((summary.discarded + 1)...summary.recorded), "the oldest went, the newest stayed")

        offline.scripted = []  // back online
        #expect(try device.drain())
        let stored = offline.stored.map(\.sequence)
        #expect(stored.sorted() == pending, "each kept fix stored once")
        let key = IngestLedger.InstallationKey(deviceId: "device-1", installId: device.installId)
        #expect(offline.ledger.lostFixes(of: key) == [1...summary.discarded], "the server sees the loss")
    }

    /// A configuration under which nothing is recorded by distance: only fixes a command asks for stand out.
    var quiet: DeviceConfiguration {
        var quiet = configuration
        var policy = TrackingPolicy()
        policy.distanceIntervalM = 10_000
        quiet.initialPolicy = policy
        return quiet
    }

    func recordFixCommand(id: UInt64) -> DeviceCommand {
        var command = DeviceCommand()
        command.commandId = id
        command.kind = .recordFix
        return command
    }

    /// `RECORD_FIX` (`§commands`, `§rec-requested`): the next fix the filters let through is recorded with reason
    /// `SERVER_REQUEST`, once, however often acks repeat the command.
    @Test func recordFixRecordsTheNextGoodFixOnce() throws {
        let transport = LedgerTransport()
        transport.commands = [recordFixCommand(id: 5)]
        let device = try LocationDevice(store: temporaryStore(), configuration: quiet, transport: transport)
        var fixes = walk(6)
        fixes[2].horizontalAccuracyCm = 0  // fails the accuracy filter: the command waits for the next fix
        try device.deliver(fixes[0])
        try device.deliver(fixes[1])
        #expect(try device.drain(), "the ack carries the command")
        for fix in fixes[2...4] { try device.deliver(fix) }
        #expect(try device.drain(), "the ack carries it again, under the same id")
        try device.deliver(fixes[5])
        try device.finish()
        #expect(try device.drain())
        let requested = transport.stored.filter { $0.reason == .serverRequest }
        #expect(requested.map(\.timeMs) == [fixes[3].timeMs], "the first good fix after the command, once")
    }

    /// `§http-credentials`: after a 401 nothing is sent with the refused token, across a relaunch too; another
    /// token resumes the uploads.
    @Test func aRefusedTokenStopsUploadsUntilAnotherComes() throws {
        let store = temporaryStore()
        let transport = LedgerTransport()
        transport.scripted = [HTTPAnswer(status: 401)]
        do {
            let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
            for fix in walk(5) { try device.deliver(fix) }
            try device.finish()
            #expect(try device.drain() == false)
        }
        let device = try LocationDevice(store: store, configuration: configuration, transport: transport)
        #expect(try device.drain() == false)
        #expect(transport.batchCredentials == ["token-a"], "one request with the refused token, then none")
        transport.credentials = "token-b"
        #expect(try device.drain())
        #expect(transport.batchCredentials.dropFirst().allSatisfy { $0 == "token-b" })
    }

    /// `§http-regions-absent`: a 404 from `/v1/regions` stops region requests, however often acks hint at a newer
    /// assignment.
    @Test func regionsNotOfferedAreNotAskedForAgain() throws {
        let transport = LedgerTransport()
        var hint: UInt64 = 1
        transport.adjust = { ack in
            hint += 1
            ack.latestAssignmentVersion = hint
        }
        var asking = configuration
        asking.requestsRegions = true
        let device = try LocationDevice(store: temporaryStore(), configuration: asking, transport: transport)
        for fix in walk(40) { try device.deliver(fix) }
        try device.finish()
        #expect(try device.drain())
        #expect(transport.regionRequests == 1, "asked once, answered 404, never again")
    }

    /// `§wait-clock`: a wait runs on the monotonic clock: a fix whose time jumps an hour ahead does not end a
    /// Retry-After of a minute; the minute on the monotonic clock does.
    @Test func waitsRunOnTheMonotonicClock() throws {
        let transport = LedgerTransport()
        transport.scripted = [HTTPAnswer(status: 503, headers: ["retry-after": "60"])]
        var eager = configuration(maxBatchSize: 1)
        eager.initialPolicy?.uploadIntervalMs = 1000
        let device = try LocationDevice(store: temporaryStore(), configuration: eager, transport: transport)
        var fixes = walk(20)
        try device.deliver(fixes[0])
        #expect(transport.requests == 1, "the first fix goes out at once, and gets the 503")
        for index in 1..<6 {
            fixes[index].timeMs += 3_600_000  // the clock was set an hour ahead
            try device.deliver(fixes[index])
        }
        #expect(transport.requests == 1, "25 s on the monotonic clock: the minute has not passed")
        for fix in fixes[6..<20] { try device.deliver(fix) }
        #expect(transport.requests > 1, "after 60 s of monotonic time the device sends again")
    }

    /// `§policy-in-acks`, `§commands`: a newer policy in the ack of an upload the timer made (not a drain) is taken
    /// once the timer returns: the engines go on under it, and the next fixes are recorded by its rules.
    @Test func aPolicyInATimedUploadsAckIsTaken() throws {
        func recorded(policyInAcks: Bool) throws -> UInt64 {
            let transport = LedgerTransport()
            if policyInAcks {
                transport.adjust = { ack in
                    var policy = TrackingPolicy()
                    policy.policyVersion = 2
                    policy.uploadIntervalMs = 20_000
                    policy.distanceIntervalM = 10_000  // nothing more recorded by distance
                    ack.trackingPolicy = policy
                }
            }
            var timed = configuration
            var policy = TrackingPolicy()
            policy.policyVersion = 1
            policy.uploadIntervalMs = 20_000
            timed.initialPolicy = policy
            let device = try LocationDevice(store: temporaryStore(), configuration: timed, transport: transport)
            for fix in walk(60) { try device.deliver(fix) }
            try device.finish()
            #expect(try device.drain())
            #expect(transport.requests > (policyInAcks ? 0 : 1), "the timer uploaded during the walk")
            return device.summary.recorded
        }
        let unchanged = try recorded(policyInAcks: false)
        let changed = try recorded(policyInAcks: true)
        #expect(changed < unchanged / 2, "after the first timed upload, the new policy's distance interval holds")
    }

    /// `§command-once`, `§command-kinds`: a RECORD_FIX taken from an ack and not yet carried out when the app is
    /// killed is carried out after the relaunch, once; the same command id in later acks is not run again.
    @Test func aCommandRunsOnceAcrossAKill() throws {
        let store = temporaryStore()
        let transport = LedgerTransport()
        transport.commands = [recordFixCommand(id: 9)]
        let fixes = walk(6)
        do {
            let device = try LocationDevice(store: store, configuration: quiet, transport: transport)
            try device.deliver(fixes[0])
            #expect(try device.drain(), "the ack carries the command; the app is killed before the next fix")
        }
        let device = try LocationDevice(store: store, configuration: quiet, transport: transport)
        for fix in fixes.dropFirst() { try device.deliver(fix) }
        try device.finish()
        #expect(try device.drain())
        let requested = transport.stored.filter { $0.reason == .serverRequest }
        #expect(requested.map(\.timeMs) == [fixes[1].timeMs], "run after the relaunch, once")
    }
}
