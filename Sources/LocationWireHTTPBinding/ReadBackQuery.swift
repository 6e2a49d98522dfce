/// The parameters of `GET /v1/devices/{device_id}/fixes` (`§http-read-back-query`): each optional, an integer
/// written as ASCII digits with an optional leading `-`, within 64 bits; `limit` at least 0. Parsed from the raw
/// query, so that every server reads the same grammar.
public struct ReadBackQuery: Equatable, Sendable {
    /// Fixes with `time_ms` at or after this, UTC ms; nil: from the first.
    public var fromMs: Int64?
    /// Fixes with `time_ms` before this, UTC ms; nil: to the last.
    public var toMs: Int64?
    /// The most fixes to answer with; nil: the server's page size. A larger one is taken as the page size.
    public var limit: Int64?

    public init(fromMs: Int64? = nil, toMs: Int64? = nil, limit: Int64? = nil) {
        self.fromMs = fromMs
        self.toMs = toMs
        self.limit = limit
    }

    /// Parses the query (the part of the target after `?`, without it; empty for none). Unknown parameters are
    /// ignored; one of the three that is empty, given twice, not such an integer, or a negative `limit` is a
    /// `400` `bad-query`.
    public init(query: some StringProtocol) throws(BindingRefusal) {
        var seen: Set<String> = []
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Binding.percentDecoded(pair[0]), ["from", "to", "limit"].contains(name) else { continue }
            guard seen.insert(name).inserted else { throw Self.badQuery("\(name) is given twice") }
            guard pair.count == 2, let text = Binding.percentDecoded(pair[1]), let value = Self.integer(text) else {
                let shown = pair.count == 2 ? "\"\(pair[1])\"" : "empty"
                throw Self.badQuery("\(name) must be one integer, not \(shown)")
            }
            switch name {
            case "from": fromMs = value
            case "to": toMs = value
            default:
                guard value >= 0 else { throw Self.badQuery("limit must not be negative") }
                limit = value
            }
        }
    }

    /// The query for a client to send, parameters in a fixed order (empty when there are none).
    public var queryString: String {
        [("from", fromMs), ("to", toMs), ("limit", limit)].compactMap { name, value in
            value.map { "\(name)=\($0)" }
        }.joined(separator: "&")
    }

    /// `-?[0-9]+` within a signed 64-bit integer.
    static func integer(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
    }

    private static func badQuery(_ message: String) -> BindingRefusal {
        BindingRefusal(status: 400, body: ErrorBody(code: ErrorBody.Code.badQuery, message: message))
    }
}
