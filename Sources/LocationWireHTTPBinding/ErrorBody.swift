import LocationWire
import LocationWireJSON

/// The JSON body of every answer other than a `200` (`§http-error-body`):
/// `{"code": ..., "message": ..., "offset": ..., "fieldPath": ..., "maxBatchBytes": ...}`.
///
/// `code` is stable: a client compares it, never `message`. For a body that does not decode, `code` is the
/// codec's ``DecodingError/Code`` or the JSON reader's ``JSONError/Code``, `offset` the byte offset into the
/// decoded body (after any content coding) and `fieldPath` the field being read, exactly as proto/README.md's
/// "Decoding errors" and "JSON" define them. The binding's own codes are ``ErrorBody/Code``.
public struct ErrorBody: Error, Hashable, Sendable {
    public var code: String
    /// A sentence for people; may change between versions.
    public var message: String
    /// Byte offset into the (decoded) request body, for decoding errors only.
    public var offset: Int?
    /// The field being decoded, or the path of a broken validation rule.
    public var fieldPath: String?
    /// The server's `max_batch_bytes`, with `413` only (`§http-size`).
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

    /// The error for a binary body that does not decode.
    public init(decoding error: DecodingError) {
        self.init(
            code: error.code.rawValue, offset: error.offset,
            fieldPath: error.fieldPath.isEmpty ? nil : "\(error.fieldPath)", message: error.message)
    }

    /// The error for a JSON body that does not read as the message.
    public init(json error: JSONError) {
        self.init(
            code: error.code.rawValue, offset: error.offset,
            fieldPath: error.fieldPath.isEmpty ? nil : "\(error.fieldPath)", message: error.message)
    }

    /// The canonical JSON text: keys sorted, absent members left out, so that tests and peers can compare bodies
    /// byte for byte.
    public func jsonBytes() -> [UInt8] {
        var members: [JSONObject.Member] = [
            .init(key: "code", value: .string(code)), .init(key: "message", value: .string(message)),
        ]
        if let offset { members.append(.init(key: "offset", value: .number(Double(offset)))) }
        if let fieldPath { members.append(.init(key: "fieldPath", value: .string(fieldPath))) }
        if let maxBatchBytes { members.append(.init(key: "maxBatchBytes", value: .number(Double(maxBatchBytes)))) }
        return Array(JSONValue.object(JSONObject(members)).text().utf8)
    }

    /// Reads an error body as a client must: an object with a string `code`; `message` may be missing (a client
    /// never parses it), integers are taken when they are integral numbers, and unknown members are ignored.
    /// Nil for a body that is not such an object.
    public init?(jsonBytes: some Collection<UInt8>) {
        guard let value = try? JSONValue.parse(jsonBytes), let code = value["code"]?.string else { return nil }
        func integer(_ key: String) -> Int? {
            guard let number = value[key]?.number, number == number.rounded(), abs(number) < 9e15 else { return nil }
            return Int(number)
        }
        self.init(
            code: code, offset: integer("offset"), fieldPath: value["fieldPath"]?.string,
            maxBatchBytes: integer("maxBatchBytes"), message: value["message"]?.string ?? "")
    }

    /// The binding's own stable codes (`§http-error-codes`), beside the codec's and the JSON reader's.
    public enum Code {
        /// 401: no `Authorization: Bearer` header, or a token the server never issued.
        public static let unauthenticated = "unauthenticated"
        /// 403: the token belongs to another device than the body or path names, or to none (an operator token, an
        /// empty `device_id`).
        public static let deviceMismatch = "device-mismatch"
        /// 413: the body, or what it decompresses to, is over the server's limit.
        public static let bodyTooLarge = "body-too-large"
        /// 415: no `Content-Type`, two, another than the binding's two, or a wrong `proto` parameter.
        public static let unsupportedMediaType = "unsupported-media-type"
        /// 415: a `Content-Encoding` other than one `gzip`, `x-gzip` or `identity`.
        public static let unsupportedContentEncoding = "unsupported-content-encoding"
        /// 400: not well-formed HTTP/1.1; the connection is closed.
        public static let malformedRequest = "malformed-request"
        /// 431: a header section over the server's limit; the connection is closed.
        public static let headersTooLarge = "headers-too-large"
        /// 501: a `Transfer-Encoding` other than `chunked`.
        public static let unsupportedTransferCoding = "unsupported-transfer-coding"
        /// 400: `Content-Encoding: gzip` over bytes that are not one whole gzip member.
        public static let corruptContentEncoding = "corrupt-content-encoding"
        /// 400: a read-back parameter that is not one integer.
        public static let badQuery = "bad-query"
        /// 404: no such endpoint in the binding.
        public static let notFound = "not-found"
        /// 404: an optional endpoint this server leaves out.
        public static let notOffered = "not-offered"
        /// 405: the path takes other methods, listed in `Allow`.
        public static let methodNotAllowed = "method-not-allowed"
        /// 408: the body did not arrive whole in time; nothing of it was stored.
        public static let incompleteBody = "incomplete-body"
        /// 429: the device sends too often; wait `Retry-After`.
        public static let rateLimited = "rate-limited"
        /// 503: overloaded or in maintenance; wait `Retry-After`.
        public static let unavailable = "unavailable"
        /// 503: the store failed; nothing was stored.
        public static let storageUnavailable = "storage-unavailable"
        /// 400 from `/v1/regions`: the request has no `current_fix` (`§http-regions-position`), a validation
        /// rule's code.
        public static let requiredFieldMissing = "required-field-missing"

        /// The table of proto/HTTP.md `§http-error-codes`: each of the binding's own codes with its status. (A
        /// `400` also carries the codec's, the JSON reader's and the validation rules' codes.)
        public static let statuses: [(code: String, status: Int)] = [
            (corruptContentEncoding, 400), (malformedRequest, 400), (badQuery, 400), (unauthenticated, 401),
            (deviceMismatch, 403), (notFound, 404), (notOffered, 404), (methodNotAllowed, 405),
            (incompleteBody, 408), (bodyTooLarge, 413), (unsupportedMediaType, 415),
            (unsupportedContentEncoding, 415), (rateLimited, 429), (headersTooLarge, 431),
            (unsupportedTransferCoding, 501), (unavailable, 503), (storageUnavailable, 503),
        ]
    }
}

/// A non-200 answer as the binding defines it: the status, the error body and the fields it needs
/// (`Retry-After`, `WWW-Authenticate`, `Accept-Encoding`, `Allow`, `Connection`). The checks of this module throw
/// it; a server turns it into its framework's response.
public struct BindingRefusal: Error, Sendable {
    public var status: Int
    public var body: ErrorBody
    /// Field names as the binding writes them (`Retry-After`), in order.
    public var headers: [(name: String, value: String)]

    public init(status: Int, body: ErrorBody, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.body = body
        self.headers = headers
    }
}
