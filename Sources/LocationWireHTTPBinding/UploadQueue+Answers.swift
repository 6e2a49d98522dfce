import LocationWire
import LocationWireSession

/// What the device does next after an answer, beyond what the queue itself now holds (its wait, its limit).
public enum UploadFollowUp: Equatable, Sendable {
    /// Go on: send the next batch when the queue may (at once after a `413`, after its wait otherwise).
    case next
    /// Rebuild the batch and report `code` (`400`, `431`): the same bytes must not go again; a JSON sender sends
    /// binary from then on.
    case rebuild(code: String)
    /// Send with the binding's `Content-Type` and without content coding from then on (`415`).
    case fixEncoding(code: String)
    /// Stop sending with this token until the app supplies another (`401`, `403`: `§http-credentials`).
    case stop(status: Int, code: String)
}

extension UploadQueueEngine {
    /// Applies one answer to `POST /v1/batches` for the batch `batchId`, as proto/HTTP.md's table says
    /// (`§http-device-answers`): only the batch's own ack, whole, deletes anything; every other answer gives the
    /// batch up at once, since over HTTP no ack can come later (`§http-late-ack`), and starts the wait it states or
    /// the back-off (`§back-off`); `408` and `413` also lower the batch limit (`§http-shrink`).
    ///
    /// - Parameters:
    ///   - sentBytes: the size of the body as sent, before content coding: half of it is the new limit after a
    ///     `408`, or after a `413` that does not state one.
    ///   - nowMs: the device's clock, UTC ms (`§wait-clock`).
    /// - Returns: what the ack did when one was applied (the batch's own, or a remembered batch's), and what the
    ///   device must do next.
    public mutating func apply(
        _ answer: UploadAnswer, toBatch batchId: UInt64, sentBytes: Int, nowMs: Int64
    ) throws(Items.Failure) -> (application: AckApplication?, followUp: UploadFollowUp) {
        let sent = UInt32(clamping: sentBytes)
        switch answer {
        case .ack(let ack):
            let application = try apply(ack, nowMs: nowMs)
            // The queue counted the ignored ack as a failure; over HTTP it also ends the batch.
            if case .ignored = application { giveUp(batchId: batchId, nowMs: nowMs, countingFailure: false) }
            return (application, .next)
        case .otherBatchAck(let ack):
            // A stale or repeated answer: it may still end the batch it names, if the queue remembers it.
            let application = try apply(ack, nowMs: nowMs)
            let counted = application.ignoreReason.map { $0 != .unknownBatch } ?? false
            giveUp(batchId: batchId, nowMs: nowMs, countingFailure: !counted)
            return (application, .next)
        case .malformed(let code):
            giveUp(batchId: batchId, nowMs: nowMs)
            return (nil, .rebuild(code: code))
        case .credentialsRefused(let status, let code):
            giveUp(batchId: batchId, nowMs: nowMs)
            return (nil, .stop(status: status, code: code))
        case .bodyTimedOut(let waitMs):
            giveUp(batchId: batchId, nowMs: nowMs, waitMs: waitMs)
            learnBatchBytes(Self.shrunkLimit(sent: sent, after: .timedOut))
            return (nil, .next)
        case .tooLarge(let maxBatchBytes):
            // The TOO_LARGE ack it means: the same limit, the same single-item rule, no failure.
            var ack = BatchAck()
            ack.batchId = batchId
            ack.outcome = .tooLarge
            ack.maxBatchBytes = maxBatchBytes
            return (try apply(ack, nowMs: nowMs), .next)
        case .unsupportedEncoding(let code):
            giveUp(batchId: batchId, nowMs: nowMs)
            return (nil, .fixEncoding(code: code))
        case .wait(_, let waitMs):
            giveUp(batchId: batchId, nowMs: nowMs, waitMs: waitMs)
            return (nil, .next)
        case .noAck:
            giveUp(batchId: batchId, nowMs: nowMs)
            return (nil, .next)
        }
    }
}
