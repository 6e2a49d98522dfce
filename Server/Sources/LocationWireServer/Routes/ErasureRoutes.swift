import Foundation
import Hummingbird
import LocationWireHTTP
import NIOCore

/// `DELETE /v1/devices/{device_id}` (`§http-erase`): erases every stored item of the device, with the device's
/// own token (a person deleting their data from the app) or an operator token (a request that reached the
/// operator another way). Answers 200 with what was removed:
/// `{"deviceId": "...", "removed": {"fixes": 12, "fenceEvents": 2, ...}}`. Erasing again removes nothing and
/// answers the same way, so a client may resend the request until it sees an answer.
struct ErasureRoutes: Sendable {
    let reader: RequestReader
    let storage: any ServerStorage
    /// The route's path pattern, `device` its parameter (``Binding/devicePath(deviceId:)`` writes such a path).
    static let path = "/v1/devices/:\(ReadBackRoutes.pathParameter)"

    /// What the answer says, as JSON.
    struct Answer: Encodable {
        var deviceId: String
        var removed: RemovedRows
    }

    /// - Parameter pathDevice: the path's `device_id`, percent-encoded as it came; nil when the route has none.
    func deleteDevice(_ request: Request, caller: Caller, pathDevice: String?) async throws(Refusal) -> Response {
        guard let pathDevice else { throw .deviceMismatch("this device") }
        let device = pathDevice.removingPercentEncoding ?? pathDevice
        if case .device(let own) = caller, own != device { throw .deviceMismatch("this device") }
        let removed: RemovedRows
        do {
            removed = try await storage.erase(deviceId: device, nowMs: reader.configuration.nowMs())
        } catch {
            throw .storageUnavailable(retryAfterSeconds: reader.configuration.storageRetryAfterSeconds, cause: error)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(Answer(deviceId: device, removed: removed))) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: Binding.jsonMediaType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
