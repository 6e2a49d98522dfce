import Foundation
import LocationWire
import LocationWireConformance
import LocationWireFuzzing
import LocationWireInspection
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// The differential fuzzer: reproducible, quiet when two implementations agree, loud (and minimizing) when not.
@Suite(.serialized) struct DifferentialFuzzerTests {
    static var locwire: String { TestExecutables.locwire.path }

    @Test func mutationsAreReproducibleFromTheSeed() {
        let seed = LocationBatch.schema
        let input = SampleMessages.full(seed)
        var first = WireMutator(random: SeededRandom(seed: 9))
        var second = WireMutator(random: SeededRandom(seed: 9))
        let a = (0..<200).map { _ in first.mutate(input, schema: seed, donor: input) }
        let b = (0..<200).map { _ in second.mutate(input, schema: seed, donor: input) }
        #expect(a == b)
        #expect(Set(a).count > 150, "mutations vary")
        // Both decodable and undecodable inputs come out.
        let decodable = a.filter { (try? LocationBatch(serializedBytes: $0)) != nil }.count
        #expect(decodable > 20 && decodable < 190)
    }

    @Test func onlyTheTenthByteOfATenByteVarintIsCleared() {
        let nine = [UInt8](repeating: 0xff, count: 9)
        // Field 1, a 10-byte varint ending in 0x7f: the bits beyond 64 go, bit 63 stays.
        #expect(DifferentialFuzzer.clearingTenthVarintByteHighBits([0x08] + nine + [0x7f]) == [[0x08] + nine + [0x01]])
        // Nothing to clear: a last byte of 0 or 1, or a shorter varint.
        #expect(DifferentialFuzzer.clearingTenthVarintByteHighBits([0x08] + nine + [0x01]).isEmpty)
        #expect(DifferentialFuzzer.clearingTenthVarintByteHighBits([0x08] + nine.dropLast() + [0x7f]).isEmpty)
        // Two candidates (the second a tag after nine bytes of a string): all, all but one, each alone.
        let input: [UInt8] = [0x08] + nine + [0x02, 0x0a, 0x09] + nine + [0x30, 0x01]
        let variants = DifferentialFuzzer.clearingTenthVarintByteHighBits(input)
        #expect(variants.count == 5)
        #expect(variants.contains([0x08] + nine + [0x00, 0x0a, 0x09] + nine + [0x30, 0x01]))
    }

    @Test func theBuiltinImplementationAgreesWithItself() throws {
        var options = DifferentialFuzzer.Options(seed: 5)
        options.iterations = 1500
        let fuzzer = DifferentialFuzzer(
            testee: TesteeProcess(command: "'\(Self.locwire)' conformance testee"), reference: .builtin,
            known: FailureList(),
            options: options)
        let summary = try fuzzer.run()
        #expect(summary.inputs == 1500)
        #expect(summary.bySignature.isEmpty)
        #expect(summary.acceptedByBoth > 100 && summary.rejectedByBoth > 100)
    }

    @Test func aCrashIsFoundMinimizedAndWrittenOut() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        var options = DifferentialFuzzer.Options(seed: 5)
        options.iterations = 50
        options.findingsDirectory = out
        // The testee crashes on the 7th input: a finding with signature "crash".
        let fuzzer = DifferentialFuzzer(
            testee: TesteeProcess(command: "'\(Self.locwire)' conformance testee --crash-on fuzz-7"),
            reference: .builtin,
            known: FailureList(), options: options)
        let summary = try fuzzer.run()
        #expect(summary.bySignature["crash"] == 1)
        #expect(summary.unexplainedCount == 1)
        #expect(summary.findings.first?.signature == "crash")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(written.contains { $0.hasSuffix(".vector.json") })
        #expect(written.contains { $0.hasSuffix(".binpb") })
        // A known-differences entry explains it.
        let explained = DifferentialFuzzer(
            testee: TesteeProcess(command: "'\(Self.locwire)' conformance testee --crash-on fuzz-7"),
            reference: .builtin,
            known: try FailureList.parse("crash  # planted", source: "t"), options: options)
        let again = try explained.run()
        #expect(again.unexplainedCount == 0)
        #expect(again.explained["crash"] == "planted")
    }

    @Test func theCommandLineReportsAndReplays() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.locwire)
        process.arguments = [
            "fuzz", "--testee", "'\(Self.locwire)' conformance testee", "--seed", "3", "--iterations", "300", "--quiet",
            "--out", FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID().uuidString)").path,
            "--regressions",
            FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID().uuidString)").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("300 inputs"))
        #expect(text.contains("findings: none"))
        #expect(text.contains("replay: locwire fuzz"))
    }
}
