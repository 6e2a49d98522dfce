import Hummingbird
import LocationWire
import LocationWireBehavior
import LocationWireHTTP
import LocationWireValidation

/// `POST /v1/regions`: a `RegionRequest` in, the planner's `RegionAssignment` out (proto/BEHAVIOR.md, region
/// planning). The assignment last sent to the device is kept, so the next plan can be a delta of it
/// (`§plan-delta`).
struct RegionRoutes: Sendable {
    let reader: RequestReader
    let storage: any ServerStorage

    /// - Parameter device: the device the request's bearer token belongs to.
    func postRegionRequest(_ request: Request, device: String) async throws(Refusal) -> Response {
        let (regionRequest, format, _) = try await reader.readMessage(RegionRequest.self, from: request)
        guard regionRequest.deviceId == device else { throw .deviceMismatch("this request's device_id") }
        if let violation = validate(regionRequest).first(where: { $0.severity == .error }) {
            throw Refusal(
                status: .badRequest,
                body: ErrorBody(
                    code: violation.code.rawValue, fieldPath: "RegionRequest\(violation.path)",
                    message: violation.message))
        }
        let configuration = reader.configuration
        guard let planner = configuration.planner else {
            throw Refusal(
                status: .notFound,
                body: ErrorBody(code: ErrorBody.Code.noCatalogue, message: "this server has no region catalogue"))
        }
        guard let fix = regionRequest.currentFix, let latitudeE7 = fix.latitudeE7, let longitudeE7 = fix.longitudeE7
        else {
            throw Refusal(
                status: .badRequest,
                body: ErrorBody(
                    code: "required-field-missing", fieldPath: "RegionRequest.current_fix",
                    message: "the planner needs the device's position: current_fix with latitude and longitude"))
        }
        let nowMs = configuration.nowMs()
        let budget = Int(regionRequest.platformSlotLimit) - Int(regionRequest.reservedAppSlots)
        let assignment: RegionAssignment
        do {
            let previous = try await storage.lastAssignment(deviceId: device)
            assignment = planner.plan(
                latitudeE7: latitudeE7, longitudeE7: longitudeE7, slotBudget: budget, nowMs: nowMs,
                previous: previous)
            try await storage.saveAssignment(assignment, deviceId: device, nowMs: nowMs)
        } catch {
            throw .storageUnavailable(retryAfterSeconds: configuration.storageRetryAfterSeconds, cause: error)
        }
        return .message(assignment, format: RequestReader.responseFormat(request.headers[.accept], request: format))
    }
}
