import LocationWire

/// What an answer to `POST /v1/batches` means to a device's queue: proto/HTTP.md's table "What a device does
/// with each answer" (`§http-device-answers`), one case per row. Only ``ack(_:)`` may delete anything
/// (`§http-only-200-deletes`); every other case keeps everything.
public enum UploadAnswer: Equatable, Sendable {
    /// `200` whose whole body is a `BatchAck` for the batch sent: apply it (proto/README.md "Acknowledgements").
    case ack(BatchAck)
    /// `200` whose body is the ack of another batch: no ack for this one (`§http-late-ack`); the device may
    /// apply it to the batch it names when it still remembers that batch.
    case otherBatchAck(BatchAck)
    /// `400` or `431`: malformed as sent. Rebuild the batch (in binary, after a JSON body) and report `code`; a
    /// failure.
    case malformed(code: String)
    /// `401` or `403`: stop sending with this token until the app supplies another (`§http-credentials`).
    case credentialsRefused(status: Int, code: String)
    /// `408`: wait `waitMs` (nil: the back-off), then send batches of half the size (`§http-shrink`).
    case bodyTimedOut(waitMs: Int64?)
    /// `413`: take `maxBatchBytes` as the limit, or halve the size when it is absent, and send again at once.
    case tooLarge(maxBatchBytes: UInt32?)
    /// `415`: fall back to binary without content coding, then send again; a failure.
    case unsupportedEncoding(code: String)
    /// `429` or `503`: wait `waitMs` (nil: the back-off), then send again.
    case wait(status: Int, waitMs: Int64?)
    /// No ack (`§no-ack`): another status, a body cut short or not a `BatchAck`, or a transport failure.
    case noAck(reason: String)

    /// Reads one answer to the batch `batchId`, sent at `nowMs` (the device's wall clock, UTC ms, for an
    /// HTTP-date in `Retry-After`).
    ///
    /// - Parameters:
    ///   - contentType: the answer's `Content-Type`: a `200` in JSON is read as JSON, anything else as binary.
    ///   - retryAfter: the `Retry-After` field, if any.
    ///   - bodyIsWhole: whether the body arrived whole: all of its `Content-Length`, or the last chunk
    ///     (`§http-whole-body`).
    public init(
        status: Int, contentType: String?, retryAfter: String?, body: [UInt8], bodyIsWhole: Bool, batchId: UInt64,
        nowMs: Int64
    ) {
        let error = ErrorBody(jsonBytes: body)
        let waitMs = retryAfter.flatMap { RetryAfter.waitMs($0, nowMs: nowMs) }
        switch status {
        case 200:
            guard bodyIsWhole else {
                self = .noAck(reason: "200 whose body was cut short")
                return
            }
            let format = contentType.flatMap { MediaType($0)?.format } ?? .binary
            guard let ack = try? format.decode(BatchAck.self, from: body) else {
                self = .noAck(reason: "200 whose body is not a BatchAck")
                return
            }
            self = ack.batchId == batchId ? .ack(ack) : .otherBatchAck(ack)
        case 400, 431: self = .malformed(code: error?.code ?? "")
        case 401, 403: self = .credentialsRefused(status: status, code: error?.code ?? "")
        case 408: self = .bodyTimedOut(waitMs: waitMs)
        case 413:
            let limit = error?.maxBatchBytes.flatMap { $0 > 0 ? UInt32(clamping: $0) : nil }
            self = .tooLarge(maxBatchBytes: limit)
        case 415: self = .unsupportedEncoding(code: error?.code ?? "")
        case 429, 503: self = .wait(status: status, waitMs: waitMs)
        default: self = .noAck(reason: "HTTP \(status)" + (error.map { " \($0.code)" } ?? ""))
        }
    }

    /// The answer to a request that got no HTTP answer: a refused, reset or closed connection, or a time-out.
    public static func transportFailure(_ description: String) -> UploadAnswer {
        .noAck(reason: "transport: \(description)")
    }

    /// Whether the answer counts as a failure for the back-off (`§back-off`): all but an ack, which the queue
    /// judges by what it deletes, and a `413`, after which the device sends again at once, smaller.
    public var isFailure: Bool {
        switch self {
        case .ack, .tooLarge: false
        default: true
        }
    }
}
