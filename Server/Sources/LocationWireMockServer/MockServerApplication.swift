import HTTPTypes
import Hummingbird
import LocationWire
import LocationWireHTTP
import LocationWireServer
import Logging
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The request context of the mock server: Hummingbird's basic one plus the connection, which the faults that
/// answer nothing close or reset, and the authenticated device.
public struct MockRequestContext: AuthenticatedRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's connection (the socket channel).
    public let channel: any Channel
    public var authenticatedCaller: Caller?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// The mock server's bearer tokens: the ones on its command line, or any token at all (a mock tests uploads,
/// not provisioning). A mock token belongs to no device in particular, and the mock server does not compare a
/// batch's `device_id` with it: every token is ``anyDevice``'s.
public struct MockTokens: BearerTokenAuthenticator {
    /// The device every token taken belongs to.
    public static let anyDevice = "*"
    /// The tokens taken; nil takes any.
    let accepted: Set<String>?

    /// - Parameter accepted: the tokens taken; nil (the default) takes any token.
    public init(accepting accepted: Set<String>? = nil) {
        self.accepted = accepted
    }

    public func deviceId(forToken token: String) -> String? {
        guard let accepted else { return Self.anyDevice }
        return accepted.contains(token) ? Self.anyDevice : nil
    }
}

/// Builds the mock server: `POST /v1/batches` behind the reference server's authentication (with `tokens`) and
/// read by its `RequestReader` (media type, gzip, size, decoding), with the same refusals, then faults from
/// `store`.
///
/// `onRunning` is called with the bound port once the server listens.
public func makeMockServerApplication(
    store: MockStore, tokens: MockTokens = MockTokens(), configuration: ServerConfiguration, host: String = "127.0.0.1",
    port: Int = 8081, logger: Logger = Logger(label: "locwire-mock-server"),
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: makeMockServerRouter(store: store, tokens: tokens, configuration: configuration),
        server: locationWireHTTP1(),
        configuration: ApplicationConfiguration(
            address: .hostname(host, port: port), serverName: "locwire-server-mock"),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
        logger: logger
    )
}

/// The mock server's router alone.
func makeMockServerRouter(
    store: MockStore, tokens: MockTokens, configuration: ServerConfiguration
) -> Router<MockRequestContext> {
    let router = Router(context: MockRequestContext.self)
    router.add(middleware: ErrorBodyMiddleware())
    // Before the routing, which answers /v1/regions 404 not-offered: the journal still sees each request.
    router.add(middleware: RegionsJournalMiddleware(store: store))
    makeMockServerRoutes(store: store, configuration: configuration)
        .register(
            on: router, authenticator: tokens, configuration: configuration,
            outside: [RefusalJournalMiddleware(store: store)])
    return router
}

/// The mock server's endpoints: `POST /v1/batches` only; the routing answers `not-offered` for the others.
func makeMockServerRoutes(store: MockStore, configuration: ServerConfiguration) -> RouteList<MockRequestContext> {
    let batches = MockBatchRoutes(reader: RequestReader(configuration: configuration), store: store)
    return RouteList([
        .init(.batches) { request, context, _ in
            try await batches.postBatch(request, context: context)
        }
    ])
}

/// Journals every refusal of the checks before the ledger (authentication, media type, size, decoding, ...):
/// such a request gets the reference server's refusal, with no fault, and is journaled as one.
///
/// Whatever reached the ledger is journaled by ``MockStore/receive(_:encodedSize:facts:)`` instead, so the routes
/// return its refusals as responses rather than throw them through here.
struct RefusalJournalMiddleware<Context: RequestContext>: RouterMiddleware {
    let store: MockStore

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let refusal as Refusal {
            await store.recordRefusal(refusal, facts: RequestFacts(request))
            throw refusal
        }
    }
}

/// Journals every request to `/v1/regions` with the status the routing gives it (`404` `not-offered`: the mock
/// server offers no regions), so that the report can tell a client that asks again after the `404`
/// (`§http-regions-absent`).
struct RegionsJournalMiddleware<Context: RequestContext>: RouterMiddleware {
    let store: MockStore

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        guard request.uri.path == Binding.regionsPath else { return try await next(request, context) }
        let facts = RequestFacts(request)
        do {
            let response = try await next(request, context)
            await store.recordRegionsRequest(facts: facts, status: Int(response.status.code), errorCode: nil)
            return response
        } catch let refusal as Refusal {
            await store.recordRegionsRequest(
                facts: facts, status: Int(refusal.status.code), errorCode: refusal.body.code)
            throw refusal
        }
    }
}

extension RequestFacts {
    /// What the journal keeps of a request's fields: the bearer token's digest, `Content-Type` and
    /// `Content-Encoding` (several fields joined by ", ").
    init(_ request: Request) {
        func joined(_ name: HTTPField.Name) -> String? {
            let values = request.headers[values: name]
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        self.init(
            tokenDigest: Self.tokenDigest(authorization: request.headers[.authorization]),
            contentType: joined(.contentType), contentEncoding: joined(.contentEncoding))
    }
}

/// `POST /v1/batches` with faults.
struct MockBatchRoutes: Sendable {
    let reader: RequestReader
    let store: MockStore

    /// How long a cut-short body waits after its part before the connection closes, so that the part leaves
    /// the server before the close (a close drops writes still queued in the channel).
    static let cutShortLinger: Duration = .milliseconds(50)

    func postBatch(_ request: Request, context: MockRequestContext) async throws -> Response {
        let (format, bytes) = try await reader.readBody(LocationBatch.self, from: request)
        var facts = RequestFacts(request)
        facts.bodyBytes = bytes.count
        facts.bodyDigest = RequestFacts.digest(bytes)
        let batch: LocationBatch
        do {
            batch = try format.decode(LocationBatch.self, from: bytes)
        } catch {
            // Journaled here, with the body's digest, and returned rather than thrown past RefusalJournalMiddleware.
            let refusal = Refusal(status: .badRequest, body: error)
            await store.recordRefusal(refusal, facts: facts)
            return try refusal.response(from: request, context: context)
        }
        let answerFormat = BodyFormat.ofAnswer(accept: request.headers[.accept], request: format)
        switch await store.receive(batch, encodedSize: bytes.count, facts: facts) {
        case .answer(let ack, let delayMs):
            if delayMs > 0 { try await Task.sleep(for: .milliseconds(delayMs)) }
            return .message(ack, format: answerFormat)
        case .refuse(let refusal):
            // Returned, not thrown: the store journaled it already, and RefusalJournalMiddleware would again.
            return try refusal.response(from: request, context: context)
        case .close(let reset):
            await Self.close(context.channel, reset: reset)
            // Hummingbird answers a thrown error with a 500, which the closed channel can no longer carry.
            throw ConnectionDropped()
        case .cutShort(let ack, let keep):
            let bytes = answerFormat.encode(ack)
            let part = ByteBuffer(bytes: bytes.prefix(Int((Double(bytes.count) * keep).rounded(.down))))
            return Response(
                status: .ok,
                headers: [
                    .contentType: answerFormat.contentType(for: BatchAck.self), .contentLength: "\(bytes.count)",
                ],
                body: ResponseBody(contentLength: bytes.count) { writer in
                    try await writer.write(part)
                    try await Task.sleep(for: Self.cutShortLinger)
                    // Thrown from the body writer, after the head and the part went out: Hummingbird closes the
                    // connection, and the client is left with fewer bytes than Content-Length promised.
                    throw ConnectionDropped()
                })
        case .cutAfterAck(let ack):
            let bytes = answerFormat.encode(ack)
            let length = bytes.count + MockStore.cutAckPadding(answerFormat).count
            return Response(
                status: .ok,
                headers: [.contentType: answerFormat.contentType(for: BatchAck.self), .contentLength: "\(length)"],
                body: ResponseBody(contentLength: length) { writer in
                    // The whole ack, which parses on its own; the padding the length promised never comes.
                    try await writer.write(ByteBuffer(bytes: bytes))
                    try await Task.sleep(for: Self.cutShortLinger)
                    throw ConnectionDropped()
                })
        }
    }

    /// Closes the connection without an answer: a plain close (FIN), or with `reset` an abortive one (RST),
    /// which SO_LINGER with a zero time-out makes of close(2).
    static func close(_ channel: any Channel, reset: Bool) async {
        if reset, let socket = channel as? any SocketOptionProvider {
            try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
    }
}

/// Thrown where the mock server drops a connection on purpose.
struct ConnectionDropped: Error {}
