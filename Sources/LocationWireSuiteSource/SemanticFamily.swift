import LocationWire
import LocationWireConformance
import LocationWireInspection
import LocationWireSimulation
import LocationWireValidation

/// Family (d): the spec's rules beyond the wire format (proto/README.md, "Validation rules"). Each vector is a
/// message that decodes; the expected result is the exact list of violations a validator reports (code, field
/// path and severity), empty for a valid message. Implementations that do not validate opt out of this family.
enum SemanticFamily: VectorFamily {
    static let name = "semantic"
    static let description = """
        Validation: every rule of proto/README.md with a message that breaks it and the exact violations \
        (code, field path and severity: error for a broken MUST, warning for a broken SHOULD) a validator must \
        report, plus valid messages, boundary values included, that must produce none, not even a warning. An \
        implementation without validation opts out of this family.
        """

    static var sections: [VectorFamilySection] { [violations, edges, valid] }

    /// One message per case of ``ViolationCases``, with every violation the validator reports.
    static func violations(_ builder: inout VectorBuilder) {
        var counts: [String: Int] = [:]
        for rule in ViolationCases.all {
            let slug = Self.slug(rule.path)
            let key = "\(rule.messageType).\(rule.code).\(slug)"
            counts[key, default: 0] += 1
            let suffix = counts[key]! > 1 ? "-\(counts[key]!)" : ""
            add(
                &builder, id: "semantic.\(key)\(suffix)", type: rule.messageType, bytes: rule.messageBytes,
                intended: ExpectedViolation(
                    code: rule.code.rawValue, path: rule.path, severity: rule.code.severity.rawValue),
                comment: "Breaks \(rule.code) at \(rule.path).")
        }
    }

    /// One message per case of ``EdgeCases``: the edges proto/README.md's "Paths and edge cases" settles. The
    /// validator must report exactly the violations the case expects (the generator stops otherwise), so these
    /// vectors hold every implementation, the reference included, to the spec text.
    static func edges(_ builder: inout VectorBuilder) {
        for edge in EdgeCases.all {
            let id = "semantic.\(edge.messageType).edge.\(edge.name)"
            let codec = AnyMessageCodec(typeName: edge.messageType)!
            let message = try! codec.decodeBinary(edge.messageBytes)
            let violations = AnyMessageCodec.validate(message).map {
                ExpectedViolation(code: $0.code.rawValue, path: $0.path.description, severity: $0.severity.rawValue)
            }
            let expected = edge.expected.map {
                ExpectedViolation(code: $0.code.rawValue, path: $0.path, severity: $0.code.severity.rawValue)
            }
            precondition(
                violations.sorted() == expected.sorted(),
                "\(id): the spec text gives \(expected), the validator reports \(violations)")
            builder.add(
                Vector(
                    id: id, messageType: VectorBuilder.fullName(edge.messageType),
                    inputHex: Hex.encode(edge.messageBytes), result: .valid, violations: violations,
                    flags: [expected.isEmpty ? "valid-message" : "semantic"], comment: edge.why))
        }
    }

    /// Messages that break no rule, boundary values included.
    static func valid(_ builder: inout VectorBuilder) {
        for (name, type, bytes) in validMessages() {
            add(
                &builder, id: "semantic.\(type).valid.\(name)", type: type, bytes: bytes, intended: nil,
                comment: "A valid \(type) (\(name)): no violation.")
        }
    }

    private static func add(
        _ builder: inout VectorBuilder, id: String, type: String, bytes: [UInt8], intended: ExpectedViolation?,
        comment: String
    ) {
        let codec = AnyMessageCodec(typeName: type)!
        let message = try! codec.decodeBinary(bytes)
        let violations = AnyMessageCodec.validate(message).map {
            ExpectedViolation(code: $0.code.rawValue, path: $0.path.description, severity: $0.severity.rawValue)
        }
        if let intended {
            precondition(
                violations.contains(intended),
                "\(id): the validator does not report \(intended.code) at \(intended.path)")
        } else {
            precondition(violations.isEmpty, "\(id): intended valid, the validator reports \(violations)")
        }
        builder.add(
            Vector(
                id: id, messageType: VectorBuilder.fullName(type), inputHex: Hex.encode(bytes), result: .valid,
                violations: violations, flags: [intended == nil ? "valid-message" : "semantic"], comment: comment))
    }

    /// A path as an id component: `LocationBatch.fixes[1].sequence` becomes `fixes-1-sequence`.
    static func slug(_ path: String) -> String {
        let withoutMessage = path.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? "message"
        var slug = ""
        for character in withoutMessage {
            switch character {
            case ".", "[": slug += "-"
            case "]": break
            case "#": slug += "field-"
            default: slug.append(character)
            }
        }
        return slug
    }

    static func validMessages() -> [(String, String, [UInt8])] {
        var boundaryFix = Valid.fix(1)
        boundaryFix.latitudeE7 = -900_000_000
        boundaryFix.longitudeE7 = 1_800_000_000
        boundaryFix.altitudeCm = -1_000_000
        boundaryFix.speedCmS = 0
        boundaryFix.courseCdeg = 35_999
        boundaryFix.courseAccuracyCdeg = 18_000
        boundaryFix.batteryPercent = 100
        boundaryFix.motionConfidencePct = 0
        boundaryFix.floor = -200
        boundaryFix.pressureHpa = 1200
        boundaryFix.timeMs = 4_102_444_799_999
        var latitudeZero = Valid.fix(1)
        latitudeZero.latitudeE7 = 0
        latitudeZero.timeMs = 946_684_800_000
        var compactBatch = Valid.batch
        compactBatch.compactFixes = try! CompactFixes(fixes: compactBatch.fixes)
        compactBatch.fixes = []
        var simulated = LocationBatch()
        simulated.deviceId = "android-5C1D"
        simulated.batchId = 77
        simulated.installId = 0x5C1D
        simulated.protocolRevision = 1
        var simulator = TraceSimulator(scenario: .walk, seed: 3)
        simulated.fixes = simulator.fixes(30)
        simulated.sentAtMs = simulated.fixes.last!.timeMs + 5_000
        var region = Valid.region()
        region.polygon = ViolationCases.polygon(12)
        region.notifyOnDwell = true
        region.loiteringDelayMs = 60_000
        var assignment = Valid.assignment
        assignment.regions[1].level = .city
        assignment.regions[0].parentId = assignment.regions[1].id
        assignment.slotBudget = 2
        return [
            ("baseline", "LocationFix", Valid.fix(1).serializedBytes()),
            ("boundaries", "LocationFix", boundaryFix.serializedBytes()),
            ("latitude-zero", "LocationFix", latitudeZero.serializedBytes()),
            ("baseline", "LocationBatch", Valid.batch.serializedBytes()),
            ("compact-fixes", "LocationBatch", compactBatch.serializedBytes()),
            ("simulated-walk", "LocationBatch", simulated.serializedBytes()),
            ("baseline", "FenceEvent", Valid.fenceEvent(1).serializedBytes()),
            ("baseline", "Region", Valid.region().serializedBytes()),
            ("polygon-and-dwell", "Region", region.serializedBytes()),
            ("baseline", "RegionAssignment", Valid.assignment.serializedBytes()),
            ("hierarchy-at-budget", "RegionAssignment", assignment.serializedBytes()),
            ("baseline", "RegionRequest", Valid.request.serializedBytes()),
            ("baseline", "BatchAck", Valid.ack.serializedBytes()),
            ("defaults", "TrackingPolicy", TrackingPolicy().serializedBytes()),
        ]
    }
}
