import LocationWire
import LocationWireBehavior
import LocationWireSession
import Testing

@testable import LocationWireDevice

/// One batch at a time, durable before it is sent, and the answer carried out: apart from recording and regions.
@Suite struct DeviceUploadsTests {
    let configuration = DeviceConfiguration(deviceId: "device-1", requestsRegions: false)

    func setUp(_ transport: LedgerTransport, fixes: Int) throws -> (DeviceState, DeviceRegions, DeviceUploads) {
        let state = try DeviceState(directory: temporaryStore(), configuration: configuration)
        let walked = walk(fixes)
        for fix in walked { try state.recordFix(fix, atMs: fix.elapsedRealtimeMs ?? 0) }
        try state.saveQueue()
        try state.commit()
        let last = walked.last!
        state.clock = DeviceClock(bootId: last.bootId, elapsedMs: last.elapsedRealtimeMs ?? 0, wallMs: last.timeMs)
        let regions = DeviceRegions(state: state, transport: transport)
        return (state, regions, DeviceUploads(state: state, regions: regions, transport: transport))
    }

    @Test func anAttemptSendsWhatIsDurableAndDeletesWhatTheAckStored() throws {
        let transport = LedgerTransport()
        let (state, _, uploads) = try setUp(transport, fixes: 5)
        let commitsBefore = state.commits
        #expect(uploads.attempt() == .succeeded)
        try uploads.afterUploads()
        #expect(transport.stored.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(state.queue.items.fixes.count == 0)
        #expect(state.record.fixesAcknowledged == 5)
        #expect(state.commits == commitsBefore + 2, "one commit before the send, one after the answer")
    }

    @Test func aFailureKeepsEverythingAndHoldsTheNextAttempt() throws {
        let transport = LedgerTransport()
        transport.scripted = [HTTPAnswer(status: 503, headers: ["retry-after": "7"])]
        let (state, _, uploads) = try setUp(transport, fixes: 3)
        #expect(uploads.attempt() == .held(retryAfterMs: 7_000))
        #expect(state.queue.items.fixes.count == 3)
        #expect(uploads.attempt() == .held(retryAfterMs: 7_000), "nothing is sent while the wait runs")
        #expect(transport.requests == 1)
    }

    @Test func aRefusedTokenStopsAttemptsUntilTheCredentialsChange() throws {
        let transport = LedgerTransport()
        transport.scripted = [HTTPAnswer(status: 401)]
        let (state, _, uploads) = try setUp(transport, fixes: 2)
        _ = uploads.attempt()
        #expect(uploads.credentialsRefused)
        #expect(try uploads.drain(maxAttempts: 10, wait: { _ in }) == false)
        #expect(transport.requests == 1)
        transport.credentials = "token-b"
        #expect(try uploads.drain(maxAttempts: 10, wait: { _ in }))
        #expect(state.queue.items.fixes.count == 0)
    }

    @Test func anAckHintOwesARegionRequestAndCommandsAreTaken() throws {
        let transport = LedgerTransport()
        transport.adjust = { $0.latestAssignmentVersion = 9 }
        var uploadNow = DeviceCommand()
        uploadNow.commandId = 1
        uploadNow.kind = .uploadNow
        transport.commands = [uploadNow]
        let state = try DeviceState(
            directory: temporaryStore(), configuration: DeviceConfiguration(deviceId: "device-1"))
        try state.recordFix(walk(1)[0], atMs: 0)
        let regions = DeviceRegions(state: state, transport: transport)
        let uploads = DeviceUploads(state: state, regions: regions, transport: transport)
        _ = uploads.attempt()
        #expect(state.record.owedRegionRequest == UInt32(RegionRequestReason.serverHint.rawValue))
        #expect(state.record.uploadNowOwed)
    }

    /// Waits pass on the device clock: a drain that waits out a back-off moves the clock by the wait.
    @Test func aDrainWaitsOnTheDeviceClock() throws {
        let transport = LedgerTransport()
        transport.scripted = [HTTPAnswer(status: 503, headers: ["retry-after": "5"])]
        let (state, _, uploads) = try setUp(transport, fixes: 2)
        let before = state.clock!.wallMs
        var waited: [UInt64] = []
        #expect(try uploads.drain(maxAttempts: 5, wait: { waited.append($0) }))
        #expect(waited == [5_000])
        #expect(state.clock!.wallMs == before + 5_000)
    }
}
