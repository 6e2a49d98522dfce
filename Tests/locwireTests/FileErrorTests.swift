import Foundation
import LocationWire
import LocationWireFiles
import LocationWireSuiteSource
import LocationWireTestSupport
import Testing

/// Every locwire command that reads or writes a file, given a file it cannot use: exit status 2 and a reason in
/// plain words ("is a directory", "no such file", "does not exist"), never Foundation's "The operation could not
/// be completed" or an NSCocoaErrorDomain code. `types` and `conformance testee` name no files and are not here.
@Suite struct FileErrorTests {
    /// One command line with a file it cannot use, and the phrase its error must contain. In both,
    /// `{folder}` is a directory, `{file}` a plain text file, `{missing}` a path that does not exist, `{nodir}` a
    /// directory that does not exist, `{batch}` a valid LocationBatch, `{catalogue}` a valid GeoJSON catalogue,
    /// `{vectors}` the committed conformance vectors, `{testee}` the built-in testee's command line.
    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let expected: String
        init(_ arguments: String, _ expected: String) {
            self.arguments = arguments.split(separator: " ").map(String.init)
            self.expected = expected
        }
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case("convert --type LocationBatch --from binpb --to json {folder}", "is a directory, not a file"),
        Case("convert --type LocationBatch --from binpb --to json {missing}", "no such file"),
        Case("validate --type LocationBatch {folder}", "is a directory, not a file"),
        Case("validate --type LocationBatch {nodir}/batch.binpb", "no such file (the directory"),
        Case("simulate record --trace {folder}", "is a directory, not a file"),
        Case("simulate record --trace {batch} --policy {missing}", "no such file"),
        Case("simulate record --trace {batch} --output {nodir}/out.json", "does not exist"),
        Case("simulate record --trace {batch} --output {folder}", "is a directory; give a file name"),
        Case("simulate record --trace {batch} --format binpb --output /dev/full", "the disk is full"),
        Case("simulate fences --trace {batch} --regions {folder}", "is a directory, not a file"),
        Case("simulate fences --trace {batch} --regions {missing}", "no such file"),
        Case(
            "simulate fences --trace {batch} --regions {catalogue} --output {file}/out.json",
            "a part of the path is a file, not a directory"),
        Case("simulate sessions --count 1 --quiet --save-failure {nodir}/failure.json", "does not exist"),
        Case("simulate replay {folder}", "is a directory, not a file"),
        Case("simulate replay {missing}", "no such file"),
        Case(
            "conformance run --quiet --vectors {missing}",
            "no such directory (run from the repository root, or pass --vectors)"),
        Case("conformance run --quiet --vectors {file}", "is a file, not a directory"),
        Case("conformance run --quiet --vectors {vectors} --failures {folder}", "is a directory, not a file"),
        Case("conformance run --quiet --output {nodir}/report.txt", "does not exist"),
        Case("conformance matrix {folder}", "is a directory, not a file"),
        Case("conformance matrix {missing}", "no such file"),
        Case("conformance generate --output {file}/vectors", "cannot write {file}: exists and is not a directory"),
        Case(
            "fixtures generate --scenario walk --seed 1 --count 1 --out {file}/sub",
            "cannot write {file}: exists and is not a directory"),
        Case(
            "fixtures generate --scenario walk --seed 1 --count 1 --out /dev/full",
            "cannot write /dev/full: exists and is not a directory"),
        Case("fixtures validate {missing}", "no such directory"),
        Case("fixtures validate {file}", "is a file, not a directory"),
        Case(
            "fuzz --testee true --seed 1 --iterations 1 --quiet --out {file}/findings",
            "cannot write {file}: exists and is not a directory"),
        Case("fuzz --testee {testee} --seed 1 --iterations 1 --quiet --known {folder}", "is a directory, not a file"),
        Case("plan --catalogue {folder} --at 47.37,8.54 --budget 1", "is a directory, not a file"),
        Case("plan --catalogue {missing} --at 47.37,8.54 --budget 1", "no such file"),
        Case(
            "plan --catalogue {catalogue} --at 47.37,8.54 --budget 1 --previous {folder}", "is a directory, not a file"),
        Case("plan --catalogue {catalogue} --at 47.37,8.54 --budget 1 --output {nodir}/plan.json", "does not exist"),
        Case("compact {folder}", "is a directory, not a file"),
        Case("compact {batch} --output {nodir}/compact.binpb", "does not exist"),
        Case("expand {missing}", "no such file"),
        Case("expand {batch} --output {folder}", "is a directory; give a file name"),
        Case("stats {folder}", "is a directory, not a file"),
        Case("stats {batch} --output /dev/full", "the disk is full"),
        Case("import --from gpx {folder} --device-id d1", "is a directory, not a file"),
        Case("import --from csv {missing} --device-id d1", "no such file"),
        Case("export --to gpx {folder}", "is a directory, not a file"),
        Case("export --to geojson {batch} --output {nodir}/track.geojson", "does not exist"),
        Case("render {folder}", "is a directory, not a file"),
        Case("render {batch} --regions {missing}", "no such file"),
        Case("render {batch} --events {folder}", "is a directory, not a file"),
        Case("render {batch} --output {nodir}/track.svg", "does not exist"),
        Case("render --vector {missing} --case fences.order.nested", "no such file"),
    ]

    /// The files the cases point at, made once per test process.
    static let scratch: [String: String] = {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-file-errors-\(getpid())")
        let folder = base.appendingPathComponent("a-folder")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = base.appendingPathComponent("notes.txt")
        try! Data("not a directory\n".utf8).write(to: file)
        let batch = base.appendingPathComponent("batch.binpb")
        try! Data(Valid.batch.serializedBytes()).write(to: batch)
        let catalogue = base.appendingPathComponent("catalogue.geojson")
        try! Data(CLITests.geoJSONCatalogue.utf8).write(to: catalogue)
        let locwire = CLITests.locwire.path
        return [
            "{folder}": folder.path, "{file}": file.path, "{missing}": base.appendingPathComponent("missing.bin").path,
            "{nodir}": base.appendingPathComponent("no-such-folder").path, "{batch}": batch.path,
            "{catalogue}": catalogue.path, "{testee}": "\(locwire) conformance testee",
            "{vectors}": RepositoryData.repository.appendingPathComponent("conformance/vectors").path,
        ]
    }()

    static func expand(_ argument: String) -> [String] {
        // The testee is one argument with a space in it: the command line the fuzzer starts.
        if argument == "{testee}" { return [scratch["{testee}"]!] }
        var result = argument
        for (placeholder, value) in scratch { result = result.replacingOccurrences(of: placeholder, with: value) }
        return [result]
    }

    @Test("a file a command cannot use: exit status 2 and the reason in words", arguments: cases)
    func fileErrorsSayWhatIsWrong(_ example: Case) throws {
        let arguments = example.arguments.flatMap(Self.expand)
        let outcome = try CLITests().run(arguments)
        #expect(outcome.status == 2, "stderr: \(outcome.stderr)")
        let expected = Self.expand(example.expected)[0]
        #expect(outcome.stderr.contains(expected), "stderr: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("NSCocoaErrorDomain"))
        #expect(!outcome.stderr.contains("The operation could not be completed"))
        #expect(!outcome.stderr.contains("couldn’t be"))
    }

    /// /sys refuses new files even to root, so this runs wherever /sys is mounted, as root or not.
    @Test(
        "an output directory that cannot be written: permission denied",
        .enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel")))
    func unwritableDirectory() throws {
        let outcome = try CLITests().run([
            "plan", "--catalogue", Self.scratch["{catalogue}"]!, "--at", "47.37,8.54", "--budget", "1", "--output",
            "/sys/locwire-file-errors.json",
        ])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("permission denied (you cannot create files in the directory /sys)"))
    }

    @Test("reads stop at the cap, for files by their size and for streams as they come")
    func readsAreCapped() throws {
        let path = Self.scratch["{file}"]!
        #expect(
            throws: FileAccessError(
                path: path, reason: "is too large: locwire reads files up to 8 bytes and this one is 16 bytes")
        ) {
            try FileAccess.read(path, limit: 8)
        }
        #expect(try FileAccess.read(path, limit: 16) == Array("not a directory\n".utf8))
        // A character device with no end: the cap, not the memory, ends the read.
        #expect(
            throws: FileAccessError(
                path: "/dev/zero",
                reason: "is too large: locwire reads files up to 1 MiB and this one is longer than that")
        ) {
            try FileAccess.read("/dev/zero", limit: 1 << 20)
        }
    }

    @Test("a socket is not a file to read")
    func notRegularFiles() throws {
        let directory = Self.scratch["{folder}"]!
        let socketPath = directory + "/listening.sock"
        unlink(socketPath)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        #expect(throws: FileAccessError(path: socketPath, reason: "is not a regular file (a socket)")) {
            try FileAccess.read(socketPath)
        }
        let outcome = try CLITests().run(["validate", "--type", "LocationBatch", socketPath])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("is not a regular file (a socket)"), "\(outcome.stderr)")
    }

    /// Root reads everything, so this runs only for other users.
    @Test("a file you may not read: permission denied", .enabled(if: getuid() != 0))
    func unreadableFile() throws {
        let path = Self.scratch["{folder}"]! + "/secret.binpb"
        try FileAccess.write([1], to: path)
        chmod(path, 0)
        defer { unlink(path) }
        let outcome = try CLITests().run(["validate", "--type", "LocationBatch", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("permission denied"), "\(outcome.stderr)")
    }

    @Test("a write that fails part way leaves no partial file; a directory is created with its parents")
    func writesAndDirectories() throws {
        let base = Self.scratch["{folder}"]! + "/made/deeper"
        try FileAccess.createDirectory(base)
        try FileAccess.createDirectory(base)  // already there: fine
        try FileAccess.write(Array("abc".utf8), to: base + "/out.txt")
        #expect(try FileAccess.read(base + "/out.txt") == Array("abc".utf8))
        #expect(try FileAccess.contentsOfDirectory(base) == ["out.txt"])
        #expect(throws: FileAccessError(path: "/dev/full", reason: "the disk is full", writing: true)) {
            try FileAccess.write([1, 2, 3], to: "/dev/full")
        }
    }
}
