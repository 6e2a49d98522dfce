import NIOSSL

/// `§http-tls`: bearer tokens travel over plain HTTP only on a loopback address. Anywhere else the server
/// serves HTTPS itself, or is told that TLS ends at a proxy in front of it.
public enum TransportSecurity: Sendable {
    /// Plain HTTP; allowed on loopback only.
    case plain
    /// HTTPS with this certificate chain and key, both PEM files.
    case tls(certificateChainPath: String, privateKeyPath: String)
    /// Plain HTTP behind a proxy that terminates TLS on a network the operator trusts.
    case terminatedByProxy

    /// Why the listener is not allowed, or nil when it is.
    public func refusal(host: String) -> String? {
        guard case .plain = self, !Self.isLoopback(host) else { return nil }
        return "listening on \(host) without TLS would send bearer tokens in clear (proto/HTTP.md, §http-tls): "
            + "give --tls-certificate and --tls-key, or --tls-terminated-by-proxy when a proxy in front does TLS"
    }

    /// Whether `host` names only this machine: `localhost`, 127.0.0.0/8 or ::1.
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "[::1]" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The server-side TLS configuration, or nil for plain HTTP.
    func tlsConfiguration() throws -> TLSConfiguration? {
        guard case .tls(let certificateChainPath, let privateKeyPath) = self else { return nil }
        let chain = try NIOSSLCertificate.fromPEMFile(certificateChainPath).map {
            NIOSSLCertificateSource.certificate($0)
        }
        let key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    }
}
