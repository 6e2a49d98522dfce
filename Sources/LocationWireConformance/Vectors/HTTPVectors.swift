import LocationWireJSON

/// A request of the `http` family's server cases, as a probe sends it to a server set up as the file's `setup`
/// says. `{token}`, `{device_id}`, `{operator_token}` and `{install_id}` (a fresh installation per run) stand for
/// the run's values, in the path, the fields and the `batch`.
public struct HTTPRequestCase: Codable, Sendable, Equatable {
    /// `POST`, `GET`, or any method, as sent.
    public var method: String
    /// The path, relative to the server's base URL, with its query.
    public var path: String
    /// The request line's version; absent: `HTTP/1.1`.
    public var version: String?
    /// Header fields in order, `[name, value]`, duplicates included. `Host` is added (unless given), and
    /// `Content-Length` for a body (unless given).
    public var headers: [[String]]
    /// `lf` to end lines with a bare LF; absent: CRLF.
    public var lineEnding: String?
    /// The body as bytes, hex.
    public var bodyHex: String?
    /// The body as a LocationBatch in proto3 JSON, placeholders replaced, then encoded as `bodyFormat` says.
    public var batch: JSONValue?
    /// `binary` or `json`, for `batch`.
    public var bodyFormat: String?
    /// Compress the body with gzip (one member) before sending.
    public var gzip: Bool?
    /// With `batch` in binary: pad it with an unknown field of the private range to exactly this many bytes.
    public var padToBytes: Int?
    /// Send the head over a plain connection as written (duplicate fields, bare LF, versions, a head without its
    /// body): only an `http://` server can be probed so.
    public var raw: Bool?

    public init(
        method: String, path: String, version: String? = nil, headers: [[String]] = [], lineEnding: String? = nil,
        bodyHex: String? = nil, batch: JSONValue? = nil, bodyFormat: String? = nil, gzip: Bool? = nil,
        padToBytes: Int? = nil, raw: Bool? = nil
    ) {
        self.method = method
        self.path = path
        self.version = version
        self.headers = headers
        self.lineEnding = lineEnding
        self.bodyHex = bodyHex
        self.batch = batch
        self.bodyFormat = bodyFormat
        self.gzip = gzip
        self.padToBytes = padToBytes
        self.raw = raw
    }
}

/// One answer a server may give to an `http` request case.
public struct HTTPAnswerExpectation: Codable, Sendable, Equatable {
    public var status: Int
    /// The error body's `code`.
    public var code: String?
    /// The error body's `offset`, for a body that does not decode.
    public var offset: Int?
    /// The error body's `fieldPath`.
    public var fieldPath: String?
    /// Header fields the answer must have, `[name, value prefix]`, compared case-insensitively.
    public var headers: [[String]]?
    /// The answer has no body (`HEAD`).
    public var noBody: Bool?
    /// A `200` to `POST /v1/batches`: the ack's outcome (`PROCESSED`, `TOO_LARGE`).
    public var outcome: String?
    /// A JSON answer: members its top-level object must have.
    public var jsonMembers: [String]?

    public init(
        status: Int, code: String? = nil, offset: Int? = nil, fieldPath: String? = nil, headers: [[String]]? = nil,
        noBody: Bool? = nil, outcome: String? = nil, jsonMembers: [String]? = nil
    ) {
        self.status = status
        self.code = code
        self.offset = offset
        self.fieldPath = fieldPath
        self.headers = headers
        self.noBody = noBody
        self.outcome = outcome
        self.jsonMembers = jsonMembers
    }
}
