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

    public static let schema = EnumSchema(
        "locationwire.conformance.v1.Feature",
        [
            ("FEATURE_UNSPECIFIED", 0), ("FEATURE_BINARY_INPUT", 1), ("FEATURE_BINARY_OUTPUT", 2),
            ("FEATURE_JSON_INPUT", 3), ("FEATURE_JSON_OUTPUT", 4), ("FEATURE_VALIDATION", 5),
            ("FEATURE_ERROR_CATEGORIES", 6), ("FEATURE_COMPACT_FIXES", 7),
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

    public static let schema = EnumSchema(
        "locationwire.conformance.v1.Check",
        [
            ("CHECK_UNSPECIFIED", 0), ("CHECK_BINARY_OUTPUT", 1), ("CHECK_JSON_OUTPUT", 2), ("CHECK_VALIDATE", 3),
            ("CHECK_COMPACT_TO_ROWS", 4), ("CHECK_ROWS_TO_COMPACT", 5),
        ])
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

    public static let schema = EnumSchema(
        "locationwire.conformance.v1.ErrorCategory",
        [
            ("ERROR_CATEGORY_UNSPECIFIED", 0), ("ERROR_CATEGORY_TRUNCATED", 1), ("ERROR_CATEGORY_BAD_TAG", 2),
            ("ERROR_CATEGORY_BAD_WIRE_TYPE", 3), ("ERROR_CATEGORY_BAD_VARINT", 4), ("ERROR_CATEGORY_BAD_GROUP", 5),
            ("ERROR_CATEGORY_BAD_LENGTH", 6), ("ERROR_CATEGORY_INVALID_UTF8", 7),
            ("ERROR_CATEGORY_LIMIT_EXCEEDED", 8), ("ERROR_CATEGORY_JSON_SYNTAX", 9),
            ("ERROR_CATEGORY_JSON_SCHEMA", 10),
        ])

    /// The short name vector files use: "truncated", "bad-tag", ...
    public var vectorName: String {
        guard let name else { return String(rawValue) }
        return name.dropFirst("ERROR_CATEGORY_".count).lowercased().replacingUnderscores()
    }

    /// The category for a vector file's short name.
    public init?(vectorName: String) {
        guard let match = Self.schema.values.first(where: { ErrorCategory(rawValue: $0.number).vectorName == vectorName })
        else { return nil }
        self.init(rawValue: match.number)
    }
}

extension StringProtocol {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
