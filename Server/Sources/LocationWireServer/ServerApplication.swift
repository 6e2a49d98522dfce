import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import LocationWireHTTP
import Logging

/// Builds the reference server: the binding's routes on a Hummingbird router, bound to `host:port`.
///
/// `onRunning` is called with the bound port once the server listens (the port asked for, or the one the system
/// chose for port 0), so the command line prints a URL that works.
///
/// - Throws: when `security` does not allow `host` (`§http-tls`), or its certificate or key cannot be read.
public func makeServerApplication(
    storage: any ServerStorage, configuration: ServerConfiguration, host: String = "127.0.0.1", port: Int = 8080,
    security: TransportSecurity = .plain, idleTimeout: Duration = .seconds(60),
    logger: Logger = Logger(label: "locwire-server"), onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    if let refusal = security.refusal(host: host) { throw TransportSecurityError(message: refusal) }
    // The idle time-out closes a connection on which nothing arrives at all; RequestReader's body time-out
    // catches the client that trickles.
    let http1 = HTTPServerBuilder.http1(configuration: .init(idleTimeout: TimeAmount(idleTimeout)))
    return Application(
        router: makeServerRouter(storage: storage, configuration: configuration),
        server: try security.tlsConfiguration().map { try .tls(http1, tlsConfiguration: $0) } ?? http1,
        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "locwire-server"),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
        logger: logger
    )
}

/// The router alone, for tests that drive it without a socket.
public func makeServerRouter(
    storage: any ServerStorage, configuration: ServerConfiguration
)
    -> Router<BasicRequestContext>
{
    let router = Router()
    router.add(middleware: ErrorBodyMiddleware())
    if let limit = configuration.maxInFlight {
        router.add(middleware: InFlightLimitMiddleware(limit: max(limit, 1)))
    }
    let reader = RequestReader(storage: storage, configuration: configuration)
    BatchRoutes(reader: reader).register(on: router)
    RegionRoutes(reader: reader).register(on: router)
    PolicyRoutes(reader: reader).register(on: router)
    ReadBackRoutes(reader: reader).register(on: router)
    // The binding's 405: its paths with the other methods (Hummingbird alone answers 404 for those).
    for (path, allowed) in [
        (Binding.batchesPath, HTTPRequest.Method.post), (Binding.regionsPath, .post), (Binding.policyPath, .get),
        ("/v1/devices/:device/fixes", .get),
    ] {
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] where method != allowed {
            router.on(RouterPath(path), method: method) { _, _ -> Response in
                throw Refusal(
                    status: .methodNotAllowed,
                    body: ErrorBody(
                        code: ErrorBody.Code.methodNotAllowed, message: "\(path) takes \(allowed.rawValue) only"),
                    headers: [.allow: allowed.rawValue])
            }
        }
    }
    return router
}

/// The listener `makeServerApplication` was asked for breaks `§http-tls`.
public struct TransportSecurityError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
