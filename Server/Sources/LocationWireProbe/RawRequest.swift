import Foundation
import LocationWireHTTP
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

/// An answer read off a plain connection as HTTP/1.1 frames it (RFC 9112, section 6): interim `1xx` answers
/// skipped, the body by `Content-Length`, by chunked coding, or up to the close.
struct RawAnswer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// How the body was delimited: `content-length`, `chunked`, `close` (the server closed to end it, which a
    /// device cannot tell from a cut), `none` (an answer to `HEAD`, or a status without a body).
    var framing: String

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Sends `bytes` on a new connection to `host:port` and reads one answer; nil when the server closed without
    /// one within `wait`.
    static func exchange(
        host: String, port: Int, bytes: [UInt8], isHead: Bool, wait: Duration
    ) async throws
        -> RawAnswer?
    {
        let request = RawRequest(host: host, port: port, head: "", partialBody: bytes)
        let channel = try await request.connect()
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: bytes))
            return try await withThrowingTaskGroup(of: RawAnswer?.self) { group in
                group.addTask {
                    var received: [UInt8] = []
                    var closed = false
                    do {
                        for try await chunk in inbound {
                            received += chunk.readableBytesView
                            if let answer = parse(received, isHead: isHead, closed: false) { return answer }
                        }
                    } catch {}
                    closed = true
                    return parse(received, isHead: isHead, closed: closed)
                }
                group.addTask {
                    try await Task.sleep(for: wait)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        }
    }

    /// The first final answer in `bytes`, when it is complete (or `closed` ends it).
    static func parse(_ bytes: [UInt8], isHead: Bool, closed: Bool) -> RawAnswer? {
        var start = 0
        while true {
            guard let headEnd = find([13, 10, 13, 10], in: bytes, from: start) else { return nil }
            let lines = String(decoding: bytes[start..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ")
            guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
            let headers = lines.dropFirst().compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingWhitespace())
            }
            let bodyStart = headEnd + 4
            if (100..<200).contains(status) {
                start = bodyStart
                continue
            }
            var answer = RawAnswer(status: status, headers: headers, body: [], framing: "none")
            if isHead || status == 204 || status == 304 { return answer }
            if let length = answer.header("Content-Length").flatMap(Int.init) {
                guard bytes.count - bodyStart >= length else { return closed ? cut(answer, bytes, bodyStart) : nil }
                answer.body = Array(bytes[bodyStart..<(bodyStart + length)])
                answer.framing = "content-length"
                return answer
            }
            if answer.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
                var position = bodyStart
                var body: [UInt8] = []
                while true {
                    guard let lineEnd = find([13, 10], in: bytes, from: position),
                        let size = Int(
                            String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: ";")[0]
                                .trimmingWhitespace(), radix: 16)
                    else { return closed ? cut(answer, bytes, bodyStart) : nil }
                    let dataStart = lineEnd + 2
                    if size == 0 {
                        answer.body = body
                        answer.framing = "chunked"
                        return answer
                    }
                    guard bytes.count >= dataStart + size + 2 else {
                        return closed ? cut(answer, bytes, bodyStart) : nil
                    }
                    body += bytes[dataStart..<(dataStart + size)]
                    position = dataStart + size + 2
                }
            }
            guard closed else { return nil }
            answer.body = Array(bytes[bodyStart...])
            answer.framing = "close"
            return answer
        }
    }

    private static func cut(_ answer: RawAnswer, _ bytes: [UInt8], _ bodyStart: Int) -> RawAnswer {
        var cut = answer
        cut.body = Array(bytes[bodyStart...])
        cut.framing = "cut"
        return cut
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
