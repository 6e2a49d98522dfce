import Foundation
import LocationWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP answer as the device sees it.
public struct HTTPAnswer: Sendable {
    public var status: Int
    /// Header values by lower-cased name.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// How the device reaches its server: a POST of one message, answered or failed. The app's transport (URLSession
/// in a background session on iOS, WorkManager's on Android) or a test's.
public protocol DeviceTransport: AnyObject {
    /// POSTs `body`, the binary encoding of `locationwire.v1.<messageName>`, to `path` (`/v1/batches`,
    /// `/v1/regions`). Returns the answer, or the transport failure in words (reset, refused, time-out).
    func post(path: String, messageName: String, body: [UInt8]) -> Result<HTTPAnswer, TransportFailure>

    /// Names the credentials the transport sends, without revealing them, so that the device can tell that a
    /// token refused with 401 or 403 was replaced (`§http-credentials`). Equal for equal credentials.
    var credentialFingerprint: String { get }
}

extension DeviceTransport {
    /// A transport that does not say has one set of credentials for its lifetime: a refusal stops it for good.
    public var credentialFingerprint: String { "fixed" }
}

/// A request that got no HTTP answer: the connection failed, was reset or timed out (`§no-ack`).
public struct TransportFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The HTTP binding over URLSession (FoundationNetworking on Linux): `Authorization: Bearer`, binary bodies with
/// their `proto` parameter (`§http-media-types`), one request at a time, each waited for.
public final class URLSessionTransport: DeviceTransport {
    public let server: URL
    private let token: String
    private let session: URLSession

    /// - Parameters:
    ///   - server: the base URL, e.g. `http://127.0.0.1:8080`.
    ///   - token: the device's bearer token (`§http-bearer`), sent with every request.
    ///   - timeout: seconds a request may take in all before it counts as failed (`§no-ack`).
    public init(server: URL, token: String, timeout: TimeInterval = 30) {
        self.server = server
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// FNV-1a of the token, in hex: stable across launches, and not the token.
    public var credentialFingerprint: String {
        let hash = token.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    public func post(path: String, messageName: String, body: [UInt8]) -> Result<HTTPAnswer, TransportFailure> {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(
            "application/x-protobuf; proto=locationwire.v1.\(messageName)", forHTTPHeaderField: "Content-Type")
        request.setValue("application/x-protobuf", forHTTPHeaderField: "Accept")
        // A fresh connection for each batch: libcurl, under FoundationNetworking, sends a request again by itself
        // when a reused connection dies before the answer, and then without its body, so that a server sees an
        // empty POST the device never made. Uploads are minutes apart; a connection each costs nothing there.
        request.setValue("close", forHTTPHeaderField: "Connection")
        request.httpBody = Data(body)
        // The device's loop is synchronous (an upload happens at the moment the timer says); the task runs on the
        // session's queue and this thread waits for it.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<HTTPAnswer, TransportFailure> = .failure(TransportFailure("no answer"))
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(TransportFailure(error.localizedDescription))
            } else if let response = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                result = .success(
                    HTTPAnswer(status: response.statusCode, headers: headers, body: Array(data ?? Data())))
            }
            done.signal()
        }
        task.resume()
        done.wait()
        return result
    }
}
