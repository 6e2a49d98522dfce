import Foundation
import LocationWireConformance
import LocationWireSuiteSource
import LocationWireTestSupport
import Testing

/// The suite's source: a file for every committed family, each vector with an id of its own. That a generation
/// gives the committed bytes (and so is deterministic) is the `generated` CI step's check and the slow suite's:
/// generating every family takes seconds in a debug build, so it is done once here.
@Suite struct VectorGeneratorTests {
    static let files = Result {
        VectorGenerator.generate(
            try VectorInputs.load(from: RepositoryData.repository.appendingPathComponent("conformance")))
    }

    @Test func everyCommittedFamilyIsGenerated() throws {
        let committed = try FileManager.default.contentsOfDirectory(
            atPath: RepositoryData.repository.appendingPathComponent("conformance/vectors").path)
        let generated = try Self.files.get().map { "\($0.family).json" }
        #expect(Set(generated) == Set(committed.filter { $0.hasSuffix(".json") }))
        #expect(Set(generated).count == generated.count, "a family written twice")
    }

    @Test func everyFamilyHasVectorsWithIdsOfTheirOwn() throws {
        for file in try Self.files.get() {
            #expect(!file.vectors.isEmpty, "\(file.family) has no vectors")
            let ids = file.vectors.map(\.id)
            #expect(Set(ids).count == ids.count, "\(file.family) repeats an id")
        }
    }
}
