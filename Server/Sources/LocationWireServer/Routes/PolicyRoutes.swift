import Hummingbird
import LocationWire
import LocationWireHTTP

/// `GET /v1/policy`: the `TrackingPolicy` in force, for a device that has none yet; later changes travel in
/// acks (`BatchAck.tracking_policy`). Binary unless `Accept` asks for JSON.
struct PolicyRoutes: Sendable {
    let reader: RequestReader

    func register(on router: Router<some RequestContext>) {
        router.get(.init(Binding.policyPath)) { request, _ in try await getPolicy(request) }
    }

    func getPolicy(_ request: Request) async throws(Refusal) -> Response {
        _ = try await reader.authenticate(request)
        guard let policy = reader.configuration.trackingPolicy else {
            throw Refusal(
                status: .notFound,
                body: ErrorBody(code: ErrorBody.Code.notFound, message: "this server has no tracking policy"))
        }
        return .message(policy, format: RequestReader.responseFormat(request.headers[.accept], request: .binary))
    }
}
