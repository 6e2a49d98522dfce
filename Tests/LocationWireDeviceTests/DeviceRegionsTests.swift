import LocationWire
import LocationWireBehavior
import LocationWireSession
import Testing

@testable import LocationWireDevice

/// A server that answers every region request with `answer` (and records the requests).
final class RegionServer: DeviceTransport {
    var answer: HTTPAnswer
    var requests: [RegionRequest] = []
    var credentialFingerprint: String { "token" }

    init(answer: HTTPAnswer) { self.answer = answer }

    func post(path: String, messageName: String, body: [UInt8]) -> Result<HTTPAnswer, TransportFailure> {
        if let request = try? RegionRequest(serializedBytes: body) { requests.append(request) }
        return .success(answer)
    }
}

/// When the device asks for regions, and what it does with the answer, apart from uploads and recording.
@Suite struct DeviceRegionsTests {
    let configuration = DeviceConfiguration(deviceId: "device-1", platformSlotLimit: 20)

    /// A full assignment of one 200 m circle around the walk's start.
    static func assignment(version: UInt64 = 1) -> RegionAssignment {
        var circle = Circle()
        circle.centerLatitudeE7 = 525_200_000
        circle.centerLongitudeE7 = 134_050_000
        circle.radiusM = 200
        var region = Region()
        region.id = "site:start"
        region.circle = circle
        var assignment = RegionAssignment()
        assignment.assignmentVersion = version
        assignment.mode = .fullReplacement
        assignment.regions = [region]
        assignment.slotBudget = 20
        assignment.datum = .wgs84
        return assignment
    }

    func setUp(_ server: RegionServer, directory: String = temporaryStore()) throws -> (DeviceState, DeviceRegions) {
        let state = try DeviceState(directory: directory, configuration: configuration)
        let fix = walk(1)[0]
        state.clock = DeviceClock(bootId: fix.bootId, elapsedMs: fix.elapsedRealtimeMs ?? 0, wallMs: fix.timeMs)
        let regions = DeviceRegions(state: state, transport: server)
        regions.noteFix(fix)
        return (state, regions)
    }

    @Test func anOwedRequestIsSentWithThePositionAndItsAnswerArmed() throws {
        let server = RegionServer(answer: HTTPAnswer(status: 200, body: Self.assignment().serializedBytes()))
        let directory = temporaryStore()
        let (state, regions) = try setUp(server, directory: directory)
        try regions.requestIfOwed()
        #expect(server.requests.isEmpty, "nothing owed, nothing asked")
        regions.owe(.initial)
        var exchanges: [RegionExchange] = []
        regions.exchanged = { exchanges.append($0) }
        try regions.requestIfOwed()
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.reason == .initial)
        #expect(server.requests.first?.currentFix?.latitudeE7 == 525_200_000)
        #expect(state.record.owedRegionRequest == 0)
        #expect(state.fences.armedRegionIds.sorted() == ["site:start"])
        #expect(state.queue.armedRegions?.regionIds == ["site:start"], "reported to the server with the next batch")
        #expect(exchanges.first?.armed?.regionIds == ["site:start"])
        try state.commit()
        let reopened = try DeviceState(directory: directory, configuration: configuration)
        #expect(reopened.held.version == 1, "the regions held are stored")
    }

    @Test func aFailedRequestStaysOwed() throws {
        let server = RegionServer(answer: HTTPAnswer(status: 503))
        let (state, regions) = try setUp(server)
        regions.owe(.serverHint)
        try regions.requestIfOwed()
        #expect(state.record.owedRegionRequest == UInt32(RegionRequestReason.serverHint.rawValue), "still owed")
        try regions.requestIfOwed()
        #expect(server.requests.count == 2, "no interval is held before any assignment states one")
    }

    @Test func a404EndsRequestsForThisLaunch() throws {
        let server = RegionServer(answer: HTTPAnswer(status: 404))
        let (state, regions) = try setUp(server)
        regions.owe(.initial)
        try regions.requestIfOwed()
        #expect(regions.notOffered)
        #expect(state.record.owedRegionRequest == 0)
        regions.owe(.serverHint)
        try regions.requestIfOwed()
        #expect(server.requests.count == 1, "§http-regions-absent")
    }

    @Test func anEntryIntoARefineOnEntryRegionOwesARefinement() throws {
        var assignment = Self.assignment()
        assignment.regions[0].refineOnEntry = true
        var refresh = RefreshPolicy()
        refresh.onRefineEntry = true
        assignment.refresh = refresh
        let server = RegionServer(answer: HTTPAnswer(status: 200, body: assignment.serializedBytes()))
        let (_, regions) = try setUp(server)
        regions.owe(.initial)
        try regions.requestIfOwed()
        var entry = FenceEvent()
        entry.kind = .enter
        entry.regionId = "site:start"
        regions.noteEvent(entry)
        #expect(regions.owesRefinement)
    }
}
