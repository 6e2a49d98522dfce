import LocationWire

/// `locationwire.conformance.v1.Violation`: one broken rule as a testee reports it.
public struct ReportedViolation: ProtocolMessage {
    public var code: String = ""
    public var path: String = ""
    public var message: String = ""
    /// "error" or "warning".
    public var severity: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public init(code: String, path: String, message: String, severity: String) {
        self.code = code
        self.path = path
        self.message = message
        self.severity = severity
    }

    public static let fieldTable = FieldTable<ReportedViolation>(
        "locationwire.conformance.v1.Violation",
        [
            .singular(1, "code", .string, \.code),
            .singular(2, "path", .string, \.path),
            .singular(3, "message", .string, \.message),
            .singular(4, "severity", .string, \.severity),
        ])
}
