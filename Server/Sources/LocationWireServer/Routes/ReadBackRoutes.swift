import Foundation
import Hummingbird
import LocationWire
import LocationWireHTTP
import LocationWireJSON
import LocationWireSession
import NIOCore

/// `GET /v1/devices/{device_id}/fixes?from=MS&to=MS&limit=N`: the fixes stored for a device, for tests and
/// inspection (`§http-read-back`). `from` is inclusive and `to` exclusive, UTC ms of `time_ms`; both default to
/// everything; `limit` defaults to and is capped at ``pageSize``. The token must be the device's own (403).
///
/// The answer is JSON, `{"deviceId": ..., "fixes": [{"installId": "7", "receivedAtMs": "...", "fix": {...}}],
/// "truncated": false}` with each fix in proto3 JSON; or, with `Accept: application/geo+json`, a GeoJSON
/// FeatureCollection of Point features (RFC 7946: longitude first) whose properties carry the same three members.
struct ReadBackRoutes: Sendable {
    let reader: RequestReader
    let storage: any ServerStorage
    /// The page size: the most fixes one answer holds, with or without `limit` (`§http-read-back-query`);
    /// `truncated` says when there were more.
    static let pageSize = 10_000

    /// - Parameters:
    ///   - device: the device the request's bearer token belongs to.
    ///   - pathDevice: the path's `device_id`, percent-encoded as it came; nil when the route has none.
    func getFixes(_ request: Request, device: String, pathDevice: String?) async throws(Refusal) -> Response {
        try Self.requireOwnDevice(device, pathDevice: pathDevice)
        let query: ReadBackQuery
        do {
            var text = request.uri.query ?? ""
            if reader.configuration.plantedMutant == .plusSignInQuery { text = text.replacing("%2B", with: "") }
            query = try ReadBackQuery(query: text)
        } catch {
            throw Refusal(error)
        }
        let limit = Int(min(query.limit ?? Int64(Self.pageSize), Int64(Self.pageSize)))
        let stored: [StoredFix]
        do {
            // One more than asked, to tell whether the answer is cut.
            stored = try await storage.fixes(
                deviceId: device, fromMs: query.fromMs ?? .min, toMs: query.toMs ?? .max, limit: limit + 1)
        } catch {
            throw .storageUnavailable(retryAfterSeconds: reader.configuration.storageRetryAfterSeconds, cause: error)
        }
        let truncated = stored.count > limit
        let fixes = stored.prefix(limit)
        let geoJSON = Self.asksForGeoJSON(request.headers[.accept])
        var text =
            geoJSON
            ? Self.geoJSON(device, fixes, truncated: truncated) : Self.json(device, fixes, truncated: truncated)
        if geoJSON, reader.configuration.plantedMutant == .geoJSONWithoutDeviceId {
            text = text.replacing("\"deviceId\":\(JSONValue.string(device).text()),", with: "")
        }
        return Response(
            status: .ok, headers: [.contentType: geoJSON ? Binding.geoJSONMediaType : Binding.jsonMediaType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `GET /v1/devices/{device_id}/ledger` (`§http-ledger`): each installation's floors and its stored, refused
    /// and lost numbers, from the ledger records the server keeps.
    func getLedger(device: String, pathDevice: String?) async throws(Refusal) -> Response {
        try Self.requireOwnDevice(device, pathDevice: pathDevice)
        let records: [InstallationRecord]
        do {
            records = try await storage.installations(deviceId: device)
        } catch {
            throw .storageUnavailable(retryAfterSeconds: reader.configuration.storageRetryAfterSeconds, cause: error)
        }
        var document = LedgerDocument(
            deviceId: device, installations: records.sorted { $0.installId < $1.installId }.map(Self.entry))
        if reader.configuration.plantedMutant == .ledgerWithoutLost {
            for index in document.installations.indices { document.installations[index].lostFixes = [] }
        }
        return Response(
            status: .ok, headers: [.contentType: Binding.jsonMediaType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: document.json.text())))
    }

    /// One installation's entry of the ledger document.
    static func entry(_ record: InstallationRecord) -> LedgerDocument.Installation {
        let ledger = IngestLedger(policy: IngestLedger.Policy(), records: [record])
        let key = IngestLedger.InstallationKey(deviceId: record.deviceId, installId: record.installId)
        return LedgerDocument.Installation(
            installId: record.installId, fixSequenceFloor: record.fixFloor, eventSequenceFloor: record.eventFloor,
            storedFixes: record.storedFixes.ranges, rejectedFixes: record.rejectedFixes.ranges,
            lostFixes: ledger.lostFixes(of: key), storedEvents: record.storedEvents.ranges,
            rejectedEvents: record.rejectedEvents.ranges, lostEvents: ledger.lostEvents(of: key))
    }

    /// A 403 unless the path names the token's device (`§http-check-order`, step 5). A path segment that is not
    /// well percent-encoded names no device.
    static func requireOwnDevice(_ device: String, pathDevice: String?) throws(Refusal) {
        guard let pathDevice, Binding.percentDecoded(pathDevice) == device else { throw .deviceMismatch("this device") }
    }

    /// Whether `Accept` lists `application/geo+json` (`§http-read-back-geojson`).
    static func asksForGeoJSON(_ accept: String?) -> Bool {
        guard let accept else { return false }
        return MediaType.splitList(accept).contains { MediaType($0)?.type == Binding.geoJSONMediaType }
    }

    /// The three members every entry has, as JSON object members (no braces). Int64 values are strings, as
    /// proto3 JSON writes them.
    static func members(_ stored: StoredFix) -> String {
        "\"installId\":\"\(stored.installId)\",\"receivedAtMs\":\"\(stored.receivedAtMs)\",\"fix\":\(stored.fix.jsonString())"
    }

    static func json(_ device: String, _ fixes: ArraySlice<StoredFix>, truncated: Bool) -> String {
        let entries = fixes.map { "{\(members($0))}" }.joined(separator: ",")
        return "{\"deviceId\":\(JSONValue.string(device).text()),\"fixes\":[\(entries)],\"truncated\":\(truncated)}"
    }

    /// A FeatureCollection with the foreign members `deviceId` and `truncated` (RFC 7946, section 6.1).
    static func geoJSON(_ device: String, _ fixes: ArraySlice<StoredFix>, truncated: Bool) -> String {
        let features = fixes.map { stored in
            let geometry =
                if let latitude = stored.fix.latitudeE7, let longitude = stored.fix.longitudeE7 {
                    "{\"type\":\"Point\",\"coordinates\":[\(degrees(longitude)),\(degrees(latitude))]}"
                } else {
                    "null"
                }
            return "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":{\(members(stored))}}"
        }
        return "{\"type\":\"FeatureCollection\",\"deviceId\":\(JSONValue.string(device).text()),"
            + "\"features\":[\(features.joined(separator: ","))],\"truncated\":\(truncated)}"
    }

    /// 1e-7 degrees as a decimal number with seven places, exact (no binary floating point on the way).
    static func degrees(_ e7: Int32) -> String {
        let magnitude = Int64(e7).magnitude
        let fraction = String(magnitude % 10_000_000)
        let padded = String(repeating: "0", count: 7 - fraction.count) + fraction
        return "\(e7 < 0 ? "-" : "")\(magnitude / 10_000_000).\(padded)"
    }
}
