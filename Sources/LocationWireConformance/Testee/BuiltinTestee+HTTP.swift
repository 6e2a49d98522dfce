import LocationWire
import LocationWireHTTPBinding
import LocationWireSession

extension BuiltinTestee {
    /// Reads one answer to `POST /v1/batches` as the reference device does (FEATURE_HTTP_ANSWERS): the binding's
    /// table (``UploadAnswer``) and the queue's limits (``UploadQueue/shrunkLimit(sent:after:)``).
    func run(_ request: HttpAnswerRequest) -> HttpAnswerResponse {
        var response = HttpAnswerResponse()
        response.vectorId = request.vectorId
        let answer: UploadAnswer
        if request.status == 0 {
            answer = .transportFailure("no answer")
        } else {
            func field(_ name: String) -> String? {
                let values = request.headers.filter { $0.name.lowercased() == name }.map(\.value)
                return values.count == 1 ? values[0] : nil
            }
            answer = UploadAnswer(
                status: Int(request.status), contentType: field("content-type"), retryAfter: field("retry-after"),
                body: request.body, bodyIsWhole: request.bodyIsWhole, batchId: request.batchId, nowMs: request.nowMs)
        }
        response.countsAsFailure = answer.isFailure
        switch answer {
        case .ack: response.action = .applyAck
        case .otherBatchAck, .noAck: response.action = .noAck
        case .malformed: response.action = .rebuild
        case .credentialsRefused: response.action = .stopToken
        case .unsupportedEncoding: response.action = .fixEncoding
        case .tooLarge(let stated):
            response.action = .shrink
            response.maxBatchBytes = UploadQueue.shrunkLimit(
                sent: request.sentBodyBytes, after: .tooLarge(stated: stated))
        case .bodyTimedOut(let waitMs):
            response.action = .shrinkAndWait
            response.waitMs = waitMs
            response.maxBatchBytes = UploadQueue.shrunkLimit(sent: request.sentBodyBytes, after: .timedOut)
        case .wait(_, let waitMs):
            response.action = .wait
            response.waitMs = waitMs
        }
        return response
    }
}
