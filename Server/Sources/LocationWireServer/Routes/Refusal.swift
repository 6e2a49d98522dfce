import HTTPTypes
import Hummingbird
import LocationWireHTTP
import Logging
import NIOCore

/// A non-200 answer of the binding: a status, the JSON error body, and any headers it needs (`Retry-After`,
/// `WWW-Authenticate`, `Accept-Encoding`). Route handlers throw it; Hummingbird turns it into the response.
/// Public for the mock server, whose injected 429 and 503 are refusals like the reference server's.
public struct Refusal: Error, HTTPResponseError {
    public var status: HTTPResponse.Status
    public var body: ErrorBody
    public var headers: HTTPFields = [:]
    /// The server-side failure behind the refusal, for the operator's log; never sent to the client.
    public var cause: String?

    public init(status: HTTPResponse.Status, body: ErrorBody, headers: HTTPFields = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// The binding's refusal (LocationWireHTTPBinding decides status, code and fields) as Hummingbird's.
    public init(_ refusal: BindingRefusal) {
        var fields = HTTPFields()
        for (name, value) in refusal.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        self.init(status: HTTPResponse.Status(code: refusal.status), body: refusal.body, headers: fields)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = Binding.jsonMediaType
        return Response(
            status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.jsonBytes())))
    }

    static func unauthenticated() -> Refusal {
        Refusal(
            status: .unauthorized,
            body: ErrorBody(code: ErrorBody.Code.unauthenticated, message: "a valid bearer token is required"),
            headers: [.wwwAuthenticate: "Bearer"])
    }

    static func deviceMismatch(_ what: String) -> Refusal {
        Refusal(
            status: .forbidden,
            body: ErrorBody(code: ErrorBody.Code.deviceMismatch, message: "the token does not belong to \(what)"))
    }

    /// 413 for a body over the body limit; `maxBatchBytes` is the server's `max_batch_bytes`, the same number its
    /// policy and its `TOO_LARGE` acks state (`§http-size`), which the body limit is at least.
    static func tooLarge(bodyLimit: Int, maxBatchBytes: Int) -> Refusal {
        Refusal(
            status: .contentTooLarge,
            body: ErrorBody(
                code: ErrorBody.Code.bodyTooLarge, maxBatchBytes: maxBatchBytes,
                message: "the body is over \(bodyLimit) bytes (after decompression); send batches within "
                    + "\(maxBatchBytes) bytes"),
            // The rest of the body is not read: the connection closes after the answer (ConnectionDiscipline),
            // which lets a client that writes before it reads finish writing and learn the limit.
            headers: [.connection: "close"])
    }

    /// 503 for a failed storage call: nothing was stored, and the device sends again. `cause` goes to the log.
    public static func storageUnavailable(retryAfterSeconds: Int, cause: (any Error)? = nil) -> Refusal {
        var refusal = Refusal(
            status: .serviceUnavailable,
            body: ErrorBody(
                code: ErrorBody.Code.storageUnavailable, message: "the store is unavailable; nothing was stored"),
            headers: [.retryAfter: RetryAfter.value(seconds: retryAfterSeconds)])
        refusal.cause = cause.map { "\($0)" }
        return refusal
    }
}

/// Gives every error that Hummingbird itself raises (no such path, a method the path does not take, a body the
/// server stopped reading) the binding's JSON error body, so that a client never meets an answer without one
/// (`§http-error-body`).
public struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let refusal as Refusal {
            if let cause = refusal.cause {
                context.logger.error(
                    "answered \(refusal.status.code) \(refusal.body.code)",
                    metadata: ["path": "\(request.uri.path)", "cause": "\(cause)"])
            }
            throw refusal
        } catch let error as HTTPError {
            let code =
                switch error.status {
                case .notFound: ErrorBody.Code.notFound
                case .methodNotAllowed: ErrorBody.Code.methodNotAllowed
                case .contentTooLarge: ErrorBody.Code.bodyTooLarge
                case .requestTimeout: ErrorBody.Code.incompleteBody
                default: "http-\(error.status.code)"
                }
            throw Refusal(
                status: error.status,
                body: ErrorBody(code: code, message: error.body ?? error.status.reasonPhrase), headers: error.headers)
        }
    }
}
