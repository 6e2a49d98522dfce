import Foundation
import LocationWire

/// What an answer to `POST /v1/batches` means to the device, row by row of proto/HTTP.md's table ("Errors and
/// what a device does with them"). Only a `200` whose body is a `BatchAck` for the batch sent deletes anything
/// (`§http-only-200-deletes`); the statuses that the binding maps onto an ack outcome become that ack, so the
/// upload queue's own rules (`§batch-size`, `§retry-after`, the back-off) decide what follows.
enum BatchAnswer: Equatable {
    /// A `BatchAck` to apply: the server's own (`200`), or the one a status means: `413` is `TOO_LARGE` with
    /// the body's `maxBatchBytes`; `408`, `429` and `503` are a `HOLD` with `Retry-After` (or none: the back-off).
    case ack(BatchAck)
    /// `401` or `403`: keep everything and stop uploading until the credentials change.
    case credentialsRefused(status: Int, code: String)
    /// No ack (`§no-ack`): another status, a `400` (malformed as sent: rebuilt, never resent as is), a `415`, a
    /// transport failure, or a `200` that is not a `BatchAck` for this batch. Everything is kept.
    case noAck(reason: String)

    /// Reads `result`, the answer to the batch `batchId` sent at `nowMs` (device clock, UTC ms, for an HTTP date
    /// in `Retry-After`).
    init(_ result: Result<HTTPAnswer, TransportFailure>, batchId: UInt64, nowMs: Int64) {
        let answer: HTTPAnswer
        switch result {
        case .failure(let failure):
            self = .noAck(reason: "transport: \(failure.description)")
            return
        case .success(let success): answer = success
        }
        let code = Self.errorCode(answer.body)
        switch answer.status {
        case 200:
            guard let ack = try? BatchAck(serializedBytes: answer.body) else {
                self = .noAck(reason: "200 whose body is not a BatchAck")
                return
            }
            guard ack.batchId == batchId else {
                self = .noAck(reason: "200 with the ack of batch \(ack.batchId), not \(batchId)")
                return
            }
            self = .ack(ack)
        case 413:
            var ack = BatchAck()
            ack.batchId = batchId
            ack.outcome = .tooLarge
            ack.maxBatchBytes = Self.maxBatchBytes(answer.body)
            self = .ack(ack)
        case 408, 429, 503:
            var ack = BatchAck()
            ack.batchId = batchId
            ack.outcome = .hold
            ack.retryAfterMs = answer.headers["retry-after"].flatMap { Self.retryAfterMs($0, nowMs: nowMs) }
            self = .ack(ack)
        case 401, 403:
            self = .credentialsRefused(status: answer.status, code: code ?? "")
        default:
            self = .noAck(reason: "HTTP \(answer.status)" + (code.map { " \($0)" } ?? ""))
        }
    }

    /// The error body's `code` (`§http-error-body`), if the body is one.
    static func errorCode(_ body: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["code"] as? String
    }

    /// A `413`'s `maxBatchBytes`, the server's limit.
    static func maxBatchBytes(_ body: [UInt8]) -> UInt32? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let number = object["maxBatchBytes"] as? NSNumber, number.int64Value > 0
        else { return nil }
        return UInt32(clamping: number.int64Value)
    }

    /// `Retry-After` (RFC 9110, section 10.2.3) in ms: delay-seconds, or an HTTP date measured from `nowMs`.
    /// Unreadable values are ignored (the back-off applies), and a wait is capped at a day.
    static func retryAfterMs(_ value: String, nowMs: Int64) -> UInt32? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = UInt64(trimmed) { return UInt32(min(seconds, 86_400) * 1000) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        let waitMs = Int64(date.timeIntervalSince1970 * 1000) - nowMs
        return UInt32(clamping: min(max(waitMs, 0), 86_400_000))
    }
}
