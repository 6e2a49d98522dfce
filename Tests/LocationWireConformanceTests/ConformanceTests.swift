import Foundation
import LocationWire
import LocationWireConformance
import LocationWireSuiteSource
import LocationWireTestSupport
import Testing

/// The conformance runner and the built-in testee: failure lists, crashes, timeouts, testees that do not speak
/// the protocol, report formats, and the generator's inputs. The committed suite as a whole is checked by
/// ConformanceSuiteTests (the slow target).
@Suite(.serialized) struct ConformanceTests {
    static var locwire: String { TestExecutables.locwire.path }

    /// One family's committed vector file (the runner's tests need a few vectors, not all 16 MB of them; the
    /// suite as a whole is ConformanceSuiteTests', in the slow target).
    static func family(_ name: String) throws -> [VectorFile] {
        let url = RepositoryData.repository.appendingPathComponent("conformance/vectors/\(name).json")
        return [try VectorFile.decode(Data(contentsOf: url))]
    }

    /// Generation stops at a missing input, naming it, instead of writing fewer vectors.
    @Test func generationWithoutItsDataStopsAndNamesTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "no-data-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("conformance/vectors"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: VectorInputError.self) {
            try VectorInputs.load(from: folder.appendingPathComponent("conformance"))
        }
        #expect(error?.path.hasSuffix("conformance/data/korita-zbevnica.gpx") == true)
    }

    /// The http request vectors' placeholders (`{token}`, `{install_id}`, ...) are only as good as the file's
    /// `setup`, which says what each stands for: every one a vector uses is named there.
    @Test func httpRequestPlaceholdersAreExplainedBySetup() throws {
        let file = try #require(try Self.family("http").first)
        let setup = try #require(file.setup, "the http file states how a server is set up")
        let explained = setup.values.joined(separator: " ")
        let encoder = JSONEncoder()
        var used: Set<String> = []
        for vector in file.vectors {
            guard let request = vector.httpRequest else { continue }
            let text = String(decoding: try encoder.encode(request), as: UTF8.self)
            for match in text.matches(of: /\{[a-z_]+\}/) { used.insert(String(match.output)) }
        }
        #expect(!used.isEmpty)
        for placeholder in used.sorted() {
            #expect(explained.contains(placeholder), "\(placeholder) is used but not explained in setup")
        }
    }

    @Test func failureListsNeedReasons() {
        #expect(throws: FailureList.ParseError.self) { try FailureList.parse("wire.LocationFix.x\n", source: "t") }
        #expect(throws: FailureList.ParseError.self) { try FailureList.parse("wire.LocationFix.x #\n", source: "t") }
        #expect(throws: FailureList.ParseError.self) { try FailureList.parse("two words # reason\n", source: "t") }
    }

    @Test func aCrashCostsOneVectorAndTheTesteeRestarts() throws {
        let files = try Self.family("wire")
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
        let files = try Self.family("wire")
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
            vectorId: "x", messageType: "LocationFix", input: .binaryInput([]), checks: [TesteeCheck(rawValue: 99)])
        #expect(BuiltinTestee().run(request).result == .runtimeError("unknown check 99; update the testee"))
        request.checks = []
        request.unknownFields = UnknownFields(rawBytes: [0xF8, 0x06, 0x01])
        if case .runtimeError = BuiltinTestee().run(request).result {
        } else {
            Issue.record("unknown request fields must be a runtime error")
        }
    }

    @Test func reportsRenderInEveryFormat() throws {
        let files = try Self.family("compact")
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
