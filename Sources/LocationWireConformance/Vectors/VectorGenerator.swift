import Foundation

/// `locwire conformance generate`: builds every vector family from its generator and writes (or checks) the
/// files in `conformance/vectors/`. The output depends on nothing but this code: the same version always writes
/// the same bytes, so CI can require the committed files to equal a fresh generation.
public enum VectorGenerator {
    public static let generatorName = "locwire conformance generate 1.0.0"

    /// Every family's file, in a fixed order.
    public static func generate() -> [VectorFile] {
        let families: [(VectorBuilder, String)] = [
            (WireFamily.build(), WireFamily.description),
            (CanonicalFamily.build(), CanonicalFamily.description),
            (JSONFamily.build(), JSONFamily.description),
            (SemanticFamily.build(), SemanticFamily.description),
            (CompactFamily.build(), CompactFamily.description),
        ]
        return families.map { builder, description in
            let used = Set(builder.vectors.flatMap(\.flags))
            let flags = VectorFlags.all.filter { used.contains($0.key) }
            return VectorFile(
                family: builder.family, description: description, generator: generatorName, flags: flags,
                vectors: builder.vectors)
        }
    }

    public struct Difference: Sendable {
        public let file: String
        public let reason: String
    }

    /// Writes the files into `directory`, or with `check`, compares them with what is there and returns the
    /// differences instead of writing.
    public static func write(to directory: URL, check: Bool) throws -> [Difference] {
        let files = generate()
        var differences: [Difference] = []
        if !check {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
                try data.write(to: url)
            }
        }
        if check {
            let expected = Set(files.map { "\($0.family).json" })
            let present = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in present where name.hasSuffix(".json") && !expected.contains(name) {
                differences.append(Difference(file: directory.appendingPathComponent(name).path, reason: "not made by the generator"))
            }
        }
        return differences
    }
}
