/// The endpoints of proto/HTTP.md (`§http-endpoints`) and the facts every side of the binding shares about them:
/// paths, how a `device_id` goes into one, the media types, and the binding's fixed numbers.
public enum Binding {
    /// `POST`: a `LocationBatch` in, a `BatchAck` out.
    public static let batchesPath = "/v1/batches"
    /// `POST`: a `RegionRequest` in, a `RegionAssignment` out.
    public static let regionsPath = "/v1/regions"
    /// `GET`: the `TrackingPolicy` in force.
    public static let policyPath = "/v1/policy"

    /// `GET /v1/devices/{device_id}/fixes?from=MS&to=MS&limit=N`: the read-back (`§http-read-back`).
    public static func fixesPath(deviceId: String) -> String { devicePath(deviceId: deviceId) + "/fixes" }

    /// `GET /v1/devices/{device_id}/ledger`: stored, refused and lost numbers (`§http-ledger`).
    public static func ledgerPath(deviceId: String) -> String { devicePath(deviceId: deviceId) + "/ledger" }

    /// `DELETE` on this path erases the device's stored data (`§http-erase`).
    public static func devicePath(deviceId: String) -> String {
        "/v1/devices/\(percentEncodedPathSegment(deviceId))"
    }

    /// The media type of protobuf binary bodies.
    public static let protobufMediaType = "application/x-protobuf"
    /// The media type of proto3 JSON bodies, and of every error body.
    public static let jsonMediaType = "application/json"
    /// The media type of the read-back's GeoJSON answer (`§http-read-back-geojson`).
    public static let geoJSONMediaType = "application/geo+json"

    /// The smallest page of fixes a read-back may answer with when no `limit` is given
    /// (`§http-read-back-query`).
    public static let minimumPageSize = 1_000
    /// The largest header section every server must take, in bytes (`§http-header-size`).
    public static let minimumHeaderBytes = 8_192
    /// The smallest `max_batch_bytes` a server may state, and the least a device shrinks to (`§batch-size`,
    /// `§http-shrink`).
    public static let minimumBatchBytes = 16_384

    /// `device_id` as one path segment (`§http-endpoints`): RFC 3986 unreserved characters stay, every other byte
    /// is `%XX`.
    public static func percentEncodedPathSegment(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return encoded
    }

    /// The text of a percent-encoded path segment or query value; nil when a `%` is not followed by two hex
    /// digits or the bytes are not UTF-8. `+` stays `+` (it means a space only in HTML forms).
    public static func percentDecoded(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// One row of proto/HTTP.md's endpoint table: a method on a path. The table is the one list a server registers
/// its routes and its `405`s from (`§http-allow`), and the one a probe walks.
public struct Endpoint: Hashable, Sendable {
    /// `GET`, `POST` or `DELETE`.
    public let method: String
    /// The path with `{device_id}` where a device's id goes, percent-encoded (`/v1/devices/{device_id}/fixes`).
    public let pathTemplate: String
    /// Whether a server may leave it out (`404` `not-offered`, `§http-endpoints`).
    public let isOptional: Bool

    public static let batches = Endpoint(method: "POST", pathTemplate: Binding.batchesPath, isOptional: false)
    public static let regions = Endpoint(method: "POST", pathTemplate: Binding.regionsPath, isOptional: true)
    public static let policy = Endpoint(method: "GET", pathTemplate: Binding.policyPath, isOptional: true)
    public static let readBack = Endpoint(
        method: "GET", pathTemplate: "/v1/devices/{device_id}/fixes", isOptional: true)
    public static let ledger = Endpoint(
        method: "GET", pathTemplate: "/v1/devices/{device_id}/ledger", isOptional: true)
    public static let erasure = Endpoint(method: "DELETE", pathTemplate: "/v1/devices/{device_id}", isOptional: true)

    /// Every endpoint, in the order of proto/HTTP.md's table.
    public static let all: [Endpoint] = [.batches, .regions, .policy, .readBack, .ledger, .erasure]

    /// The methods each path takes, each path once in the order of its first endpoint: a `405`'s `Allow`.
    public static var methodsByPath: [(pathTemplate: String, methods: [String])] {
        var paths: [(pathTemplate: String, methods: [String])] = []
        for endpoint in all {
            if let index = paths.firstIndex(where: { $0.pathTemplate == endpoint.pathTemplate }) {
                paths[index].methods.append(endpoint.method)
            } else {
                paths.append((endpoint.pathTemplate, [endpoint.method]))
            }
        }
        return paths
    }

    /// The path for `deviceId`, percent-encoded (the template itself when it names no device).
    public func path(deviceId: String = "") -> String {
        pathTemplate.replacing("{device_id}", with: Binding.percentEncodedPathSegment(deviceId))
    }
}
