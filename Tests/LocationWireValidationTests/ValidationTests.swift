import LocationWire
import LocationWireConformance
import LocationWireRandom
import LocationWireSuiteSource
import LocationWireTestSupport
import LocationWireValidation
import Testing

extension ViolationCase: CustomTestStringConvertible {
    public var testDescription: String { "\(code) at \(path)" }
}

@Suite struct ValidationTests {
    @Test func baselinesAreValid() {
        #expect(Valid.fix(1).validate().isEmpty)
        #expect(Valid.batch.validate().isEmpty)
        #expect(Valid.assignment.validate().isEmpty)
        #expect(Valid.request.validate().isEmpty)
        #expect(Valid.ack.validate().isEmpty)
        #expect(TrackingPolicy().validate().isEmpty)
        #expect(Valid.region().validate().isEmpty)
        #expect(Valid.fenceEvent(1).validate().isEmpty)
    }

    @Test(arguments: ViolationCases.all)
    func eachRuleReportsItsCodeAndPath(rule: ViolationCase) {
        let violations = rule.violations()
        #expect(
            violations.contains { $0.code == rule.code && $0.path.description == rule.path },
            "got \(violations.map(\.description))")
    }

    /// The edges proto/README.md's "Paths and edge cases" settles: exactly the violations the text gives, none
    /// more (a missing value feeding a comparison, a rule outside its mode, a broken compact column reported twice).
    @Test(arguments: EdgeCases.all.map { ($0.name, $0) })
    func eachEdgeReportsExactlyWhatTheSpecSays(name: String, edge: EdgeCase) {
        let got = edge.violations().map { "\($0.code.rawValue) at \($0.path.description)" }.sorted()
        let expected = edge.expected.map { "\($0.code.rawValue) at \($0.path)" }.sorted()
        #expect(got == expected, "\(name)")
    }

    /// The passing side of the range rules: every boundary value is accepted.
    @Test func boundaryValuesAreValid() {
        var fix = Valid.fix(1)
        fix.latitudeE7 = -900_000_000
        fix.longitudeE7 = 1_800_000_000
        fix.altitudeCm = -1_000_000
        fix.ellipsoidalHeightCm = 10_000_000
        fix.speedCmS = 0
        fix.verticalAccuracyCm = 1
        fix.speedAccuracyCmS = 1
        fix.courseCdeg = 35_999
        fix.courseAccuracyCdeg = 18_000
        fix.batteryPercent = 100
        fix.motionConfidencePct = 0
        fix.floor = -200
        fix.pressureHpa = 1200
        fix.timeMs = 4_102_444_799_999
        #expect(fix.validate().isEmpty)
        fix.timeMs = 946_684_800_000
        fix.latitudeE7 = 0  // latitude 0 alone is a real place
        #expect(fix.validate().isEmpty)

        var batch = Valid.batch
        batch.fixes[0].timeMs = batch.sentAtMs + 600_000
        batch.fixes[0].elapsedRealtimeMs = nil  // no monotonic reading, so no clock to compare
        batch.deviceId = String(repeating: "d", count: 128)
        #expect(batch.validate().isEmpty)

        var region = Valid.region()
        region.polygon = ViolationCases.polygon(1000)
        region.circle!.radiusM = 1000
        region.notifyOnDwell = true
        region.loiteringDelayMs = 86_400_000
        region.name = String(repeating: "n", count: 128)
        region.id = String(repeating: "n", count: 32) + ":" + String(repeating: "L", count: 95)
        #expect(region.validate().isEmpty)

        var assignment = Valid.assignment
        assignment.slotBudget = 2  // exactly the number of regions
        assignment.regions[1].level = .city
        assignment.regions[0].parentId = assignment.regions[1].id  // a site inside a city
        #expect(assignment.validate().isEmpty)
    }

    /// No rule without a test: every code has a failing case; and no case, nor any violation a case produces,
    /// has a code outside ``Violation/Code/all``.
    @Test func everyViolationCodeHasAFailingCase() {
        let covered = Set(ViolationCases.all.map(\.code))
        let missing = Violation.Code.all.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "codes without a failing case: \(missing)")
        let known = Set(Violation.Code.all)
        let emitted = Set(ViolationCases.all.flatMap { $0.violations().map(\.code) })
        let undeclared = emitted.subtracting(known).map(\.rawValue).sorted()
        #expect(undeclared.isEmpty, "codes emitted but not in Violation.Code.all: \(undeclared)")
    }

    /// The codes are generated from proto/README.md's "Validation rules" table (Generated/ViolationCodes.swift):
    /// here they are checked against the table as it is now, so that a table changed without
    /// `scripts/regenerate.sh` fails `swift test` already, not only CI's `scripts/regenerate.sh --check`.
    @Test func theGeneratedCodesAreTheSpecTable() throws {
        let rows = try SpecText().validationRules()
        let documented = rows.flatMap { row in row.codes.map { ($0, row.severity) } }
        #expect(
            documented.map(\.0) == Violation.Code.all.map(\.rawValue),
            "Generated/ViolationCodes.swift is stale: run scripts/regenerate.sh")
        let coded = Dictionary(uniqueKeysWithValues: Violation.Code.all.map { ($0.rawValue, $0.severity.rawValue) })
        for (code, severity) in documented {
            #expect(coded[code] != nil, "\(code) is in proto/README.md's table but no code of the validator")
            if let expected = coded[code] {
                #expect(severity == expected, "\(code): the table says \(severity), the code \(expected)")
            }
        }
        let listed = Set(documented.map(\.0))
        let undocumented = Violation.Code.all.map(\.rawValue).filter { !listed.contains($0) }
        #expect(undocumented.isEmpty, "codes missing from proto/README.md's table: \(undocumented)")
        #expect(Violation.Code.clockJump.severity == .warning)
    }

    /// The entry that closes a cut report is an error at the message root, as the paragraph after the table says.
    /// §report-limit
    @Test func theOmissionEntryIsAnErrorAtTheRoot() throws {
        #expect(Violation.Code.violationsOmitted.severity == .error)
        let paragraph = try SpecText().section("Validation rules").first { $0.tags.contains("report-limit") }
        let words = paragraph?.text.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
        #expect(words.contains("`violations-omitted` (severity error, path the message root)"))
        var fix = LocationFix()
        fix.horizontalAccuracyCm = 0
        var report = ValidationReport(maxViolations: 2)
        fix.validate(into: &report, at: FieldPath(message: "LocationFix"))
        let listed = report.listedViolations(root: FieldPath(message: "LocationFix"))
        #expect(listed.count == 3)
        #expect(listed.last?.code == .violationsOmitted)
        #expect(listed.last?.severity == .error)
        #expect(listed.last?.path.description == "LocationFix")
        #expect(listed.last?.message.hasPrefix("3 more violations not listed") == true)
        #expect(!report.isValid)
    }

    /// The fast path of fix validation must agree with the reporting rules on every fix.
    @Test func theFixFastPathAgreesWithTheRules() throws {
        var random = RandomCanonicalMessages(seed: 0xFA57)
        var generator = SeededRandom(seed: 0xFA57)
        var valid = 0
        for _ in 0..<20_000 {
            var fix = try LocationFix(serializedBytes: random.message(LocationFix.schema))
            // Pull values towards the ranges, so that valid fixes and single violations both occur.
            if Bool.random(using: &generator) {
                fix.timeMs = Int64.random(in: 946_684_700_000...4_102_444_900_000, using: &generator)
            }
            if Bool.random(using: &generator) {
                fix.latitudeE7 = Int32.random(in: -900_000_100...900_000_100, using: &generator)
            }
            if Bool.random(using: &generator) {
                fix.longitudeE7 = Int32.random(in: -1_800_000_100...1_800_000_100, using: &generator)
            }
            if Bool.random(using: &generator) { fix.speedCmS = UInt32.random(in: 49_990...50_010, using: &generator) }
            if Bool.random(using: &generator) { fix.pressureHpa = Float.random(in: 99...1201, using: &generator) }
            for requireSequence in [true, false] {
                var report = ValidationReport()
                fix.validate(into: &report, at: FieldPath(message: "LocationFix"), requireSequence: requireSequence)
                let rules = fix.detailedViolations(requireSequence: requireSequence)
                #expect(fix.satisfiesAllRules(requireSequence: requireSequence) == rules.isEmpty, "\(fix)")
                #expect(report.violations == rules)
                if rules.isEmpty { valid += 1 }
            }
        }
        #expect(valid > 100, "the generator made valid fixes too")
    }

    @Test func allViolationsAreReportedNotJustTheFirst() {
        var fix = LocationFix()
        fix.horizontalAccuracyCm = 0
        let codes = fix.validate().map(\.code)
        #expect(codes.filter { $0 == .requiredFieldMissing }.count == 4)
        #expect(codes.contains(.accuracyNotPositive))
    }

    /// A compact batch of a few bytes can stand for a million empty fixes (fuzzer finding
    /// FuzzValidation/timeout-029c5cab...): the report describes the first violations and stops. §report-limit
    @Test func aHugeInvalidCompactBatchIsReportedInBrief() throws {
        // CompactFixes with count = 720,255 and no columns: 720,255 fixes without a sequence or a time.
        let compact = try CompactFixes(serializedBytes: [0xA0, 0x06, 0xFF, 0xFA, 0x2B])
        #expect(compact.count == 720_255)
        let report = compact.validationReport()
        #expect(report.violations.count == ValidationReport.defaultMaxViolations)
        #expect(report.stoppedEarly)
        #expect(!report.isValid)
        let listed = compact.validate()
        #expect(listed.count == ValidationReport.defaultMaxViolations + 1)
        #expect(listed.last?.code == .violationsOmitted)
        #expect(listed.last?.path.description == "CompactFixes")
        // Below the limit nothing is cut: the same batch of 100 fixes lists everything.
        let small = try CompactFixes(serializedBytes: [0xA0, 0x06, 100]).validationReport()
        #expect(!small.stoppedEarly && small.omittedViolations == 0 && small.violations.count > 300)
    }

    @Test func aReportBelowItsLimitListsEverything() {
        var fix = LocationFix()
        fix.horizontalAccuracyCm = 0
        let report = fix.validationReport(maxViolations: 2)
        #expect(report.violations.count == 2)
        #expect(report.omittedViolations == 3)
        #expect(fix.validationReport().omittedViolations == 0)
    }

    /// Differences of two untrusted times go into messages: they must not overflow (a trap is a crash).
    @Test func extremeTimesAreReportedWithoutOverflow() throws {
        var event = FenceEvent()
        event.osEventTimeMs = .max
        event.detectedAtMs = -1
        #expect(event.validate().contains { $0.code == .detectedBeforeEvent })

        var batch = LocationBatch()
        batch.sentAtMs = .min + 1
        var fix = LocationFix()
        fix.sequence = 1
        fix.timeMs = .max
        batch.fixes = [fix]
        #expect(batch.validate().contains { $0.code == .timeAfterSend })
        batch.sentAtMs = .max
        #expect(!batch.validate().contains { $0.code == .timeAfterSend })
    }
}
