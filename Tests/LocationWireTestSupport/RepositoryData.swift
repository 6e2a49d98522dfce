import Foundation

/// Paths into the repository, for tests that read its files: `conformance/data/` (real traces, whose README gives
/// each file's origin and licence), `examples/`, `conformance/vectors/`, `proto/`.
package enum RepositoryData {
    /// The repository's root folder, found from this file's place in it (`Tests/LocationWireTestSupport/`).
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// What the peers made for the tests (`Tests/Goldens/`: protoc's descriptor set, upb's every-field samples, the
    /// stored session bytes), never LocationWire's codec.
    package static let goldens = repository.appendingPathComponent("Tests/Goldens")

    /// The real GPX track: 871 points, 513 of them timed.
    package static let koritaTrack = repository.appendingPathComponent("conformance/data/korita-zbevnica.gpx")
}
