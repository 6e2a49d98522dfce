import LocationWire

/// One broken rule of the spec: a stable code, its severity, where, and a sentence for humans.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// How bad a broken rule is (proto/README.md, "Validation rules"): an error breaks a MUST, so the message
    /// does not conform; a warning breaks a SHOULD, and the message still conforms.
    public enum Severity: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case error
        case warning
        public var description: String { rawValue }
    }

    /// A stable, machine-readable rule id with its fixed severity. proto/README.md lists every code with its
    /// severity and rule; the constants of the rules and ``all`` are generated from that table
    /// (Generated/ViolationCodes.swift), so a new code is a row of the table and `scripts/regenerate.sh`.
    public struct Code: Hashable, Sendable, CustomStringConvertible, Comparable {
        public let rawValue: String
        /// The severity of every violation of this rule.
        public let severity: Severity
        public init(_ rawValue: String, severity: Severity = .error) {
            self.rawValue = rawValue
            self.severity = severity
        }
        public var description: String { rawValue }
        public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Not a rule: the last entry of a list cut at ``ValidationReport/maxViolations``, saying how many more
        /// violations were found.
        public static let violationsOmitted = Code("violations-omitted")

        /// A compact-form error: the code of the CompactFixesError.
        public static func compact(_ code: CompactFixesError.Code) -> Code { Code(code.rawValue) }
    }

    public let code: Code
    public let path: FieldPath
    public let message: String

    public init(code: Code, path: FieldPath, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The severity of the rule broken: fixed per code.
    public var severity: Severity { code.severity }

    public var description: String { "\(severity): \(code) at \(path): \(message)" }
}
