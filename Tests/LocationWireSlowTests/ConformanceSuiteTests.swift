import Foundation
import LocationWire
import LocationWireConformance
import LocationWireSuiteSource
import LocationWireTestSupport
import Testing

/// The committed conformance suite as a whole: the vector files are current (a fresh generation gives the same
/// bytes), they cover what the spec asks, and the built-in implementation passes every one. Slow (16 MB of vectors
/// to read, every family to generate, 1,800 vectors through a debug testee), so it is a target of its own:
/// `scripts/slow-tests.sh` runs it, and CI's full tier.
@Suite(.serialized) struct ConformanceSuiteTests {
    static let vectorDirectory = RepositoryData.repository.appendingPathComponent("conformance/vectors")

    /// The vector files, read once for every test here.
    static let files = Result { try ConformanceRunner.loadVectors(from: vectorDirectory) }

    static var locwire: String { TestExecutables.locwire.path }

    @Test func committedVectorsAreCurrent() throws {
        let files = VectorGenerator.generate(
            try VectorInputs.load(from: RepositoryData.repository.appendingPathComponent("conformance")))
        let differences = try VectorGenerator.write(files, to: Self.vectorDirectory, check: true)
        #expect(
            differences.isEmpty,
            "run `swift run locwire conformance generate`: \(differences.map { "\($0.file): \($0.reason)" })")
    }

    @Test func thereAreAtLeast400VectorsWithUniqueIds() throws {
        let files = try Self.files.get()
        let ids = files.flatMap { $0.vectors.map(\.id) }
        #expect(ids.count >= 400)
        #expect(Set(ids).count == ids.count)
        #expect(
            Set(files.map(\.family)) == [
                "wire", "canonical", "json", "semantic", "compact", "session", "ledger", "recording", "fences",
                "planning", "arming", "http",
            ])
    }

    /// The issue that made behaviour normative asked for at least 300 scenarios across the four families, each
    /// naming the rules of proto/BEHAVIOR.md it checks.
    @Test func thereAreAtLeast300BehaviourScenarios() throws {
        let files = try Self.files.get()
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
    /// proto/README.md defines (or proto/HTTP.md, for how a refusal as too large shrinks the next batch); together
    /// they name every tag of README.md's identity and acknowledgement sections.
    @Test func sessionAndLedgerVectorsNameSpecRules() throws {
        let files = try Self.files.get()
        let scripted = files.filter { ["session", "ledger"].contains($0.family) }.flatMap(\.vectors)
        #expect(scripted.count >= 150)
        let spec = try String(
            contentsOf: RepositoryData.repository.appendingPathComponent("proto/README.md"), encoding: .utf8)
        let http = try String(
            contentsOf: RepositoryData.repository.appendingPathComponent("proto/HTTP.md"), encoding: .utf8)
        // `§item-boot` (an item's boot_id left out where it equals the batch's) is stated in LocationFix.boot_id's
        // comment, with no tag in proto/README.md yet; the engines and the vectors call it so.
        let untagged: Set<String> = ["§item-boot"]
        // Rules of what a whole device does, beyond the upload queue a session request drives: a crash between
        // taking a command and running it, what RECORD_FIX and UPLOAD_NOW then do, and which clock a wait runs on
        // (the session protocol has one clock). DeviceTests checks each, naming its tag.
        let deviceRules: Set<String> = ["§command-once", "§command-kinds", "§wait-clock"]
        var named = Set<String>()
        for vector in scripted {
            let rules = vector.rules ?? []
            #expect(!rules.isEmpty, "\(vector.id) names no rule")
            for rule in rules where !untagged.contains(rule) {
                #expect(
                    spec.contains("`\(rule)`") || http.contains("`\(rule)`"),
                    "\(vector.id): \(rule) is not a tag of proto/README.md or proto/HTTP.md")
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
        let unchecked = tags.subtracting(named).subtracting(deviceRules)
        #expect(unchecked.isEmpty, "no vector checks \(unchecked.sorted())")
    }

    /// Every field of every message appears, set, in the canonical output of at least one valid vector.
    @Test func everyFieldOfEveryMessageIsCovered() throws {
        let files = try Self.files.get()
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
        let files = try Self.files.get()
        let testee = TesteeProcess(command: "'\(Self.locwire)' conformance testee")
        let list = try FailureList.load(
            RepositoryData.repository.appendingPathComponent("conformance/failures/swift-locationwire.txt"))
        let report = try ConformanceRunner().run(files, testee: testee, failureList: list)
        #expect(report.passed)
        // The http family's request vectors are for a running server (`locwire-server probe`), not a testee.
        let total = files.reduce(0) { $0 + $1.vectors.count { $0.httpRequest == nil } }
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
        let files = try Self.files.get()
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
}
