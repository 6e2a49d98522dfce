import Hummingbird
import LocationWire
import LocationWireHTTP

/// `POST /v1/batches`: a `LocationBatch` in, its `BatchAck` out, in binary or proto3 JSON (`§http-endpoints`).
///
/// After authentication and ``RequestReader``'s checks: 403 when the token's device is not the batch's
/// `device_id`, 503 when the store failed (nothing stored), else 200 with the ack, sent only after the commit
/// (`§http-ack-after-commit`).
/// Every outcome of the ack, `HOLD` and `TOO_LARGE` included, is a 200: it is the protocol's answer, which the
/// device must apply, not a transport failure.
struct BatchRoutes: Sendable {
    let reader: RequestReader
    let storage: any ServerStorage

    /// - Parameter device: the device the request's bearer token belongs to.
    func postBatch(_ request: Request, device: String) async throws(Refusal) -> Response {
        var (batch, format, encodedSize) = try await reader.readMessage(LocationBatch.self, from: request)
        let configuration = reader.configuration
        let mutant = configuration.plantedMutant
        let takenAnyway =
            (mutant == .emptyDeviceIdToLedger && batch.deviceId.isEmpty)
            || (mutant == .operatorActsForBody && device.isEmpty)
        guard batch.deviceId == device || takenAnyway else { throw .deviceMismatch("this batch's device_id") }
        // Only a known column of the wrong wire type is dropped; a column of a later revision is still held.
        if mutant == .compactWrongTypeAsAbsent, let numbers = batch.compactFixes?.unknownFields.fieldNumbers,
            numbers.allSatisfy({ $0 < 25 })
        {
            batch.compactFixes?.unknownFields = UnknownFields()
        }
        if mutant == .revisionZeroServed {
            batch.protocolRevision = max(batch.protocolRevision, 1)
            if batch.installId == 0 { batch.installId = 1 }
        }
        let ack: BatchAck
        do {
            ack = try await storage.ingest(
                batch, encodedSize: encodedSize, nowMs: configuration.nowMs(), policy: configuration.ledgerPolicy)
        } catch {
            // Nothing was committed, so no ack may be sent (§server-durable); the device keeps its items.
            throw .storageUnavailable(retryAfterSeconds: configuration.storageRetryAfterSeconds, cause: error)
        }
        var answered = ack
        if mutant == .policyNeverInAcks { answered.trackingPolicy = nil }
        return .message(answered, format: BodyFormat.ofAnswer(accept: request.headers[.accept], request: format))
    }
}
