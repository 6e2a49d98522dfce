import Foundation
import Synchronization

/// Whether a request the probe sends is one proto/HTTP.md describes, stated where the request is built: the
/// OpenAPI document (proto/openapi.yaml) is checked against the well-formed ones, and only against those.
public enum RequestForm: Sendable, Equatable {
    /// A request a device that follows the binding may send: an endpoint's path and method, its headers, and a
    /// body that decodes as the endpoint's message in one of its media types. The server may still refuse it for
    /// what it says (another device's id, a token it never issued, a broken validation rule, a rate limit).
    case wellFormed
    /// A request the probe breaks on purpose to see the refusal; the text says what is broken.
    case malformed(String)

    /// What is broken on purpose; nil for a well-formed request.
    public var breakage: String? {
        if case .malformed(let why) = self { return why }
        return nil
    }
}

/// The name of the check whose requests are being sent, for the record (``ExchangeRecorder``): set by the probe's
/// run loop around each check, and inherited by the tasks a check starts. `setup` for the requests before the
/// first check (whether the server answers, what it offers).
enum ProbeCheckScope {
    @TaskLocal static var checkName = "setup"
}

/// `probe --record FILE`: every exchange the probe completes with the server, one JSON object a line (JSON Lines),
/// in the order the answers arrive, so that another tool can check requests and answers against the OpenAPI
/// document (scripts/judges/openapi_exchanges.py).
///
/// Each line: `check` (the check's name, or `setup`), `wellFormed` (``RequestForm``), `breakage` (what a
/// malformed request breaks on purpose), `transport` (`client`, or `raw` for a request written byte by byte),
/// `method`, `path` (with its query), `requestHeaders` (`[name, value]` in the order sent; a bearer token is
/// written `Bearer REDACTED`), `requestBody` (base64 of the bytes sent, before any content decoding; absent
/// without a body), `status`, `responseHeaders`, `responseBody` (base64). Requests that got no whole answer
/// (a reset, a time-out, a stalled or cut body) are not recorded.
public final class ExchangeRecorder: Sendable {
    /// One recorded exchange: the line's members.
    struct Line: Encodable {
        var check: String
        var wellFormed: Bool
        var breakage: String?
        var transport: String
        var method: String
        var path: String
        var requestHeaders: [[String]]
        var requestBody: String?
        var status: Int
        var responseHeaders: [[String]]
        var responseBody: String
    }

    /// The open file and the number of lines written; the lock keeps each line whole when checks run
    /// concurrently.
    private let state: Mutex<(descriptor: Int32, lines: Int)>

    /// Creates `path`, or empties it: a record holds one run.
    public init(path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ServerProbe.CannotRun(
                description: "cannot open --record \(path): \(String(cString: strerror(errno)))")
        }
        state = Mutex((descriptor, 0))
    }

    deinit { state.withLock { _ = close($0.descriptor) } }

    /// How many exchanges were recorded so far.
    public var recordedCount: Int { state.withLock { $0.lines } }

    /// Appends one exchange. Throws when the file cannot take it: a record with holes would let a validator
    /// pass what it never saw.
    func record(
        form: RequestForm, transport: String, method: String, path: String, requestHeaders: [(String, String)],
        requestBody: [UInt8]?, status: Int, responseHeaders: [(name: String, value: String)], responseBody: [UInt8]
    ) throws {
        let line = Line(
            check: ProbeCheckScope.checkName, wellFormed: form == .wellFormed, breakage: form.breakage,
            transport: transport, method: method, path: path,
            requestHeaders: requestHeaders.map { [$0.0, Self.redacted(name: $0.0, value: $0.1)] },
            requestBody: requestBody.map { Data($0).base64EncodedString() }, status: status,
            responseHeaders: responseHeaders.map { [$0.name, $0.value] },
            responseBody: Data(responseBody).base64EncodedString())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = Array(try encoder.encode(line)) + [UInt8(ascii: "\n")]
        try state.withLock { state in
            var rest = bytes[...]
            while !rest.isEmpty {
                let written = rest.withUnsafeBytes { write(state.descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ServerProbe.CannotRun(description: "--record: \(String(cString: strerror(errno)))")
                }
                rest = rest.dropFirst(written)
            }
            state.lines += 1
        }
    }

    /// A bearer token as `Bearer REDACTED`: a record is meant to be shared, the server's tokens are not. The
    /// scheme stays, since whether a request carries a token is part of what is checked.
    static func redacted(name: String, value: String) -> String {
        guard name.lowercased() == "authorization" else { return value }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, !parts[1].isEmpty else { return value }
        return "\(parts[0]) REDACTED"
    }
}
