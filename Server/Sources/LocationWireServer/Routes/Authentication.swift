import Hummingbird
import LocationWireHTTP

/// The one question bearer-token authentication asks (`§http-bearer`): whose is this token?
///
/// The reference server's storage answers it from the digests it keeps (``SQLiteStorage``, ``PostgresStorage``:
/// the token's SHA-256 is looked up, so the time a lookup takes depends on the digest, never on how much of a
/// stored token the guess matched); the mock server answers it from the tokens on its command line.
public protocol BearerTokenAuthenticator: Sendable {
    /// The device the token belongs to, or nil for a token that was never issued (401).
    ///
    /// - Throws: when the tokens cannot be read; the request is answered 503 and stores nothing.
    func deviceId(forToken token: String) async throws -> String?
}

/// A request context that carries the device authentication found, for the routes behind
/// ``AuthenticationMiddleware``.
public protocol AuthenticatedRequestContext: RequestContext {
    /// The device the request's bearer token belongs to; nil until ``AuthenticationMiddleware`` has run.
    var authenticatedDevice: String? { get set }
}

/// The reference server's request context: Hummingbird's basic one plus the authenticated device.
public struct ServerRequestContext: AuthenticatedRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var authenticatedDevice: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// Bearer-token authentication, the first of the binding's checks (`§http-auth-errors`): no token, a malformed
/// `Authorization` or a token the authenticator does not know is a 401 with `WWW-Authenticate: Bearer`; an
/// authenticator that fails is a 503 with `Retry-After`. Either way the handler never runs, so the body is not
/// read and an unauthenticated client learns nothing of how it would be. Otherwise the device goes into the
/// context, for the handler and for ``RateLimitMiddleware``.
public struct AuthenticationMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let authenticator: any BearerTokenAuthenticator
    /// `Retry-After` of the 503 when the authenticator fails, seconds.
    let retryAfterSeconds: Int

    public init(authenticator: any BearerTokenAuthenticator, retryAfterSeconds: Int) {
        self.authenticator = authenticator
        self.retryAfterSeconds = retryAfterSeconds
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        var context = context
        context.authenticatedDevice = try await device(of: request)
        return try await next(request, context)
    }

    /// The device the request's bearer token belongs to.
    func device(of request: Request) async throws(Refusal) -> String {
        guard let token = Self.bearerToken(request.headers[.authorization]) else { throw .unauthenticated() }
        let device: String?
        do {
            device = try await authenticator.deviceId(forToken: token)
        } catch {
            throw .storageUnavailable(retryAfterSeconds: retryAfterSeconds, cause: error)
        }
        guard let device else { throw .unauthenticated() }
        return device
    }

    /// The token of an `Authorization: Bearer TOKEN` header (scheme case-insensitive, RFC 9110 §11.1), or nil.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingWhitespace()
        return token.isEmpty ? nil : token
    }
}

extension AuthenticatedRequestContext {
    /// The device ``AuthenticationMiddleware`` found. A 401 when it did not run: a route registered outside it
    /// then refuses every request rather than serve one without a token.
    func requireAuthenticatedDevice() throws(Refusal) -> String {
        guard let authenticatedDevice else { throw .unauthenticated() }
        return authenticatedDevice
    }
}
