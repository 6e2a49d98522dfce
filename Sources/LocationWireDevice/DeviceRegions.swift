import LocationWire
import LocationWireBehavior
import LocationWireGeometry
import LocationWireHTTPBinding
import LocationWireSession

/// The device's regions: when it owes a request (proto/README.md "Assignment lifecycle"), asking
/// `POST /v1/regions`, holding the answer (`HeldAssignment`) and arming what fits the slots (`§arm-order`) in the
/// fence engine and in the report to the server. What it owes is in the device's record, so that a kill between
/// the trigger and the answer does not lose it; the regions held are stored with the queue's report of them.
final class DeviceRegions {
    private let state: DeviceState
    private let transport: any DeviceTransport
    /// The latest fix good enough to plan regions around (accuracy and a position), for region requests.
    private(set) var lastPosition: LocationFix?
    /// The server answered 404 to a region request: no more are sent until the app starts anew
    /// (`§http-regions-absent`).
    private(set) var notOffered = false

    /// Called after each region request with what was sent and answered.
    var exchanged: ((RegionExchange) -> Void)?

    init(state: DeviceState, transport: any DeviceTransport) {
        self.state = state
        self.transport = transport
    }

    private var configuration: DeviceConfiguration { state.configuration }

    /// Owes a request for `reason` (after a hint, a command, an entry into a refine-on-entry region), unless the
    /// device asks for none or the server offers none.
    func owe(_ reason: RegionRequestReason, regionId: String = "") {
        guard configuration.requestsRegions, !notOffered else { return }
        state.record.owedRegionRequest = UInt32(reason.rawValue)
        state.record.refineRegionId = regionId
    }

    /// Whether a request for an entry into a refine-on-entry region is owed: it is sent at once.
    var owesRefinement: Bool {
        state.record.owedRegionRequest == UInt32(RegionRequestReason.refineOnEntry.rawValue)
    }

    /// Takes a delivered fix as the position to plan around when it has one and says how good it is.
    func noteFix(_ fix: LocationFix) {
        if fix.horizontalAccuracyCm != nil, fix.latitudeE7 != nil, fix.longitudeE7 != nil { lastPosition = fix }
    }

    /// A fence event recorded: an entry into a refine-on-entry region owes a request.
    func noteEvent(_ event: FenceEvent) {
        let held = state.held
        if event.kind == .enter, held.refresh?.onRefineEntry == true,
            held.regions[event.regionId]?.refineOnEntry == true
        {
            owe(.refineOnEntry, regionId: event.regionId)
        }
    }

    /// Checks the refresh triggers (distance from the anchor, expiry), then sends the request owed, if any and
    /// `min_interval_ms` allows, and arms the answer.
    func requestIfOwed() throws {
        guard configuration.requestsRegions, let position = lastPosition, let clock = state.clock else { return }
        let held = state.held
        if held.version != 0, state.record.owedRegionRequest == 0 {
            if held.expiresAtMs > 0, clock.wallMs >= held.expiresAtMs {
                owe(.expired)
            } else if let refresh = held.refresh, let distance = refresh.refreshDistanceM,
                let latitude = refresh.anchorLatitudeE7, let longitude = refresh.anchorLongitudeE7
            {
                let anchor = SpherePoint(latitudeE7: latitude, longitudeE7: longitude)
                let here = SpherePoint(latitudeE7: position.latitudeE7 ?? 0, longitudeE7: position.longitudeE7 ?? 0)
                if here.distanceM(to: anchor) > Double(distance) { owe(.movedBeyondRadius) }
            }
        }
        guard state.record.owedRegionRequest != 0 else { return }
        let minimumMs = UInt64(held.refresh?.minIntervalMs ?? 0)
        if state.record.regionRequests > 0, state.record.lastRegionRequestBootId == clock.bootId,
            clock.elapsedMs < state.record.lastRegionRequestMs + minimumMs
        {
            return
        }
        let request = makeRequest(position: position, clock: clock)
        state.record.regionRequests += 1
        state.record.lastRegionRequestMs = clock.elapsedMs
        state.record.lastRegionRequestBootId = clock.bootId
        let answer = transport.post(
            path: Binding.regionsPath, messageName: "RegionRequest", body: request.serializedBytes())
        var exchange = RegionExchange(beforeDelivery: state.record.delivered, request: request)
        defer { exchanged?(exchange) }
        guard case .success(let http) = answer, http.status == 200,
            let assignment = try? RegionAssignment(serializedBytes: http.body)
        else {
            if case .success(let http) = answer {
                exchange.status = http.status
                switch http.status {
                case 404:
                    // The server offers no regions: asking again is useless until the app starts anew
                    // (`§http-regions-absent`).
                    notOffered = true
                    state.record.owedRegionRequest = 0
                case 401, 403: state.record.refusedToken = transport.credentialFingerprint
                default: break
                }
            }
            try state.saveRecord()
            return  // else still owed; tried again at the next fix after min_interval_ms
        }
        exchange.status = 200
        exchange.assignment = assignment
        state.record.owedRegionRequest = 0
        state.record.refineRegionId = ""
        if let refusal = state.held.apply(assignment) {
            if refusal.requestsFullAssignment { owe(.deltaRejected) }
        } else {
            try state.saveHeldAssignment()
            armHeld()
            // The armed-regions report is part of the queue's state: stored with the regions it reports.
            try state.saveQueue()
            exchange.armed = state.queue.armedRegions
        }
        try state.saveRecord()
    }

    private func makeRequest(position: LocationFix, clock: DeviceClock) -> RegionRequest {
        var request = RegionRequest()
        request.deviceId = state.record.deviceId
        request.reason = RegionRequestReason(rawValue: Int32(state.record.owedRegionRequest))
        var current = position
        current.sequence = 0
        request.currentFix = current
        request.platformSlotLimit = configuration.platformSlotLimit
        request.reservedAppSlots = configuration.reservedAppSlots
        request.armed = state.queue.armedRegions ?? ArmedRegions()
        request.refineRegionId = state.record.refineRegionId
        request.datum = .wgs84
        request.sentAtMs = clock.wallMs
        request.platform = configuration.platform
        return request
    }

    /// An expired assignment arms nothing (`§fence-assignment`, `§arm-off`): its regions are disarmed before the
    /// first fix at or after its expiry, reporting nothing, even while the request for a new one goes unanswered.
    func disarmIfExpired(at fix: LocationFix) throws {
        // (Disarming at an uncounted fix too changes nothing: such a fix reports nothing either way.)
        let held = state.held
        guard held.expiresAtMs > 0, fix.timeMs >= held.expiresAtMs, !state.fences.armedRegionIds.isEmpty else {
            return
        }
        armHeld(nowMs: fix.timeMs)
        try state.saveQueue()
    }

    /// Arms the held regions within the slots (`§arm-order`), in the fence engine and in the report to the server.
    private func armHeld(nowMs: Int64? = nil) {
        let slots = Int(configuration.platformSlotLimit) - Int(configuration.reservedAppSlots)
        let position = lastPosition.map {
            SpherePoint(latitudeE7: $0.latitudeE7 ?? 0, longitudeE7: $0.longitudeE7 ?? 0)
        }
        let armed = Arming.arm(
            state.held.fullAssignment, slots: slots, position: position, nowMs: nowMs ?? state.wallMs())
        let keep = Set(armed.regionIds)
        state.fences.disarm(state.fences.armedRegionIds.filter { !keep.contains($0) })
        state.fences.arm(armed.regionIds.compactMap { state.held.regions[$0] })
        state.fences.assignmentVersion = state.held.version
        state.queue.update(armed)
    }
}
