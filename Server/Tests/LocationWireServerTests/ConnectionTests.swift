import Foundation
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireHTTP
import LocationWireSession
import LocationWireServer
import Testing

/// What HTTP/1.1 asks of the connection (``locationWireHTTP1(idleTimeout:)``'s discipline), each through a raw
/// socket: the requests no HTTP client sends on purpose. Each fails on Hummingbird's pipeline alone.
@Suite(.serialized) struct ConnectionTests {
    typealias Fixture = BatchEndpointTests

    /// Runs `body` against a live reference server on SQLite, with its token and a small body limit.
    static func withServer(
        maxBodyBytes: Int = 64 * 1024, _ body: @escaping @Sendable (_ port: Int, _ token: String) async throws -> Void
    ) async throws {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: Fixture.deviceId, nowMs: Fixture.nowMs)
        var configuration = ServerConfiguration(maxBodyBytes: maxBodyBytes, nowMs: { Fixture.nowMs })
        // The body limit is at least the max_batch_bytes a server states (§http-size); here they are one.
        configuration.ledgerPolicy.maxBatchBytes = min(maxBodyBytes, configuration.ledgerPolicy.maxBatchBytes)
        try await Application(
            router: makeServerRouter(storage: store, authenticator: store, configuration: configuration),
            server: locationWireHTTP1()
        ).test(.live) { client in
            try await body(try #require(client.port), token)
        }
    }

    static func head(
        _ token: String, version: String = "HTTP/1.1", host: Bool = true, extra: String = "", length: Int? = nil
    ) -> String {
        "POST \(Binding.batchesPath) \(version)\r\n" + (host ? "Host: 127.0.0.1\r\n" : "")
            + "Authorization: Bearer \(token)\r\nContent-Type: \(Binding.protobufMediaType)\r\n"
            + (length.map { "Content-Length: \($0)\r\n" } ?? "") + extra + "\r\n"
    }

    /// The JSON error body's code in an answer read off the socket.
    static func errorCode(_ answer: String) -> String? {
        guard let start = answer.range(of: "\r\n\r\n")?.upperBound,
            let object = try? JSONSerialization.jsonObject(with: Data(answer[start...].utf8)) as? [String: Any]
        else { return nil }
        return object["code"] as? String
    }

    /// `§http-time-outs`: a server may close a connection on which nothing arrives; it closes without an answer,
    /// and a new connection is served as any (a device opens one when its old one is gone).
    @Test func anIdleConnectionIsClosedAndANewOneServed() async throws {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: Fixture.deviceId, nowMs: Fixture.nowMs)
        let configuration = ServerConfiguration(nowMs: { Fixture.nowMs })
        try await Application(
            router: makeServerRouter(storage: store, authenticator: store, configuration: configuration),
            server: locationWireHTTP1(idleTimeout: .seconds(1))
        ).test(.live) { client in
            let port = try #require(client.port)
            let idle = try RawConnection(port: port)
            defer { idle.close() }
            let clock = ContinuousClock()
            let start = clock.now
            let silence = await idle.received(timeoutSeconds: 10)
            #expect(silence.isEmpty, "closed without an answer")
            #expect(clock.now - start < .seconds(8), "closed after the idle time-out, not the read's")
            let fresh = try RawConnection(port: port)
            defer { fresh.close() }
            let body = Fixture.batch(1...1).serializedBytes()
            try fresh.send(Array(Self.head(token, extra: "Connection: close\r\n", length: body.count).utf8) + body)
            #expect(await fresh.received(timeoutSeconds: 10).hasPrefix("HTTP/1.1 200"))
        }
    }

    /// RFC 9112, section 3.2: an HTTP/1.1 request without Host is a 400, with the error body, and the connection
    /// closes (reading until the close returns at once; a kept-alive connection would hold the read 5 s).
    @Test func aRequestWithoutHostIsA400() async throws {
        try await Self.withServer { port, token in
            let body = Fixture.batch(1...1).serializedBytes()
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            try connection.send(Array(Self.head(token, host: false, length: body.count).utf8) + body)
            let clock = ContinuousClock()
            let start = clock.now
            let answer = await connection.received(timeoutSeconds: 5)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
            #expect(Self.errorCode(answer) == ErrorBody.Code.malformedRequest)
            #expect(clock.now - start < .seconds(4), "closed after the answer")
        }
    }

    /// Broken chunked framing is a malformed request (400, error body), not a slow one (408): resending the same
    /// bytes cannot help.
    @Test(arguments: ["ffffffffffffffffffff", "-5", "0x10"]) func brokenChunkedFramingIsA400(size: String) async throws
    {
        try await Self.withServer { port, token in
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            let head = Self.head(token, extra: "Transfer-Encoding: chunked\r\n")
            try connection.send(Array((head + "\(size)\r\nabc\r\n0\r\n\r\n").utf8))
            let answer = await connection.received(timeoutSeconds: 5)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
            #expect(Self.errorCode(answer) == ErrorBody.Code.malformedRequest, "\(answer.prefix(400))")
        }
    }

    /// `Transfer-Encoding: gzip, chunked` is a 501 (RFC 9112, section 6.1): the body would reach the router still
    /// gzip-coded (it was taken as the body, and refused as an undecodable batch or, worse, stored).
    @Test func aTransferCodingOtherThanChunkedIsA501() async throws {
        try await Self.withServer { port, token in
            let gzipped = GzipCoding.compress(Fixture.batch(1...1).serializedBytes())
            let chunk = String(gzipped.count, radix: 16)
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            let head = Self.head(token, extra: "Transfer-Encoding: gzip, chunked\r\n")
            try connection.send(Array((head + "\(chunk)\r\n").utf8) + gzipped + Array("\r\n0\r\n\r\n".utf8))
            let answer = await connection.received(timeoutSeconds: 5)
            #expect(answer.hasPrefix("HTTP/1.1 501"), "\(answer.prefix(200))")
            #expect(Self.errorCode(answer) == ErrorBody.Code.unsupportedTransferCoding)
        }
    }

    /// A header line the parser refuses: 400 with the error body, where the framework's own 400 has none.
    @Test func aMalformedHeaderGetsTheErrorBody() async throws {
        try await Self.withServer { port, token in
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            try connection.send(Array((Self.head(token, extra: "No colon here\r\n", length: 0)).utf8))
            let answer = await connection.received(timeoutSeconds: 5)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
            #expect(Self.errorCode(answer) == ErrorBody.Code.malformedRequest)
        }
    }

    /// `§http-close`: HTTP/1.0 without keep-alive is answered, then closed (RFC 9112, section 9.3).
    @Test func anHTTP10RequestIsAnsweredThenClosed() async throws {
        try await Self.withServer { port, token in
            let body = Fixture.batch(1...1).serializedBytes()
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            try connection.send(Array(Self.head(token, version: "HTTP/1.0", length: body.count).utf8) + body)
            let clock = ContinuousClock()
            let start = clock.now
            let answer = await connection.received(timeoutSeconds: 5)
            #expect(answer.contains(" 200 "), "\(answer.prefix(200))")
            #expect(clock.now - start < .seconds(4), "closed after the answer")
        }
    }

    /// `§http-close`: `Connection: close` and a body over the limit, larger than the socket buffers, written before
    /// reading: the server answers 413 with the limit, reads and drops the rest, and closes, so the client finishes
    /// writing and learns `maxBatchBytes` (it used to block until its own time-out).
    @Test func a413WithConnectionCloseLetsTheClientFinishAndRead() async throws {
        try await Self.withServer(maxBodyBytes: 64 * 1024) { port, token in
            let body = [UInt8](repeating: 0x0A, count: 8 << 20)
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            // Written on a thread of its own while this one reads: a server that neither reads nor closes holds the
            // writer until the read's time-out ends the test and closes the socket.
            let request = Array(Self.head(token, extra: "Connection: close\r\n", length: body.count).utf8) + body
            Thread.detachNewThread { _ = try? connection.send(request) }
            let clock = ContinuousClock()
            let start = clock.now
            let answer = await connection.received(timeoutSeconds: 10)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
            #expect(clock.now - start < .seconds(8), "read to the close: the server read the rest and closed")
            #expect(answer.contains("\"maxBatchBytes\":65536"), "\(answer.prefix(400))")
        }
    }
}
