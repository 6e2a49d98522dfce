import LocationWire

/// How JSON is printed.
public struct JSONPrintOptions: Sendable, Hashable {
    /// Indent nested values, one space a level, as C++ does with `add_whitespace`, instead of the compact form.
    public var pretty: Bool

    public init(pretty: Bool = false) {
        self.pretty = pretty
    }
}

/// Prints proto3 JSON from canonical protobuf binary, driven by the message schema.
///
/// The output matches Google's C++ `MessageToJsonString` with default options character for character: lower
/// camel case names, fields in field-number order, implicit-presence zeros omitted, explicit-presence fields
/// printed whenever set, 64-bit integers as strings, enums by name (unknown values as numbers), bytes as
/// padded standard base64, floats as C++ formats them, unknown fields dropped.
struct JSONPrinter {
    private let options: JSONPrintOptions
    private(set) var output = ""
    private var depth = 0

    init(options: JSONPrintOptions) {
        self.options = options
    }

    /// A field's values, gathered with protobuf's merge rules: a singular scalar keeps its last value, a
    /// singular message concatenates the payloads of all its occurrences (which is how messages merge), a
    /// repeated field keeps all elements, packed or not.
    private enum RawValue {
        case varint(UInt64)
        case fixed32(UInt32)
        case fixed64(UInt64)
        case lengthDelimited([UInt8])
    }

    mutating func printMessage(_ bytes: [UInt8], schema: MessageSchema) throws(DecodingError) {
        var valuesByNumber: [UInt32: [RawValue]] = [:]
        if !bytes.isEmpty {
            var failure: DecodingError?
            bytes.withUnsafeBytes { buffer in
                do throws(DecodingError) {
                    var reader = WireReader(buffer, limits: .default)
                    try Self.gather(&reader, schema: schema, into: &valuesByNumber)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        output.append("{")
        depth += 1
        var first = true
        for field in schema.fields {
            guard let values = valuesByNumber[field.number], let last = values.last else { continue }
            if field.label == .singular, !field.type.isMessage, Self.isZero(last) { continue }
            output.append(first ? "" : ",")
            first = false
            newline()
            JSONTextWriter.appendString(field.jsonName, to: &output)
            output.append(options.pretty ? ": " : ":")
            if field.label == .repeated {
                output.append("[")
                depth += 1
                for (index, value) in values.enumerated() {
                    if index > 0 { output.append(",") }
                    newline()
                    try printValue(value, type: field.type)
                }
                depth -= 1
                newline()
                output.append("]")
            } else {
                try printValue(last, type: field.type)
            }
        }
        depth -= 1
        if !first { newline() }
        output.append("}")
    }

    private mutating func newline() {
        guard options.pretty else { return }
        output.append("\n")
        output.append(String(repeating: " ", count: depth))
    }

    private static func isZero(_ value: RawValue) -> Bool {
        switch value {
        case .varint(let value): value == 0
        case .fixed32(let value): value == 0
        case .fixed64(let value): value == 0
        case .lengthDelimited(let bytes): bytes.isEmpty
        }
    }

    private static func gather(
        _ reader: inout WireReader, schema: MessageSchema, into values: inout [UInt32: [RawValue]]
    ) throws(DecodingError) {
        while !reader.isAtEnd {
            let key = try reader.readTag()
            let wireType = key.wireTypeBits
            guard let field = schema.field(number: key.fieldNumber) else {
                try reader.skipValue(key)
                continue
            }
            let elementWireType = field.type.wireType.rawValue
            if field.isPacked, wireType == WireType.lengthDelimited.rawValue {
                let bytes = try reader.readBytes()
                var failure: DecodingError?
                bytes.withUnsafeBytes { buffer in
                    guard buffer.count > 0 else { return }
                    var packed = WireReader(buffer, limits: .default)
                    do throws(DecodingError) {
                        while !packed.isAtEnd {
                            values[field.number, default: []].append(try readValue(&packed, wireType: elementWireType))
                        }
                    } catch {
                        failure = error
                    }
                }
                if let failure { throw failure }
            } else if wireType == elementWireType {
                let value = try readValue(&reader, wireType: wireType)
                switch (field.label, value) {
                case (.repeated, _):
                    values[field.number, default: []].append(value)
                case (_, .lengthDelimited(let payload)) where field.type.isMessage:
                    if case .lengthDelimited(let earlier)? = values[field.number]?.last {
                        values[field.number] = [.lengthDelimited(earlier + payload)]
                    } else {
                        values[field.number] = [value]
                    }
                default:
                    values[field.number] = [value]
                }
            } else {
                try reader.skipValue(key)  // a known number with a foreign wire type is an unknown field
            }
        }
    }

    private static func readValue(_ reader: inout WireReader, wireType: UInt8) throws(DecodingError) -> RawValue {
        switch wireType {
        case WireType.varint.rawValue: return .varint(try reader.readVarint())
        case WireType.fixed32.rawValue: return .fixed32(try reader.readFixed32())
        case WireType.fixed64.rawValue: return .fixed64(try reader.readFixed64())
        default: return .lengthDelimited(try reader.readBytes())
        }
    }

    private mutating func printValue(_ value: RawValue, type: FieldType) throws(DecodingError) {
        switch (type, value) {
        case (.int32, .varint(let raw)): output.append(String(Int32(truncatingIfNeeded: raw)))
        case (.uint32, .varint(let raw)): output.append(String(UInt32(truncatingIfNeeded: raw)))
        case (.sint32, .varint(let raw)): output.append(String(ZigZag.decode(UInt32(truncatingIfNeeded: raw))))
        case (.int64, .varint(let raw)): appendQuoted(String(Int64(bitPattern: raw)))
        case (.uint64, .varint(let raw)): appendQuoted(String(raw))
        case (.sint64, .varint(let raw)): appendQuoted(String(ZigZag.decode(raw)))
        case (.bool, .varint(let raw)): output.append(raw != 0 ? "true" : "false")
        case (.enumeration(let schema), .varint(let raw)):
            let number = Int32(truncatingIfNeeded: raw)
            if let name = schema.name(of: number) {
                JSONTextWriter.appendString(name, to: &output)
            } else {
                output.append(String(number))
            }
        case (.fixed32, .fixed32(let raw)): output.append(String(raw))
        case (.sfixed32, .fixed32(let raw)): output.append(String(Int32(bitPattern: raw)))
        case (.float, .fixed32(let raw)): JSONTextWriter.appendFloat(Float(bitPattern: raw), to: &output)
        case (.fixed64, .fixed64(let raw)): appendQuoted(String(raw))
        case (.sfixed64, .fixed64(let raw)): appendQuoted(String(Int64(bitPattern: raw)))
        case (.double, .fixed64(let raw)): JSONTextWriter.appendDouble(Double(bitPattern: raw), to: &output)
        case (.string, .lengthDelimited(let bytes)):
            JSONTextWriter.appendString(String(decoding: bytes, as: UTF8.self), to: &output)
        case (.bytes, .lengthDelimited(let bytes)):
            JSONTextWriter.appendString(JSONTextWriter.base64(bytes), to: &output)
        case (.message(let schema), .lengthDelimited(let bytes)):
            try printMessage(bytes, schema: schema)
        default:
            // gather() only keeps values whose wire type matches the field type.
            preconditionFailure("wire type does not match field type \(type.protoName)")
        }
    }

    private mutating func appendQuoted(_ text: String) {
        output.append("\"")
        output.append(text)
        output.append("\"")
    }
}
