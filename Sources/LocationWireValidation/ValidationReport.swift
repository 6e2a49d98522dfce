import LocationWire

/// Collects violations while the rules of a message and its sub-messages run.
///
/// At most `maxViolations` are described; the rest are only counted, and rules that walk the elements of a long
/// list stop once the report is full. A hostile compact batch of a few bytes can stand for a million empty
/// fixes, each breaking several rules: describing them all would cost seconds and hundreds of megabytes, and no
/// reader needs the millionth "time_ms is required".
public struct ValidationReport: Sendable {
    /// The violations found, in rule order, up to `maxViolations`: errors and warnings.
    public private(set) var violations: [Violation] = []
    /// Violations found beyond `maxViolations`: counted, not described.
    public private(set) var omittedViolations = 0
    public let maxViolations: Int
    /// True when a rule over many elements (the fixes of a batch) stopped early because the report was full.
    public private(set) var stoppedEarly = false

    public static let defaultMaxViolations = 1000

    public init(maxViolations: Int = ValidationReport.defaultMaxViolations) {
        self.maxViolations = max(maxViolations, 0)
    }

    /// The described violations that break a MUST.
    public var errors: [Violation] { violations.filter { $0.severity == .error } }
    /// The described violations that break a SHOULD: the message still conforms.
    public var warnings: [Violation] { violations.filter { $0.severity == .warning } }

    /// True when the listing (``listedViolations(root:)``) holds no error: the message conforms, though it may
    /// have warnings. A report that described only some of its violations is not valid: its listing ends in a
    /// ``Violation/Code/violationsOmitted`` entry, an error, since what was not described or not checked is
    /// unknown.
    public var isValid: Bool {
        omittedViolations == 0 && !stoppedEarly && !violations.contains { $0.severity == .error }
    }

    /// True when no rule was broken at all, not even a SHOULD.
    public var isClean: Bool { violations.isEmpty && omittedViolations == 0 && !stoppedEarly }

    /// True once `maxViolations` are described. Rules that walk many elements stop then (see
    /// `stopIfFull()`), so the cost of a hostile message is bounded by the limit, not by its element count.
    public var isFull: Bool { violations.count >= maxViolations }

    /// Marks the report as stopped early when it is full; returns whether it is.
    mutating func stopIfFull() -> Bool {
        if isFull { stoppedEarly = true }
        return isFull
    }

    /// Paths and messages are built only when a rule is broken, so validating a valid message allocates nothing.
    mutating func add(
        _ code: Violation.Code, _ path: @autoclosure () -> FieldPath, _ message: @autoclosure () -> String
    ) {
        guard violations.count < maxViolations else {
            omittedViolations += 1
            return
        }
        violations.append(Violation(code: code, path: path(), message: message()))
    }

    /// The violations, followed, when some were only counted, by one ``Violation/Code/violationsOmitted`` entry at
    /// `root` that says how many (or, when the rules stopped early, that there are more).
    public func listedViolations(root: @autoclosure () -> FieldPath) -> [Violation] {
        guard omittedViolations > 0 || stoppedEarly else { return violations }
        let message =
            stoppedEarly
            ? "validation stopped after the first \(maxViolations) violations; there are more"
            : "\(omittedViolations) more violations not listed (the first \(maxViolations) are)"
        return violations + [Violation(code: .violationsOmitted, path: root(), message: message)]
    }

    // MARK: - Checks shared by many rules

    /// Times in the spec lie in [2000-01-01, 2100-01-01): anything else is a broken clock or a unit error
    /// (seconds for milliseconds, microseconds for milliseconds).
    package static let earliestTimeMs: Int64 = 946_684_800_000
    package static let latestTimeMs: Int64 = 4_102_444_800_000

    mutating func requireTime(_ value: Int64, _ path: @autoclosure () -> FieldPath) {
        if value == 0 {
            add(.requiredFieldMissing, path(), "a time is required")
        } else {
            checkTime(value, path())
        }
    }

    /// A time that may be absent (0).
    mutating func checkTime(_ value: Int64, _ path: @autoclosure () -> FieldPath) {
        guard value != 0 else { return }
        if value < Self.earliestTimeMs || value >= Self.latestTimeMs {
            add(.timeOutOfRange, path(), "\(value) ms is not between 2000-01-01 and 2100-01-01")
        }
    }

    /// `later - earlier` in words for a message; untrusted times can be 2^63 apart, which Int64 cannot hold.
    static func difference(_ later: Int64, _ earlier: Int64, dividedBy divisor: Int64 = 1) -> String {
        let (difference, overflow) = later.subtractingReportingOverflow(earlier)
        return overflow ? "more than \(Int64.max / divisor)" : "\(difference / divisor)"
    }

    mutating func require(_ condition: Bool, _ path: @autoclosure () -> FieldPath, _ what: @autoclosure () -> String) {
        if !condition { add(.requiredFieldMissing, path(), "\(what()) is required") }
    }

    mutating func checkRange<Value: BinaryInteger>(
        _ value: Value?, _ range: ClosedRange<Int64>, _ path: @autoclosure () -> FieldPath, unit: String = ""
    ) {
        guard let value else { return }
        if !range.contains(Int64(value)) {
            add(
                .valueOutOfRange, path(),
                "\(value)\(unit) is outside \(range.lowerBound) ... \(range.upperBound)\(unit)")
        }
    }

    mutating func checkLength(_ value: String, max: Int, _ path: @autoclosure () -> FieldPath) {
        if value.utf8.count > max {
            add(.stringTooLong, path(), "\(value.utf8.count) bytes, at most \(max) allowed")
        }
    }

    mutating func checkLatitude(_ value: Int32?, _ path: @autoclosure () -> FieldPath, required: Bool) {
        guard let value else {
            if required { add(.requiredFieldMissing, path(), "latitude is required") }
            return
        }
        checkRange(value, -900_000_000...900_000_000, path(), unit: "e-7 deg")
    }

    mutating func checkLongitude(_ value: Int32?, _ path: @autoclosure () -> FieldPath, required: Bool) {
        guard let value else {
            if required { add(.requiredFieldMissing, path(), "longitude is required") }
            return
        }
        checkRange(value, -1_800_000_000...1_800_000_000, path(), unit: "e-7 deg")
    }

    /// A region id: `<namespace>:<local id>`, namespace 1 to 32 of [a-z0-9_.-], local id 1 to 95 of
    /// [A-Za-z0-9_.:/-], at most 128 bytes.
    mutating func checkRegionId(_ id: String, _ path: @autoclosure () -> FieldPath, required: Bool) {
        if id.isEmpty {
            if required { add(.requiredFieldMissing, path(), "a region id is required") }
            return
        }
        if !Self.isWellFormedRegionId(id) {
            add(.regionIdMalformed, path(), "\"\(id)\" is not <namespace>:<local id>")
        }
    }

    static func isWellFormedRegionId(_ id: String) -> Bool {
        // Over the string's own bytes: an assignment checks two ids per region, and copying each into an array
        // cost more than the rest of the check.
        id.utf8.withContiguousStorageIfAvailable(isWellFormedRegionId) ?? isWellFormedRegionId(Array(id.utf8))
    }

    private static func isWellFormedRegionId<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool
    where Bytes.Index == Int {
        guard bytes.count <= 128, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let namespaceCount = colon - bytes.startIndex
        let localCount = bytes.endIndex - colon - 1
        guard (1...32).contains(namespaceCount), (1...95).contains(localCount) else { return false }
        let namespaceBytes = Self.namespaceBytes
        for byte in bytes[..<colon] where !namespaceBytes.contains(byte) { return false }
        let localBytes = Self.localBytes
        for byte in bytes[(colon + 1)...] where !localBytes.contains(byte) { return false }
        return true
    }

    /// The bytes of a region id's namespace and of its local id.
    private static let namespaceBytes = ASCIISet("abcdefghijklmnopqrstuvwxyz0123456789_.-")
    private static let localBytes = ASCIISet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/-")

    /// A set of ASCII bytes as a 128-bit mask: a membership test is a shift, not a chain of comparisons.
    private struct ASCIISet {
        private let low: UInt64
        private let high: UInt64

        init(_ members: String) {
            var low: UInt64 = 0
            var high: UInt64 = 0
            for byte in members.utf8 {
                if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
            }
            (self.low, self.high) = (low, high)
        }

        @inline(__always) func contains(_ byte: UInt8) -> Bool {
            (byte < 64 ? low : high) >> (byte & 63) & 1 != 0 && byte < 128
        }
    }

    /// Reports duplicates in a list of region ids.
    mutating func checkUnique(_ ids: [String], _ path: @autoclosure () -> FieldPath) {
        var seen: Set<String> = []
        for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
            add(.duplicateRegionId, path().appending(index: index), "\"\(id)\" appears more than once")
        }
    }
}

/// A message whose spec rules can be checked.
public protocol Validatable: LocationWireMessage {
    /// Adds every violation of the message (and its sub-messages) to `report`, with paths under `path`.
    func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath)
}

extension Validatable {
    /// The violations of the spec's rules, in a stable order; empty when the message is valid. After the first
    /// ``ValidationReport/defaultMaxViolations`` one last ``Violation/Code/violationsOmitted`` entry counts the rest.
    public func validate() -> [Violation] {
        validationReport().listedViolations(root: FieldPath(message: Self.messageName))
    }

    /// Runs every rule into a report that describes at most `maxViolations` violations and counts the rest.
    public func validationReport(maxViolations: Int = ValidationReport.defaultMaxViolations) -> ValidationReport {
        var report = ValidationReport(maxViolations: maxViolations)
        validate(into: &report, at: FieldPath(message: Self.messageName))
        return report
    }
}

/// Validation for a message known only by its type at run time (the CLI, the conformance testee).
public func validate(_ message: any LocationWireMessage) -> [Violation] {
    (message as? any Validatable)?.validate() ?? []
}
