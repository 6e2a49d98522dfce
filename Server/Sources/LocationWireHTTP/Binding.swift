import CompressNIO
import LocationWire
import LocationWireJSON
import NIOCore

/// The facts of proto/HTTP.md that the server, the probe, the mock server and the load runs share: paths, media
/// types, and how a body is read (content coding, then the message in binary or proto3 JSON).
public enum Binding {
    /// `POST`: a `LocationBatch` in, a `BatchAck` out (`§http-endpoints`).
    public static let batchesPath = "/v1/batches"
    /// `POST`: a `RegionRequest` in, a `RegionAssignment` out.
    public static let regionsPath = "/v1/regions"
    /// `GET`: the `TrackingPolicy` in force.
    public static let policyPath = "/v1/policy"
    /// `GET /v1/devices/{device_id}/fixes?from=MS&to=MS`: the read-back (optional in the binding).
    public static func fixesPath(deviceId: String) -> String {
        devicePath(deviceId: deviceId) + "/fixes"
    }

    /// `DELETE` on this path erases the device's stored data (`§http-erase`).
    public static func devicePath(deviceId: String) -> String {
        "/v1/devices/\(percentEncodedPathSegment(deviceId))"
    }

    /// The media type of protobuf binary bodies.
    public static let protobufMediaType = "application/x-protobuf"
    /// The media type of proto3 JSON bodies, and of every error body.
    public static let jsonMediaType = "application/json"
    /// The media type of the read-back's GeoJSON answer.
    public static let geoJSONMediaType = "application/geo+json"

    /// `device_id` as one path segment: RFC 3986 unreserved characters stay, every other byte is `%XX`.
    public static func percentEncodedPathSegment(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                encoded += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
            }
        }
        return encoded
    }
}

/// The two encodings a body may have (`§http-media-types`).
public enum BodyFormat: String, Sendable, CaseIterable {
    case binary
    case json

    /// `application/x-protobuf; proto=locationwire.v1.<Message>` or `application/json; proto=...`.
    public func contentType(for message: any LocationWireMessage.Type) -> String {
        "\(mediaType); proto=\(message.schema.fullName)"
    }

    public var mediaType: String {
        switch self {
        case .binary: Binding.protobufMediaType
        case .json: Binding.jsonMediaType
        }
    }

    /// The message's bytes in this format.
    public func encode(_ message: some LocationWireMessage) -> [UInt8] {
        switch self {
        case .binary: message.serializedBytes()
        case .json: Array(message.jsonString().utf8)
        }
    }

    /// Decodes `bytes` as `Message` in this format; the error carries the stable code, offset and field path.
    public func decode<Message: LocationWireMessage>(_: Message.Type, from bytes: [UInt8]) throws(ErrorBody) -> Message
    {
        switch self {
        case .binary:
            do {
                return try Message(serializedBytes: bytes)
            } catch {
                throw ErrorBody(decoding: error)
            }
        case .json:
            do {
                return try Message(jsonUTF8: bytes)
            } catch {
                throw ErrorBody(
                    code: error.code.rawValue, offset: error.offset,
                    fieldPath: error.fieldPath.isEmpty ? nil : "\(error.fieldPath)", message: error.message)
            }
        }
    }
}

/// A parsed `Content-Type` or `Accept` entry: the media type, lowercased, and its `proto` parameter.
public struct MediaType: Hashable, Sendable {
    public var type: String
    /// The `proto` parameter, the message's full name, or nil when absent (the last one, when given twice).
    public var proto: String?
    /// How many `proto` parameters the header has: more than one is ambiguous, and refused.
    public var protoCount = 0

    /// Parses `type/subtype; name=value; ...` (RFC 9110 §8.3.1): names are case-insensitive, values may be
    /// quoted; nil for a header without a `/` in its type.
    public init?(_ header: String) {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        let type = parts[0].trimmingWhitespace().lowercased()
        guard type.contains("/") else { return nil }
        self.type = type
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "proto" else { continue }
            var value = pair[1].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            proto = value
            protoCount += 1
        }
    }

    /// The body format this media type names, or nil for one the binding does not define.
    public var format: BodyFormat? {
        switch type {
        case Binding.protobufMediaType: .binary
        case Binding.jsonMediaType: .json
        default: nil
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional white space, RFC 9110 §5.6.3).
    public func trimmingWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}

extension UInt32 {
    /// The number whose little-endian bytes are `bytes` (exactly four).
    fileprivate init(littleEndianBytes bytes: ArraySlice<UInt8>) {
        self = bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// CRC-32 as gzip's trailer uses it (ISO 3309, the reflected polynomial 0xEDB88320), table-driven: zlib's own is
/// not exposed by the compression library, and these few lines are all a trailer check needs.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
    }
}

/// `Content-Encoding: gzip` (`§http-gzip`).
public enum GzipCoding {
    /// Why a gzip body was refused.
    public enum Failure: Error, Sendable {
        /// The decompressed body would be over the limit; decompression stopped there.
        case tooLarge
        /// The bytes are not a gzip stream.
        case corrupt
    }

    /// Decompresses `body`, one whole gzip member (RFC 1952) and nothing after it, stopping with
    /// ``Failure/tooLarge`` as soon as the output would pass `limit` bytes, so that a small "zip bomb" never
    /// allocates more than the limit. A stream cut short (its 8-byte trailer missing, whole or in part), bytes after
    /// the member, or a second member are ``Failure/corrupt``: a body the client did not send whole is not stored.
    public static func decompress(_ body: ByteBuffer, limit: Int) throws(Failure) -> [UInt8] {
        var input = body
        let output: [UInt8]
        do {
            let buffer = try input.decompress(with: .gzip(), maxSize: limit + 1)
            guard buffer.readableBytes <= limit else { throw Failure.tooLarge }
            output = Array(buffer.readableBytesView)
        } catch let failure as Failure {
            throw failure
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw .tooLarge
        } catch {
            throw .corrupt
        }
        // zlib checks the trailer's CRC-32 and length when it reaches the end of the member, but takes input that
        // stops before the trailer as merely unfinished, and stops reading at the member's end. So the body must
        // be used up, and end with the trailer of what was decompressed: a stream cut inside its deflate data or
        // trailer matches that by chance with odds of 2^-64.
        guard input.readableBytes == 0, body.readableBytes >= 18 else { throw .corrupt }
        let trailer = Array(body.readableBytesView.suffix(8))
        let crc = UInt32(littleEndianBytes: trailer[0..<4])
        let size = UInt32(littleEndianBytes: trailer[4..<8])
        guard crc == CRC32.checksum(output), size == UInt32(truncatingIfNeeded: output.count) else {
            throw .corrupt
        }
        return output
    }

    /// `bytes` compressed as one gzip member.
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var input = ByteBuffer(bytes: bytes)
        // Compressing into a buffer the library sizes itself fails only for a broken zlib.
        guard let output = try? input.compress(with: .gzip()) else { preconditionFailure("zlib failed to compress") }
        return Array(output.readableBytesView)
    }
}
