import Foundation
import LocationWire
import LocationWireConformance
import LocationWireVectorGenerator
import Testing

/// The conformance suite itself: the committed vectors, the built-in testee, the runner's handling of failure
/// lists, crashes and timeouts.
@Suite(.serialized) struct ConformanceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let vectorDirectory = repository.appendingPathComponent("conformance/vectors")

    static var locwire: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("locwire")
            .path
    }

    @Test func committedVectorsAreCurrent() throws {
        let files = VectorGenerator.generate(try VectorInputs.load(besides: Self.vectorDirectory))
        let differences = try VectorGenerator.write(files, to: Self.vectorDirectory, check: true)
        #expect(
            differences.isEmpty,
            "run `swift run locwire conformance generate`: \(differences.map { "\($0.file): \($0.reason)" })")
    }

    /// Generation stops at a missing input, naming it, instead of writing fewer vectors.
    @Test func generationWithoutItsDataStopsAndNamesTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "no-data-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("conformance/vectors"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: VectorInputError.self) {
            try VectorInputs.load(besides: folder.appendingPathComponent("conformance/vectors"))
        }
        #expect(error?.path.hasSuffix("conformance/data/korita-zbevnica.gpx") == true)
    }

    @Test func thereAreAtLeast400VectorsWithUniqueIds() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let ids = files.flatMap { $0.vectors.map(\.id) }
        #expect(ids.count >= 400)
        #expect(Set(ids).count == ids.count)
        #expect(
            Set(files.map(\.family)) == [
                "wire", "canonical", "json", "semantic", "compact", "session", "ledger", "recording", "fences",
                "planning", "arming",
            ])
    }

    /// The issue that made behaviour normative asked for at least 300 scenarios across the four families, each
    /// naming the rules of proto/BEHAVIOR.md it checks.
    @Test func thereAreAtLeast300BehaviourScenarios() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let behaviour = files.filter { ["recording", "fences", "planning", "arming"].contains($0.family) }
        #expect(behaviour.count == 4)
        let vectors = behaviour.flatMap(\.vectors)
        #expect(vectors.count >= 300)
        for vector in vectors {
            #expect(
                vector.expectedResponse != nil && vector.request != nil && !(vector.rules ?? []).isEmpty, "\(vector.id)"
            )
        }
    }

    /// Session and ledger vectors are at least 150, and each names the rules it checks by tags that
    /// proto/README.md defines; together they name every tag of its identity and acknowledgement sections.
    @Test func sessionAndLedgerVectorsNameSpecRules() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let scripted = files.filter { ["session", "ledger"].contains($0.family) }.flatMap(\.vectors)
        #expect(scripted.count >= 150)
        let spec = try String(
            contentsOf: Self.repository.appendingPathComponent("proto/README.md"), encoding: .utf8)
        // `§item-boot` (an item's boot_id left out where it equals the batch's) is stated in LocationFix.boot_id's
        // comment, with no tag in proto/README.md yet; the engines and the vectors call it so.
        let untagged: Set<String> = ["§item-boot"]
        var named = Set<String>()
        for vector in scripted {
            let rules = vector.rules ?? []
            #expect(!rules.isEmpty, "\(vector.id) names no rule")
            for rule in rules where !untagged.contains(rule) {
                #expect(spec.contains("`\(rule)`"), "\(vector.id): \(rule) is not a tag of proto/README.md")
                named.insert(rule)
            }
        }
        let sections = try #require(spec.range(of: "## Identity, idempotency and de-duplication"))
        let end = try #require(spec.range(of: "## Ordering: backlog and live fix"))
        let text = spec[sections.lowerBound..<end.lowerBound]
        var tags = Set<String>()
        var rest = text[...]
        while let start = rest.range(of: "`§") {
            guard let close = rest[start.upperBound...].firstIndex(of: "`") else { break }
            tags.insert("§" + rest[start.upperBound..<close])
            rest = rest[close...].dropFirst()
        }
        #expect(!tags.isEmpty)
        #expect(tags.subtracting(named).isEmpty, "no vector checks \(tags.subtracting(named).sorted())")
    }

    /// Every field of every message appears, set, in the canonical output of at least one valid vector.
    @Test func everyFieldOfEveryMessageIsCovered() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        var covered: Set<String> = []
        for vector in files.flatMap(\.vectors) {
            guard let hex = vector.canonicalHex ?? vector.inputHex, let bytes = Hex.decode(hex),
                let type = MessageRegistry.type(named: vector.messageType), vector.result == .valid
            else { continue }
            collectFields(bytes, type.schema, into: &covered)
        }
        for schema in MessageRegistry.allSchemas {
            for field in schema.fields {
                #expect(covered.contains("\(schema.name).\(field.name)"), "no vector sets \(schema.name).\(field.name)")
            }
        }
    }

    private func collectFields(_ bytes: [UInt8], _ schema: MessageSchema, into covered: inout Set<String>) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            var walker = SchemaFieldWalker(buffer)
            try? collectFields(&walker, schema, into: &covered)
        }
    }

    /// Every known field the walker finds, and those of known sub-messages.
    private func collectFields(
        _ walker: inout SchemaFieldWalker, _ schema: MessageSchema, into covered: inout Set<String>
    ) throws(DecodingError) {
        while let occurrence = try walker.next(in: schema) {
            guard let field = occurrence.field else { continue }
            covered.insert("\(schema.name).\(field.name)")
            if case .message(let nested) = field.type {
                let level = try walker.enter(occurrence)
                try collectFields(&walker, nested, into: &covered)
                walker.leave(level)
            }
        }
    }

    /// The built-in implementation passes every vector but those where its reference engines disagree with the
    /// spec: its failure list may name only vectors flagged `reference-disagrees`, so it cannot hide a codec bug.
    @Test func theBuiltinImplementationPassesEveryVectorButListedEngineDisagreements() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let testee = TesteeProcess(command: "'\(Self.locwire)' conformance testee")
        let list = try FailureList.load(
            Self.repository.appendingPathComponent("conformance/failures/swift-locationwire.txt"))
        let report = try ConformanceRunner().run(files, testee: testee, failureList: list)
        #expect(report.passed)
        let total = files.reduce(0) { $0 + $1.vectors.count }
        #expect(report.count(.pass) + report.count(.expectedFailure) == total)
        let flagged = Set(
            files.flatMap(\.vectors).filter { $0.flags.contains("reference-disagrees") }.map(\.id))
        for result in report.results where result.status == .expectedFailure {
            #expect(flagged.contains(result.id), "\(result.id) is listed but not flagged reference-disagrees")
        }
        #expect(report.count(.expectedFailure) == flagged.count)
        #expect(report.testeeStarts == 1)
    }

    @Test func failureListEntriesGoStaleLoudly() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let list = try FailureList.parse(
            """
            # a comment
            wire.LocationFix.overlong-tag  # pretend these fail
            wire.NoSuchMessage.thing  # matches nothing
            """, source: "test.txt")
        let testee = TesteeProcess(command: "'\(Self.locwire)' conformance testee")
        let report = try ConformanceRunner(filters: ["wire.LocationFix"]).run(files, testee: testee, failureList: list)
        #expect(report.count(.unexpectedPass) == 4)
        #expect(!report.passed)
        // Stale entries are judged on a full run only.
        let full = try ConformanceRunner().run(
            files, testee: TesteeProcess(command: "'\(Self.locwire)' conformance testee"), failureList: list)
        #expect(full.staleEntries.count == 1)
        #expect(full.staleEntries.first?.contains("wire.NoSuchMessage.thing") == true)
    }

    @Test func failureListsNeedReasons() {
        #expect(throws: FailureList.ParseError.self) { try FailureList.parse("wire.LocationFix.x\n", source: "t") }
        #expect(throws: FailureList.ParseError.self) { try FailureList.parse("wire.LocationFix.x #\n", source: "t") }
        #expect(throws: FailureList.ParseError.self) { try FailureList.parse("two words # reason\n", source: "t") }
    }

    @Test func aCrashCostsOneVectorAndTheTesteeRestarts() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let crashing = "wire.LocationFix.overlong-tag.3-bytes"
        let testee = TesteeProcess(command: "'\(Self.locwire)' conformance testee --crash-on \(crashing)")
        let report = try ConformanceRunner(filters: ["wire.LocationFix.overlong-tag"]).run(
            files, testee: testee, failureList: FailureList())
        #expect(report.results.count == 4)
        #expect(report.results.first { $0.id == crashing }?.status == .crash)
        #expect(report.results.first { $0.id == crashing }?.detail?.contains("exit status 3") == true)
        #expect(report.count(.pass) == 3)
        #expect(report.testeeStarts == 2)
        // A listed crash is an expected failure.
        let listed = try FailureList.parse("\(crashing)  # crashes on purpose", source: "t")
        let again = try ConformanceRunner(filters: ["wire.LocationFix.overlong-tag"]).run(
            files, testee: TesteeProcess(command: "'\(Self.locwire)' conformance testee --crash-on \(crashing)"),
            failureList: listed)
        #expect(again.passed)
        #expect(again.count(.expectedFailure) == 1)
    }

    @Test func aHangIsATimeoutAndTheTesteeRestarts() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let hanging = "wire.LocationFix.overlong-tag.2-bytes"
        let testee = TesteeProcess(command: "'\(Self.locwire)' conformance testee --hang-on \(hanging)")
        let report = try ConformanceRunner(timeoutMilliseconds: 500, filters: ["wire.LocationFix.overlong-tag"]).run(
            files, testee: testee, failureList: FailureList())
        #expect(report.results.first { $0.id == hanging }?.status == .timeout)
        #expect(report.count(.pass) == 3)
        #expect(report.testeeStarts == 2)
    }

    @Test func aTesteeThatDoesNotSpeakTheProtocolIsRefused() {
        #expect(throws: TesteeProcess.StartFailure.self) {
            try TesteeProcess(command: "true").start(timeoutMilliseconds: 2000)
        }
        #expect(throws: TesteeProcess.StartFailure.self) {
            try TesteeProcess(command: "cat /dev/zero").start(timeoutMilliseconds: 2000)
        }
    }

    @Test func outdatedTesteesFailLoudly() {
        var request = VectorRequest(
            vectorId: "x", messageType: "LocationFix", input: .binary([]), checks: [TesteeCheck(rawValue: 99)])
        #expect(BuiltinTestee().run(request).result == .runtimeError("unknown check 99; update the testee"))
        request.checks = []
        request.unknownFields = UnknownFields(rawBytes: [0xF8, 0x06, 0x01])
        if case .runtimeError = BuiltinTestee().run(request).result {
        } else {
            Issue.record("unknown request fields must be a runtime error")
        }
    }

    @Test func reportsRenderInEveryFormat() throws {
        let files = try ConformanceRunner.loadVectors(from: Self.vectorDirectory)
        let report = try ConformanceRunner(filters: ["compact.error"]).run(
            files, testee: TesteeProcess(command: "'\(Self.locwire)' conformance testee"), failureList: FailureList())
        let text = try ReportFormat.text.render(report)
        #expect(text.contains("CONFORMANCE PASSED"))
        let json = try ReportFormat.json.render(report)
        let decoded = try JSONDecoder().decode(RunReport.self, from: Data(json.utf8))
        #expect(decoded.results.count == report.results.count)
        let junit = try ReportFormat.junit.render(report)
        #expect(junit.contains("<testsuite name=\"swift-locationwire.compact\""))
        let matrix = ResultsMatrix(reports: [report, report]).markdown()
        #expect(matrix.contains("| swift-locationwire | 1.0.0 |"))
    }
}
