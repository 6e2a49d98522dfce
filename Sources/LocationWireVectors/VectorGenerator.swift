import Foundation
import LocationWireConformance
import LocationWireTools

/// `locwire conformance generate`: builds every vector family from its generator and writes (or checks) the
/// files in `conformance/vectors/`. The output depends on nothing but this code: the same version always writes
/// the same bytes, so CI can require the committed files to equal a fresh generation.
public enum VectorGenerator {
    public static let generatorName = "locwire conformance generate 1.0.0"

    /// Every family's file, in a fixed order. Vectors in `regressions` (one JSON vector per file, as
    /// `locwire fuzz` writes them) join the wire family, their expectations rechecked like any other vector's.
    public static func generate(regressions: URL? = nil) throws -> [VectorFile] {
        let regressionVectors = try loadRegressions(regressions)
        return families.map { family in file(of: family, regressions: regressionVectors) }
    }

    /// One family's file, built in-process (`ledger`, `session`, ...), without regression vectors; nil for a name
    /// no family has. For tools that replay a family elsewhere, as `locwire-server probe` replays the ledger
    /// vectors over HTTP, so that they need no checkout of conformance/vectors/.
    public static func generate(family name: String) -> VectorFile? {
        families.first { $0.name == name }.map { file(of: $0, regressions: []) }
    }

    /// Every family, in the order of the files.
    static var families: [any VectorFamily.Type] {
        [
            WireFamily.self, CanonicalFamily.self, JSONFamily.self, SemanticFamily.self, CompactFamily.self,
            SessionFamily.self, LedgerFamily.self, RecordingFamily.self, FenceFamily.self,
            PlanningFamily.self, ArmingFamily.self,
        ]
    }

    static func file(of family: any VectorFamily.Type, regressions: [Vector]) -> VectorFile {
        var builder = family.build()
        if family.name == WireFamily.name {
            for vector in regressions { builder.regression(vector) }
        }
        let used = Set(builder.vectors.flatMap(\.flags))
        let flags = VectorFlags.all.filter { used.contains($0.key) }
        return VectorFile(
            family: family.name, description: family.description, generator: generatorName, flags: flags,
            vectors: builder.vectors)
    }

    public struct Difference: Sendable {
        public let file: String
        public let reason: String
    }

    /// The regression vectors of a folder, in file name order; none when it does not exist.
    static func loadRegressions(_ directory: URL?) throws -> [Vector] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            return []
        }
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            do {
                return try JSONDecoder().decode(
                    Vector.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
            } catch {
                throw VectorFileError(message: "regression vector \(name): \(error)")
            }
        }
    }

    /// The regression folder that belongs to a vector directory: `conformance/regressions` beside `conformance/vectors`.
    public static func regressionsDirectory(besides vectors: URL) -> URL {
        vectors.deletingLastPathComponent().appendingPathComponent("regressions")
    }

    /// Writes the files into `directory`, or with `check`, compares them with what is there and returns the
    /// differences instead of writing.
    public static func write(to directory: URL, check: Bool) throws -> [Difference] {
        let files = try generate(regressions: regressionsDirectory(besides: directory))
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
