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
/// answer nothing close or reset.
public struct MockRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's connection (the socket channel).
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Builds the mock server: `POST /v1/batches` read by the reference server's `RequestReader` (authentication,
/// media type, gzip, size, decoding, with the same refusals), then faults from `store`.
///
/// `onRunning` is called with the bound port once the server listens.
public func makeMockServerApplication(
    store: MockStore, configuration: ServerConfiguration, host: String = "127.0.0.1", port: Int = 8081,
    logger: Logger = Logger(label: "locwire-mock-server"),
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router(context: MockRequestContext.self)
    router.add(middleware: ErrorBodyMiddleware())
    MockBatchRoutes(reader: RequestReader(storage: store, configuration: configuration), store: store)
        .register(on: router)
    return Application(
        router: router,
        configuration: ApplicationConfiguration(
            address: .hostname(host, port: port), serverName: "locwire-server-mock"),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
        logger: logger
    )
}

/// `POST /v1/batches` with faults. Requests that the reader refuses get the reference server's refusal, with no
/// fault, and are journaled too.
struct MockBatchRoutes: Sendable {
    let reader: RequestReader
    let store: MockStore

    /// How long a cut-short body waits after its part before the connection closes, so that the part leaves
    /// the server before the close (a close drops writes still queued in the channel).
    static let cutShortLinger: Duration = .milliseconds(50)

    func register(on router: Router<MockRequestContext>) {
        router.post(.init(Binding.batchesPath)) { request, context in try await postBatch(request, context: context) }
    }

    func postBatch(_ request: Request, context: MockRequestContext) async throws -> Response {
        let batch: LocationBatch
        let format: BodyFormat
        let encodedSize: Int
        do {
            _ = try await reader.authenticate(request)
            (batch, format, encodedSize) = try await reader.readMessage(LocationBatch.self, from: request)
        } catch {
            await store.recordRefusal(error)
            throw error
        }
        let answerFormat = RequestReader.responseFormat(request.headers[.accept], request: format)
        switch await store.receive(batch, encodedSize: encodedSize) {
        case .answer(let ack, let delayMs):
            if delayMs > 0 { try await Task.sleep(for: .milliseconds(delayMs)) }
            return .message(ack, format: answerFormat)
        case .refuse(let refusal):
            throw refusal
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
