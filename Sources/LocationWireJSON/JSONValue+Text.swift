extension JSONValue {
    /// The value as compact JSON text: no white space, strings escaped as the message printer escapes them,
    /// numbers that are integers below 2^53 written without a fraction (an offset, a count), others in Swift's
    /// shortest round-trip form. With `sortedKeys` an object's members come in byte order of their keys, so that
    /// equal values give equal text (what tests and peers compare); otherwise in the order they hold.
    public func text(sortedKeys: Bool = true) -> String {
        var output = JSONOutput()
        write(to: &output, sortedKeys: sortedKeys)
        return output.string()
    }

    private func write(to output: inout JSONOutput, sortedKeys: Bool) {
        switch self {
        case .null: output.append(contentsOf: "null")
        case .bool(let value): output.append(contentsOf: value ? "true" : "false")
        case .number(let number):
            let text =
                number == number.rounded() && abs(number) < 9_007_199_254_740_992 ? String(Int64(number)) : "\(number)"
            output.append(contentsOf: Array(text.utf8))
        case .string(let text): JSONTextWriter.appendString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output, sortedKeys: sortedKeys)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            let members =
                sortedKeys
                ? object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : object.members
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONTextWriter.appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output, sortedKeys: sortedKeys)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
