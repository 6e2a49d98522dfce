import LocationWire

/// An annotated, byte-by-byte view of protobuf binary, in the spirit of protoscope: every byte of the input
/// appears on a line with its offset, the field tag and wire type, the field's path in the schema, and the
/// decoded value. The input is shown as given, not re-encoded, so non-canonical encodings (overlong varints,
/// unpacked repeats, split messages, unknown fields) are visible.
///
/// Each line: offset (decimal), up to 12 bytes in hex, `number:wiretype`, the path, and the value. A value
/// longer than 12 bytes continues on lines of its own. Malformed input is dumped up to the first error, which
/// ends the dump.
public enum WireDump {
    public struct Result: Sendable {
        public let text: String
        /// The error that ended the dump, if the input is malformed.
        public let error: DecodingError?
    }

    public static func dump(_ bytes: [UInt8], schema: MessageSchema, limits: DecodingLimits = .default) -> Result {
        var lines = Lines()
        lines.header()
        var failure: DecodingError?
        if !bytes.isEmpty {
            bytes.withUnsafeBytes { buffer in
                var walker = SchemaFieldWalker(buffer, limits: limits)
                do throws(DecodingError) {
                    let path = FieldPath(message: schema.name)
                    try dumpMessage(&walker, bytes: bytes, schema: schema, path: path, depth: 0, lines: &lines)
                } catch {
                    failure = error
                }
            }
        }
        if let failure {
            lines.text += "error: \(failure)\n"
        } else {
            lines.text += "\(bytes.count) bytes\n"
        }
        return Result(text: lines.text, error: failure)
    }

    private struct Lines {
        var text = ""
        static let bytesPerLine = 12

        mutating func header() {
            text += pad("offset", 8) + pad("bytes", Self.bytesPerLine * 3 + 1) + "field\n"
        }

        /// One line for bytes[start..<end], continuing on further lines when longer than bytesPerLine.
        mutating func add(_ bytes: [UInt8], _ start: Int, _ end: Int, depth: Int, label: String, value: String) {
            var lineStart = start
            var first = true
            repeat {
                let lineEnd = min(end, lineStart + Self.bytesPerLine)
                let hex = bytes[lineStart..<lineEnd].map { hexByte($0) }.joined(separator: " ")
                var line = pad(String(lineStart), 8) + pad(hex, Self.bytesPerLine * 3 + 1)
                if first {
                    line += String(repeating: "  ", count: depth) + label
                    if !value.isEmpty { line += "  " + value }
                }
                text += line.trailingSpacesRemoved() + "\n"
                first = false
                lineStart = lineEnd
            } while lineStart < end
        }

        mutating func closeBrace(depth: Int) {
            text +=
                String(repeating: " ", count: 8 + Self.bytesPerLine * 3 + 1) + String(repeating: "  ", count: depth)
                + "}\n"
        }

        private func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    private static func dumpMessage(
        _ walker: inout SchemaFieldWalker, bytes: [UInt8], schema: MessageSchema, path: FieldPath, depth: Int,
        lines: inout Lines
    ) throws(DecodingError) {
        var counts: [UInt32: Int] = [:]
        while let occurrence = try walker.next(in: schema) {
            if occurrence.wireType == .endGroup {
                throw DecodingError(
                    code: .unmatchedEndGroup, offset: occurrence.tagStart, fieldPath: path,
                    message: "end-group tag for field \(occurrence.number) without a start")
            }
            try dumpField(
                occurrence, &walker, bytes: bytes, schema: schema, path: path, depth: depth, counts: &counts,
                lines: &lines)
        }
    }

    /// One field occurrence: its line, and for sub-messages, packed fields and groups, the lines of what they
    /// contain.
    private static func dumpField(
        _ occurrence: FieldOccurrence, _ walker: inout SchemaFieldWalker, bytes: [UInt8], schema: MessageSchema,
        path: FieldPath, depth: Int, counts: inout [UInt32: Int], lines: inout Lines
    ) throws(DecodingError) {
        let number = occurrence.number
        let wireType = occurrence.wireType
        // The walker decides what is known: a known number with a foreign wire type is an unknown field.
        let known = occurrence.field
        var fieldPath = path
        if let known {
            fieldPath = fieldPath.appending(field: known.name)
            if known.label == .repeated && !occurrence.isPacked {
                fieldPath = fieldPath.appending(index: counts[number, default: 0])
                counts[number, default: 0] += 1
            }
        } else {
            fieldPath = fieldPath.appending(.unknownField(number))
        }
        let note = occurrence.hasForeignWireType ? " (unknown: wire type differs from the schema)" : ""
        let label = "\(number):\(wireType.name) \(fieldPath)\(note)"
        let tagStart = occurrence.tagStart
        switch wireType {
        case .varint:
            let shown = known.map { render(occurrence.bits, $0.type) } ?? String(occurrence.bits)
            lines.add(bytes, tagStart, occurrence.end, depth: depth, label: label, value: shown)
        case .fixed32:
            let value = UInt32(truncatingIfNeeded: occurrence.bits)
            let shown = known.map { render32(value, $0.type) } ?? "0x" + String(value, radix: 16)
            lines.add(bytes, tagStart, occurrence.end, depth: depth, label: label, value: shown)
        case .fixed64:
            let value = occurrence.bits
            let shown = known.map { render64(value, $0.type) } ?? "0x" + String(value, radix: 16)
            lines.add(bytes, tagStart, occurrence.end, depth: depth, label: label, value: shown)
        case .lengthDelimited:
            let length = occurrence.length
            let payloadStart = occurrence.valueStart
            if let known, case .message(let nested) = known.type {
                lines.add(bytes, tagStart, payloadStart, depth: depth, label: label, value: "{ \(length) bytes")
                let level = try walker.enter(occurrence)
                try dumpMessage(&walker, bytes: bytes, schema: nested, path: fieldPath, depth: depth + 1, lines: &lines)
                walker.leave(level)
                lines.closeBrace(depth: depth)
            } else if let known, occurrence.isPacked {
                lines.add(bytes, tagStart, payloadStart, depth: depth, label: label, value: "packed, \(length) bytes")
                let level = try walker.enter(occurrence)
                var index = counts[number, default: 0]
                do {
                    while let element = try walker.nextElement(known.type.wireType) {
                        let shown =
                            switch known.type.wireType {
                            case .fixed32: render32(UInt32(truncatingIfNeeded: element.bits), known.type)
                            case .fixed64: render64(element.bits, known.type)
                            default: render(element.bits, known.type)
                            }
                        lines.add(
                            bytes, element.start, element.end, depth: depth + 1, label: "[\(index)]", value: shown)
                        index += 1
                    }
                } catch  where error.code == .invalidPackedLength {
                    // The walker does not know paths; this error is about the packed field as a whole.
                    throw DecodingError(
                        code: error.code, offset: error.offset, fieldPath: fieldPath, message: error.message)
                }
                counts[number] = index
                walker.leave(level)
            } else {
                lines.add(bytes, tagStart, payloadStart, depth: depth, label: label, value: "\(length) bytes")
                let text = String(validating: walker.bytes(of: occurrence), as: UTF8.self)
                if length > 0 {
                    let shown = known?.type == .bytes ? "bytes" : text.map(quote) ?? "(not UTF-8)"
                    lines.add(bytes, payloadStart, occurrence.end, depth: depth + 1, label: shown, value: "")
                }
                if known?.type == .string, text == nil {
                    throw DecodingError(
                        code: .invalidUTF8, offset: payloadStart, fieldPath: fieldPath,
                        message: "string is not valid UTF-8")
                }
            }
        case .startGroup:
            lines.add(bytes, tagStart, occurrence.end, depth: depth, label: label, value: "group {")
            try walker.enterGroup()
            var groupCounts: [UInt32: Int] = [:]
            while true {
                guard let inner = try walker.next(in: noFields) else {
                    throw DecodingError(
                        code: .unterminatedGroup, offset: walker.offset, fieldPath: fieldPath,
                        message: "group \(number) has no end-group tag")
                }
                if inner.wireType == .endGroup {
                    guard inner.number == number else {
                        throw DecodingError(
                            code: .unmatchedEndGroup, offset: inner.tagStart, fieldPath: fieldPath,
                            message: "end-group tag for field \(inner.number) inside group \(number)")
                    }
                    lines.add(bytes, inner.tagStart, inner.end, depth: depth, label: "\(number):egroup", value: "}")
                    walker.leaveGroup()
                    break
                }
                try dumpField(
                    inner, &walker, bytes: bytes, schema: noFields, path: fieldPath, depth: depth + 1,
                    counts: &groupCounts, lines: &lines)
            }
        case .endGroup:
            // dumpMessage and the group loop handle end tags before calling here.
            break
        }
    }

    /// The schema of a group's contents: groups are never known fields, so nothing inside them is either.
    private static let noFields = MessageSchema("group", fields: [])

    private static func render(_ value: UInt64, _ type: FieldType) -> String {
        switch type {
        case .int32: String(Int32(truncatingIfNeeded: value))
        case .uint32: String(UInt32(truncatingIfNeeded: value))
        case .sint32: String(ZigZag.decode(UInt32(truncatingIfNeeded: value)))
        case .int64: String(Int64(bitPattern: value))
        case .sint64: String(ZigZag.decode(value))
        case .bool: value != 0 ? "true" : "false"
        case .enumeration(let schema):
            schema.name(of: Int32(truncatingIfNeeded: value)).map { "\($0) (\(Int32(truncatingIfNeeded: value)))" }
                ?? "\(Int32(truncatingIfNeeded: value)) (not named in \(schema.name))"
        default: String(value)
        }
    }

    private static func render32(_ value: UInt32, _ type: FieldType) -> String {
        switch type {
        case .sfixed32: String(Int32(bitPattern: value))
        case .float: "\(Float(bitPattern: value)) (0x\(String(value, radix: 16)))"
        default: String(value)
        }
    }

    private static func render64(_ value: UInt64, _ type: FieldType) -> String {
        switch type {
        case .sfixed64: String(Int64(bitPattern: value))
        case .double: "\(Double(bitPattern: value)) (0x\(String(value, radix: 16)))"
        default: String(value)
        }
    }

    private static func quote(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\x" + hexByte(UInt8(scalar.value))
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}

extension String {
    fileprivate func trailingSpacesRemoved() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
