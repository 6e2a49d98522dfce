import Foundation
import LocationWireConformance
import LocationWireSuiteSource
import LocationWireTestSupport
import Testing

/// The suite's source: every family, deterministic, each vector with a unique id, and what it writes is what the
/// repository holds (the `generated` CI step checks the bytes; this checks the shape).
@Suite struct VectorGeneratorTests {
    static let inputs = Result {
        try VectorInputs.load(from: RepositoryData.repository.appendingPathComponent("conformance"))
    }

    @Test func generationIsDeterministic() throws {
        let inputs = try Self.inputs.get()
        let first = VectorGenerator.generate(inputs)
        let second = VectorGenerator.generate(inputs)
        #expect(try first.map { try $0.encoded() } == second.map { try $0.encoded() })
    }

    @Test func everyFamilyHasVectorsWithIdsOfTheirOwn() throws {
        let files = VectorGenerator.generate(try Self.inputs.get())
        let committed = try FileManager.default.contentsOfDirectory(
            atPath: RepositoryData.repository.appendingPathComponent("conformance/vectors").path)
        #expect(Set(files.map { "\($0.family).json" }) == Set(committed.filter { $0.hasSuffix(".json") }))
        for file in files {
            #expect(!file.vectors.isEmpty, "\(file.family) has no vectors")
            let ids = file.vectors.map(\.id)
            #expect(Set(ids).count == ids.count, "\(file.family) repeats an id")
        }
    }
}
