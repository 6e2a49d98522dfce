import LocationWire
import LocationWireJSON

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

    /// Decodes `bytes` as `Message`; the error carries the stable code, offset and field path
    /// (`§http-error-body`).
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
                throw ErrorBody(json: error)
            }
        }
    }

    /// The format of a request body from its `Content-Type` field lines (each line as received), for an endpoint
    /// that takes `Message` (`§http-content-type`, `§http-media-types`): exactly one field naming one of the two
    /// media types, case-insensitively, with at most one non-empty `proto` parameter naming `Message`.
    public static func ofRequest(
        contentTypeFields fields: [String], expecting message: any LocationWireMessage.Type
    ) throws(BindingRefusal) -> BodyFormat {
        let expected = message.schema.fullName
        func refuse(_ why: String) -> BindingRefusal {
            BindingRefusal(
                status: 415, body: ErrorBody(code: ErrorBody.Code.unsupportedMediaType, message: why))
        }
        guard let field = fields.first else {
            throw refuse("a body needs a Content-Type: \(Binding.protobufMediaType); proto=\(expected)")
        }
        guard fields.count == 1, let mediaType = MediaType(field) else {
            throw refuse("send one Content-Type with one media type, not \(fields.joined(separator: " and "))")
        }
        guard let format = mediaType.format else {
            throw refuse("send \(Binding.protobufMediaType) or \(Binding.jsonMediaType), not \(mediaType.type)")
        }
        if mediaType.protoCount > 1 || mediaType.proto?.isEmpty == true {
            throw refuse("the proto parameter must name one message, proto=\(expected), once")
        }
        if let proto = mediaType.proto, proto != expected {
            throw refuse("this endpoint takes proto=\(expected), not proto=\(proto)")
        }
        return format
    }

    /// The format of a `200`: the request's, unless `Accept` names only the other one (`§http-negotiation`).
    public static func ofAnswer(accept: String?, request: BodyFormat) -> BodyFormat {
        guard let accept else { return request }
        let formats = MediaType.splitList(accept).compactMap { MediaType($0)?.format }
        return formats.isEmpty || formats.contains(request) ? request : formats[0]
    }
}

/// A parsed media type (`Content-Type`, or one entry of `Accept`): the type, lowercased, and its `proto`
/// parameter (RFC 9110, section 8.3.1).
public struct MediaType: Hashable, Sendable {
    /// `type/subtype`, lowercased.
    public var type: String
    /// The `proto` parameter, unquoted; nil when absent (the last one, when given twice).
    public var proto: String?
    /// How many `proto` parameters there are: more than one is ambiguous, and refused.
    public var protoCount = 0

    /// Parses one media type: `type/subtype` and `; name=value` parameters, names case-insensitive, values a
    /// token or a quoted string. Nil when it is not one media type: no `/`, or a `,` outside a quoted string (two
    /// media types in one field).
    public init?(_ text: String) {
        guard Self.splitList(text).count == 1 else { return nil }
        let parts = Self.split(text, at: UInt8(ascii: ";"))
        let type = parts[0].trimmingWhitespace().lowercased()
        guard type.contains("/"), !type.contains(" ") else { return nil }
        self.type = type
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "proto" else { continue }
            proto = Self.unquoted(pair[1].trimmingWhitespace())
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

    /// The entries of a comma-separated field value (`Accept`), commas inside quoted strings kept.
    public static func splitList(_ text: String) -> [String] {
        split(text, at: UInt8(ascii: ",")).filter { !$0.trimmingWhitespace().isEmpty }
    }

    /// `text` cut at each `separator` outside a quoted string.
    private static func split(_ text: String, at separator: UInt8) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var escaped = false
        for byte in text.utf8 {
            if escaped {
                escaped = false
            } else if quoted && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if !quoted && byte == separator {
                parts.append(String(decoding: current, as: UTF8.self))
                current = []
                continue
            }
            current.append(byte)
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// A quoted-string's content with its escapes undone, or a token as it is.
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        var result = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}

/// The content coding of a request body (`§http-gzip`, `§http-content-coding`).
public enum ContentCoding: Sendable, Equatable {
    case identity
    case gzip

    /// Reads the `Content-Encoding` field lines: none is ``identity``; one naming one coding, `gzip` or `x-gzip`
    /// (``gzip``) or `identity`, in any case. Another coding, a list, two fields or an empty value is a `415`
    /// with `Accept-Encoding: gzip`.
    public static func ofRequest(contentEncodingFields fields: [String]) throws(BindingRefusal) -> ContentCoding {
        guard let field = fields.first else { return .identity }
        let name = field.trimmingWhitespace().lowercased()
        let coding: ContentCoding? =
            switch name {
            case "gzip", "x-gzip": .gzip
            case "identity": .identity
            default: nil
            }
        guard fields.count == 1, let coding else {
            let shown = fields.map { "\"\($0)\"" }.joined(separator: " and ")
            throw BindingRefusal(
                status: 415,
                body: ErrorBody(
                    code: ErrorBody.Code.unsupportedContentEncoding,
                    message: "Content-Encoding \(shown) is not taken; use one gzip, or none"),
                headers: [("Accept-Encoding", "gzip")])
        }
        return coding
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
