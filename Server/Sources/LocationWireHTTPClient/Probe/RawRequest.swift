import Foundation
import NIOCore
import NIOPosix

/// An HTTP/1.1 request written by hand over a plain TCP connection, for what no HTTP client sends on purpose: a
/// body that stalls, or a connection closed half-way through a body (`§http-partial-body`).
struct RawRequest: Sendable {
    var host: String
    var port: Int
    /// The request head, `POST /path HTTP/1.1` to the blank line, with `Content-Length` of the whole body.
    var head: String
    /// The part of the body that is sent.
    var partialBody: [UInt8]

    /// How a stalled request ended.
    enum Ending: Sendable, Equatable {
        /// The server answered; the status of its status line.
        case answered(status: Int)
        /// The server closed (or reset) the connection without an answer.
        case closed
        /// Neither, within the wait.
        case stillOpen
    }

    /// The base URL's host and port, and its path prefix, for `http` URLs; nil for anything else (a raw request
    /// cannot speak TLS).
    static func endpoint(of baseURL: String) -> (host: String, port: Int, prefix: String)? {
        guard let url = URL(string: baseURL), url.scheme?.lowercased() == "http", let host = url.host else {
            return nil
        }
        var prefix = url.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        return (host, url.port ?? 80, prefix)
    }

    /// Sends the head and the partial body, then waits up to `wait` for the server to answer or close.
    func stall(wait: Duration) async throws -> Ending {
        let channel = try await connect()
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: Array(head.utf8) + partialBody))
            return try await withThrowingTaskGroup(of: Ending.self) { group in
                group.addTask {
                    var received: [UInt8] = []
                    do {
                        for try await chunk in inbound {
                            received += chunk.readableBytesView
                            if let status = Self.status(of: received) { return .answered(status: status) }
                            // A status line is short; a peer that sends kilobytes without one is not answering.
                            if received.count > 8192 { return .closed }
                        }
                    } catch {
                        return .closed
                    }
                    return .closed
                }
                group.addTask {
                    try await Task.sleep(for: wait)
                    return .stillOpen
                }
                defer { group.cancelAll() }
                return try await group.next() ?? .stillOpen
            }
        }
    }

    /// Sends the head and the partial body, then closes the connection.
    func sendAndClose() async throws {
        let channel = try await connect()
        try await channel.executeThenClose { _, outbound in
            try await outbound.write(ByteBuffer(bytes: Array(head.utf8) + partialBody))
        }
    }

    func connect() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// The status of `HTTP/1.1 408 ...` once the status line is complete, else nil.
    static func status(of received: [UInt8]) -> Int? {
        guard let end = received.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: received[..<end], as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { return nil }
        return status
    }
}
