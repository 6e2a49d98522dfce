import Foundation

/// Instructions per operation, counted by valgrind's callgrind: unlike times they do not move with the
/// machine's load, so they show where a difference comes from. Each count is the difference between two runs
/// that perform 2 and 4 operations (LocationWire, `locwire-bench profile`) or 1 and 3 samples of one operation
/// (C++, whose samples each run one operation under valgrind's slowdown), halved: start-up cancels out.
struct InstructionCount: Codable {
    let implementation: String
    let workload: String
    let operation: String
    let instructions: Int
}

enum InstructionCounts {
    static var isAvailable: Bool {
        Environment.run("valgrind", ["--version"]) != nil && Environment.run("strip", ["--version"]) != nil
    }

    /// LocationWire's profile operations, on the 1000-fix walking batch (row form, or compact for two of them).
    static let locationWireOperations: [(operation: String, workload: String, profile: String)] = [
        ("decode", "batch-walk-1000", "decode"), ("encode", "batch-walk-1000", "encode"),
        ("validate", "batch-walk-1000", "validate"), ("json-print", "batch-walk-1000", "json-print"),
        ("json-parse", "batch-walk-1000", "json-parse"), ("decode", "batch-compact-walk-1000", "decode-compact"),
        ("decode-expand", "batch-compact-walk-1000", "expand"),
    ]

    static let cppOperations: [(operation: String, workload: String)] = [
        ("decode-new", "batch-walk-1000"), ("decode-arena", "batch-walk-1000"),
        ("decode-arena-block", "batch-walk-1000"),
        ("decode-arena-reset", "batch-walk-1000"), ("decode-reuse", "batch-walk-1000"),
        ("encode", "batch-walk-1000"), ("encode-reuse", "batch-walk-1000"), ("json-print", "batch-walk-1000"),
        ("json-parse", "batch-walk-1000"), ("decode-arena", "batch-compact-walk-1000"),
    ]

    static func measure(cppHarness: String?, workloads: URL) throws -> [InstructionCount] {
        var counts: [InstructionCount] = []
        // valgrind 3.19 gives up on the debug information Swift 6.3 writes, so it runs a copy without it.
        let executable = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locwire-bench-callgrind-\(getpid())"
        ).path
        try? FileManager.default.removeItem(atPath: executable)
        try FileManager.default.copyItem(
            atPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), toPath: executable)
        defer { try? FileManager.default.removeItem(atPath: executable) }
        guard Environment.run("strip", ["-g", executable]) != nil else {
            throw BenchmarkError("strip -g failed on \(executable)")
        }
        for (operation, workload, profile) in locationWireOperations {
            progress("callgrind: \(SwiftOperations.locationWire) \(profile)")
            let two = try instructions([executable, "profile", profile, "--iterations", "2"])
            let four = try instructions([executable, "profile", profile, "--iterations", "4"])
            counts.append(
                InstructionCount(
                    implementation: SwiftOperations.locationWire, workload: workload, operation: operation,
                    instructions: (four - two) / 2))
        }
        guard let cppHarness else { return counts }
        for (operation, workload) in cppOperations {
            progress("callgrind: cpp-libprotobuf \(operation) \(workload)")
            func run(samples: Int) throws -> Int {
                try instructions([
                    cppHarness, "--workloads", workloads.path, "--only", workload, "--op", operation, "--samples",
                    "\(samples)",
                    "--min-sample-ms", "0.001", "--warmup-ms", "0", "--alloc-ops", "0",
                ])
            }
            let one = try run(samples: 1)
            let three = try run(samples: 3)
            counts.append(
                InstructionCount(
                    implementation: "cpp-libprotobuf", workload: workload, operation: operation,
                    instructions: (three - one) / 2))
        }
        return counts
    }

    /// Total instructions of one run of `command` under callgrind.
    private static func instructions(_ command: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "==123== I   refs:      74,248,810"
        guard process.terminationStatus == 0,
            let line = log.split(separator: "\n").first(where: { $0.contains("I   refs:") }),
            let count = Int(line.split(separator: " ").last!.replacingOccurrences(of: ",", with: ""))
        else {
            throw BenchmarkError("callgrind failed on \(command.joined(separator: " ")):\n\(log.suffix(1500))")
        }
        return count
    }
}
