import Foundation
import LocationWire
import LocationWireSuiteSource
import LocationWireTestSupport
import LocationWireValidation
import Testing

/// The normative statements of proto/README.md that the validator checks, each on both sides of its boundary.
/// Each test names the rule tag of the statement it checks.
@Suite struct SpecRuleTests {
    /// 1e-7 degree of latitude on the spec's sphere (R = 6371008.8 m), in metres.
    static let metresPerLatitudeUnit = 6_371_008.8 * Double.pi / 180 * 1e-7

    /// Latitude units for `metres` north, rounded to the nearest unit.
    static func north(_ metres: Double) -> Int32 { Int32((metres / metresPerLatitudeUnit).rounded()) }

    static func codes(_ message: some Validatable) -> [String] { message.validate().map(\.code.rawValue) }

    @Test("The key words are those RFC 2119 defines, used as declared §key-words")
    func keyWordsAreDeclared() throws {
        let spec = try SpecText()
        let declaration = try #require(spec.blocks.first { $0.tags.contains("key-words") })
        let declared = Set(declaration.text.split { !$0.isLetter }.map(String.init))
            .intersection(SpecText.rfc2119Words)
        #expect(declared == ["MUST", "SHOULD", "MAY"])
        // RFC 2119 makes REQUIRED and SHALL the same as MUST, RECOMMENDED the same as SHOULD, OPTIONAL as MAY.
        let sameAs = ["REQUIRED": "MUST", "SHALL": "MUST", "RECOMMENDED": "SHOULD", "OPTIONAL": "MAY"]
        for block in spec.blocks {
            let used = Set(block.text.split { !$0.isLetter }.map(String.init))
                .intersection(SpecText.rfc2119Words).subtracting(["NOT"])
            let undeclared = used.filter { !declared.contains(sameAs[$0] ?? $0) }
            #expect(undeclared.isEmpty, "\(block) uses \(undeclared.sorted()), which the spec does not declare")
        }
    }

    @Test("Unknown enum values are kept and no message is rejected for them §open-enums")
    func unknownEnumValuesAreKeptAndAccepted() throws {
        var fix = Valid.fix(1)
        fix.reason = FixReason(rawValue: 99)
        fix.source = FixSource(rawValue: 1234)
        let decoded = try LocationFix(serializedBytes: fix.serializedBytes())
        #expect(decoded.reason.rawValue == 99 && decoded.source.rawValue == 1234)
        #expect(decoded.serializedBytes() == fix.serializedBytes())
        #expect(decoded.validate().isEmpty)
        var batch = Valid.batch
        batch.datum = CoordinateDatum(rawValue: 7)
        batch.deviceStatus!.platform = Platform(rawValue: 42)
        batch.lifecycleEvents[0].relaunchReason = RelaunchReason(rawValue: 77)
        batch.armedRegions!.failureReasons = [ArmFailureReason(rawValue: 99)]
        #expect(try LocationBatch(serializedBytes: batch.serializedBytes()).validate().isEmpty)
        var ack = Valid.ack
        ack.fixResults[0].result = AckResult(rawValue: 9)  // a newer server's result: the device keeps the items
        ack.commands[0].kind = DeviceCommandKind(rawValue: 50)
        #expect(try BatchAck(serializedBytes: ack.serializedBytes()).validate().isEmpty)
    }

    @Test("Ack ranges are sorted by first sequence and do not overlap, in either list §ranges-sorted")
    func ackRangesAreSortedAndDisjoint() {
        var ack = Valid.ack
        ack.fixResults = [
            AckRange(first: 1, last: 1, result: .accepted), AckRange(first: 2, last: 9, result: .duplicate),
        ]
        #expect(ack.validate().isEmpty)
        ack.fixResults.swapAt(0, 1)
        #expect(
            ack.validate().map(\.description) == [
                "error: ranges-not-sorted at BatchAck.fix_results[1].first_sequence: ranges must be sorted by first_sequence"
            ])
        ack.fixResults = [
            AckRange(first: 1, last: 2, result: .accepted), AckRange(first: 2, last: 3, result: .accepted),
        ]
        #expect(Self.codes(ack) == ["ranges-overlap"])
        ack.fixResults = []
        ack.fenceEventResults = [
            AckRange(first: 5, last: 5, result: .accepted), AckRange(first: 5, last: 6, result: .retryLater),
        ]
        #expect(ack.validate().map(\.path.description) == ["BatchAck.fence_event_results[1].first_sequence"])
    }

    /// A batch of two backlog fixes and a live fix, one second apart on both clocks, in the batch's boot.
    static func steadyBatch() -> LocationBatch {
        let batch = Valid.batch
        #expect(batch.bootId != 0 && batch.fixes.allSatisfy { $0.elapsedRealtimeMs != nil && $0.bootId == 0 })
        return batch
    }

    @Test(
        "Within one boot, wall-clock and monotonic differences agree to 1 s, else a clock-jump warning §clock-consistent"
    )
    func clockJumpsAreWarnings() {
        var batch = Self.steadyBatch()
        #expect(batch.validate().isEmpty)
        batch.fixes[1].timeMs += 1000  // 1 s of drift is allowed
        batch.liveFix!.timeMs += 1000
        #expect(batch.validate().isEmpty)
        batch.fixes[1].timeMs += 1  // 1001 ms is not; the live fix is 999 ms after it, 1 ms of drift
        let violations = batch.validate()
        #expect(
            violations.map(\.description) == [
                "warning: clock-jump at LocationBatch.fixes[1].time_ms: time_ms and elapsed_realtime_ms moved apart by 1001 ms since the previous fix of this boot"
            ])
        var report = batch.validationReport()
        #expect(report.isValid && !report.isClean, "a warning leaves the batch conforming")
        #expect(report.errors.isEmpty && report.warnings.count == 1)
        // The monotonic clock going backwards by as much is a jump too.
        batch = Self.steadyBatch()
        batch.fixes[1].elapsedRealtimeMs = batch.fixes[0].elapsedRealtimeMs! - 1
        #expect(Self.codes(batch) == ["clock-jump", "clock-jump"])
        // Readings of different boots are never compared: the second fix names a boot of its own.
        batch.fixes[1].bootId = 0xB008
        #expect(Self.codes(batch) == [])
        // A fix naming the batch's boot itself is in the same boot as one that inherits it.
        batch.fixes[1].bootId = batch.bootId
        #expect(Self.codes(batch) == ["clock-jump", "clock-jump"])
        // An unknown boot, or a fix without a monotonic reading, compares nothing.
        batch.fixes[1].bootId = 0
        batch.bootId = 0
        #expect(Self.codes(batch) == [])
        batch = Self.steadyBatch()
        batch.fixes[1].elapsedRealtimeMs = nil
        batch.liveFix!.timeMs += 5000  // not consecutive with fixes[0]: fixes[1] stands between, without a reading
        #expect(Self.codes(batch) == [])
        batch.fixes[1].elapsedRealtimeMs = 5_002_000
        #expect(batch.validate().map(\.path.description) == ["LocationBatch.live_fix.time_ms"])
        // Clocks 2^64 apart do not overflow.
        batch = Self.steadyBatch()
        batch.fixes[0].timeMs = .min
        batch.fixes[0].elapsedRealtimeMs = .max
        batch.fixes[1].timeMs = .max
        batch.fixes[1].elapsedRealtimeMs = 0
        report = batch.validationReport()
        #expect(report.warnings.first?.message.contains("\(UInt64.max) ms") == true)
    }

    /// The baseline region with a polygon of three vertices, the last `metres` north of the centre.
    static func region(vertexNorth metres: Double) -> Region {
        var region = Valid.region()  // radius 200 m
        region.polygon = ViolationCases.polygon(3)
        region.polygon!.latitudesE7[2] = region.circle!.centerLatitudeE7! + north(metres)
        region.polygon!.longitudesE7[2] = region.circle!.centerLongitudeE7!
        return region
    }

    @Test("Every polygon vertex lies within the circle, great-circle distance with 1 m of slack §polygon-in-circle")
    func polygonVerticesLieWithinTheCircle() {
        #expect(Self.codes(Self.region(vertexNorth: 200.9)) == [])
        #expect(Self.codes(Self.region(vertexNorth: 201.1)) == ["polygon-outside-circle"])
        // The rule is about distance, not latitude: a vertex 201.1 m due east is as far out.
        var east = Valid.region()
        east.polygon = ViolationCases.polygon(3)
        east.polygon!.latitudesE7[2] = east.circle!.centerLatitudeE7!
        let metresPerLongitudeUnit = Self.metresPerLatitudeUnit * cos(45 * Double.pi / 180)
        east.polygon!.longitudesE7[2] =
            east.circle!.centerLongitudeE7! + Int32((201.1 / metresPerLongitudeUnit).rounded())
        #expect(Self.codes(east) == ["polygon-outside-circle"])
        east.polygon!.longitudesE7[2] =
            east.circle!.centerLongitudeE7! + Int32((200.9 / metresPerLongitudeUnit).rounded())
        #expect(Self.codes(east) == [])
    }

    /// The baseline assignment with shop:2 made a city and the parent of shop:1, both at the same centre.
    static func parentAndChild() -> RegionAssignment {
        var assignment = Valid.assignment
        assignment.regions[1].level = .city
        assignment.regions[0].parentId = assignment.regions[1].id
        return assignment
    }

    @Test("A parent in the same assignment is at a coarser level §parent-coarser")
    func parentsAreCoarser() {
        var assignment = Self.parentAndChild()
        #expect(Self.codes(assignment) == [])
        for level in [RegionLevel.site, .district, .city, .province, .country] {
            assignment.regions[1].level = level
            let coarser = level.rawValue < RegionLevel.site.rawValue
            #expect(Self.codes(assignment) == (coarser ? [] : ["parent-level-not-coarser"]), "parent at \(level)")
        }
        // A parent that is not in the assignment is not checked.
        assignment.regions[0].parentId = "city:elsewhere"
        #expect(Self.codes(assignment) == [])
    }

    @Test("A full assignment, and a delta's upserts, fit the slot budget §slot-budget")
    func assignmentsFitTheirBudget() {
        var assignment = Valid.assignment  // two regions
        for mode in [AssignmentMode.fullReplacement, .delta] {
            assignment.mode = mode
            assignment.baseVersion = mode == .delta ? 1 : 0
            assignment.slotBudget = 2
            #expect(Self.codes(assignment) == [], "\(mode)")
            assignment.slotBudget = 1
            #expect(
                assignment.validate().map(\.description) == [
                    "error: region-count-exceeds-budget at RegionAssignment.regions: 2 \(mode == .delta ? "upserted " : "")regions for a budget of 1 slots"
                ])
        }
    }

    @Test("A child lies within its parent in the same assignment, with 1 m of slack §child-within-parent")
    func childrenLieWithinTheirParents() {
        var assignment = Self.parentAndChild()  // both 200 m, same centre
        assignment.regions[0].circle!.radiusM = 100
        for (metres, inside) in [(100.9, true), (101.1, false)] {
            assignment.regions[0].circle!.centerLatitudeE7 = 450_000_000 + Self.north(metres)
            #expect(Self.codes(assignment) == (inside ? [] : ["child-outside-parent"]), "\(metres) m north")
        }
        assignment.regions[0].circle!.centerLatitudeE7 = 450_000_000
        assignment.regions[0].circle!.radiusM = 201  // the same centre: within 200 m plus the slack
        #expect(Self.codes(assignment) == [])
        assignment.regions[0].circle!.radiusM = 202
        #expect(assignment.validate().map(\.path.description) == ["RegionAssignment.regions[0].circle"])
        // A child far away, on the other side of the globe, is outside whatever its radius.
        assignment.regions[0].circle = Circle(latitudeE7: -450_000_000, longitudeE7: -1_710_000_000, radiusM: 1)
        #expect(Self.codes(assignment) == ["child-outside-parent"])
        // A parent not in the assignment is not checked.
        assignment.regions[0].parentId = "city:elsewhere"
        #expect(Self.codes(assignment) == [])
    }
}
