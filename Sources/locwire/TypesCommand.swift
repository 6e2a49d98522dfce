import ArgumentParser
import Foundation
import LocationWire

struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types", abstract: "List the message types, top-level messages first.",
        discussion:
            "With --schema, print every message's fields and every enum's values as JSON, as the codec knows them.")

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
                    let label =
                        switch field.label {
                        case .singular: "singular"
                        case .optional: "optional"
                        case .repeated: "repeated"
                        }
                    return [
                        "number": field.number, "name": field.name, "jsonName": field.jsonName,
                        "type": field.type.protoName, "label": label,
                    ]
                },
            ]
        }
        let enumList = enums.values.sorted { $0.fullName < $1.fullName }.map { schema -> [String: Any] in
            ["name": schema.fullName, "values": schema.values.map { ["name": $0.name, "number": $0.number] }]
        }
        let data = try JSONSerialization.data(
            withJSONObject: ["messages": messages, "enums": enumList], options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: data, as: UTF8.self))
    }
}
