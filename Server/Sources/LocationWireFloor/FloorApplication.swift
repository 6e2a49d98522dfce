import Foundation
import Hummingbird
import LocationWire
import LocationWireHTTP
import LocationWireServer
import LocationWireSession
import Logging
import NIOCore

/// The one answer of a floor server: a valid `BatchAck` made once, at start, and sent for every batch.
///
/// It names batch 1 and accepts fixes 1 ... 2^64 - 1, so it is well formed (`§ack-ignore` finds nothing wrong
/// with it) but it is the answer to no batch in particular: a device ignores it as `ack-unknown-batch` unless
/// it is told to take it for the batch it just sent (`locwire-server load --constant-ack`).
public struct FloorAck: Sendable {
    public let ack: BatchAck
    /// The ack in binary, as `serve` sends it to a binary request.
    let body: ByteBuffer

    /// The media type of the answer, the one `serve` gives a binary ack (`§http-media-types`).
    public static let contentType = BodyFormat.binary.contentType(for: BatchAck.self)

    /// - Parameter serverTimeMs: the ack's `server_time_ms`, UTC ms: the time the floor started, for every ack.
    public init(serverTimeMs: Int64) {
        var ack = BatchAck()
        ack.batchId = 1
        ack.outcome = .processed
        ack.protocolRevision = IngestLedger.protocolRevision
        ack.serverTimeMs = serverTimeMs
        ack.fixResults = [AckRange(first: 1, last: .max, result: .accepted)]
        self.ack = ack
        body = ByteBuffer(bytes: ack.serializedBytes())
    }

    /// A 200 with the ack; the buffer is shared, not copied (a `ByteBuffer` is copied on write only).
    func response() -> Response {
        Response(status: .ok, headers: [.contentType: Self.contentType], body: ResponseBody(byteBuffer: body))
    }
}

/// The router of a floor server: `POST /v1/batches` reads the whole body (at most `maxBodyBytes` bytes), hands
/// it to `store` when there is one (floor b) and answers `ack` (floor a and b).
///
/// What the reference server does beyond it is what the floors measure: no bearer-token lookup (any
/// `Authorization`, or none, is taken), no media type, coding or size checks beyond Hummingbird's own limit,
/// no body time-out task, no decoding, no ledger, one row instead of one per fix, and no other routes or 405s.
public func makeFloorRouter(
    ack: FloorAck, store: RawBatchStore?, maxBodyBytes: Int = ServerConfiguration().maxBodyBytes,
    nowMs: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
) -> Router<BasicRequestContext> {
    let router = Router()
    router.post(RouterPath(Binding.batchesPath)) { request, _ -> Response in
        let body = try await request.body.collect(upTo: maxBodyBytes)
        if let store {
            do {
                try await store.insert(body: Data(body.readableBytesView), receivedAtMs: nowMs())
            } catch {
                // As serve: nothing committed, so no ack (§server-durable).
                throw HTTPError(.serviceUnavailable, headers: [.retryAfter: "5"])
            }
        }
        return ack.response()
    }
    return router
}

/// Builds a floor server on loopback, with the connection setup of `serve` (``locationWireHTTP1(idleTimeout:)``:
/// Hummingbird's HTTP/1.1 with ``ConnectionDiscipline``, the same idle time-out and server name), so that the
/// floors differ from `serve` in what a request does, not in how connections are handled.
///
/// `onRunning` is called with the bound port once the server listens.
///
/// - Throws: ``FloorError`` for a host beyond loopback: a floor has no TLS (`§http-tls`).
public func makeFloorApplication(
    ack: FloorAck, store: RawBatchStore?, host: String = "127.0.0.1", port: Int = 8080,
    maxBodyBytes: Int = ServerConfiguration().maxBodyBytes, idleTimeout: Duration = .seconds(60),
    logger: Logger = Logger(label: "locwire-server-floor"),
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    if let refusal = TransportSecurity.plain.refusal(host: host) { throw FloorError(description: refusal) }
    return Application(
        router: makeFloorRouter(ack: ack, store: store, maxBodyBytes: maxBodyBytes),
        server: locationWireHTTP1(idleTimeout: idleTimeout),
        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "locwire-server"),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
        logger: logger
    )
}

/// A floor server that cannot start, said plainly for the command line.
public struct FloorError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
