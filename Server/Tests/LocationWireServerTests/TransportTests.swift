import Foundation
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireHTTP
import LocationWireJSON
import LocationWireHTTPClient
import LocationWireServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What happens below the router: TLS outside loopback, bodies that never arrive whole, and how a device reads
/// an answer.
@Suite struct TransportTests {
    typealias Fixture = BatchEndpointTests

    /// `§http-tls`: plain HTTP on loopback only.
    @Test func plainHTTPOnlyOnLoopback() {
        for host in ["127.0.0.1", "127.8.9.10", "localhost", "::1"] {
            #expect(TransportSecurity.plain.refusal(host: host) == nil, "\(host)")
        }
        for host in ["0.0.0.0", "192.168.1.5", "example.com", "::", "127.0.0"] {
            #expect(TransportSecurity.plain.refusal(host: host) != nil, "\(host)")
            #expect(TransportSecurity.terminatedByProxy.refusal(host: host) == nil)
            #expect(TransportSecurity.tls(certificateChainPath: "c", privateKeyPath: "k").refusal(host: host) == nil)
        }
        #expect(throws: TransportSecurityError.self) {
            let store = try SQLiteStorage()
            _ = try makeServerApplication(
                storage: store, authenticator: store, configuration: ServerConfiguration(), host: "0.0.0.0", port: 0)
        }
    }

    /// `§http-only-200-deletes`: only a 200 whose body is a BatchAck is an ack; any other 2xx, or a 200 with a
    /// body that does not decode, is "keep everything".
    @Test func onlyA200WithAnAckIsAnAck() {
        var ack = BatchAck()
        ack.batchId = 9
        let binary = BodyFormat.binary.contentType(for: BatchAck.self)
        func result(_ status: Int, _ body: [UInt8], _ type: String = binary) -> BindingClient.UploadResult {
            BindingClient.uploadResult(.init(status: status, headers: [("Content-Type", type)], body: body))
        }
        guard case .acknowledged(let read) = result(200, ack.serializedBytes()) else {
            Issue.record("a 200 with an ack is an ack")
            return
        }
        #expect(read == ack)
        guard case .refused(202, _, _) = result(202, ack.serializedBytes()) else {
            Issue.record("a 202 is not an ack, whatever its body")
            return
        }
        guard case .unreadableAck = result(200, [0x0A, 0x05]) else {
            Issue.record("a 200 whose body does not decode is not an ack")
            return
        }
        guard case .acknowledged = result(200, Array(ack.jsonString().utf8), Binding.jsonMediaType) else {
            Issue.record("a JSON ack is an ack")
            return
        }
    }

    /// `§http-partial-body`: a body that stalls gets 408 after the time-out, a body cut short by the client
    /// stores nothing, and the server answers the next request.
    @Test func bodiesThatNeverArriveWholeStoreNothing() async throws {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: Fixture.deviceId, nowMs: Fixture.nowMs)
        let configuration = ServerConfiguration(bodyTimeout: .milliseconds(300), nowMs: { Fixture.nowMs })
        let body = Fixture.batch(1...5).serializedBytes()
        let head =
            "POST \(Binding.batchesPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: \(Binding.protobufMediaType)\r\nContent-Length: \(body.count)\r\n\r\n"
        let half = Array(head.utf8) + body.prefix(body.count / 2)
        try await Application(
            router: makeServerRouter(storage: store, authenticator: store, configuration: configuration),
            server: locationWireHTTP1()
        ).test(.live) {
            client in
            let port = try #require(client.port)
            // Stalled: half the body, then nothing. The answer is a 408 with the error body.
            let stalled = try RawConnection(port: port)
            try stalled.send(half)
            let answer = await stalled.received(timeoutSeconds: 5)
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(200))")
            #expect(answer.contains(ErrorBody.Code.incompleteBody))
            stalled.close()
            // Cut short: half the body, then the client closes.
            let cut = try RawConnection(port: port)
            try cut.send(half)
            cut.close()
            // The server still answers, and stored nothing of either.
            let http = BindingClient(baseURL: "http://127.0.0.1:\(port)")
            let next = try await http.upload(Fixture.batch(6...6, batchId: 2), token: token)
            try await http.shutdown()
            guard case .acknowledged = next else {
                Issue.record("the server did not answer after the cut bodies: \(next)")
                return
            }
        }
        #expect(try await store.storedFixCount(deviceId: Fixture.deviceId, installId: 7) == 1)
    }

    /// A live server with one body slot (`--max-bodies 1`) and `bodyPermitWait`, a raw connection holding the slot
    /// (half a body, then nothing), and an HTTP client; `body` runs with them. Returns how many fixes were stored.
    static func withTheOnlySlotHeld(
        bodyPermitWait: Duration,
        _ body: @Sendable (_ token: String, _ trickle: RawConnection, _ http: BindingClient) async throws -> Void
    ) async throws -> Int {
        let store = try SQLiteStorage()
        let token = try await store.issueToken(forDevice: Fixture.deviceId, nowMs: Fixture.nowMs)
        var configuration = ServerConfiguration(
            bodyTimeout: .seconds(10), maxConcurrentBodies: 1, nowMs: { Fixture.nowMs })
        configuration.bodyPermitWait = bodyPermitWait
        let held = Fixture.batch(1...5).serializedBytes()
        let head =
            "POST \(Binding.batchesPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: \(Binding.protobufMediaType)\r\nContent-Length: \(held.count)\r\n\r\n"
        try await Application(
            router: makeServerRouter(storage: store, authenticator: store, configuration: configuration),
            server: locationWireHTTP1()
        ).test(.live) { client in
            let port = try #require(client.port)
            let trickle = try RawConnection(port: port)
            try trickle.send(Array(head.utf8) + held.prefix(held.count / 2))
            try await Task.sleep(for: .milliseconds(200))
            let http = BindingClient(baseURL: "http://127.0.0.1:\(port)")
            do {
                try await body(token, trickle, http)
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
        return try await store.storedFixCount(deviceId: Fixture.deviceId, installId: 7)
    }

    /// `--max-bodies`: past the bodies being read at once, a request waits for a slot, unread, and gets 503 with
    /// `Retry-After` when none frees in time, storing nothing; once a slot frees, requests are read again. So
    /// bodies hold at most N × 2 × the body limit however many clients trickle.
    @Test func bodiesPastTheCapAreRefusedUnread() async throws {
        let stored = try await Self.withTheOnlySlotHeld(bodyPermitWait: .milliseconds(300)) { token, trickle, http in
            let refused = try await http.exchange(
                method: "POST", path: Binding.batchesPath, token: token,
                contentType: BodyFormat.binary.contentType(for: LocationBatch.self),
                body: Fixture.batch(6...6, batchId: 2).serializedBytes())
            #expect(refused.status == 503 && refused.errorBody?.code == ErrorBody.Code.unavailable)
            #expect(refused.headers.first { $0.0.lowercased() == "retry-after" }?.1 == "1")
            // The trickler gives up, which frees the slot (a blocking read of its 408 here would hold one of the
            // few threads the server's own timers need); the next request is read and stored.
            trickle.close()
            try await Task.sleep(for: .milliseconds(300))
            let next = try await http.upload(Fixture.batch(6...6, batchId: 3), token: token)
            guard case .acknowledged = next else {
                Issue.record("not read after the slot freed: \(next)")
                return
            }
        }
        #expect(stored == 1)
    }

    /// A request that finds every slot taken waits for one, and is read and stored when it frees within the wait
    /// (a 503 at once turned a busy moment of ordinary load into errors).
    @Test func aBodyWaitsForASlotThatFrees() async throws {
        let stored = try await Self.withTheOnlySlotHeld(bodyPermitWait: .seconds(10)) { token, trickle, http in
            let waiting = Task { try await http.upload(Fixture.batch(6...6, batchId: 2), token: token) }
            try await Task.sleep(for: .milliseconds(300))
            trickle.close()
            let answer = try await waiting.value
            guard case .acknowledged = answer else {
                Issue.record("the waiting body was not read once the slot freed: \(answer)")
                return
            }
        }
        #expect(stored == 1)
    }
}

/// A TCP connection to 127.0.0.1 through the C socket calls, to send requests no HTTP client would: half a body,
/// a stall, a close in the middle.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "connect: \(errno)")
        }
    }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))  // EPIPE, not SIGPIPE
            }
            guard count > 0 else { throw Failure(description: "send: \(errno)") }
            sent += count
        }
    }

    /// ``readAll(timeoutSeconds:)`` on a thread of its own: a blocking read on the few threads Swift's tasks run
    /// on would hold up the server under test, whose timers run there too.
    func received(timeoutSeconds: Int) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: (try? self.readAll(timeoutSeconds: timeoutSeconds)) ?? "")
            }
        }
    }

    /// Everything the server sends until it closes the connection or `timeoutSeconds` pass, as text.
    func readAll(timeoutSeconds: Int) throws -> String {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer.prefix(count)
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() {
        Glibc.close(descriptor)
    }
}
