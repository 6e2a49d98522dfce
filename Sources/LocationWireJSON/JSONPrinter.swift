import LocationWire

/// How JSON is printed.
public struct JSONPrintOptions: Sendable, Hashable {
    /// Indent nested values, one space a level, as C++ does with `add_whitespace`, instead of the compact form.
    public var pretty: Bool

    public init(pretty: Bool = false) {
        self.pretty = pretty
    }
}

/// Prints proto3 JSON from the codec's canonical protobuf binary, driven by the message schema.
///
/// The output matches Google's C++ `MessageToJsonString` with default options character for character: lower
/// camel case names, fields in field-number order, implicit-presence zeros omitted, explicit-presence fields
/// printed whenever set, 64-bit integers as strings, enums by name (unknown values as numbers), bytes as
/// padded standard base64, floats as C++ formats them, unknown fields dropped.
///
/// The printer streams over the codec's canonical bytes instead of building a tree: they hold known fields in
/// field-number order, each repeated field's elements together, implicit-presence zeros left out, and unknown
/// fields last. Whatever breaks that order (a number lower than one already printed, a known number with a
/// foreign wire type) can only come from unknown fields and is skipped, as C++ skips unknown fields. The fields
/// are found by `SchemaFieldWalker`, which decides what is a known field.
struct JSONPrinter: ~Copyable {
    private let options: JSONPrintOptions
    private(set) var output: JSONOutput
    private var depth = 0

    /// A printer whose output has room for `initialCapacity` bytes before it must grow.
    init(options: JSONPrintOptions, initialCapacity: Int) {
        self.options = options
        self.output = JSONOutput(initialCapacity: initialCapacity)
    }

    /// A printer that writes into `memory` while the text fits (``JSONOutput/init(into:)``).
    init(options: JSONPrintOptions, into memory: UnsafeMutableBufferPointer<UInt8>) {
        self.options = options
        self.output = JSONOutput(into: memory)
    }

    mutating func printMessage(_ bytes: [UInt8], schema: MessageSchema) throws(DecodingError) {
        if bytes.isEmpty {
            output.append(contentsOf: "{}")
            return
        }
        var failure: DecodingError?
        bytes.withUnsafeBytes { buffer in
            var walker = SchemaFieldWalker(buffer)
            do throws(DecodingError) {
                try printFields(&walker, schema: schema)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private mutating func printFields(_ walker: inout SchemaFieldWalker, schema: MessageSchema) throws(DecodingError) {
        output.append(UInt8(ascii: "{"))
        depth += 1
        var printedAny = false
        var lastNumber: UInt32 = 0
        var openArray = false  // an unpacked repeated field's array is open
        while let occurrence = try walker.next(in: schema) {
            let number = occurrence.number
            // Unknown fields are not printed; nor are known numbers out of canonical order, which only unknown
            // fields can hold. The walker passes over what is not read.
            guard let field = occurrence.info, number >= lastNumber,
                number > lastNumber || (field.label == .repeated && openArray)
            else { continue }
            if number > lastNumber, openArray {
                closeArray()
                openArray = false
            }
            if number > lastNumber {
                // A new field: its name, then the value or the opening of its array.
                if printedAny { output.append(UInt8(ascii: ",")) }
                printedAny = true
                newline()
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: field.jsonName)
                output.append(UInt8(ascii: "\""))
                output.append(UInt8(ascii: ":"))
                if options.pretty { output.append(UInt8(ascii: " ")) }
                lastNumber = number
                if field.label == .repeated {
                    output.append(UInt8(ascii: "["))
                    depth += 1
                    if occurrence.isPacked {
                        try printPacked(&walker, occurrence, field)
                        closeArray()
                    } else {
                        newline()
                        try printValue(&walker, occurrence, field)
                        openArray = true
                    }
                    continue
                }
                try printValue(&walker, occurrence, field)
            } else {
                // The next element of an open unpacked array.
                output.append(UInt8(ascii: ","))
                newline()
                try printValue(&walker, occurrence, field)
            }
        }
        if openArray { closeArray() }
        depth -= 1
        if printedAny { newline() }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func closeArray() {
        depth -= 1
        newline()
        output.append(UInt8(ascii: "]"))
    }

    private mutating func newline() {
        guard options.pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(UInt8(ascii: " "), count: depth)
    }

    private mutating func printPacked(
        _ walker: inout SchemaFieldWalker, _ occurrence: FieldOccurrence, _ field: FieldInfo
    ) throws(DecodingError) {
        let level = try walker.enter(occurrence)
        var first = true
        while let element = try walker.nextElement(field.wireType) {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            newline()
            printScalar(element.bits, field)
        }
        walker.leave(level)
    }

    private mutating func appendDecimal<Value: BinaryInteger>(_ value: Value) {
        JSONTextWriter.appendDecimal(value, to: &output)
    }

    private mutating func appendQuotedDecimal<Value: BinaryInteger>(_ value: Value) {
        output.append(UInt8(ascii: "\""))
        JSONTextWriter.appendDecimal(value, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Prints the value of a known field occurrence of `type` (its wire type already checked by the walker).
    @inline(__always)
    private mutating func printValue(
        _ walker: inout SchemaFieldWalker, _ occurrence: FieldOccurrence, _ field: FieldInfo
    ) throws(DecodingError) {
        switch field.kind {
        case .string:
            guard JSONTextWriter.appendString(utf8: walker.bytes(of: occurrence), to: &output) else {
                throw DecodingError(
                    code: .invalidUTF8, offset: occurrence.valueStart, message: "string is not valid UTF-8")
            }
        case .bytes:
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: Array(JSONTextWriter.base64(Array(walker.bytes(of: occurrence))).utf8))
            output.append(UInt8(ascii: "\""))
        case .message:
            if occurrence.length == 0 {
                output.append(contentsOf: "{}")
                return
            }
            let level = try walker.enter(occurrence)
            // The nested schema borrowed, not counted (FieldInfo).
            var failure: DecodingError?
            field.withMessageSchema { schema in
                do throws(DecodingError) {
                    try printFields(&walker, schema: schema)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            walker.leave(level)
        default:
            printScalar(occurrence.bits, field)
        }
    }

    /// Prints a numeric, bool or enum value from its wire bits (a varint, or a fixed-width value's bits).
    @inline(__always)
    private mutating func printScalar(_ bits: UInt64, _ field: FieldInfo) {
        switch field.kind {
        case .int32: appendDecimal(Int32(truncatingIfNeeded: bits))
        case .uint32: appendDecimal(UInt32(truncatingIfNeeded: bits))
        case .sint32: appendDecimal(ZigZag.decode(UInt32(truncatingIfNeeded: bits)))
        case .int64: appendQuotedDecimal(Int64(bitPattern: bits))
        case .uint64: appendQuotedDecimal(bits)
        case .sint64: appendQuotedDecimal(ZigZag.decode(bits))
        case .bool: output.append(contentsOf: bits != 0 ? "true" : "false")
        case .enumeration:
            let number = Int32(truncatingIfNeeded: bits)
            if let name = field.withEnumSchema({ $0.nameBytes(of: number) }) {
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: name)
                output.append(UInt8(ascii: "\""))
            } else {
                appendDecimal(number)
            }
        case .fixed32: appendDecimal(UInt32(truncatingIfNeeded: bits))
        case .sfixed32: appendDecimal(Int32(truncatingIfNeeded: bits))
        case .float: JSONTextWriter.appendFloat(Float(bitPattern: UInt32(truncatingIfNeeded: bits)), to: &output)
        case .fixed64: appendQuotedDecimal(bits)
        case .sfixed64: appendQuotedDecimal(Int64(bitPattern: bits))
        case .double: JSONTextWriter.appendDouble(Double(bitPattern: bits), to: &output)
        case .string, .bytes, .message: break  // length-delimited: printValue handles them
        }
    }
}
