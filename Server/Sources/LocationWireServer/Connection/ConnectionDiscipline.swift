import HTTPTypes
import LocationWireHTTP
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// What HTTP/1.1 asks of a connection that the framework leaves undone, in the channel pipeline of every
/// connection the reference server accepts (Hummingbird's "additional channel handlers", after the HTTP/1
/// decoding):
/// - **Closing.** After the answer to a request that asked for `Connection: close`, to an HTTP/1.0 request
///   without keep-alive, or an answer that says `Connection: close` itself (a 413, 408 or 503 that left the body
///   unread), the connection is closed (RFC 9112, section 9.6). Closed gracefully: the answer is sent, the sending
///   side shut, and what the client still sends read and dropped for up to ``lingerTime``, so that a client that
///   writes its whole body before reading gets the answer (a 413 with the limit) instead of a reset or a stall.
/// - **Host.** An HTTP/1.1 request without `Host` is answered `400` (RFC 9112, section 3.2).
/// - **Transfer codings** other than `chunked` (`Transfer-Encoding: gzip, chunked`) are answered `501`
///   (RFC 9112, section 6.1): the framework would hand the router the body still gzip-coded.
/// - **Malformed requests** (a bad header line, broken chunked framing, a bad `Content-Length`) are answered
///   `400` with the binding's JSON error body and code `malformed-request`, and the connection is closed: the
///   framework's own answer has an empty body, and a framing error in a body was a `408` that invited a resend of
///   the same bytes.
final class ConnectionDiscipline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the closing side keeps reading (and dropping) what the client still sends.
    static let lingerTime = TimeAmount.seconds(2)

    /// Set by ``RequestLineWatcher`` for the request whose head comes next: the HTTP version and the `Host`
    /// header are gone once the request is in HTTP types.
    fileprivate var nextRequestIsNotKeepAlive = false
    fileprivate var nextRequestLacksHost = false
    /// A transfer coding other than `chunked` (`gzip, chunked`): the body would be read still coded.
    fileprivate var nextRequestTransferCoding: String?

    /// The connection closes after the answer being written (or the next one).
    private var closeAfterResponse = false
    /// A response head is written and its end is not.
    private var responding = false
    /// The last answer is written: what arrives is dropped until the client closes or the linger time ends.
    private var finished = false
    /// This handler answered the current request itself; the rest of its parts are dropped.
    private var answeredHere = false

    func handlerAdded(context: ChannelHandlerContext) {
        let operations = context.pipeline.syncOperations
        if let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? operations.addHandler(RequestLineWatcher(discipline: self), position: .after(decoder))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        if case .head(let request) = unwrapInboundIn(data) {
            answeredHere = false
            let connection = request.headerFields[.connection]?.lowercased() ?? ""
            if connection.contains("close") || nextRequestIsNotKeepAlive { closeAfterResponse = true }
            if nextRequestLacksHost {
                answeredHere = true
                answer(
                    context,
                    ErrorBody(
                        code: ErrorBody.Code.malformedRequest,
                        message: "an HTTP/1.1 request needs a Host header (RFC 9112, section 3.2)"))
                return
            }
            if let coding = nextRequestTransferCoding {
                answeredHere = true
                answer(
                    context, status: .notImplemented,
                    ErrorBody(
                        code: ErrorBody.Code.unsupportedTransferCoding,
                        message: "Transfer-Encoding \(coding) is not taken: only chunked (use Content-Encoding: gzip)"))
                return
            }
        }
        guard !answeredHere else { return }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Closing: keep reading, so that a client still sending its body gets to read the answer.
        if finished { context.read() } else { context.fireChannelReadComplete() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        // Not passed on: the framework would answer again, with an empty body.
        if responding || finished {
            context.close(promise: nil)
        } else {
            answer(
                context,
                ErrorBody(
                    code: ErrorBody.Code.malformedRequest,
                    message: "the request is not well-formed HTTP/1.1 (\(error)); it was not read"))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !finished else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var response):
            responding = true
            if response.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            if closeAfterResponse { response.headerFields[.connection] = "close" }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            responding = false
            guard closeAfterResponse else { return context.write(data, promise: promise) }
            finish(context, lastPart: data, promise: promise)
        }
    }

    /// Answers the current request from here with `body`, and closes.
    private func answer(
        _ context: ChannelHandlerContext, status: HTTPResponse.Status = .badRequest, _ body: ErrorBody
    ) {
        let bytes = body.jsonBytes()
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = Binding.jsonMediaType
        response.headerFields[.contentLength] = String(bytes.count)
        response.headerFields[.connection] = "close"
        closeAfterResponse = true
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: bytes))), promise: nil)
        finish(context, lastPart: wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Writes the answer's last part, shuts the sending side once it is out, and closes after the linger time or
    /// when the client closes.
    private func finish(_ context: ChannelHandlerContext, lastPart: NIOAny, promise: EventLoopPromise<Void>?) {
        finished = true
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(lastPart, promise: written)
        written.futureResult.assumeIsolated().whenComplete { result in
            promise?.completeWith(result)
            context.close(mode: .output, promise: nil)
            context.read()
        }
        // Closed by then whatever happens to the write (a client that never reads keeps it pending).
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) { context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client closed its side while this one lingers: nothing is left to wait for.
        if finished, case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Notes what only the HTTP/1 request line and headers show (the version, and with it whether the connection is
/// kept alive, and whether `Host` is there) for the ``ConnectionDiscipline`` after the conversion to HTTP types.
private final class RequestLineWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let discipline: ConnectionDiscipline

    init(discipline: ConnectionDiscipline) {
        self.discipline = discipline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            discipline.nextRequestIsNotKeepAlive = !head.isKeepAlive
            discipline.nextRequestLacksHost = head.version == .http1_1 && head.headers["host"].isEmpty
            let codings = head.headers["transfer-encoding"].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingWhitespace().lowercased() }
            discipline.nextRequestTransferCoding =
                codings.contains { $0 != "chunked" } ? codings.joined(separator: ", ") : nil
        }
        context.fireChannelRead(data)
    }
}
