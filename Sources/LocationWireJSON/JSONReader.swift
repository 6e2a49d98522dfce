import LocationWire

/// How JSON input is read.
public struct JSONParseOptions: Sendable, Hashable {
    /// Skip members the message type does not have, instead of rejecting them.
    public var ignoreUnknownFields: Bool
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int

    public init(ignoreUnknownFields: Bool = false, maxDepth: Int = 100) {
        self.ignoreUnknownFields = ignoreUnknownFields
        self.maxDepth = maxDepth
    }
}

/// Reads proto3 JSON in one pass over its UTF-8 bytes and writes protobuf binary as it goes, driven by the message
/// schema; the typed binary decoder then builds the message, so JSON input follows exactly the same rules as
/// binary input. No tree is built: member names are matched in the input bytes, numbers are converted from them,
/// and strings without escapes are copied from them, so a batch costs the output buffer and the decoded message.
///
/// The JSON is strict RFC 8259: no comments, no trailing commas, no single quotes, no unquoted names, no leading
/// zeros, no `NaN` or `Infinity` literals, no unescaped control characters in strings, no unpaired UTF-16
/// surrogates in `\u` escapes, no invalid UTF-8, nothing after the top-level value but whitespace. Nesting is
/// limited so that hostile input cannot exhaust the stack.
///
/// Accepted, as in Google's implementations: the JSON name or the `.proto` name of a field; `null` for "not
/// set"; integers as numbers or strings, with fractions or exponents when the value is integral; floats as
/// numbers, numeric strings, "NaN", "Infinity", "-Infinity"; enums by name or number; bytes in standard or
/// URL-safe base64, padded or not; integers in exponent form inside strings, as upb does. Rejected, where C++
/// and upb do not agree or the mapping forbids it: the same field twice (under either name), `null` inside an
/// array, quoted booleans, floats that round to infinity.
///
/// Errors: malformed JSON anywhere in the input is reported before any mismatch with the schema, however early the
/// mismatch (so a document is either not JSON, or JSON that does not fit the message). The one pass stops at the
/// first error of either kind; only then does ``firstSyntaxError(in:maxDepth:)`` check the whole input's syntax.
/// A syntax error is at the first byte that cannot continue a well-formed text, or at the input's length when the
/// input ends early (proto/README.md `§json-error-offset`), so that every reader of the text names the same byte.
struct JSONReader: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let options: JSONParseOptions
    /// Where a string with escapes is unescaped: allocated on the first such string, as long as the input (an
    /// unescaped string is never longer than its escaped form), and reused for every later one.
    private var scratch: UnsafeMutableBufferPointer<UInt8>?

    init(_ bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions) {
        self.bytes = bytes
        self.options = options
    }

    deinit {
        scratch?.deallocate()
    }

    // MARK: - Entry points

    /// Reads the whole input as one message of `schema` and writes its binary form into `writer`. A schema
    /// error's field path starts with `path`, the message's own.
    mutating func readMessage(
        schema: MessageSchema, path: FieldPath, into writer: inout WireWriter
    ) throws(JSONError) {
        skipWhitespace()
        do {
            try readMessageValue(schema: schema, depth: 0, into: &writer)
        } catch {
            throw error.inside(path)
        }
        skipWhitespace()
        guard position == bytes.count else { throw syntaxError("unexpected characters after the JSON value") }
    }

    /// The first syntax or depth error in `bytes` read as a JSON text, nil when it is well-formed.
    static func firstSyntaxError(in bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> JSONError? {
        var reader = JSONReader(bytes, options: JSONParseOptions(maxDepth: maxDepth))
        do throws(JSONError) {
            reader.skipWhitespace()
            try reader.skipValue(depth: 0)
            reader.skipWhitespace()
            guard reader.position == bytes.count else {
                throw reader.syntaxError("unexpected characters after the JSON value")
            }
            return nil
        } catch {
            return error
        }
    }

    /// Reads the whole input as one value of any kind, for JSON no message describes (``JSONValue``).
    mutating func readDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try readAnyValue(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw syntaxError("unexpected characters after the JSON value") }
        return value
    }

    /// Reads one value of any kind at nesting depth `depth`, as ``skipValue(depth:)`` checks it.
    private mutating func readAnyValue(depth: Int) throws(JSONError) -> JSONValue {
        guard let byte = peek() else { throw syntaxError("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            var members: [JSONObject.Member] = []
            guard try beginObject(depth: depth + 1) else { return .object(JSONObject()) }
            repeat {
                // The name is made a String before the value is read: both may be in the scratch buffer.
                let key = String(decoding: try readMemberName().name, as: UTF8.self)
                members.append(JSONObject.Member(key: key, value: try readAnyValue(depth: depth + 1)))
            } while try endMember()
            return .object(JSONObject(members))
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            guard try beginArray(depth: depth + 1) else { return .array([]) }
            repeat {
                elements.append(try readAnyValue(depth: depth + 1))
            } while try endElement()
            return .array(elements)
        case UInt8(ascii: "\""): return .string(String(decoding: try readString(), as: UTF8.self))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try readBoolean())
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            try skipNumber()
            let number = JSONNumberText.doubleValue(UnsafeBufferPointer(rebasing: bytes[start..<position]))
            guard number.isFinite else {
                throw JSONError(code: .outOfRange, offset: start, message: "a number beyond the range of a double")
            }
            return .number(number)
        default:
            throw syntaxError("unexpected character, expected a value")
        }
    }

    // MARK: - Schema-driven reading
    //
    // An error is thrown with the field path below the level that finds it, and each level puts its own component
    // in front as the error passes (`JSONError.inside(_:)`): a value read without error builds no path and
    // captures none. Fields are read as `FieldInfo`, plain values, so reading one counts no reference.

    /// Reads the value of a message field (or the top-level message, at depth 0): an object, or a mismatch.
    private mutating func readMessageValue(
        schema: MessageSchema, depth: Int, into writer: inout WireWriter
    ) throws(JSONError) {
        guard peek() == UInt8(ascii: "{") else {
            throw JSONError(
                code: depth == 0 ? .notAnObject : .typeMismatch, offset: position,
                message: "expected an object for \(schema.name), found \(typeNameOfValue())")
        }
        var seen = FieldNumberSet()
        var hint = 0
        guard try beginObject(depth: depth + 1) else { return }
        repeat {
            let (nameOffset, name) = try readMemberName()
            if let index = schema.fieldIndex(namedUTF8: name, hint: &hint) {
                let field = schema.fieldInfos[index]
                let fieldNumber = schema.fieldNumbers[index]
                guard seen.insert(fieldNumber) else {
                    let name = schema.fields[index].name
                    throw JSONError(
                        code: .duplicateField, offset: nameOffset, fieldPath: FieldPath([.field(name)]),
                        message: "field \(name) appears more than once")
                }
                do {
                    try readField(field, fieldNumber: fieldNumber, depth: depth + 1, into: &writer)
                } catch {
                    throw error.inside(FieldPath([.field(schema.fields[index].name)]))
                }
            } else if options.ignoreUnknownFields {
                try skipValue(depth: depth + 1)
            } else {
                throw JSONError(
                    code: .unknownField, offset: nameOffset,
                    message: "\(schema.name) has no field named \"\(String(decoding: name, as: UTF8.self))\"")
            }
        } while try endMember()
    }

    /// Reads a member's value for `field`, whose number is `fieldNumber`; `depth` is the nesting depth of the object
    /// the member is in (an object or array value is one deeper). A repeated numeric field is written as one packed
    /// run, its canonical form, which the decoder reads fastest.
    private mutating func readField(
        _ field: FieldInfo, fieldNumber: UInt32, depth: Int, into writer: inout WireWriter
    ) throws(JSONError) {
        if peek() == UInt8(ascii: "n") {  // null: the field is not set
            try expect("null")
            return
        }
        let key = FieldKey.make(fieldNumber, field.wireType)
        guard field.label == .repeated else {
            try readElement(field, key: key, packed: false, depth: depth, into: &writer)
            return
        }
        guard peek() == UInt8(ascii: "[") else { throw mismatch(expected: "an array") }
        guard try beginArray(depth: depth + 1) else { return }
        let packed = field.isPacked
        let lengthOffset = packed ? writer.beginLengthDelimitedField(FieldKey.make(fieldNumber, .lengthDelimited)) : 0
        var index = 0
        repeat {
            if peek() == UInt8(ascii: "n") {
                throw JSONError(
                    code: .typeMismatch, offset: position, fieldPath: FieldPath([.index(index)]),
                    message: "null is not allowed as an element of a repeated field")
            }
            do {
                try readElement(field, key: key, packed: packed, depth: depth + 1, into: &writer)
            } catch {
                throw error.inside(FieldPath([.index(index)]))
            }
            index += 1
        } while try endElement()
        if packed { writer.finishLengthDelimitedField(at: lengthOffset) }
    }

    /// The JSON type of the value that starts at `position`, for errors; meaningful only for well-formed input,
    /// which is the only input whose schema errors are reported.
    private func typeNameOfValue() -> String {
        switch peek() {
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "{"): "an object"
        default: "a number"
        }
    }

    private func mismatch(expected: String) -> JSONError {
        JSONError(code: .typeMismatch, offset: position, message: "expected \(expected), found \(typeNameOfValue())")
    }

    /// A scalar value read from the input: a number's text, or a string's unescaped bytes (which point into the
    /// input or into the scratch buffer, valid until the next string is read).
    private enum Scalar {
        case number(UnsafeBufferPointer<UInt8>)
        case string(UnsafeBufferPointer<UInt8>)
        case bool(Bool)
    }

    /// Reads a number, string or boolean; anything else (an object, an array) is a mismatch with `expected`.
    private mutating func readScalar(expected: String) throws(JSONError) -> Scalar {
        switch peek() ?? 0 {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try readBoolean())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            try skipNumber()
            return .number(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            throw mismatch(expected: expected)
        default:
            try skipValue(depth: 0)  // throws the syntax error
            throw mismatch(expected: expected)
        }
    }

    private static func typeName(of scalar: Scalar) -> String {
        switch scalar {
        case .number: "a number"
        case .string: "a string"
        case .bool: "a boolean"
        }
    }

    private func mismatch(_ scalar: Scalar, at offset: Int, expected: String) -> JSONError {
        JSONError(
            code: .typeMismatch, offset: offset, message: "expected \(expected), found \(Self.typeName(of: scalar))")
    }

    /// Reads one value of `field` (an element, for a repeated field) and writes it: with `key`, the key of one
    /// value, or without when it is an element of a packed run (`packed`).
    private mutating func readElement(
        _ field: FieldInfo, key: FieldKey, packed: Bool, depth: Int, into writer: inout WireWriter
    ) throws(JSONError) {
        // A length-delimited value writes its key with its length; only numbers and booleans can be packed.
        if !packed, field.wireType != .lengthDelimited { writer.writeKey(key) }
        let offset = position
        switch field.kind {
        case .message:
            let lengthOffset = writer.beginLengthDelimitedField(key)
            // The nested schema borrowed, not counted (FieldInfo).
            var failure: JSONError?
            field.withMessageSchema { schema in
                do throws(JSONError) {
                    try readMessageValue(schema: schema, depth: depth, into: &writer)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            writer.finishLengthDelimitedField(at: lengthOffset)
        case .enumeration:
            let value = try readScalar(expected: "an enum name or number")
            let number: Int32
            if case .string(let name) = value, let known = field.withEnumSchema({ $0.number(namedUTF8: name) }) {
                number = known
            } else if case .string(let name) = value, !JSONNumberText.isValid(name, allowPlus: true) {
                let enumName = field.withEnumSchema(\.name)
                throw JSONError(
                    code: .invalidValue, offset: offset,
                    message: "\"\(String(decoding: name, as: UTF8.self))\" is not a value of \(enumName)")
            } else {
                // A number, or a number in a string ("1"), as C++ and upb accept it.
                number = Int32(
                    try integer(
                        value, at: offset, expected: "an enum name or number", min: Int64(Int32.min),
                        max: UInt64(Int32.max)))
            }
            writer.writeVarint(UInt64(bitPattern: Int64(number)))
        case .int32:
            let number = try integer(at: offset, min: Int64(Int32.min), max: UInt64(Int32.max))
            writer.writeVarint(UInt64(bitPattern: number))
        case .sint32:
            let number = try integer(at: offset, min: Int64(Int32.min), max: UInt64(Int32.max))
            writer.writeVarint(UInt64(ZigZag.encode(Int32(number))))
        case .uint32:
            writer.writeVarint(UInt64(try integer(at: offset, min: 0, max: UInt64(UInt32.max))))
        case .int64:
            let number = try integer(at: offset, min: Int64.min, max: UInt64(Int64.max))
            writer.writeVarint(UInt64(bitPattern: number))
        case .sint64:
            writer.writeVarint(ZigZag.encode(try integer(at: offset, min: Int64.min, max: UInt64(Int64.max))))
        case .uint64:
            writer.writeVarint(try unsignedInteger(at: offset))
        case .fixed32:
            writer.writeLittleEndian(UInt32(try integer(at: offset, min: 0, max: UInt64(UInt32.max))))
        case .sfixed32:
            let number = try integer(at: offset, min: Int64(Int32.min), max: UInt64(Int32.max))
            writer.writeLittleEndian(UInt32(bitPattern: Int32(number)))
        case .fixed64:
            writer.writeLittleEndian(try unsignedInteger(at: offset))
        case .sfixed64:
            let number = try integer(at: offset, min: Int64.min, max: UInt64(Int64.max))
            writer.writeLittleEndian(UInt64(bitPattern: number))
        case .bool:
            let value = try readScalar(expected: "true or false")
            guard case .bool(let flag) = value else {
                throw mismatch(value, at: offset, expected: "true or false")
            }
            writer.writeVarint(flag ? 1 : 0)
        case .float:
            let number = try floatingPoint(at: offset)
            // As C++: parse to double, round to float, and refuse a finite number that rounds to infinity. So the
            // largest float printed with 9 digits (3.40282347e+38, a hair above FLT_MAX as a double) reads back.
            // (upb refuses anything above FLT_MAX as a double, and so cannot read back its own 3.4028235e+38.)
            if number.isFinite, Float(number).isInfinite {
                throw JSONError(
                    code: .outOfRange, offset: offset, message: "\(number) is beyond the range of a float")
            }
            writer.writeLittleEndian(Float(number).bitPattern)
        case .double:
            writer.writeLittleEndian(try floatingPoint(at: offset).bitPattern)
        case .string:
            let value = try readScalar(expected: "a string")
            guard case .string(let text) = value else {
                throw mismatch(value, at: offset, expected: "a string")
            }
            writer.writeKey(key)
            writer.writeVarint(UInt64(text.count))
            writer.writeRaw(UnsafeRawBufferPointer(text))
        case .bytes:
            let value = try readScalar(expected: "a base64 string")
            guard case .string(let text) = value else {
                throw mismatch(value, at: offset, expected: "a base64 string")
            }
            guard let decoded = JSONTextWriter.decodeBase64(text) else {
                throw JSONError(code: .invalidValue, offset: offset, message: "invalid base64")
            }
            writer.writeBytesField(key, decoded)
        }
    }

    /// Reads the exact integer a number or numeric string denotes, within `min ... max`.
    private mutating func integer(at offset: Int, min: Int64, max: UInt64) throws(JSONError) -> Int64 {
        let (negative, magnitude) = try integerParts(at: offset)
        return try Self.integer(negative: negative, magnitude: magnitude, at: offset, min: min, max: max)
    }

    private func integer(
        _ value: Scalar, at offset: Int, expected: String, min: Int64, max: UInt64
    ) throws(JSONError) -> Int64 {
        let (negative, magnitude) = try integerParts(value, at: offset, expected: expected)
        return try Self.integer(negative: negative, magnitude: magnitude, at: offset, min: min, max: max)
    }

    /// The integer of sign `negative` and `magnitude`, which must be within `min ... max`.
    @inline(__always)
    private static func integer(
        negative: Bool, magnitude: UInt64, at offset: Int, min: Int64, max: UInt64
    ) throws(JSONError) -> Int64 {
        func outOfRange() -> JSONError {
            JSONError(code: .outOfRange, offset: offset, message: "value is outside \(min) ... \(max)")
        }
        if negative {
            // The largest magnitude allowed below zero: |min|, computed without overflowing for Int64.min.
            let limit: UInt64 = min < 0 ? UInt64(-(min + 1)) + 1 : 0
            guard magnitude <= limit else { throw outOfRange() }
            return magnitude == UInt64(bitPattern: Int64.min) ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= max else { throw outOfRange() }
        return Int64(bitPattern: magnitude)
    }

    private mutating func unsignedInteger(at offset: Int) throws(JSONError) -> UInt64 {
        let (negative, magnitude) = try integerParts(at: offset)
        if negative && magnitude != 0 {
            throw JSONError(code: .outOfRange, offset: offset, message: "value must not be negative")
        }
        return magnitude
    }

    /// Reads a number or numeric string for an integer field and returns its sign and magnitude.
    @inline(__always)
    private mutating func integerParts(at offset: Int) throws(JSONError) -> (Bool, UInt64) {
        if let plain = readPlainInteger() { return plain }
        let value = try readScalar(expected: "an integer")
        return try integerParts(value, at: offset, expected: "an integer")
    }

    /// The sign and magnitude of the integer at `position` when it is written plainly, as printers write
    /// integers: a number of 1 to 18 digits (which always fit) without a leading zero, a fraction or an exponent,
    /// after an optional "-"; or the same in a string, where a "+" may stand for the "-". Moves past it. Nil, with
    /// `position` unchanged, for anything else, which ``readScalar(expected:)`` and
    /// ``integerParts(_:at:expected:)`` then read in full (and reject, when it is not an integer).
    @inline(__always)
    private mutating func readPlainInteger() -> (negative: Bool, magnitude: UInt64)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = position
        let quoted = index < count && base[index] == UInt8(ascii: "\"")
        if quoted { index += 1 }
        guard index < count else { return nil }
        let sign = base[index]
        let negative = sign == UInt8(ascii: "-")
        if negative || (quoted && sign == UInt8(ascii: "+")) { index += 1 }
        let digitsStart = index
        var magnitude: UInt64 = 0
        while index < count {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { break }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            index += 1
        }
        let digitCount = index - digitsStart
        guard digitCount >= 1, digitCount <= 18, digitCount == 1 || base[digitsStart] != UInt8(ascii: "0") else {
            return nil
        }
        if quoted {
            guard index < count, base[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
        } else if index < count {
            let next = base[index]
            if next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") { return nil }
        }
        position = index
        return (negative, magnitude)
    }

    private func integerParts(_ value: Scalar, at offset: Int, expected: String) throws(JSONError) -> (Bool, UInt64) {
        let text: UnsafeBufferPointer<UInt8>
        switch value {
        case .number(let number): text = number
        case .string(let string):
            // Inside a string, a leading "+" is allowed, as C++ and upb allow it.
            guard JSONNumberText.isValid(string, allowPlus: true) else {
                throw JSONError(
                    code: .invalidValue, offset: offset,
                    message: "\"\(String(decoding: string, as: UTF8.self))\" is not a number")
            }
            text = string
        case .bool:
            throw mismatch(value, at: offset, expected: expected)
        }
        switch JSONNumberText.integerValue(text) {
        case .integer(let negative, let magnitude):
            return (negative, magnitude)
        case .notAnInteger:
            throw JSONError(
                code: .outOfRange, offset: offset,
                message: "\(String(decoding: text, as: UTF8.self)) is not an integer")
        case .tooLarge:
            throw JSONError(
                code: .outOfRange, offset: offset, message: "\(String(decoding: text, as: UTF8.self)) is too large")
        }
    }

    private mutating func floatingPoint(at offset: Int) throws(JSONError) -> Double {
        let value = try readScalar(expected: "a number")
        let number: Double
        switch value {
        case .number(let text):
            // Valid JSON number text always converts. The token -0 keeps its sign: C++ prints -0.0 as -0, so
            // reading it back as -0.0 is what makes printed JSON round-trip. (C++ and upb themselves read the
            // integer token -0 as +0.0; see vector json.LocationFix.number.float-negative-zero-integer.)
            number = JSONNumberText.doubleValue(text)
        case .string(let text):
            if text.elementsEqual("NaN".utf8) { return .nan }
            if text.elementsEqual("Infinity".utf8) { return .infinity }
            if text.elementsEqual("-Infinity".utf8) { return -.infinity }
            guard JSONNumberText.isValid(text, allowPlus: true) else {
                throw JSONError(
                    code: .invalidValue, offset: offset,
                    message: "\"\(String(decoding: text, as: UTF8.self))\" is not a number")
            }
            number = JSONNumberText.doubleValue(text)
        case .bool:
            throw mismatch(value, at: offset, expected: "a number")
        }
        // A number beyond the range of a double (1e400) is out of range, not infinity: only "Infinity" is.
        guard number.isFinite || number.isNaN else {
            throw JSONError(code: .outOfRange, offset: offset, message: "a number beyond the range of a double")
        }
        return number
    }

    // MARK: - JSON syntax

    private func syntaxError(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(code: .syntax, offset: offset ?? position, message: message)
    }

    private mutating func checkDepth(_ depth: Int) throws(JSONError) {
        if depth > options.maxDepth {
            throw JSONError(
                code: .depthLimitExceeded, offset: position, message: "nesting deeper than \(options.maxDepth) levels")
        }
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// `true` or `false` at `position` (which is at a `t` or an `f`).
    private mutating func readBoolean() throws(JSONError) -> Bool {
        if peek() == UInt8(ascii: "t") {
            try expect("true")
            return true
        }
        try expect("false")
        return false
    }

    private mutating func expect(_ literal: StaticString) throws(JSONError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard position < bytes.count, bytes[position] == byte else {
                throw syntaxError("invalid literal, expected \(literal)")
            }
            position += 1
        }
    }

    /// Opens the object at `position`, which is at nesting depth `depth`: false when it is empty (and closed).
    private mutating func beginObject(depth: Int) throws(JSONError) -> Bool {
        try checkDepth(depth)
        position += 1  // {
        skipWhitespace()
        guard peek() == UInt8(ascii: "}") else { return true }
        position += 1
        return false
    }

    /// Reads a member's name and the colon after it, and returns the name's offset and bytes (valid until the next
    /// string is read); the member's value is next.
    private mutating func readMemberName() throws(JSONError) -> (offset: Int, name: UnsafeBufferPointer<UInt8>) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a quoted member name") }
        let offset = position
        let name = try readString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw syntaxError("expected ':' after a member name") }
        position += 1
        skipWhitespace()
        return (offset, name)
    }

    /// Reads what follows a member's value: true for a comma (another member follows), false for the closing brace.
    private mutating func endMember() throws(JSONError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            position += 1
            return true
        case UInt8(ascii: "}"):
            position += 1
            return false
        default: throw syntaxError("expected ',' or '}' in an object")
        }
    }

    /// Opens the array at `position`, which is at nesting depth `depth`: false when it is empty (and closed);
    /// otherwise the first element is next.
    private mutating func beginArray(depth: Int) throws(JSONError) -> Bool {
        try checkDepth(depth)
        position += 1  // [
        skipWhitespace()
        guard peek() == UInt8(ascii: "]") else { return true }
        position += 1
        return false
    }

    /// Reads what follows an element: true for a comma (the next element is next), false for the closing bracket.
    /// Inlined: it runs once per element, and a call costs as much as its work.
    @inline(__always)
    private mutating func endElement() throws(JSONError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            return true
        case UInt8(ascii: "]"):
            position += 1
            return false
        default: throw syntaxError("expected ',' or ']' in an array")
        }
    }

    /// Checks one value of any kind, at nesting depth `depth`, and moves past it: for members the message does not
    /// have, and for ``firstSyntaxError(in:maxDepth:)``.
    private mutating func skipValue(depth: Int) throws(JSONError) {
        guard let byte = peek() else { throw syntaxError("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            guard try beginObject(depth: depth + 1) else { return }
            repeat {
                _ = try readMemberName()
                try skipValue(depth: depth + 1)
            } while try endMember()
        case UInt8(ascii: "["):
            guard try beginArray(depth: depth + 1) else { return }
            repeat {
                try skipValue(depth: depth + 1)
            } while try endElement()
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"): try expect("true")
        case UInt8(ascii: "f"): try expect("false")
        case UInt8(ascii: "n"): try expect("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default:
            throw syntaxError("unexpected character, expected a value")
        }
    }

    /// RFC 8259 number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func skipNumber() throws(JSONError) {
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw syntaxError("expected a digit") }
        position += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw syntaxError("numbers must not have leading zeros")
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
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Reads a string literal, resolving escapes and validating UTF-8, and returns its bytes: a slice of the input
    /// when it has no escapes (every member name, almost every value), otherwise the scratch buffer.
    private mutating func readString() throws(JSONError) -> UnsafeBufferPointer<UInt8> {
        let start = position
        position += 1  // opening quote
        var nonASCII: UInt8 = 0
        // Eight bytes at a time while none is a quote, a backslash, a control character or non-ASCII (the bit trick
        // flags a zero byte in `word ^ pattern`, or a byte below 0x20; it may flag a byte after a flagged one, which
        // only hands over to the byte loop early).
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            while position + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                let flagged =
                    ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                    | word
                if flagged & highBits != 0 { break }
                position += 8
            }
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            nonASCII |= byte
            position += 1
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            position += 1
            let content = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(position - 1)])
            guard nonASCII < 0x80 || Self.isValidUTF8(content) else {
                throw stringError("string is not valid UTF-8", at: position - 1, stringStart: start)
            }
            return content
        }
        if scratch == nil { scratch = .allocate(capacity: bytes.count) }
        let output = scratch!
        var count = 0
        func append(_ run: Range<Int>) {
            for index in run {
                output[count] = bytes[index]
                count += 1
            }
        }
        append((start + 1)..<position)
        var runStart = position
        while true {
            guard position < bytes.count else {
                throw stringError("unterminated string", at: position, stringStart: start)
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                append(runStart..<position)
                position += 1
                break
            }
            if byte < 0x20 {
                throw stringError("control characters must be escaped in strings", at: position, stringStart: start)
            }
            if byte == UInt8(ascii: "\\") {
                append(runStart..<position)
                do {
                    try readEscape(into: output, count: &count)
                } catch {
                    throw stringError(error.message, at: error.offset, stringStart: start)
                }
                runStart = position
                continue
            }
            position += 1
        }
        let content = UnsafeBufferPointer(rebasing: output[0..<count])
        guard Self.isValidUTF8(content) else {
            throw stringError("string is not valid UTF-8", at: position - 1, stringStart: start)
        }
        return content
    }

    /// Reads one escape and appends what it stands for to `output`, which has room: an escape is never shorter
    /// than its UTF-8 (two bytes for one, six for up to three, twelve for a surrogate pair's four).
    private mutating func readEscape(into output: UnsafeMutableBufferPointer<UInt8>, count: inout Int) throws(JSONError)
    {
        let start = position
        position += 1  // backslash
        guard let byte = peek() else { throw syntaxError("unterminated escape") }
        position += 1
        let simple: UInt8
        switch byte {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            var scalar = try readHex4(escapeStart: start)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw unicodeEscapeError("unpaired high surrogate", escapeStart: start) }
                position += 2
                let low = try readHex4(escapeStart: start)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw unicodeEscapeError("high surrogate not followed by a low surrogate", escapeStart: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw unicodeEscapeError("unpaired low surrogate", escapeStart: start)
            }
            for unit in UTF8.encode(Unicode.Scalar(scalar)!)! {
                output[count] = unit
                count += 1
            }
            return
        default:
            throw syntaxError("invalid escape sequence", at: position - 1)
        }
        output[count] = simple
        count += 1
    }

    private mutating func readHex4(escapeStart: Int) throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else {
            throw unicodeEscapeError("incomplete \\u escape", escapeStart: escapeStart)
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw unicodeEscapeError("invalid hex digit in \\u escape", escapeStart: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: - Where a syntax error is
    //
    // The reader checks a string's UTF-8 only once the string is read, and a `\u` escape's surrogates only once
    // its four digits are: cheaper than checking byte by byte. So when either check fails, or an error is found
    // later in the same string, these find the byte the error is really at, by reading that part again.

    /// A syntax error found at `offset` in the string whose opening quote is at `stringStart`; at an earlier byte
    /// when the UTF-8 before `offset` already went wrong.
    private func stringError(_ message: String, at offset: Int, stringStart: Int) -> JSONError {
        let before = UnsafeBufferPointer(rebasing: bytes[(stringStart + 1)..<offset])
        if let invalid = Self.firstByteBreakingUTF8(before) {
            return syntaxError("string is not valid UTF-8", at: stringStart + 1 + invalid)
        }
        return syntaxError(message, at: offset)
    }

    /// The error in the `\u` escape at `escapeStart` (with the low surrogate escape a high surrogate needs): at
    /// the first byte that cannot continue it, or the input's length. A `\uD` followed by `C`...`F` can only be a
    /// low surrogate, which cannot come first; after a high surrogate only `\uDC00`...`\uDFFF` can follow.
    private func unicodeEscapeError(_ message: String, escapeStart: Int) -> JSONError {
        var index = escapeStart + 2  // after the backslash and the u
        var isHigh = false
        for step in 0..<10 {
            guard index < bytes.count else { return syntaxError(message, at: bytes.count) }
            let byte = bytes[index]
            let fits: Bool
            switch step {
            case 1:
                let digit = Self.hexDigitValue(byte) ?? 0xFF
                let afterD = bytes[index - 1] | 0x20 == UInt8(ascii: "d")
                fits = digit <= 0xF && !(afterD && digit >= 0xC)
                isHigh = afterD && (0x8...0xB).contains(digit)
            case 4:
                // Four digits that are not a high surrogate are a whole escape: not reached for an escape in error.
                guard isHigh else { return syntaxError(message, at: index) }
                fits = byte == UInt8(ascii: "\\")
            case 5: fits = byte == UInt8(ascii: "u")
            case 6: fits = byte | 0x20 == UInt8(ascii: "d")
            case 7: fits = Self.hexDigitValue(byte).map { $0 >= 0xC } == true
            default: fits = Self.hexDigitValue(byte) != nil
            }
            guard fits else { return syntaxError(message, at: index) }
            index += 1
        }
        return syntaxError(message, at: index)
    }
}

extension JSONReader {
    /// Whether `bytes` are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates, nothing above
    /// U+10FFFF, no truncated sequence).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80  // the range of the second byte
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard count - index >= length else { return false }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// The index of the first byte at which `bytes` stop being the beginning of well-formed UTF-8, nil when they
    /// are (a sequence cut short at the end is a beginning). For errors: ``isValidUTF8(_:)`` is the fast check.
    static func firstByteBreakingUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80  // the range of the second byte
            var high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return index
            }
            for offset in 1..<length {
                guard index + offset < bytes.count else { return nil }
                let byte = bytes[index + offset]
                let fits = offset == 1 ? byte >= low && byte <= high : byte & 0xC0 == 0x80
                guard fits else { return index + offset }
            }
            index += length
        }
        return nil
    }
}

extension JSONError {
    /// This error as the level above the one that threw it reports it: with `outer` in front of its field path.
    /// The schema-driven reader throws an error with the path below the level that finds it, and each level adds
    /// its own part as the error passes. Syntax and depth errors name no field and pass unchanged.
    fileprivate func inside(_ outer: FieldPath) -> JSONError {
        guard !code.isSyntaxError else { return self }
        var located = self
        located.fieldPath = FieldPath(outer.components + fieldPath.components)
        return located
    }
}

/// The field numbers an object has named so far, to reject a field given twice. Numbers below 64 (all of
/// LocationWire's) live in one word, so the common case does not allocate.
private struct FieldNumberSet {
    private var low: UInt64 = 0
    private var high: Set<UInt32> = []

    /// Adds `number`; false when it was already there.
    mutating func insert(_ number: UInt32) -> Bool {
        guard number < 64 else { return high.insert(number).inserted }
        let bit: UInt64 = 1 << number
        defer { low |= bit }
        return low & bit == 0
    }
}
