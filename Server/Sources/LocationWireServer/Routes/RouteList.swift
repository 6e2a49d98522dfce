import Hummingbird
import LocationWireHTTP

/// A server's endpoints, declared once: ``register(on:authenticator:configuration:outside:)`` registers each
/// route behind authentication, and the binding's 405 for every other method of each path, from the same list,
/// so that no route exists without its 405s, and no 405 names a method the path does not take.
public struct RouteList<Context: AuthenticatedRequestContext>: Sendable {
    /// One endpoint: a method on a path (a Hummingbird path pattern, `:name` for a parameter), and what answers
    /// it, given the request, its context and whom its bearer token speaks for.
    public struct Route: Sendable {
        public var method: HTTPRequest.Method
        public var path: String
        public var handler: @Sendable (Request, Context, Caller) async throws -> Response

        /// A route for devices: an operator token gets 403.
        public init(
            _ method: HTTPRequest.Method, _ path: String,
            handler: @escaping @Sendable (Request, Context, _ device: String) async throws -> Response
        ) {
            self.init(method: method, path: path) { request, context, caller in
                guard case .device(let device) = caller else { throw Refusal.deviceMismatch("a device") }
                return try await handler(request, context, device)
            }
        }

        // Private, so that a trailing closure at a call site elsewhere can only mean the device route.
        private init(
            method: HTTPRequest.Method, path: String,
            handler: @escaping @Sendable (Request, Context, Caller) async throws -> Response
        ) {
            self.method = method
            self.path = path
            self.handler = handler
        }

        /// A route that devices and the operator may call; the handler decides what each may do.
        public static func anyCaller(
            _ method: HTTPRequest.Method, _ path: String,
            handler: @escaping @Sendable (Request, Context, Caller) async throws -> Response
        ) -> Route {
            Route(method: method, path: path, handler: handler)
        }
    }

    public var routes: [Route]

    public init(_ routes: [Route]) {
        self.routes = routes
    }

    /// The methods that get 405 on a path that does not take them. HEAD and the others stay Hummingbird's 404,
    /// as they were before the list.
    public static var refusedMethods: [HTTPRequest.Method] { [.get, .post, .put, .patch, .delete] }

    /// Each path once, in the order of its first route, with the methods it takes in the order of the list.
    public var methodsByPath: [(path: String, methods: [HTTPRequest.Method])] {
        var paths: [(path: String, methods: [HTTPRequest.Method])] = []
        for route in routes {
            if let index = paths.firstIndex(where: { $0.path == route.path }) {
                paths[index].methods.append(route.method)
            } else {
                paths.append((route.path, [route.method]))
            }
        }
        return paths
    }

    /// Registers the list on `router`.
    ///
    /// Each route runs behind, in this order: `outside` (middleware that sees every refusal of the checks below
    /// and of the handler), authentication by `authenticator` (401; 503 when it fails), and the per-device rate
    /// limit of `configuration` when it has one (429). The 405s are registered beside the routes, outside all of
    /// them: a wrong method is answered without a token, as a wrong path is.
    public func register(
        on router: Router<Context>, authenticator: any BearerTokenAuthenticator, configuration: ServerConfiguration,
        outside: [any MiddlewareProtocol<Request, Response, Context>] = []
    ) {
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
        for route in routes {
            let handler = route.handler
            authenticated.on(RouterPath(route.path), method: route.method) { request, context in
                try await handler(request, context, try context.requireAuthenticatedCaller())
            }
        }
        // The binding's 405 (`§http-error-codes`); Hummingbird alone answers 404 for a method a path lacks.
        for (path, methods) in methodsByPath {
            let allowed = methods.map(\.rawValue)
            for method in Self.refusedMethods where !methods.contains(method) {
                router.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw Refusal(
                        status: .methodNotAllowed,
                        body: ErrorBody(
                            code: ErrorBody.Code.methodNotAllowed,
                            message: "\(path) takes \(allowed.joined(separator: " or ")) only"),
                        headers: [.allow: allowed.joined(separator: ", ")])
                }
            }
        }
    }
}
