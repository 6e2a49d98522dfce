import LocationWire

extension LocationWireMessage {
    /// The proto3 JSON form of the message, as Google's C++ implementation prints it.
    public func jsonString(options: JSONPrintOptions = JSONPrintOptions()) -> String {
        let binary = serializedBytes()
        // The text is printed straight into the string's storage, sized for the usual expansion: canonical JSON
        // takes three to five bytes a binary byte (names, quotes, digits), pretty output more. Only a text that
        // outgrows it is printed on into a buffer of its own and copied. Copying a batch's text, and growing a
        // buffer too small for it, had cost a third of the time of printing a 1000-fix batch, most of it the page
        // faults of the fresh memory (callgrind counts none of it).
        let estimate = binary.count * (options.pretty ? 8 : 6) + 16
        var overflow: String?
        let text = String(unsafeUninitializedCapacity: estimate) { memory in
            var printer = JSONPrinter(options: options, into: memory)
            do {
                try printer.printMessage(binary, schema: Self.schema)
            } catch {
                // The printer reads the codec's own canonical output, which always decodes.
                preconditionFailure("canonical encoding of \(Self.messageName) did not decode: \(error)")
            }
            guard printer.output.isInCallersMemory else {
                overflow = printer.output.string()
                return 0
            }
            return printer.output.count
        }
        return overflow ?? text
    }

    /// Reads a message from proto3 JSON text.
    public init(jsonString: String, options: JSONParseOptions = JSONParseOptions()) throws(JSONError) {
        var text = jsonString
        var result: Result<Self, JSONError> = .failure(
            JSONError(code: .syntax, offset: 0, message: "no input"))
        text.withUTF8 { utf8 in result = Self.parseJSON(utf8, options: options) }
        self = try result.get()
    }

    /// Reads a message from proto3 JSON given as UTF-8 bytes. Invalid UTF-8 is a syntax error.
    public init(jsonUTF8 bytes: [UInt8], options: JSONParseOptions = JSONParseOptions()) throws(JSONError) {
        var result: Result<Self, JSONError> = .failure(
            JSONError(code: .syntax, offset: 0, message: "no input"))
        bytes.withUnsafeBufferPointer { utf8 in result = Self.parseJSON(utf8, options: options) }
        self = try result.get()
    }

    private static func parseJSON(
        _ utf8: UnsafeBufferPointer<UInt8>, options: JSONParseOptions
    ) -> Result<Self, JSONError> {
        let path = FieldPath(message: messageName)
        var writer = WireWriter(initialCapacity: utf8.count / 2)
        do throws(JSONError) {
            var reader = JSONReader(utf8, options: options)
            try reader.readMessage(schema: schema, path: path, into: &writer)
        } catch {
            // The one pass stopped at the first error; malformed JSON later in the input takes precedence.
            var located = JSONReader.firstSyntaxError(in: utf8, maxDepth: options.maxDepth) ?? error
            if located.fieldPath.isEmpty { located.fieldPath = path }
            return .failure(located)
        }
        var message = Self()
        let failure: DecodingError? = writer.withWrittenBytes { binary in
            do throws(DecodingError) {
                try message.merge(serializedBytes: binary)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            // Only a decoding limit can trip here: the bytes were built from the schema.
            return .failure(JSONError(code: .outOfRange, offset: 0, fieldPath: path, message: failure.description))
        }
        return .success(message)
    }
}
