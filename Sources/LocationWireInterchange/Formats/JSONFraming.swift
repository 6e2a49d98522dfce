import Foundation
import LocationWireJSON

/// A JSON document's top level walked as a stream, so that a file of a million records is never parsed, nor held,
/// whole: the elements of chosen arrays are cut out one at a time (as bytes, each parsed by ``JSONInput`` on its
/// own), and the other top-level members are handed over whole. Only the framing is found here (strings and
/// their escapes, nesting); every byte of a record is still parsed by `JSONValue`'s strict reader, which says
/// what is wrong with one that is not JSON.
enum JSONFraming {
    /// One cut-out value: its bytes and the line it starts on.
    struct Value {
        var bytes: Data
        var line: Int
    }

    /// What the top level is.
    enum Root {
        case object, array
    }

    /// Walks `input`. For a top-level array, `element` gets each element (key nil). For a top-level object, each
    /// member whose key is in `arrayKeys` and whose value is an array gives `element` each of its elements (with
    /// the key); every other member goes to `member` whole. Returns what the top level was, and the keys of a
    /// top-level object.
    @discardableResult
    static func walk(
        _ input: ImportInput, arrayKeys: Set<String>,
        member: (_ key: String, _ value: Value) throws(InterchangeError) -> Void,
        element: (_ key: String?, _ index: Int, _ value: Value) throws(InterchangeError) -> Void
    ) throws(InterchangeError) -> (root: Root, keys: Set<String>) {
        var keys = Set<String>()
        var scanner = Scanner(stream: input.stream())
        scanner.skipSpace()
        switch scanner.peek() {
        case UInt8(ascii: "["):
            try scanner.elements { index, value throws(InterchangeError) in try element(nil, index, value) }
            try scanner.expectEnd()
            return (.array, [])
        case UInt8(ascii: "{"):
            scanner.advance()
            scanner.skipSpace()
            if scanner.peek() == UInt8(ascii: "}") {
                scanner.advance()
                try scanner.expectEnd()
                return (.object, [])
            }
            while true {
                scanner.skipSpace()
                let keyLine = scanner.line
                let key = try scanner.string()
                keys.insert(key)
                scanner.skipSpace()
                guard scanner.peek() == UInt8(ascii: ":") else { throw scanner.error("expected ':' after a key") }
                scanner.advance()
                scanner.skipSpace()
                if arrayKeys.contains(key) && scanner.peek() == UInt8(ascii: "[") {
                    try scanner.elements { index, value throws(InterchangeError) in try element(key, index, value) }
                } else {
                    let value = try scanner.value()
                    try member(key, Value(bytes: value.bytes, line: max(value.line, keyLine)))
                }
                scanner.skipSpace()
                if scanner.peek() == UInt8(ascii: ",") {
                    scanner.advance()
                    continue
                }
                guard scanner.peek() == UInt8(ascii: "}") else { throw scanner.error("expected ',' or '}'") }
                scanner.advance()
                try scanner.expectEnd()
                return (.object, keys)
            }
        default:
            throw scanner.error("not valid JSON: expected an object or an array")
        }
    }

    /// A byte cursor over a stream, read in pieces.
    struct Scanner {
        let stream: InputStream
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var position = 0
        var count = 0
        var ended = false
        /// The line of the next byte, counted from 1.
        var line = 1

        init(stream: InputStream) {
            self.stream = stream
            stream.open()
        }

        /// The next byte, nil at the end.
        mutating func peek() -> UInt8? {
            if position == count {
                guard !ended else { return nil }
                count = buffer.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
                position = 0
                if count <= 0 {
                    count = 0
                    ended = true
                    return nil
                }
            }
            return buffer[position]
        }

        mutating func advance() {
            if buffer[position] == 0x0A { line += 1 }
            position += 1
        }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
        }

        func error(_ message: String) -> InterchangeError {
            if let failure = stream.streamError as? InterchangeError { return failure }
            return InterchangeError("line \(line)", message)
        }

        mutating func expectEnd() throws(InterchangeError) {
            skipSpace()
            if peek() != nil { throw error("not valid JSON: text after the end of the document") }
            if let failure = stream.streamError as? InterchangeError { throw failure }
        }

        /// A string value (the cursor at its opening quote), unescaped by `JSONValue`'s reader.
        mutating func string() throws(InterchangeError) -> String {
            guard peek() == UInt8(ascii: "\"") else { throw error("not valid JSON: expected a key in quotes") }
            let raw = try value()
            guard let text = (try? JSONValue.parse(raw.bytes))?.string else {
                throw error("not valid JSON: a key that is not a string")
            }
            return text
        }

        /// The elements of the array at the cursor, each cut out and handed to `body` with its index.
        mutating func elements(
            _ body: (Int, Value) throws(InterchangeError) -> Void
        ) throws(InterchangeError) {
            advance()  // [
            skipSpace()
            if peek() == UInt8(ascii: "]") {
                advance()
                return
            }
            var index = 0
            while true {
                skipSpace()
                try body(index, try value())
                index += 1
                skipSpace()
                switch peek() {
                case UInt8(ascii: ","): advance()
                case UInt8(ascii: "]"):
                    advance()
                    return
                case nil: throw error("not valid JSON: the document ends inside an array")
                default: throw error("not valid JSON: expected ',' or ']' after an element")
                }
            }
        }

        /// One value's bytes (a string, a number, a literal, or a nested object or array), the cursor at its start.
        mutating func value() throws(InterchangeError) -> Value {
            let startLine = line
            var bytes = [UInt8]()
            var depth = 0
            var inString = false
            var escaped = false
            while let byte = peek() {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == 0x5C {
                        escaped = true
                    } else if byte == 0x22 {
                        inString = false
                        if depth == 0 {
                            bytes.append(byte)
                            advance()
                            return Value(bytes: Data(bytes), line: startLine)
                        }
                    }
                } else {
                    switch byte {
                    case 0x22: inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { return Value(bytes: Data(bytes), line: startLine) }
                        depth -= 1
                        if depth == 0 {
                            bytes.append(byte)
                            advance()
                            return Value(bytes: Data(bytes), line: startLine)
                        }
                    case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                        if depth == 0 { return Value(bytes: Data(bytes), line: startLine) }
                    default: break
                    }
                }
                bytes.append(byte)
                advance()
                // Bytes that would make a single record unreasonably large: no track point is a gigabyte.
                if bytes.count > 256 << 20 { throw error("a single JSON value larger than 256 MiB") }
            }
            if depth > 0 || inString { throw error("not valid JSON: the document ends inside a value") }
            return Value(bytes: Data(bytes), line: startLine)
        }
    }
}
