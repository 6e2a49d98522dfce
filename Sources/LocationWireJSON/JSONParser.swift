/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Strict means: no comments, no trailing commas, no single quotes, no unquoted names, no leading zeros, no
/// `NaN` or `Infinity` literals, no unescaped control characters in strings, no unpaired UTF-16 surrogates in
/// `\u` escapes, no invalid UTF-8, nothing after the top-level value but whitespace. Nesting is limited so that
/// hostile input cannot exhaust the stack.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let maxDepth: Int

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses a complete JSON text.
    static func parse(_ text: UnsafeBufferPointer<UInt8>, maxDepth: Int = 100) throws(JSONError) -> JSONValue {
        var parser = JSONParser(text, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else {
            throw parser.syntaxError("unexpected characters after the JSON value")
        }
        return value
    }

    private func syntaxError(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(code: .syntax, offset: offset ?? position, message: message)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func expect(_ literal: StaticString) throws(JSONError) {
        let start = position
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard position < bytes.count, bytes[position] == byte else {
                throw syntaxError("invalid literal, expected \(literal)", at: start)
            }
            position += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        let start = position
        guard let byte = peek() else { throw syntaxError("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try parseString()), offset: start)
        case UInt8(ascii: "t"):
            try expect("true")
            return JSONValue(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"):
            try expect("false")
            return JSONValue(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"):
            try expect("null")
            return JSONValue(kind: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(try parseNumber()), offset: start)
        default:
            throw syntaxError("unexpected character, expected a value")
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(JSONError) {
        if depth > maxDepth {
            throw JSONError(
                code: .depthLimitExceeded, offset: position, message: "nesting deeper than \(maxDepth) levels")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
        try checkDepth(depth)
        let start = position
        position += 1  // {
        var members: [(name: String, nameOffset: Int, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return JSONValue(kind: .object(members), offset: start)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a quoted member name") }
            let nameOffset = position
            let name = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw syntaxError("expected ':' after a member name") }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((name, nameOffset, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return JSONValue(kind: .object(members), offset: start)
            default: throw syntaxError("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
        try checkDepth(depth)
        let start = position
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return JSONValue(kind: .array(elements), offset: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return JSONValue(kind: .array(elements), offset: start)
            default: throw syntaxError("expected ',' or ']' in an array")
            }
        }
    }

    /// RFC 8259 number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONError) -> String {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw syntaxError("expected a digit", at: start) }
        position += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw syntaxError("numbers must not have leading zeros", at: start)
        }
        while let byte = peek(), isDigit(byte) { position += 1 }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let byte = peek(), isDigit(byte) else { throw syntaxError("expected a digit after '.'") }
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let byte = peek(), isDigit(byte) else { throw syntaxError("expected a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Parses a string literal, resolving escapes and validating UTF-8.
    private mutating func parseString() throws(JSONError) -> String {
        let start = position
        position += 1  // opening quote
        // Most strings (every member name) have no escapes: make the String straight from the input.
        while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\"),
            bytes[position] >= 0x20
        {
            position += 1
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            position += 1
            guard
                let string = String(
                    validating: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(position - 1)]), as: UTF8.self)
            else { throw syntaxError("string is not valid UTF-8", at: start) }
            return string
        }
        var utf8: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<position]))
        var runStart = position
        while true {
            guard position < bytes.count else { throw syntaxError("unterminated string", at: start) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                utf8.append(contentsOf: bytes[runStart..<position])
                position += 1
                break
            }
            if byte < 0x20 {
                throw syntaxError("control characters must be escaped in strings")
            }
            if byte == UInt8(ascii: "\\") {
                utf8.append(contentsOf: bytes[runStart..<position])
                try parseEscape(into: &utf8)
                runStart = position
                continue
            }
            position += 1
        }
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw syntaxError("string is not valid UTF-8", at: start)
        }
        return string
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONError) {
        let start = position
        position += 1  // backslash
        guard let byte = peek() else { throw syntaxError("unterminated escape", at: start) }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): utf8.append(0x22)
        case UInt8(ascii: "\\"): utf8.append(0x5C)
        case UInt8(ascii: "/"): utf8.append(0x2F)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: start)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw syntaxError("unpaired high surrogate", at: start) }
                position += 2
                let low = try parseHex4(escapeStart: start)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw syntaxError("high surrogate not followed by a low surrogate", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw syntaxError("unpaired low surrogate", at: start)
            }
            utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw syntaxError("invalid escape sequence", at: start)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw syntaxError("incomplete \\u escape", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntaxError("invalid hex digit in \\u escape", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
