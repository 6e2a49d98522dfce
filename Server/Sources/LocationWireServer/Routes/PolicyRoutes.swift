import Hummingbird
import LocationWire
import LocationWireHTTP

/// `GET /v1/policy`: the `TrackingPolicy` in force, for a device that has none yet; later changes travel in
/// acks (`§policy-in-acks`). Binary unless `Accept` asks for JSON. Registered only when the server has a policy.
struct PolicyRoutes: Sendable {
    let policy: TrackingPolicy

    func getPolicy(_ request: Request) -> Response {
        .message(policy, format: BodyFormat.ofAnswer(accept: request.headers[.accept], request: .binary))
    }
}
