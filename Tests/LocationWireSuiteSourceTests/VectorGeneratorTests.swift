import Foundation
import LocationWire
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

/// proto/README.md `§stability`: an enum value of `locationwire.v1` is stable when a valid vector carries it. The
/// canonical family carries each named value but zero of every enum field, alone in its message: the number in
/// the canonical bytes, the name in the canonical JSON.
@Suite struct EnumValueVectorTests {
    @Test func everyNamedValueOfEveryEnumFieldIsCarriedAlone() throws {
        let canonical = try #require(try VectorGeneratorTests.files.get().first { $0.family == "canonical" })
        // What each valid vector's canonical JSON holds: its one member, by message type.
        var carried: Set<String> = []
        for vector in canonical.vectors where vector.result == .valid {
            guard let text = vector.canonicalJSON,
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                object.count == 1, let (member, value) = object.first
            else { continue }
            for name in (value as? [Any] ?? [value]).compactMap({ $0 as? String }) {
                carried.insert("\(vector.messageType) \(member) \(name)")
            }
        }
        var missing: [String] = []
        var values = 0
        for type in MessageRegistry.allTypes {
            let schema = type.schema
            for field in schema.fields {
                guard case .enumeration(let enumeration) = field.type else { continue }
                for value in enumeration.values where value.number != 0 {
                    values += 1
                    if !carried.contains("\(schema.fullName) \(field.jsonName) \(value.name)") {
                        missing.append("\(schema.name).\(field.name) = \(value.name)")
                    }
                }
            }
        }
        #expect(values > 100, "the enum fields were found (\(values) values)")
        #expect(missing.isEmpty, "no canonical vector carries \(missing) alone")
    }
}
