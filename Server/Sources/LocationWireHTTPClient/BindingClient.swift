import AsyncHTTPClient
import Foundation
import LocationWire
import LocationWireHTTP
import NIOCore
import NIOHTTP1

/// A device's side of proto/HTTP.md over async-http-client: what the probe, the load run and the crash soak send.
///
/// One `BindingClient` shares one connection pool among any number of simulated devices; it is `Sendable` and
/// its methods may run concurrently. Call ``shutdown()`` once, when done.
public final class BindingClient: Sendable {
    /// The server's base URL without a trailing slash, e.g. `http://127.0.0.1:8080`.
    public let baseURL: String
    let http: HTTPClient

    /// - Parameter connectionsPerHost: the pool's size towards the server; one per concurrent device is right for
    ///   load runs, where each device waits for its answer before sending again.
    public init(baseURL: String, connectionsPerHost: Int = 8) {
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.baseURL = trimmed
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost)
        // Redirects are not part of the binding: a 3xx is an answer to report, not to follow.
        configuration.redirectConfiguration = .disallow
        // Bodies are compared as sent; the binding's gzip is applied by the caller, so the client decompresses
        // nothing by itself.
        configuration.decompression = .disabled
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func shutdown() async throws {
        try await http.shutdown()
    }

    /// One HTTP exchange as the server answered it.
    public struct Exchange: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The first value of a header, matched case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The JSON error body, when the answer carries one.
        public var errorBody: ErrorBody? {
            ErrorBody(jsonBytes: body)
        }
    }

    /// Sends one request and reads the whole answer, up to `maxResponseBytes`.
    ///
    /// - Parameters:
    ///   - headers: sent as given, after `Authorization` (from `token`) and `Content-Type`.
    ///   - timeout: for the whole exchange.
    /// - Throws: what the transport threw (refused connection, reset, time-out): the binding's "no answer".
    public func exchange(
        method: String, path: String, token: String?, contentType: String? = nil, headers: [(String, String)] = [],
        body: [UInt8]? = nil, timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 << 20
    ) async throws -> Exchange {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .RAW(value: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await http.execute(request, timeout: TimeAmount(timeout))
        let collected = try await response.body.collect(upTo: maxResponseBytes)
        return Exchange(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: Array(collected.readableBytesView))
    }

    /// What one upload got (`§http-only-200-deletes`): an ack, which alone lets a device delete, or anything
    /// else, after which it keeps everything.
    public enum UploadResult: Sendable {
        case acknowledged(BatchAck)
        /// A non-200 status, with its error body and `Retry-After` when the server sent them.
        case refused(status: Int, error: ErrorBody?, retryAfter: String?)
        /// A 200 whose body is not a `BatchAck`: no ack, keep everything.
        case unreadableAck(String)
    }

    /// Posts `batch` to `/v1/batches` in `format`, gzip-compressed when `gzip` is set, and reads the answer in
    /// the same format. Transport failures throw.
    public func upload(
        _ batch: LocationBatch, token: String, format: BodyFormat = .binary, gzip: Bool = false,
        timeout: Duration = .seconds(30)
    ) async throws -> UploadResult {
        let encoded = format.encode(batch)
        var headers: [(String, String)] = [("Accept", format.mediaType)]
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        let answer = try await exchange(
            method: "POST", path: Binding.batchesPath, token: token,
            contentType: format.contentType(for: LocationBatch.self), headers: headers,
            body: gzip ? GzipCoding.compress(encoded) : encoded, timeout: timeout)
        return Self.uploadResult(answer)
    }

    /// Posts `batch` in binary, as a device does, and reads the answer as the binding's table says
    /// (`§http-device-answers`). Transport failures throw.
    public func uploadAnswer(
        _ batch: LocationBatch, token: String, timeout: Duration = .seconds(30)
    ) async throws
        -> UploadAnswer
    {
        let answer = try await exchange(
            method: "POST", path: Binding.batchesPath, token: token,
            contentType: BodyFormat.binary.contentType(for: LocationBatch.self),
            headers: [("Accept", Binding.protobufMediaType)], body: batch.serializedBytes(), timeout: timeout)
        return UploadAnswer(
            status: answer.status, contentType: answer.header("Content-Type"), retryAfter: answer.header("Retry-After"),
            body: answer.body, bodyIsWhole: true, batchId: batch.batchId,
            nowMs: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Reads an answer of `/v1/batches` as a device must.
    public static func uploadResult(_ answer: Exchange) -> UploadResult {
        guard answer.status == 200 else {
            return .refused(status: answer.status, error: answer.errorBody, retryAfter: answer.header("Retry-After"))
        }
        let format = answer.header("Content-Type").flatMap(MediaType.init)?.format ?? .binary
        do {
            return .acknowledged(try format.decode(BatchAck.self, from: answer.body))
        } catch {
            return .unreadableAck("\(error.code): \(error.message)")
        }
    }
}
