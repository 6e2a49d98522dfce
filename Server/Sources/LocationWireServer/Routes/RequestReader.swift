import Hummingbird
import LocationWire
import LocationWireHTTP
import LocationWireJSON
import LocationWireSession
import NIOCore

/// How every endpoint reads its body, in the binding's order, once ``AuthenticationMiddleware`` (401, 503 when
/// the token store fails) and ``RateLimitMiddleware`` (429) have let the request through: media type and `proto`
/// parameter (415), content coding (415), size (413, before reading when `Content-Length` says so, else while
/// reading), gzip (400, or 413 when it would decompress past the limit), then the message (400 with the codec's
/// code, offset and path).
///
/// Public so that the mock server (LocationWireMockServer) reads requests exactly as the reference server does.
public struct RequestReader: Sendable {
    public let configuration: ServerConfiguration
    /// The slots for bodies being read, shared by every route of a server
    /// (``ServerConfiguration/maxConcurrentBodies``).
    let bodySlots: Permits

    public init(configuration: ServerConfiguration) {
        self.configuration = configuration
        bodySlots = Permits(configuration.maxConcurrentBodies)
    }

    /// The decoded body, its format, and its size in bytes as the message was encoded (after any content coding).
    public func readMessage<Message: LocationWireMessage>(
        _: Message.Type, from request: Request
    ) async throws(Refusal)
        -> (message: Message, format: BodyFormat, encodedSize: Int)
    {
        let (format, bytes) = try await readBody(Message.self, from: request)
        let mutant = configuration.plantedMutant
        let message: Message
        do {
            if mutant == .unknownJSONMembersDropped, format == .json {
                do {
                    message = try Message(jsonUTF8: bytes, options: JSONParseOptions(ignoreUnknownFields: true))
                } catch {
                    throw ErrorBody(json: error)
                }
            } else {
                message = try format.decode(Message.self, from: bytes)
            }
        } catch var error as ErrorBody {
            // The planted offset and path mutants break the binary decoder's rules, the JSON one the JSON reader's.
            if mutant == (format == .binary ? .offsetOneLate : .jsonOffsetOneLate) {
                error.offset = error.offset.map { $0 + 1 }
            }
            if mutant == .pathWithoutIndices, format == .binary {
                error.fieldPath = error.fieldPath?.replacing(/\[[0-9]+\]/, with: "")
            }
            throw Refusal(status: .badRequest, body: error)
        } catch {
            throw Refusal(status: .badRequest, body: ErrorBody(code: "malformed-request", message: "\(error)"))
        }
        return (message, format, mutant == .jsonMeasuredInBinary ? message.serializedSize : bytes.count)
    }

    /// The body's format and its bytes after content decoding, not yet decoded as `Message`: every check of
    /// ``readMessage(_:from:)`` but the last, for a caller that needs the bytes as sent (the mock server's journal
    /// keeps their size and digest).
    public func readBody<Message: LocationWireMessage>(
        _: Message.Type, from request: Request
    ) async throws(Refusal) -> (format: BodyFormat, bytes: [UInt8]) {
        let format: BodyFormat
        let mutant = configuration.plantedMutant
        do {
            let fields = request.headers[values: .contentType]
            format = try BodyFormat.ofRequest(
                contentTypeFields: mutant == .twoContentTypesTaken ? Array(fields.prefix(1)) : fields,
                expecting: Message.self)
        } catch {
            throw Refusal(error)
        }
        return (format, try await readBytes(request))
    }

    /// The body's bytes after content decoding, never more than ``ServerConfiguration/maxBodyBytes``.
    func readBytes(_ request: Request) async throws(Refusal) -> [UInt8] {
        let limit = configuration.maxBodyBytes
        let coding: ContentCoding
        do {
            let fields = request.headers[values: .contentEncoding]
            if configuration.plantedMutant == .xGzipRefused, fields.map({ $0.lowercased() }) == ["x-gzip"] {
                _ = try ContentCoding.ofRequest(contentEncodingFields: ["br"])  // throws the 415
            }
            coding = try ContentCoding.ofRequest(contentEncodingFields: fields)
        } catch {
            throw Refusal(error)
        }
        // A declared length over the limit is refused before a byte of the body is read. A gzip body may
        // decompress to 1000 times its size, so its compressed size is bounded by the same limit.
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw tooLarge
        }
        let body = try await collect(request.body, upTo: limit)
        guard coding == .gzip else { return Array(body.readableBytesView) }
        if configuration.plantedMutant == .emptyGzipTaken, body.readableBytes == 0 { return [] }
        do {
            return try GzipCoding.decompress(body, limit: limit)
        } catch .tooLarge {
            throw tooLarge
        } catch {
            throw Refusal(
                status: .badRequest,
                body: ErrorBody(
                    code: ErrorBody.Code.corruptContentEncoding, message: "Content-Encoding gzip, but not a gzip stream"
                ))
        }
    }

    /// The 413 of this server.
    var tooLarge: Refusal {
        let stated =
            configuration.plantedMutant == .bodyLimitIn413
            ? configuration.maxBodyBytes : configuration.ledgerPolicy.maxBatchBytes
        return .tooLarge(bodyLimit: configuration.maxBodyBytes, maxBatchBytes: stated)
    }

    /// Collects the body, giving up after ``ServerConfiguration/bodyTimeout`` (a slow or stalled client) with
    /// 408; a body cut short by the client (a closed connection) throws too, and nothing of it is stored
    /// (`§http-partial-body`).
    func collect(_ body: RequestBody, upTo limit: Int) async throws(Refusal) -> ByteBuffer {
        guard await bodySlots.acquire(waitingAtMost: configuration.bodyPermitWait) else {
            throw Refusal(
                status: .serviceUnavailable,
                body: ErrorBody(
                    code: ErrorBody.Code.unavailable,
                    message: "the server was reading \(configuration.maxConcurrentBodies) bodies for "
                        + "\(configuration.bodyPermitWait); nothing was stored, send again"),
                headers: [.retryAfter: RetryAfter.value(seconds: 1), .connection: "close"])
        }
        defer { bodySlots.release() }
        let timeout = configuration.bodyTimeout
        let incomplete = Refusal(
            status: .requestTimeout,
            body: ErrorBody(
                code: ErrorBody.Code.incompleteBody,
                message: "the body did not arrive whole within \(timeout); nothing of it was stored"),
            headers: [.connection: "close"])
        do {
            return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let buffer = first else { throw incomplete }
                return buffer
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch {
            throw incomplete
        }
    }
}

extension Response {
    /// A 200 with `message` in `format`, its `Content-Type` naming the message.
    public static func message(_ message: some LocationWireMessage, format: BodyFormat) -> Response {
        Response(
            status: .ok, headers: [.contentType: format.contentType(for: type(of: message))],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: format.encode(message))))
    }
}
