import Foundation
import Hummingbird
import LocationWire
import LocationWireHTTP
import LocationWireJSON
import NIOCore

/// `GET /v1/devices/{device_id}/fixes?from=MS&to=MS&limit=N`: the fixes stored for a device, for tests and
/// inspection (`§http-read-back`). `from` is inclusive and `to` exclusive, UTC ms of `time_ms`; both default to
/// everything; `limit` defaults to and is capped at ``maxLimit``. The token must be the device's own (403).
///
/// The answer is JSON, `{"deviceId": ..., "fixes": [{"installId": "7", "receivedAtMs": "...", "fix": {...}}],
/// "truncated": false}` with each fix in proto3 JSON; or, with `Accept: application/geo+json`, a GeoJSON
/// FeatureCollection of Point features (RFC 7946: longitude first) whose properties carry the same three members.
struct ReadBackRoutes: Sendable {
    let reader: RequestReader
    let storage: any ServerStorage
    /// The most fixes one answer holds; `truncated` says when there were more.
    static let maxLimit = 10_000
    /// The route's path pattern, `device` its parameter (``Binding/fixesPath(deviceId:)`` writes such a path).
    static let path = "/v1/devices/:\(pathParameter)/fixes"
    static let pathParameter = "device"

    /// - Parameters:
    ///   - device: the device the request's bearer token belongs to.
    ///   - pathDevice: the path's `device_id`, percent-encoded as it came; nil when the route has none.
    func getFixes(_ request: Request, device: String, pathDevice: String?) async throws(Refusal) -> Response {
        guard reader.configuration.offersReadBack else {
            throw Refusal(
                status: .notFound,
                body: ErrorBody(code: ErrorBody.Code.notFound, message: "this server offers no read-back"))
        }
        guard let pathDevice, (pathDevice.removingPercentEncoding ?? pathDevice) == device else {
            throw .deviceMismatch("this device")
        }
        let query = request.uri.queryParameters
        func number(_ name: String, _ fallback: Int64) throws(Refusal) -> Int64 {
            let values = query[values: Substring(name)]
            guard let text = values.first else { return fallback }
            guard values.count == 1, let value = Int64(text) else {
                throw Refusal(
                    status: .badRequest,
                    body: ErrorBody(
                        code: ErrorBody.Code.badQuery,
                        message: "\(name) must be one integer, not \(values.joined(separator: " and "))"))
            }
            return value
        }
        let fromMs = try number("from", .min)
        let toMs = try number("to", .max)
        let limit = Int(min(max(try number("limit", Int64(Self.maxLimit)), 0), Int64(Self.maxLimit)))
        let stored: [StoredFix]
        do {
            // One more than asked, to tell whether the answer is cut.
            stored = try await storage.fixes(deviceId: device, fromMs: fromMs, toMs: toMs, limit: limit + 1)
        } catch {
            throw .storageUnavailable(retryAfterSeconds: reader.configuration.storageRetryAfterSeconds, cause: error)
        }
        let truncated = stored.count > limit
        let fixes = stored.prefix(limit)
        let geoJSON = request.headers[.accept].map { $0.contains(Binding.geoJSONMediaType) } ?? false
        let text = geoJSON ? Self.geoJSON(fixes, truncated: truncated) : Self.json(device, fixes, truncated: truncated)
        return Response(
            status: .ok, headers: [.contentType: geoJSON ? Binding.geoJSONMediaType : Binding.jsonMediaType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The three members every entry has, as JSON object members (no braces). Int64 values are strings, as
    /// proto3 JSON writes them.
    static func members(_ stored: StoredFix) -> String {
        "\"installId\":\"\(stored.installId)\",\"receivedAtMs\":\"\(stored.receivedAtMs)\",\"fix\":\(stored.fix.jsonString())"
    }

    static func json(_ device: String, _ fixes: ArraySlice<StoredFix>, truncated: Bool) -> String {
        let entries = fixes.map { "{\(members($0))}" }.joined(separator: ",")
        return "{\"deviceId\":\(jsonStringLiteral(device)),\"fixes\":[\(entries)],\"truncated\":\(truncated)}"
    }

    static func geoJSON(_ fixes: ArraySlice<StoredFix>, truncated: Bool) -> String {
        let features = fixes.map { stored in
            let geometry =
                if let latitude = stored.fix.latitudeE7, let longitude = stored.fix.longitudeE7 {
                    "{\"type\":\"Point\",\"coordinates\":[\(degrees(longitude)),\(degrees(latitude))]}"
                } else {
                    "null"
                }
            return "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":{\(members(stored))}}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))],"
            + "\"truncated\":\(truncated)}"
    }

    /// 1e-7 degrees as a decimal number with seven places, exact (no binary floating point on the way).
    static func degrees(_ e7: Int32) -> String {
        let magnitude = Int64(e7).magnitude
        let fraction = String(magnitude % 10_000_000)
        let padded = String(repeating: "0", count: 7 - fraction.count) + fraction
        return "\(e7 < 0 ? "-" : "")\(magnitude / 10_000_000).\(padded)"
    }

    /// `text` as a JSON string literal (RFC 8259 §7).
    static func jsonStringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
