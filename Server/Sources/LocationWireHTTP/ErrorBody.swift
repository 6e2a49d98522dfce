import Foundation
import LocationWire

/// The JSON body of every answer other than a `200` (`§http-error-body`):
/// `{"code": ..., "message": ..., "offset": ..., "fieldPath": ..., "maxBatchBytes": ...}`.
///
/// `code` is stable, as the codec's are: a client compares it, never `message`. For a body that does not decode,
/// `code` is the codec's ``DecodingError/Code`` (`truncated`, `invalid-utf8`, ...) or the JSON reader's
/// (`json-syntax`, ...), `offset` the byte offset into the decoded body (after any content coding), and
/// `fieldPath` the field being decoded (`LocationBatch.fixes[3].time_ms`). The binding's own codes are in
/// ``ErrorBody/Code``.
public struct ErrorBody: Codable, Hashable, Sendable, Error {
    public var code: String
    /// A sentence for people; may change between versions.
    public var message: String
    /// Byte offset into the (decoded) request body, for decoding errors only.
    public var offset: Int?
    /// The field being decoded, for decoding errors only.
    public var fieldPath: String?
    /// The server's body limit in bytes, with `413` only: the device's new `max_batch_bytes` (`§http-size`).
    public var maxBatchBytes: Int?

    public init(
        code: String, offset: Int? = nil, fieldPath: String? = nil, maxBatchBytes: Int? = nil, message: String
    ) {
        self.code = code
        self.offset = offset
        self.fieldPath = fieldPath
        self.maxBatchBytes = maxBatchBytes
        self.message = message
    }

    /// The error for a binary body that does not decode as the expected message.
    public init(decoding error: DecodingError) {
        self.init(
            code: error.code.rawValue, offset: error.offset,
            fieldPath: error.fieldPath.isEmpty ? nil : "\(error.fieldPath)", message: error.message)
    }

    /// The binding's own stable codes, next to the codec's and the JSON reader's.
    public enum Code {
        /// 401: no `Authorization: Bearer` header, or a token the server never issued.
        public static let unauthenticated = "unauthenticated"
        /// 403: the token belongs to another `device_id` than the body or path names.
        public static let deviceMismatch = "device-mismatch"
        /// 413: the body, or what it decompresses to, is over the server's limit.
        public static let bodyTooLarge = "body-too-large"
        /// 415: a `Content-Type` other than the binding's two, or a `proto` parameter naming another message.
        public static let unsupportedMediaType = "unsupported-media-type"
        /// 415: a `Content-Encoding` other than `gzip` or `identity`.
        public static let unsupportedContentEncoding = "unsupported-content-encoding"
        /// 400: the request is not well-formed HTTP/1.1 (a bad header line, broken chunked framing, a bad
        /// `Content-Length`, no `Host`); it was not read, and the connection is closed.
        public static let malformedRequest = "malformed-request"
        /// 501: a `Transfer-Encoding` other than `chunked` (the binding's compression is `Content-Encoding: gzip`).
        public static let unsupportedTransferCoding = "unsupported-transfer-coding"
        /// 400: `Content-Encoding: gzip` over bytes that are not gzip.
        public static let corruptContentEncoding = "corrupt-content-encoding"
        /// 400: a query parameter of the read-back is missing or not a number.
        public static let badQuery = "bad-query"
        /// 404: no such endpoint, or the read-back of a server that offers none.
        public static let notFound = "not-found"
        /// 405: the endpoint exists, with another method.
        public static let methodNotAllowed = "method-not-allowed"
        /// 408: the request body did not arrive in time, or arrived cut short; nothing of it was stored.
        public static let incompleteBody = "incomplete-body"
        /// 429: the device sends too often; wait `Retry-After`.
        public static let rateLimited = "rate-limited"
        /// 503: the server is overloaded or in maintenance; wait `Retry-After`.
        public static let unavailable = "unavailable"
        /// 503: the store failed; nothing was stored, send the batch again later.
        public static let storageUnavailable = "storage-unavailable"
        /// 404 from `/v1/regions`: the server has no region catalogue.
        public static let noCatalogue = "no-catalogue"
    }

    /// The canonical JSON text: keys sorted, absent fields left out, so tests and peers can compare bodies byte
    /// for byte.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings and integers cannot fail.
        return [UInt8]((try? encoder.encode(self)) ?? Data())
    }
}
