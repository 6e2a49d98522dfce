import Foundation

/// A peer harness of Benchmarks/peers: a program that times one protobuf implementation on a workload
/// directory and prints one JSON line per (workload, operation).
struct PeerHarness: Sendable {
    /// The implementation it reports (its "implementation" member).
    let implementation: String
    let executable: String
    let arguments: [String]
    /// Operations for the scaling workloads: the decode and encode that compare with LocationWire's; the
    /// rest would take minutes at 100,000 fixes. Empty: the harness sits the scaling workloads out.
    let scalingOperations: [String]

    /// The harnesses `Benchmarks/peers/build.sh` builds, in the order each round runs them.
    static func all(peersDirectory: URL) -> [PeerHarness] {
        let build = peersDirectory.appendingPathComponent("build")
        return [
            PeerHarness(
                implementation: "cpp-libprotobuf", executable: build.appendingPathComponent("bench_cpp").path,
                arguments: [], scalingOperations: ["decode-arena", "encode"]),
            PeerHarness(
                implementation: "c-protobuf-c", executable: build.appendingPathComponent("bench_c").path,
                arguments: [], scalingOperations: []),
            PeerHarness(
                implementation: "python-protobuf-upb-backend", executable: "/usr/bin/env",
                arguments: ["python3", peersDirectory.appendingPathComponent("bench_python.py").path],
                scalingOperations: []),
        ]
    }

    /// Whether the harness has been built.
    var isAvailable: Bool {
        executable == "/usr/bin/env"
            ? FileManager.default.fileExists(
                atPath: URL(fileURLWithPath: arguments[1]).deletingLastPathComponent().appendingPathComponent(
                    "build/python"
                ).path)
            : FileManager.default.isExecutableFile(atPath: executable)
    }

    /// Runs the harness on `workloads` of `directory` and returns its measurements, tagged with `round`.
    func run(
        directory: URL, workloads: [String], operations: [String], method: Method, round: Int
    ) throws -> [Measurement] {
        var arguments =
            self.arguments + [
                "--workloads", directory.path, "--samples", "\(method.samples)",
                "--min-sample-ms", "\(Int(method.minSampleMilliseconds))", "--warmup-ms",
                "\(Int(method.warmupMilliseconds))",
            ]
        for workload in workloads { arguments += ["--only", workload] }
        for operation in operations { arguments += ["--op", operation] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locwire-bench-\(implementation)-\(getpid()).log")
        guard FileManager.default.createFile(atPath: errorLog.path, contents: nil) else {
            throw BenchmarkError("cannot create \(errorLog.path)")
        }
        let errorHandle = try FileHandle(forWritingTo: errorLog)
        defer {
            try? errorHandle.close()
            try? FileManager.default.removeItem(at: errorLog)
        }
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            throw BenchmarkError(
                "\(implementation) harness exited with status \(process.terminationStatus):\n\(log.suffix(2000))")
        }
        let decoder = JSONDecoder()
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            var measurement = try decoder.decode(Measurement.self, from: Data(line.utf8))
            measurement.round = round
            return measurement
        }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
