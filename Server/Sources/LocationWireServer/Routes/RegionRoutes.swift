import Hummingbird
import LocationWire
import LocationWireBehavior
import LocationWireHTTP
import LocationWireSession
import LocationWireValidation

/// `POST /v1/regions`: a `RegionRequest` in, the planner's `RegionAssignment` out (proto/BEHAVIOR.md, region
/// planning). Registered only when the server has a catalogue (else the routing answers `not-offered`). What the
/// device holds after each answer is kept, so the next plan can be a delta of it (`§http-regions-held`).
struct RegionRoutes: Sendable {
    let reader: RequestReader
    let storage: any ServerStorage
    let planner: RegionPlanner

    /// - Parameter device: the device the request's bearer token belongs to.
    func postRegionRequest(_ request: Request, device: String) async throws(Refusal) -> Response {
        let (regionRequest, format, _) = try await reader.readMessage(RegionRequest.self, from: request)
        guard regionRequest.deviceId == device else { throw .deviceMismatch("this request's device_id") }
        if let violation = validate(regionRequest).first(where: { $0.severity == .error }) {
            throw Refusal(
                status: .badRequest,
                body: ErrorBody(
                    code: violation.code.rawValue, fieldPath: "\(violation.path)", message: violation.message))
        }
        // Validation has checked a present fix's coordinates; planning needs one (`§http-regions-position`).
        let mutant = reader.configuration.plantedMutant
        let position =
            mutant == .planWithoutFix && regionRequest.currentFix == nil ? LocationFix.origin : regionRequest.currentFix
        guard let fix = position, let latitudeE7 = fix.latitudeE7, let longitudeE7 = fix.longitudeE7
        else {
            throw Refusal(
                status: .badRequest,
                body: ErrorBody(
                    code: ErrorBody.Code.requiredFieldMissing, fieldPath: "RegionRequest.current_fix",
                    message: "the planner needs the device's position: current_fix with latitude and longitude"))
        }
        let configuration = reader.configuration
        let nowMs = configuration.nowMs()
        let budget = Int(regionRequest.platformSlotLimit) - Int(regionRequest.reservedAppSlots)
        let assignment: RegionAssignment
        do {
            let previous = try await storage.lastAssignment(deviceId: device)
            assignment = planner.plan(
                latitudeE7: latitudeE7, longitudeE7: longitudeE7, slotBudget: budget, nowMs: nowMs,
                previous: previous)
            let held = mutant == .deltaAsPrevious ? assignment : Self.heldSet(previous: previous, answer: assignment)
            try await storage.saveAssignment(held, deviceId: device, nowMs: nowMs)
        } catch {
            throw .storageUnavailable(retryAfterSeconds: configuration.storageRetryAfterSeconds, cause: error)
        }
        return .message(assignment, format: BodyFormat.ofAnswer(accept: request.headers[.accept], request: format))
    }

    /// The set the device holds after `answer`, as one full assignment (`§http-regions-held`): the answer itself
    /// when it is full, else its base with the delta applied.
    static func heldSet(previous: RegionAssignment?, answer: RegionAssignment) -> RegionAssignment {
        guard answer.mode == .delta, let previous else { return answer }
        var held = HeldAssignment()
        // The planner takes a delta only from a full previous of the same datum, which applies; should the two
        // ever disagree, the answer alone is kept and the next plan is full.
        guard held.apply(previous) == nil, held.apply(answer) == nil else { return answer }
        return held.fullAssignment
    }
}

extension LocationFix {
    /// A fix at (0, 0), where ``PlantedMutant/planWithoutFix`` plans.
    fileprivate static var origin: LocationFix {
        var fix = LocationFix()
        fix.latitudeE7 = 0
        fix.longitudeE7 = 0
        return fix
    }
}
