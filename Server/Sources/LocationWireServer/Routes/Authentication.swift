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

    /// Whether the token is an operator's (`§http-erase`), asked only for a token that is no device's.
    ///
    /// - Throws: as ``deviceId(forToken:)``.
    func isOperatorToken(_ token: String) async throws -> Bool
}

extension BearerTokenAuthenticator {
    /// No operator tokens: an authenticator that issues none need not say so.
    public func isOperatorToken(_ token: String) async throws -> Bool { false }
}

/// Whom a request's bearer token speaks for.
public enum Caller: Sendable, Hashable {
    /// A device's token: it acts for that device only.
    case device(String)
    /// An operator's token (`§http-erase`): it may erase any device's data, and do nothing else.
    case `operator`
}

/// A request context that carries the caller authentication found, for the routes behind
/// ``AuthenticationMiddleware``.
public protocol AuthenticatedRequestContext: RequestContext {
    /// Whom the request's bearer token speaks for; nil until ``AuthenticationMiddleware`` has run.
    var authenticatedCaller: Caller? { get set }
}

/// The reference server's request context: Hummingbird's basic one plus the authenticated device.
public struct ServerRequestContext: AuthenticatedRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var authenticatedCaller: Caller?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// Bearer-token authentication, the first of the binding's checks (`§http-auth-errors`): no token, a malformed
/// `Authorization` or a token the authenticator does not know is a 401 with `WWW-Authenticate: Bearer`; an
/// authenticator that fails is a 503 with `Retry-After`. Either way the handler never runs, so the body is not
/// read and an unauthenticated client learns nothing of how it would be. Otherwise the caller (a device, or
/// the operator) goes into the context, for the handler and for ``RateLimitMiddleware``.
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
        context.authenticatedCaller = try await caller(of: request)
        return try await next(request, context)
    }

    /// Whom the request's bearer token speaks for.
    func caller(of request: Request) async throws(Refusal) -> Caller {
        guard let token = Self.bearerToken(request.headers[.authorization]) else { throw .unauthenticated() }
        do {
            if let device = try await authenticator.deviceId(forToken: token) { return .device(device) }
            if try await authenticator.isOperatorToken(token) { return .operator }
        } catch {
            throw .storageUnavailable(retryAfterSeconds: retryAfterSeconds, cause: error)
        }
        throw .unauthenticated()
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
    /// The caller ``AuthenticationMiddleware`` found. A 401 when it did not run: a route registered outside it
    /// then refuses every request rather than serve one without a token.
    func requireAuthenticatedCaller() throws(Refusal) -> Caller {
        guard let authenticatedCaller else { throw .unauthenticated() }
        return authenticatedCaller
    }

    /// The device ``AuthenticationMiddleware`` found: a 403 for the operator, whose token acts for no device.
    func requireAuthenticatedDevice() throws(Refusal) -> String {
        guard case .device(let device) = try requireAuthenticatedCaller() else { throw .deviceMismatch("a device") }
        return device
    }
}
