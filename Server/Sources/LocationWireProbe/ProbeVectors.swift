import Foundation
import LocationWireConformance

/// The conformance vectors the probe replays over HTTP: the committed `ledger`, `session` and `http` files of a
/// `conformance/vectors` folder, read with the reader `locwire conformance run` uses
/// (``ConformanceRunner/loadVectorFile(_:)``).
public struct ProbeVectors: Sendable {
    /// The families whose files the probe reads, each `<family>.json`.
    public static let families = ["ledger", "session", "http"]

    public var ledger: [Vector]
    public var session: [Vector]
    public var http: [Vector]

    /// The three families' files in `directory`. Throws the reader's error (which names the file) for a file that
    /// cannot be read or is not a vector file, and ``VectorFileError`` for a file of another family.
    public init(directory: URL) throws {
        ledger = try Self.load("ledger", from: directory)
        session = try Self.load("session", from: directory)
        http = try Self.load("http", from: directory)
    }

    static func load(_ family: String, from directory: URL) throws -> [Vector] {
        let file = try ConformanceRunner.loadVectorFile(directory.appendingPathComponent("\(family).json"))
        guard file.family == family else {
            throw VectorFileError(message: "\(family).json: holds the family \"\(file.family)\", not \"\(family)\"")
        }
        return file.vectors
    }

    /// The `conformance/vectors` folder of the checkout `directory` is in: the first found in `directory` or a
    /// folder above it; nil when there is none.
    public static func findDirectory(from directory: URL) -> URL? {
        var current = directory.standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent("conformance").appendingPathComponent("vectors")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                return candidate
            }
            let parent = current.deletingLastPathComponent()
            guard parent.path != current.path else { return nil }
            current = parent
        }
    }
}
