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

/// Converts parsed proto3 JSON into protobuf binary, driven by the message schema; the typed binary decoder
/// then builds the message, so JSON input follows exactly the same rules as binary input.
///
/// Accepted, as in Google's implementations: the JSON name or the `.proto` name of a field; `null` for "not
/// set"; integers as numbers or strings, with fractions or exponents when the value is integral; floats as
/// numbers, numeric strings, "NaN", "Infinity", "-Infinity"; enums by name or number; bytes in standard or
/// URL-safe base64, padded or not; integers in exponent form inside strings, as upb does. Rejected, where C++
/// and upb do not agree or the mapping forbids it: the same field twice (under either name), `null` inside an
/// array, quoted booleans, floats that round to infinity.
struct JSONToBinary {
    let options: JSONParseOptions

    func encodeMessage(
        _ value: JSONValue, schema: MessageSchema, path: @autoclosure () -> FieldPath, into writer: inout WireWriter
    ) throws(JSONError) {
        guard case .object(let members) = value.kind else {
            throw JSONError(
                code: path().components.count <= 1 ? .notAnObject : .typeMismatch, offset: value.offset,
                fieldPath: path(), message: "expected an object for \(schema.name), found \(value.typeName)")
        }
        var seen = FieldNumberSet()
        for member in members {
            guard let field = schema.field(named: member.name) else {
                if options.ignoreUnknownFields { continue }
                throw JSONError(
                    code: .unknownField, offset: member.nameOffset, fieldPath: path(),
                    message: "\(schema.name) has no field named \"\(member.name)\"")
            }
            guard seen.insert(field.number) else {
                throw JSONError(
                    code: .duplicateField, offset: member.nameOffset, fieldPath: path().appending(field: field.name),
                    message: "field \(field.name) appears more than once")
            }
            try encodeField(field, member.value, path: path().appending(field: field.name), into: &writer)
        }
    }

    private func encodeField(
        _ field: FieldSchema, _ value: JSONValue, path: @autoclosure () -> FieldPath, into writer: inout WireWriter
    ) throws(JSONError) {
        if case .null = value.kind { return }  // null: the field is not set
        guard field.label == .repeated else {
            try encodeElement(field, value, path: path(), into: &writer)
            return
        }
        guard case .array(let elements) = value.kind else {
            throw mismatch(value, path: path(), expected: "an array")
        }
        for (index, element) in elements.enumerated() {
            if case .null = element.kind {
                throw JSONError(
                    code: .typeMismatch, offset: element.offset, fieldPath: path().appending(index: index),
                    message: "null is not allowed as an element of a repeated field")
            }
            try encodeElement(field, element, path: path().appending(index: index), into: &writer)
        }
    }

    private func mismatch(_ value: JSONValue, path: @autoclosure () -> FieldPath, expected: String) -> JSONError {
        JSONError(
            code: .typeMismatch, offset: value.offset, fieldPath: path(),
            message: "expected \(expected), found \(value.typeName)")
    }

    private func encodeElement(
        _ field: FieldSchema, _ value: JSONValue, path: @autoclosure () -> FieldPath, into writer: inout WireWriter
    ) throws(JSONError) {
        let key = FieldKey.make(field.number, field.type.wireType)
        switch field.type {
        case .message(let schema):
            var body = WireWriter()
            try encodeMessage(value, schema: schema, path: path(), into: &body)
            writer.writeVarintField(key, UInt64(body.count))
            body.withWrittenBytes { writer.writeRaw($0) }
        case .enumeration(let schema):
            let number: Int32
            switch value.kind {
            case .string(let name)
            where schema.number(named: name) != nil || !JSONNumberText.isValid(name, allowPlus: true):
                guard let known = schema.number(named: name) else {
                    throw JSONError(
                        code: .invalidValue, offset: value.offset, fieldPath: path(),
                        message: "\"\(name)\" is not a value of \(schema.name)")
                }
                number = known
            case .number, .string:
                // A number, or a number in a string ("1"), as C++ and upb accept it.
                number = Int32(try integer(value, path: path(), min: Int64(Int32.min), max: UInt64(Int32.max)))
            default:
                throw mismatch(value, path: path(), expected: "an enum name or number")
            }
            writer.writeVarintField(key, UInt64(bitPattern: Int64(number)))
        case .int32:
            let number = try integer(value, path: path(), min: Int64(Int32.min), max: UInt64(Int32.max))
            writer.writeVarintField(key, UInt64(bitPattern: number))
        case .sint32:
            let number = try integer(value, path: path(), min: Int64(Int32.min), max: UInt64(Int32.max))
            writer.writeVarintField(key, UInt64(ZigZag.encode(Int32(number))))
        case .uint32:
            let number = try integer(value, path: path(), min: 0, max: UInt64(UInt32.max))
            writer.writeVarintField(key, UInt64(number))
        case .int64:
            let number = try integer(value, path: path(), min: Int64.min, max: UInt64(Int64.max))
            writer.writeVarintField(key, UInt64(bitPattern: number))
        case .sint64:
            let number = try integer(value, path: path(), min: Int64.min, max: UInt64(Int64.max))
            writer.writeVarintField(key, ZigZag.encode(number))
        case .uint64:
            let number = try unsignedInteger(value, path: path())
            writer.writeVarintField(key, number)
        case .fixed32:
            let number = try integer(value, path: path(), min: 0, max: UInt64(UInt32.max))
            writer.writeFixed32Field(key, UInt32(number))
        case .sfixed32:
            let number = try integer(value, path: path(), min: Int64(Int32.min), max: UInt64(Int32.max))
            writer.writeFixed32Field(key, UInt32(bitPattern: Int32(number)))
        case .fixed64:
            let number = try unsignedInteger(value, path: path())
            writer.writeFixed64Field(key, number)
        case .sfixed64:
            let number = try integer(value, path: path(), min: Int64.min, max: UInt64(Int64.max))
            writer.writeFixed64Field(key, UInt64(bitPattern: number))
        case .bool:
            guard case .bool(let flag) = value.kind else {
                throw mismatch(value, path: path(), expected: "true or false")
            }
            writer.writeVarintField(key, flag ? 1 : 0)
        case .float:
            let number = try floatingPoint(value, path: path())
            // As C++: parse to double, round to float, and refuse a finite number that rounds to infinity. So the
            // largest float printed with 9 digits (3.40282347e+38, a hair above FLT_MAX as a double) reads back.
            // (upb refuses anything above FLT_MAX as a double, and so cannot read back its own 3.4028235e+38.)
            if number.isFinite, Float(number).isInfinite {
                throw JSONError(
                    code: .outOfRange, offset: value.offset, fieldPath: path(),
                    message: "\(number) is beyond the range of a float")
            }
            writer.writeFixed32Field(key, Float(number).bitPattern)
        case .double:
            let number = try floatingPoint(value, path: path())
            writer.writeFixed64Field(key, number.bitPattern)
        case .string:
            guard case .string(let text) = value.kind else { throw mismatch(value, path: path(), expected: "a string") }
            writer.writeStringField(key, text)
        case .bytes:
            guard case .string(let text) = value.kind else {
                throw mismatch(value, path: path(), expected: "a base64 string")
            }
            guard let bytes = JSONTextWriter.decodeBase64(text) else {
                throw JSONError(
                    code: .invalidValue, offset: value.offset, fieldPath: path(), message: "invalid base64")
            }
            writer.writeBytesField(key, bytes)
        }
    }

    /// The exact integer a number or numeric string denotes, within `min ... max`.
    private func integer(
        _ value: JSONValue, path: @autoclosure () -> FieldPath, min: Int64, max: UInt64
    ) throws(JSONError) -> Int64 {
        let (negative, magnitude) = try integerParts(value, path: path())
        func outOfRange() -> JSONError {
            JSONError(
                code: .outOfRange, offset: value.offset, fieldPath: path(),
                message: "value is outside \(min) ... \(max)")
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

    private func unsignedInteger(_ value: JSONValue, path: @autoclosure () -> FieldPath) throws(JSONError) -> UInt64 {
        let (negative, magnitude) = try integerParts(value, path: path())
        if negative && magnitude != 0 {
            throw JSONError(
                code: .outOfRange, offset: value.offset, fieldPath: path(), message: "value must not be negative")
        }
        return magnitude
    }

    private func integerParts(
        _ value: JSONValue, path: @autoclosure () -> FieldPath
    ) throws(JSONError) -> (Bool, UInt64) {
        let text: String
        switch value.kind {
        case .number(let number): text = number
        case .string(let string):
            // Inside a string, a leading "+" is allowed, as C++ and upb allow it.
            guard JSONNumberText.isValid(string, allowPlus: true) else {
                throw JSONError(
                    code: .invalidValue, offset: value.offset, fieldPath: path(),
                    message: "\"\(string)\" is not a number")
            }
            text = string
        default:
            throw mismatch(value, path: path(), expected: "an integer")
        }
        switch JSONNumberText.integerValue(text.hasPrefix("+") ? String(text.dropFirst()) : text) {
        case .integer(let negative, let magnitude):
            return (negative, magnitude)
        case .notAnInteger:
            throw JSONError(
                code: .outOfRange, offset: value.offset, fieldPath: path(), message: "\(text) is not an integer")
        case .tooLarge:
            throw JSONError(
                code: .outOfRange, offset: value.offset, fieldPath: path(), message: "\(text) is too large")
        }
    }

    private func floatingPoint(_ value: JSONValue, path: @autoclosure () -> FieldPath) throws(JSONError) -> Double {
        let number: Double
        switch value.kind {
        case .number(let text):
            // Valid JSON number text always converts. The token -0 keeps its sign: C++ prints -0.0 as -0, so
            // reading it back as -0.0 is what makes printed JSON round-trip. (C++ and upb themselves read the
            // integer token -0 as +0.0; see vector json.LocationFix.number.float-negative-zero-integer.)
            number = Double(text) ?? .nan
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let text):
            guard JSONNumberText.isValid(text, allowPlus: true), let parsed = Double(text) else {
                throw JSONError(
                    code: .invalidValue, offset: value.offset, fieldPath: path(), message: "\"\(text)\" is not a number"
                )
            }
            number = parsed
        default:
            throw mismatch(value, path: path(), expected: "a number")
        }
        // A number beyond the range of a double (1e400) is out of range, not infinity: only "Infinity" is.
        guard number.isFinite || number.isNaN else {
            throw JSONError(
                code: .outOfRange, offset: value.offset, fieldPath: path(),
                message: "a number beyond the range of a double")
        }
        return number
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
