import LocationWire

/// `locationwire.conformance.v1.Feature`: what a testee declares it supports.
public struct TesteeFeature: LocationWireEnum {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let unspecified = TesteeFeature(rawValue: 0)
    public static let binaryInput = TesteeFeature(rawValue: 1)
    public static let binaryOutput = TesteeFeature(rawValue: 2)
    public static let jsonInput = TesteeFeature(rawValue: 3)
    public static let jsonOutput = TesteeFeature(rawValue: 4)
    public static let validation = TesteeFeature(rawValue: 5)
    public static let errorCategories = TesteeFeature(rawValue: 6)
    public static let compactFixes = TesteeFeature(rawValue: 7)
    public static let session = TesteeFeature(rawValue: 8)
    public static let ledger = TesteeFeature(rawValue: 9)
    public static let recording = TesteeFeature(rawValue: 10)
    public static let fences = TesteeFeature(rawValue: 11)
    public static let planning = TesteeFeature(rawValue: 12)
    public static let arming = TesteeFeature(rawValue: 13)

    public static let schema = EnumSchema.numberedInOrder(
        "locationwire.conformance.v1.Feature", prefix: "FEATURE_",
        [
            "UNSPECIFIED", "BINARY_INPUT", "BINARY_OUTPUT", "JSON_INPUT", "JSON_OUTPUT", "VALIDATION",
            "ERROR_CATEGORIES", "COMPACT_FIXES", "SESSION", "LEDGER", "RECORDING", "FENCES", "PLANNING", "ARMING",
        ])
}

/// `locationwire.conformance.v1.Check`: what the runner asks a testee to produce.
public struct TesteeCheck: LocationWireEnum {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let unspecified = TesteeCheck(rawValue: 0)
    public static let binaryOutput = TesteeCheck(rawValue: 1)
    public static let jsonOutput = TesteeCheck(rawValue: 2)
    public static let validate = TesteeCheck(rawValue: 3)
    public static let compactToRows = TesteeCheck(rawValue: 4)
    public static let rowsToCompact = TesteeCheck(rawValue: 5)

    public static let schema = EnumSchema.numberedInOrder(
        "locationwire.conformance.v1.Check", prefix: "CHECK_",
        ["UNSPECIFIED", "BINARY_OUTPUT", "JSON_OUTPUT", "VALIDATE", "COMPACT_TO_ROWS", "ROWS_TO_COMPACT"])
}

/// `locationwire.conformance.v1.ErrorCategory`: the coarse kind of a parse error.
public struct ErrorCategory: LocationWireEnum {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let unspecified = ErrorCategory(rawValue: 0)
    public static let truncated = ErrorCategory(rawValue: 1)
    public static let badTag = ErrorCategory(rawValue: 2)
    public static let badWireType = ErrorCategory(rawValue: 3)
    public static let badVarint = ErrorCategory(rawValue: 4)
    public static let badGroup = ErrorCategory(rawValue: 5)
    public static let badLength = ErrorCategory(rawValue: 6)
    public static let invalidUTF8 = ErrorCategory(rawValue: 7)
    public static let limitExceeded = ErrorCategory(rawValue: 8)
    public static let jsonSyntax = ErrorCategory(rawValue: 9)
    public static let jsonSchema = ErrorCategory(rawValue: 10)

    public static let schema = EnumSchema.numberedInOrder(
        "locationwire.conformance.v1.ErrorCategory", prefix: "ERROR_CATEGORY_",
        [
            "UNSPECIFIED", "TRUNCATED", "BAD_TAG", "BAD_WIRE_TYPE", "BAD_VARINT", "BAD_GROUP", "BAD_LENGTH",
            "INVALID_UTF8", "LIMIT_EXCEEDED", "JSON_SYNTAX", "JSON_SCHEMA",
        ])

    /// The short name vector files use: "truncated", "bad-tag", ...
    public var vectorName: String {
        guard let name else { return String(rawValue) }
        return name.dropFirst("ERROR_CATEGORY_".count).lowercased().replacingUnderscores()
    }

    /// The category for a vector file's short name.
    public init?(vectorName: String) {
        guard
            let match = Self.schema.values.first(where: {
                ErrorCategory(rawValue: $0.number).vectorName == vectorName
            })
        else { return nil }
        self.init(rawValue: match.number)
    }
}

extension StringProtocol {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}

extension EnumSchema {
    /// The schema of a protocol enum whose values are numbered 0, 1, 2, ... in the order of `names`, as all of
    /// testee.proto's are, each name written with the enum's `prefix` (`FEATURE_` + `BINARY_INPUT`).
    fileprivate static func numberedInOrder(_ fullName: String, prefix: String, _ names: [String]) -> EnumSchema {
        EnumSchema(fullName, names.enumerated().map { (prefix + $0.element, Int32($0.offset)) })
    }
}
