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
/// foreign wire type) can only come from unknown fields and is skipped, as C++ skips unknown fields.
struct JSONPrinter {
    private let options: JSONPrintOptions
    private(set) var output: [UInt8] = []
    private var depth = 0

    init(options: JSONPrintOptions) {
        self.options = options
    }

    mutating func printMessage(_ bytes: [UInt8], schema: MessageSchema) throws(DecodingError) {
        if bytes.isEmpty {
            output.append(contentsOf: "{}".utf8)
            return
        }
        var failure: DecodingError?
        bytes.withUnsafeBytes { buffer in
            var reader = WireReader(buffer, limits: .default)
            do throws(DecodingError) {
                try printFields(&reader, schema: schema)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private mutating func printFields(_ reader: inout WireReader, schema: MessageSchema) throws(DecodingError) {
        output.append(UInt8(ascii: "{"))
        depth += 1
        var printedAny = false
        var lastNumber: UInt32 = 0
        var openArray = false  // an unpacked repeated field's array is open
        while !reader.isAtEnd {
            let key = try reader.readTag()
            let number = key.fieldNumber
            let wireType = key.wireTypeBits
            guard let field = schema.field(number: number), number >= lastNumber,
                field.isPacked ? wireType == WireType.lengthDelimited.rawValue : wireType == field.type.wireType.rawValue,
                number > lastNumber || (field.label == .repeated && openArray)
            else {
                try reader.skipValue(key)
                continue
            }
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
                output.append(contentsOf: field.jsonNameUTF8)
                output.append(UInt8(ascii: "\""))
                output.append(UInt8(ascii: ":"))
                if options.pretty { output.append(UInt8(ascii: " ")) }
                lastNumber = number
                if field.label == .repeated {
                    output.append(UInt8(ascii: "["))
                    depth += 1
                    if field.isPacked {
                        try printPacked(&reader, field: field)
                        closeArray()
                    } else {
                        newline()
                        try printValue(&reader, type: field.type)
                        openArray = true
                    }
                    continue
                }
                try printValue(&reader, type: field.type)
            } else {
                // The next element of an open unpacked array.
                output.append(UInt8(ascii: ","))
                newline()
                try printValue(&reader, type: field.type)
            }
        }
        if openArray { closeArray() }
        depth -= 1
        if printedAny { newline() }
        output.append(UInt8(ascii: "}"))
    }

    private static let trueLiteral = Array("true".utf8)
    private static let falseLiteral = Array("false".utf8)

    private mutating func closeArray() {
        depth -= 1
        newline()
        output.append(UInt8(ascii: "]"))
    }

    private mutating func newline() {
        guard options.pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth))
    }

    private mutating func printPacked(_ reader: inout WireReader, field: FieldSchema) throws(DecodingError) {
        let length = try reader.readLength()
        let outerEnd = reader.pushLimit(length)
        var first = true
        while !reader.isAtEnd {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            newline()
            try printValue(&reader, type: field.type)
        }
        reader.popLimit(outerEnd)
    }

    private mutating func appendDecimal<Value: BinaryInteger>(_ value: Value) {
        JSONTextWriter.appendDecimal(value, to: &output)
    }

    private mutating func appendQuotedDecimal<Value: BinaryInteger>(_ value: Value) {
        output.append(UInt8(ascii: "\""))
        JSONTextWriter.appendDecimal(value, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Reads one value of `type` (its wire type already checked) and prints it.
    private mutating func printValue(_ reader: inout WireReader, type: FieldType) throws(DecodingError) {
        switch type {
        case .int32: appendDecimal(try reader.readInt32())
        case .uint32: appendDecimal(try reader.readUInt32())
        case .sint32: appendDecimal(try reader.readSInt32())
        case .int64: appendQuotedDecimal(Int64(bitPattern: try reader.readVarint()))
        case .uint64: appendQuotedDecimal(try reader.readVarint())
        case .sint64: appendQuotedDecimal(try reader.readSInt64())
        case .bool: output.append(contentsOf: try reader.readBool() ? Self.trueLiteral : Self.falseLiteral)
        case .enumeration(let schema):
            let number = try reader.readInt32()
            if let name = schema.nameUTF8(of: number) {
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: name)
                output.append(UInt8(ascii: "\""))
            } else {
                appendDecimal(number)
            }
        case .fixed32: appendDecimal(try reader.readFixed32())
        case .sfixed32: appendDecimal(Int32(bitPattern: try reader.readFixed32()))
        case .float: JSONTextWriter.appendFloat(Float(bitPattern: try reader.readFixed32()), to: &output)
        case .fixed64: appendQuotedDecimal(try reader.readFixed64())
        case .sfixed64: appendQuotedDecimal(Int64(bitPattern: try reader.readFixed64()))
        case .double: JSONTextWriter.appendDouble(Double(bitPattern: try reader.readFixed64()), to: &output)
        case .string: JSONTextWriter.appendString(try reader.readString(), to: &output)
        case .bytes:
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: JSONTextWriter.base64(try reader.readBytes()).utf8)
            output.append(UInt8(ascii: "\""))
        case .message(let schema):
            let length = try reader.readLength()
            if length == 0 {
                output.append(contentsOf: "{}".utf8)
                return
            }
            try reader.enterNested()
            let outerEnd = reader.pushLimit(length)
            try printFields(&reader, schema: schema)
            reader.popLimit(outerEnd)
            reader.leaveNested()
        }
    }
}
