import Hummingbird
import LocationWire
import LocationWireHTTP

/// `GET /v1/policy`: the `TrackingPolicy` in force, for a device that has none yet; later changes travel in
/// acks (`BatchAck.tracking_policy`). Binary unless `Accept` asks for JSON.
struct PolicyRoutes: Sendable {
    let reader: RequestReader

    func getPolicy(_ request: Request) throws(Refusal) -> Response {
        guard let policy = reader.configuration.trackingPolicy else {
            throw Refusal(
                status: .notFound,
                body: ErrorBody(code: ErrorBody.Code.notFound, message: "this server has no tracking policy"))
        }
        return .message(policy, format: RequestReader.responseFormat(request.headers[.accept], request: .binary))
    }
}
