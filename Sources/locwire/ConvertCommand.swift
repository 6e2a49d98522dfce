import ArgumentParser
import LocationWire
import LocationWireInspection
import LocationWireJSON

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a message between protobuf binary and proto3 JSON, or dump its bytes annotated.",
        discussion: """
            binpb -> binpb is the canonical re-encoding: fields in number order, repeated numbers packed, \
            implicit-presence zeros omitted, unknown fields kept and written last.
            json output is what Google's C++ implementation prints (compact unless --pretty); unknown fields \
            are not part of JSON and are dropped.
            dump prints every byte of the input with its offset, tag, wire type, field path and value; with \
            --from json the dump shows the canonical binary of the JSON.
            """
    )

    @OptionGroup var input: MessageInputOptions

    @Option(help: "Input format.")
    var from: WireFormatOption

    @Option(help: "Output format.")
    var to: OutputFormatOption

    @Flag(help: "Indent JSON output.")
    var pretty = false

    func run() throws {
        let codec = try input.codec()
        let bytes = try input.readInput()
        if from == .binpb, to == .dump {
            // Dump the bytes as given, up to the first error.
            let result = WireDump.dump(bytes, schema: codec.schema)
            writeToStandardOutput(Array(result.text.utf8))
            if let error = result.error { throw InputRejected(message: "input rejected: \(error)") }
            return
        }
        let message = try input.decode(bytes, format: from, codec: codec)
        switch to {
        case .binpb:
            try writeOutput(AnyMessageCodec.encodeBinary(message), toFile: nil)
        case .json:
            let text = AnyMessageCodec.encodeJSON(message, options: JSONPrintOptions(pretty: pretty))
            writeToStandardOutput(Array((text + "\n").utf8))
        case .dump:
            let result = WireDump.dump(AnyMessageCodec.encodeBinary(message), schema: codec.schema)
            writeToStandardOutput(Array(result.text.utf8))
        }
    }
}
