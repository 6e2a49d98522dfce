import Hummingbird
import LocationWire
import LocationWireHTTP
import NIOCore

/// How every endpoint reads its body, in the binding's order, once ``AuthenticationMiddleware`` (401, 503 when
/// the token store fails) and ``RateLimitMiddleware`` (429) have let the request through: media type and `proto`
/// parameter (415), content coding (415), size (413, before reading when `Content-Length` says so, else while
/// reading), gzip (400, or 413 when it would decompress past the limit), then the message (400 with the codec's
/// code, offset and path).
///
/// Public so that the mock server (LocationWireMockServer) reads requests exactly as the reference server does.
public struct RequestReader: Sendable {
    public let configuration: ServerConfiguration
    /// The slots for bodies being read, shared by every route of a server
    /// (``ServerConfiguration/maxConcurrentBodies``).
    let bodySlots: Permits

    public init(configuration: ServerConfiguration) {
        self.configuration = configuration
        bodySlots = Permits(configuration.maxConcurrentBodies)
    }

    /// The decoded body, its format, and its size in bytes as the message was encoded (after any content coding).
    public func readMessage<Message: LocationWireMessage>(
        _: Message.Type, from request: Request
    ) async throws(Refusal)
        -> (message: Message, format: BodyFormat, encodedSize: Int)
    {
        let format = try Self.bodyFormat(request.headers[.contentType], expecting: Message.self)
        let bytes = try await readBytes(request)
        do {
            return (try format.decode(Message.self, from: bytes), format, bytes.count)
        } catch {
            throw Refusal(status: .badRequest, body: error)
        }
    }

    /// The body's bytes after content decoding, never more than ``ServerConfiguration/maxBodyBytes``.
    func readBytes(_ request: Request) async throws(Refusal) -> [UInt8] {
        let limit = configuration.maxBodyBytes
        let coding = request.headers[.contentEncoding]?.trimmingWhitespace().lowercased() ?? "identity"
        guard coding == "identity" || coding == "gzip" else {
            throw Refusal(
                status: .unsupportedMediaType,
                body: ErrorBody(
                    code: ErrorBody.Code.unsupportedContentEncoding,
                    message: "Content-Encoding \(coding) is not taken; use gzip or none"),
                headers: [.acceptEncoding: "gzip"])
        }
        // A declared length over the limit is refused before a byte of the body is read. A gzip body may
        // decompress to 1000 times its size, so its compressed size is bounded by the same limit.
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw .tooLarge(limit: limit)
        }
        let body = try await collect(request.body, upTo: limit)
        guard coding == "gzip" else { return Array(body.readableBytesView) }
        do {
            return try GzipCoding.decompress(body, limit: limit)
        } catch .tooLarge {
            throw .tooLarge(limit: limit)
        } catch {
            throw Refusal(
                status: .badRequest,
                body: ErrorBody(
                    code: ErrorBody.Code.corruptContentEncoding, message: "Content-Encoding gzip, but not a gzip stream"
                ))
        }
    }

    /// Collects the body, giving up after ``ServerConfiguration/bodyTimeout`` (a slow or stalled client) with
    /// 408; a body cut short by the client (a closed connection) throws too, and nothing of it is stored
    /// (`§http-partial-body`).
    func collect(_ body: RequestBody, upTo limit: Int) async throws(Refusal) -> ByteBuffer {
        guard await bodySlots.acquire(waitingAtMost: configuration.bodyPermitWait) else {
            throw Refusal(
                status: .serviceUnavailable,
                body: ErrorBody(
                    code: ErrorBody.Code.unavailable,
                    message: "the server was reading \(configuration.maxConcurrentBodies) bodies for "
                        + "\(configuration.bodyPermitWait); nothing was stored, send again"),
                headers: [.retryAfter: "1", .connection: "close"])
        }
        defer { bodySlots.release() }
        let timeout = configuration.bodyTimeout
        let incomplete = Refusal(
            status: .requestTimeout,
            body: ErrorBody(
                code: ErrorBody.Code.incompleteBody,
                message: "the body did not arrive whole within \(timeout); nothing of it was stored"),
            headers: [.connection: "close"])
        do {
            return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let buffer = first else { throw incomplete }
                return buffer
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch is NIOTooManyBytesError {
            throw .tooLarge(limit: limit)
        } catch {
            throw incomplete
        }
    }

    /// The format a `Content-Type` names, when it is one of the binding's and its `proto` parameter, if any,
    /// names `Message` (`§http-media-types`).
    static func bodyFormat(
        _ header: String?, expecting message: any LocationWireMessage.Type
    ) throws(Refusal)
        -> BodyFormat
    {
        let expected = message.schema.fullName
        guard let header, let mediaType = MediaType(header), let format = mediaType.format else {
            throw Refusal(
                status: .unsupportedMediaType,
                body: ErrorBody(
                    code: ErrorBody.Code.unsupportedMediaType,
                    message: "send \(Binding.protobufMediaType) or \(Binding.jsonMediaType), proto=\(expected)"))
        }
        if mediaType.protoCount > 1 || mediaType.proto?.isEmpty == true {
            throw Refusal(
                status: .unsupportedMediaType,
                body: ErrorBody(
                    code: ErrorBody.Code.unsupportedMediaType,
                    message: "the proto parameter must name one message, proto=\(expected), once"))
        }
        if let proto = mediaType.proto, proto != expected {
            throw Refusal(
                status: .unsupportedMediaType,
                body: ErrorBody(
                    code: ErrorBody.Code.unsupportedMediaType,
                    message: "this endpoint takes proto=\(expected), not proto=\(proto)"))
        }
        return format
    }

    /// The format of the answer: the request's, unless `Accept` names only the other one (`§http-negotiation`).
    public static func responseFormat(_ accept: String?, request: BodyFormat) -> BodyFormat {
        guard let accept else { return request }
        let formats = accept.split(separator: ",").compactMap { MediaType(String($0))?.format }
        return formats.isEmpty || formats.contains(request) ? request : formats[0]
    }
}

extension Response {
    /// A 200 with `message` in `format`, its `Content-Type` naming the message.
    public static func message(_ message: some LocationWireMessage, format: BodyFormat) -> Response {
        Response(
            status: .ok, headers: [.contentType: format.contentType(for: type(of: message))],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: format.encode(message))))
    }
}
