import Foundation
import LocationWireFiles
import Testing

/// Whole-file reads and writes whose failures say what is wrong in words, with the path as given.
@Suite struct FileAccessTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("file-access-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        return path.path
    }()

    @Test func whatIsWrittenIsReadBack() throws {
        let path = directory + "/bytes.bin"
        try FileAccess.write([1, 2, 3, 0, 255], to: path)
        #expect(try FileAccess.read(path) == [1, 2, 3, 0, 255])
        #expect(try FileAccess.readPrefix(path, count: 2) == [1, 2])
    }

    @Test func aMissingFileSaysSoAndWhetherItsDirectoryIsMissingToo() {
        #expect(throws: FileAccessError(path: directory + "/none", reason: "no such file")) {
            try FileAccess.read(directory + "/none")
        }
        let deeper = directory + "/nowhere/none"
        #expect(
            throws: FileAccessError(
                path: deeper, reason: "no such file (the directory \(directory)/nowhere does not exist either)")
        ) { try FileAccess.read(deeper) }
    }

    @Test func aDirectoryIsNotAFile() {
        #expect(throws: FileAccessError(path: directory, reason: "is a directory, not a file")) {
            try FileAccess.read(directory)
        }
    }

    @Test func aReadStopsAtItsLimit() throws {
        let path = directory + "/ten.bin"
        try FileAccess.write(Array(repeating: 7, count: 10), to: path)
        #expect(throws: FileAccessError.self) { try FileAccess.read(path, limit: 4) }
        #expect(try FileAccess.read(path, limit: 10).count == 10)
    }

    @Test func aWriteIntoAMissingDirectoryFailsInWords() {
        do {
            try FileAccess.write([1], to: directory + "/nowhere/out.bin")
            Issue.record("the write succeeded")
        } catch {
            #expect(error.writing)
            #expect(error.description.hasPrefix("cannot write \(directory)/nowhere/out.bin: "))
        }
    }
}
