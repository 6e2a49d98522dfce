import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import LocationWire
import NIOCore
import LocationWireHTTP
import Logging

/// Builds the reference server: the binding's routes on a Hummingbird router, bound to `host:port`, with
/// `authenticator` (the storage itself, in `serve`) checking the bearer tokens.
///
/// `onRunning` is called with the bound port once the server listens (the port asked for, or the one the system
/// chose for port 0), so the command line prints a URL that works.
///
/// - Throws: when `security` does not allow `host` (`§http-tls`), or its certificate or key cannot be read.
public func makeServerApplication(
    storage: any ServerStorage, authenticator: any BearerTokenAuthenticator, configuration: ServerConfiguration,
    host: String = "127.0.0.1", port: Int = 8080, security: TransportSecurity = .plain,
    idleTimeout: Duration = .seconds(60), logger: Logger = Logger(label: "locwire-server"),
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    if let refusal = security.refusal(host: host) { throw TransportSecurityError(message: refusal) }
    // The idle time-out closes a connection on which nothing arrives at all; RequestReader's body time-out
    // catches the client that trickles.
    let http1 = locationWireHTTP1(idleTimeout: idleTimeout)
    return Application(
        router: makeServerRouter(storage: storage, authenticator: authenticator, configuration: configuration),
        server: try security.tlsConfiguration().map { try .tls(http1, tlsConfiguration: $0) } ?? http1,
        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "locwire-server"),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
        logger: logger
    )
}

/// HTTP/1.1 as the binding's servers speak it: Hummingbird's, with the ``ConnectionDiscipline`` that closes
/// connections when HTTP says so, refuses a request without `Host` and answers malformed requests with the error
/// body. The reference server, the mock server and the tests of both use it.
public func locationWireHTTP1(idleTimeout: Duration = .seconds(60)) -> HTTPServerBuilder {
    .http1(
        configuration: .init(
            additionalChannelHandlers: [ConnectionDiscipline()], idleTimeout: TimeAmount(idleTimeout)))
}

/// The router alone, for tests that drive it without a socket.
public func makeServerRouter(
    storage: any ServerStorage, authenticator: any BearerTokenAuthenticator, configuration: ServerConfiguration
)
    -> Router<ServerRequestContext>
{
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: ErrorBodyMiddleware())
    if let limit = configuration.maxInFlight {
        router.add(middleware: InFlightLimitMiddleware(limit: max(limit, 1)))
    }
    makeServerRoutes(storage: storage, configuration: configuration)
        .register(on: router, authenticator: authenticator, configuration: configuration)
    return router
}

/// The reference server's endpoints (`§http-endpoints`): those its configuration offers, the others answered
/// `404` `not-offered` by the routing.
func makeServerRoutes(
    storage: any ServerStorage, configuration: ServerConfiguration
) -> RouteList<ServerRequestContext> {
    let reader = RequestReader(configuration: configuration)
    let batches = BatchRoutes(reader: reader, storage: storage)
    let readBack = ReadBackRoutes(reader: reader, storage: storage)
    let erasure = ErasureRoutes(reader: reader, storage: storage)
    @Sendable func pathDevice(_ context: ServerRequestContext) -> String? {
        context.parameters.get(RouteList<ServerRequestContext>.deviceParameter)
    }
    var routes: [RouteList<ServerRequestContext>.Route] = [
        .init(.batches) { request, _, device in try await batches.postBatch(request, device: device) }
    ]
    if let planner = configuration.planner {
        let regions = RegionRoutes(reader: reader, storage: storage, planner: planner)
        routes.append(
            .init(.regions) { request, _, device in try await regions.postRegionRequest(request, device: device) })
    }
    if var trackingPolicy = configuration.trackingPolicy {
        if configuration.plantedMutant == .retentionNotStated { trackingPolicy.retentionDays = nil }
        let policy = PolicyRoutes(policy: trackingPolicy)
        routes.append(.init(.policy) { request, _, _ in policy.getPolicy(request) })
    }
    if configuration.offersReadBack {
        routes.append(
            .init(.readBack) { request, context, device in
                try await readBack.getFixes(request, device: device, pathDevice: pathDevice(context))
            })
        routes.append(
            .init(.ledger) { _, context, device in
                try await readBack.getLedger(device: device, pathDevice: pathDevice(context))
            })
    }
    routes.append(
        .anyCaller(.erasure) { request, context, caller in
            try await erasure.deleteDevice(request, caller: caller, pathDevice: pathDevice(context))
        })
    return RouteList(routes)
}

/// The listener `makeServerApplication` was asked for breaks `§http-tls`.
public struct TransportSecurityError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
