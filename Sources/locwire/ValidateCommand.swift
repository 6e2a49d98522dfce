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
            let objects = violations.map {
                ["code": $0.code.rawValue, "path": $0.path.description, "message": $0.message]
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        let name = codec.schema.name
        guard violations.isEmpty else {
            throw InputRejected(
                message: "\(name) is invalid: \(violations.count) violation\(violations.count == 1 ? "" : "s")")
        }
        printToStandardError("locwire: \(name) is valid")
    }
}
