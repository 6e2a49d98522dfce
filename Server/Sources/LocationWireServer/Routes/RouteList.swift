import Hummingbird
import LocationWireHTTP

/// A server's endpoints, one route per row of the binding's endpoint table (``Endpoint``) it offers:
/// ``register(on:authenticator:configuration:outside:)`` puts the binding's routing in front of them (404 for a
/// path the binding lacks, 404 `not-offered` for an endpoint left out, 405 with `Allow` for another method, all
/// before the token is looked at, `§http-check-order`), then each route behind authentication.
public struct RouteList<Context: AuthenticatedRequestContext>: Sendable {
    /// One offered endpoint and what answers it, given the request, its context and whom its bearer token speaks
    /// for.
    public struct Route: Sendable {
        public var endpoint: Endpoint
        public var handler: @Sendable (Request, Context, Caller) async throws -> Response

        /// A route for devices: an operator token gets 403 (`§http-operator-token`).
        public init(
            _ endpoint: Endpoint,
            handler: @escaping @Sendable (Request, Context, _ device: String) async throws -> Response
        ) {
            self.init(endpoint: endpoint) { request, context, caller in
                guard case .device(let device) = caller else { throw Refusal.deviceMismatch("a device") }
                return try await handler(request, context, device)
            }
        }

        // Private, so that a trailing closure at a call site elsewhere can only mean the device route.
        private init(
            endpoint: Endpoint, handler: @escaping @Sendable (Request, Context, Caller) async throws -> Response
        ) {
            self.endpoint = endpoint
            self.handler = handler
        }

        /// A route that devices and the operator may call; the handler decides what each may do.
        public static func anyCaller(
            _ endpoint: Endpoint, handler: @escaping @Sendable (Request, Context, Caller) async throws -> Response
        ) -> Route {
            Route(endpoint: endpoint, handler: handler)
        }
    }

    public var routes: [Route]

    public init(_ routes: [Route]) {
        self.routes = routes
    }

    /// The name of the path parameter that stands for `{device_id}` in Hummingbird's patterns.
    public static var deviceParameter: String { "device" }

    /// The Hummingbird path pattern of an endpoint's template.
    static func pattern(of endpoint: Endpoint) -> String {
        endpoint.pathTemplate.replacing("{device_id}", with: ":\(deviceParameter)")
    }

    /// Registers the list on `router`: the binding's routing as router middleware, then each route behind, in
    /// this order, `outside` (middleware that sees every refusal of the checks below and of the handler),
    /// authentication by `authenticator` (401; 503 when it fails), and the per-device rate limit of
    /// `configuration` when it has one (429).
    public func register(
        on router: Router<Context>, authenticator: any BearerTokenAuthenticator, configuration: ServerConfiguration,
        outside: [any MiddlewareProtocol<Request, Response, Context>] = []
    ) {
        router.add(
            middleware: BindingRouting<Context>(
                offered: Set(routes.map(\.endpoint)), mutant: configuration.plantedMutant))
        let authenticated = router.group()
        for middleware in outside { authenticated.add(middleware: middleware) }
        authenticated.add(
            middleware: AuthenticationMiddleware<Context>(
                authenticator: authenticator, retryAfterSeconds: configuration.storageRetryAfterSeconds))
        if let rate = configuration.rateLimitPerDevice {
            authenticated.add(
                middleware: RateLimitMiddleware<Context>(
                    limiter: RateLimiter(requestsPerSecond: max(rate, 1)), now: configuration.monotonicNow))
        }
        let mutant = configuration.plantedMutant
        for route in routes {
            let handler = route.handler
            authenticated.on(
                RouterPath(Self.pattern(of: route.endpoint)), method: HTTPRequest.Method(route.endpoint.method)!
            ) { request, context in
                var caller = try context.requireAuthenticatedCaller()
                if mutant == .operatorActsForBody, caller == .operator { caller = .device("") }
                return try await handler(request, context, caller)
            }
        }
    }
}

/// The binding's routing, step 2 of `§http-check-order`, from the endpoint table alone: a path no endpoint has
/// is `404` `not-found`; a path whose endpoints the server leaves out is `404` `not-offered`, whatever the method
/// (`§http-endpoints`); another method on an offered path is `405` with `Allow` (`§http-allow`), `HEAD` on a
/// `GET` endpoint included (`§http-head`). What passes reaches a route that takes it.
struct BindingRouting<Context: RequestContext>: RouterMiddleware {
    let offered: Set<Endpoint>
    var mutant: PlantedMutant?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if mutant == .smallHeaderLimit,
            request.headers.reduce(0, { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }) > 4096
        {
            throw Refusal(
                status: .init(code: 431),
                body: ErrorBody(code: ErrorBody.Code.headersTooLarge, message: "headers over 4096 bytes"))
        }
        if mutant == .mediaTypeBeforeToken, request.method == .post,
            let type = request.headers[.contentType], MediaType(type)?.format == nil
        {
            throw Refusal(
                status: .unsupportedMediaType,
                body: ErrorBody(code: ErrorBody.Code.unsupportedMediaType, message: "checked before the token"))
        }
        if mutant == .headAsNotFound, request.method == .head {
            throw Refusal(status: .notFound, body: ErrorBody(code: ErrorBody.Code.notFound, message: "HEAD"))
        }
        guard let endpoints = Self.endpoints(atPath: path) else {
            throw Refusal(
                status: .notFound,
                body: ErrorBody(code: ErrorBody.Code.notFound, message: "\(path) is no endpoint of the binding"))
        }
        let methods = endpoints.filter(offered.contains).map(\.method)
        guard !methods.isEmpty else {
            throw Refusal(
                status: .notFound,
                body: ErrorBody(
                    code: mutant == .notOfferedAsNotFound ? ErrorBody.Code.notFound : ErrorBody.Code.notOffered,
                    message: "this server does not offer \(path)"))
        }
        guard methods.contains(request.method.rawValue) else {
            let allowed = methods.joined(separator: ", ")
            throw Refusal(
                status: .methodNotAllowed,
                body: ErrorBody(
                    code: ErrorBody.Code.methodNotAllowed,
                    message: "\(path) takes \(methods.joined(separator: " or ")) only"),
                headers: mutant == .allowMissing ? [:] : [.allow: allowed])
        }
        return try await next(request, context)
    }

    /// The endpoints whose path template matches `path` (`{device_id}` matching one non-empty segment), or nil
    /// when none does.
    static func endpoints(atPath path: String) -> [Endpoint]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let matching = Endpoint.all.filter { endpoint in
            let template = endpoint.pathTemplate.split(separator: "/", omittingEmptySubsequences: false)
            return template.count == segments.count
                && zip(template, segments).allSatisfy { expected, actual in
                    expected == "{device_id}" ? !actual.isEmpty : expected == actual
                }
        }
        return matching.isEmpty ? nil : matching
    }
}
