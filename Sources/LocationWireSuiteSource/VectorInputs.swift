import Foundation
import LocationWire
import LocationWireConformance
import LocationWireInterchange

/// What the generator reads besides its own code: the real traces in `conformance/data/` and the regression
/// vectors in `conformance/regressions/`.
///
/// A missing trace stops the generation (``VectorInputError``): the vectors built from it would silently vanish
/// otherwise, and a check against the committed files would then fail with nothing to say why.
public struct VectorInputs: Sendable {
    /// The fixes of `conformance/data/korita-zbevnica.gpx` (``RealTraces``), in file order.
    let korita: [LocationFix]
    /// The regression vectors, in file name order; they join the wire family.
    let regressions: [Vector]

    /// Reads the inputs in `conformance` (the repository's `conformance/` folder): `data/` and `regressions/`.
    public static func load(from conformance: URL) throws -> VectorInputs {
        let data = conformance.appendingPathComponent("data")
        return VectorInputs(
            korita: try trace(data.appendingPathComponent(RealTraces.koritaFile)),
            regressions: try loadRegressions(conformance.appendingPathComponent("regressions")))
    }

    private static func trace(_ url: URL) throws -> [LocationFix] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw VectorInputError(
                path: url.path, problem: "is missing (a fresh clone has it; see conformance/data/README.md)")
        }
        do {
            return try GPXTrace(data: Data(contentsOf: url)).fixes
        } catch {
            throw VectorInputError(path: url.path, problem: "cannot be read as a GPX track: \(error)")
        }
    }

    /// The regression vectors of a folder, in file name order; none when it does not exist.
    private static func loadRegressions(_ directory: URL) throws -> [Vector] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            do {
                return try JSONDecoder().decode(
                    Vector.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
            } catch {
                throw VectorFileError(message: "regression vector \(name): \(error)")
            }
        }
    }
}

/// An input file of the generator that is absent or unreadable; `locwire conformance generate` exits 2 with it.
public struct VectorInputError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "\(path) \(problem)" }
}
