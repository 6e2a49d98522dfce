import Synchronization

/// Remembers whom each token seen speaks for, so that a device's every request after its first is
/// authenticated without a database read (issue 24: a lookup by SELECT on every request was a measurable part of
/// a one-fix batch's cost).
///
/// Only answers that found a caller are kept: a token issued after a miss (by another process on a shared
/// PostgreSQL) is found on its next request. It is sound because the reference server never revokes a token; a
/// server that adds revocation must drop this cache or invalidate it. Entries are keyed by the token's digest,
/// so the process keeps no token in clear; the lookup's time depends on the digest, not on how much of a real
/// token a guess got right. At most ``capacity`` entries: when full, it starts again empty.
public final class TokenCache: BearerTokenAuthenticator {
    let authenticator: any BearerTokenAuthenticator
    let capacity: Int
    private let callers = Mutex<[String: Caller]>([:])

    public init(_ authenticator: any BearerTokenAuthenticator, capacity: Int = 100_000) {
        self.authenticator = authenticator
        self.capacity = capacity
    }

    public func deviceId(forToken token: String) async throws -> String? {
        if case .device(let device) = try await caller(forToken: token) { return device }
        return nil
    }

    public func isOperatorToken(_ token: String) async throws -> Bool {
        try await caller(forToken: token) == .operator
    }

    /// Whom `token` speaks for, from the cache or else from the authenticator (device first, then operator).
    func caller(forToken token: String) async throws -> Caller? {
        let digest = StoredRows.tokenDigest(token)
        if let known = callers.withLock({ $0[digest] }) { return known }
        let found: Caller? =
            if let device = try await authenticator.deviceId(forToken: token) {
                .device(device)
            } else if try await authenticator.isOperatorToken(token) {
                .operator
            } else {
                nil
            }
        if let found {
            callers.withLock { callers in
                if callers.count >= capacity { callers.removeAll(keepingCapacity: true) }
                callers[digest] = found
            }
        }
        return found
    }

    /// How many tokens are remembered (tests).
    var count: Int { callers.withLock { $0.count } }
}
