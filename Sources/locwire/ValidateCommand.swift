import ArgumentParser
import Foundation
import LocationWire
import LocationWireInspection
import LocationWireValidation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a message against the spec's rules and print every violation.",
        discussion: """
            Prints one violation per line: the field path, the rule's severity (error: a MUST is broken; \
            warning: a SHOULD is), the rule's stable code, and an explanation. With --format json, prints a JSON \
            array of {"code", "path", "severity", "message"} objects instead.

            Exit status: 0 when the message decodes and breaks no MUST (warnings alone still exit 0); 1 when it \
            does not decode or has at least one error; 2 for a usage or I/O error (an unknown type, an unreadable \
            file).
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
            for violation in violations { print(violation.textLine) }
        case .json:
            let objects = violations.map {
                [
                    "code": $0.code.rawValue, "path": $0.path.description, "severity": $0.severity.rawValue,
                    "message": $0.message,
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        let name = codec.schema.name
        let errors = violations.count { $0.severity == .error }
        let warnings = violations.count - errors
        guard errors == 0 else {
            throw InputRejected(
                message: "\(name) is invalid: \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))")
        }
        printToStandardError(
            "locwire: \(name) is valid" + (warnings == 0 ? "" : " (\(Self.count(warnings, "warning")))"))
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}

extension Violation {
    /// One line of text output: `<path>: <severity>: <code>: <message>`.
    var textLine: String { "\(path): \(severity): \(code): \(message)" }
}
