import Hummingbird
import LocationWire
import LocationWireHTTP

/// `POST /v1/batches`: a `LocationBatch` in, its `BatchAck` out, in binary or proto3 JSON (`§http-endpoints`).
///
/// After ``RequestReader``'s checks: 403 when the token's device is not the batch's `device_id`, 503 when the
/// store failed (nothing stored), else 200 with the ack, sent only after the commit (`§http-ack-after-commit`).
/// Every outcome of the ack, `HOLD` and `TOO_LARGE` included, is a 200: it is the protocol's answer, which the
/// device must apply, not a transport failure.
struct BatchRoutes: Sendable {
    let reader: RequestReader

    func register(on router: Router<some RequestContext>) {
        router.post(.init(Binding.batchesPath)) { request, _ in try await postBatch(request) }
    }

    func postBatch(_ request: Request) async throws(Refusal) -> Response {
        let device = try await reader.authenticate(request)
        let (batch, format, encodedSize) = try await reader.readMessage(LocationBatch.self, from: request)
        guard batch.deviceId == device else { throw .deviceMismatch("this batch's device_id") }
        let configuration = reader.configuration
        let ack: BatchAck
        do {
            ack = try await reader.storage.ingest(
                batch, encodedSize: encodedSize, nowMs: configuration.nowMs(), policy: configuration.ledgerPolicy)
        } catch {
            // Nothing was committed, so no ack may be sent (§server-durable); the device keeps its items.
            throw .storageUnavailable(retryAfterSeconds: configuration.storageRetryAfterSeconds, cause: error)
        }
        return .message(ack, format: RequestReader.responseFormat(request.headers[.accept], request: format))
    }
}
