import Hummingbird
import LocationWire
import LocationWireHTTP
import LocationWireJSON
import NIOCore

/// `DELETE /v1/devices/{device_id}` (`§http-erase`): erases every stored item of the device, with the device's
/// own token (a person deleting their data from the app) or an operator token (a request that reached the
/// operator another way). Answers 200 with what was removed:
/// `{"deviceId": "...", "removed": {"fixes": 12, "fenceEvents": 2, ...}}`. Erasing again removes nothing and
/// answers the same way, so a client may resend the request until it sees an answer.
struct ErasureRoutes: Sendable {
    let reader: RequestReader
    let storage: any ServerStorage

    /// - Parameter pathDevice: the path's `device_id`, percent-encoded as it came; nil when the route has none.
    func deleteDevice(_ request: Request, caller: Caller, pathDevice: String?) async throws(Refusal) -> Response {
        guard let pathDevice, let device = Binding.percentDecoded(pathDevice) else {
            throw .deviceMismatch("this device")
        }
        if case .device(let own) = caller, own != device { throw .deviceMismatch("this device") }
        let removed: RemovedRows
        do {
            removed = try await storage.erase(deviceId: device, nowMs: reader.configuration.nowMs())
            if reader.configuration.plantedMutant == .assignmentVersionRestarts {
                try await storage.saveAssignment(
                    RegionAssignment(), deviceId: device, nowMs: reader.configuration.nowMs())
            }
        } catch {
            throw .storageUnavailable(retryAfterSeconds: reader.configuration.storageRetryAfterSeconds, cause: error)
        }
        var counts = ErasureDocument.Removed()
        counts.fixes = removed.fixes
        counts.fenceEvents = removed.fenceEvents
        counts.lifecycleEvents = removed.lifecycleEvents
        counts.deviceStatuses = removed.deviceStatuses
        counts.assignments = removed.assignments
        // The reference server keeps no armed-region reports, and an erasure drops no partitions: both stay 0.
        let document = ErasureDocument(deviceId: device, removed: counts)
        return Response(
            status: .ok, headers: [.contentType: Binding.jsonMediaType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: document.json.text())))
    }
}
