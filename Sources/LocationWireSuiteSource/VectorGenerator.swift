import Foundation
import LocationWireConformance
import LocationWireFiles

/// `locwire conformance generate`: builds every vector family from its generator and writes (or checks) the
/// files in `conformance/vectors/`. The output depends on nothing but this code: the same version always writes
/// the same bytes, so CI can require the committed files to equal a fresh generation.
public enum VectorGenerator {
    public static let generatorName = "locwire conformance generate 1.0.0"

    /// Every family's file, in a fixed order. The regression vectors of `inputs` (one JSON vector per file, as
    /// `locwire fuzz` writes them) join the wire family, their expectations rechecked like any other vector's.
    public static func generate(_ inputs: VectorInputs) -> [VectorFile] {
        families.map { family in file(of: family, inputs: inputs) }
    }

    /// Every family, in the order of the files.
    static var families: [any VectorFamily.Type] {
        [
            WireFamily.self, CanonicalFamily.self, JSONFamily.self, SemanticFamily.self, CompactFamily.self,
            SessionFamily.self, LedgerFamily.self, RecordingFamily.self, FenceFamily.self,
            PlanningFamily.self, ArmingFamily.self, HTTPFamily.self,
        ]
    }

    static func file(of family: any VectorFamily.Type, inputs: VectorInputs) -> VectorFile {
        var builder = family.build(inputs)
        if family.name == WireFamily.name {
            for vector in inputs.regressions { builder.regression(vector) }
        }
        let used = Set(builder.vectors.flatMap(\.flags))
        let flags = VectorFlags.all.filter { used.contains($0.key) }
        var file = VectorFile(
            family: family.name, description: family.description, generator: generatorName, flags: flags,
            vectors: builder.vectors)
        file.setup = family.setup
        return file
    }

    public struct Difference: Sendable {
        public let file: String
        public let reason: String
    }

    /// Writes `files` into `directory`, or with `check`, compares them with what is there and returns the
    /// differences instead of writing.
    public static func write(_ files: [VectorFile], to directory: URL, check: Bool) throws -> [Difference] {
        var differences: [Difference] = []
        if !check {
            try FileAccess.createDirectory(directory.path)
        }
        for file in files {
            let url = directory.appendingPathComponent("\(file.family).json")
            let data = try file.encoded()
            if check {
                guard let existing = try? Data(contentsOf: url) else {
                    differences.append(Difference(file: url.path, reason: "missing"))
                    continue
                }
                if existing != data {
                    differences.append(Difference(file: url.path, reason: "differs from a fresh generation"))
                }
            } else {
                try FileAccess.write([UInt8](data), to: url.path)
            }
        }
        if check {
            let expected = Set(files.map { "\($0.family).json" })
            let present = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in present where name.hasSuffix(".json") && !expected.contains(name) {
                differences.append(
                    Difference(file: directory.appendingPathComponent(name).path, reason: "not made by the generator"))
            }
        }
        return differences
    }
}
