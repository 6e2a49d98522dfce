import ArgumentParser
import Foundation
import LocationWire
import LocationWireTools
import LocationWireValidation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a message against the spec's rules and print every violation.",
        discussion: """
            Prints one violation per line: the field path, the rule's stable code, and an explanation. With \
            --format json, prints a JSON array of {"code", "path", "message"} objects instead. Exit status 0 \
            when the message decodes and is valid, 1 when it does not decode or breaks a rule.
            """
    )

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    @OptionGroup var input: MessageInputOptions

    @Option(help: "Input format.")
    var from: WireFormatOption = .binpb

    @Option(help: "How violations are printed.")
    var format: ReportFormat = .text

    func run() throws {
        let codec = try input.codec()
        let bytes = try input.readInput()
        let message = try input.decode(bytes, format: from, codec: codec)
        let violations = AnyMessageCodec.validate(message)
        switch format {
        case .text:
            for violation in violations {
                print("\(violation.path): \(violation.code): \(violation.message)")
            }
        case .json:
            let objects = violations.map { ["code": $0.code.rawValue, "path": $0.path.description, "message": $0.message] }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        let name = codec.schema.name
        guard violations.isEmpty else {
            throw InputRejected(message: "\(name) is invalid: \(violations.count) violation\(violations.count == 1 ? "" : "s")")
        }
        printToStandardError("locwire: \(name) is valid")
    }
}

struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types", abstract: "List the message types, top-level messages first.",
        discussion: "With --schema, print every message's fields and every enum's values as JSON, as the codec knows them.")

    @Flag(help: "Print the schema tables as JSON instead of the names.")
    var schema = false

    func run() throws {
        guard schema else {
            for type in MessageRegistry.allTypes { print(type.fullMessageName) }
            return
        }
        var enums: [String: EnumSchema] = [:]
        let messages: [[String: Any]] = MessageRegistry.allSchemas.map { message in
            [
                "name": message.fullName,
                "fields": message.fields.map { field -> [String: Any] in
                    if case .enumeration(let schema) = field.type { enums[schema.fullName] = schema }
                    let label = switch field.label {
                    case .singular: "singular"
                    case .optional: "optional"
                    case .repeated: "repeated"
                    }
                    return ["number": field.number, "name": field.name, "jsonName": field.jsonName, "type": field.type.protoName, "label": label]
                },
            ]
        }
        let enumList = enums.values.sorted { $0.fullName < $1.fullName }.map { schema -> [String: Any] in
            ["name": schema.fullName, "values": schema.values.map { ["name": $0.name, "number": $0.number] }]
        }
        let data = try JSONSerialization.data(withJSONObject: ["messages": messages, "enums": enumList], options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: data, as: UTF8.self))
    }
}
