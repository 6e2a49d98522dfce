import Foundation

/// Instructions per operation, counted by valgrind's callgrind: unlike times they do not move with the machine's
/// load, so they show where a difference comes from. Every harness runs under callgrind through the protocol
/// (Benchmarks/peers/PROTOCOL.md); a count is the difference between a run of `longRun` and one of `shortRun`
/// operations, divided by their difference, so start-up and `prepare` cancel out.
struct InstructionCount: Codable {
    let implementation: String
    let workload: String
    let operation: String
    let instructions: Int
}

enum InstructionCounts {
    static let shortRun = 2
    static let longRun = 6

    static var isAvailable: Bool {
        Environment.run("valgrind", ["--version"]) != nil && Environment.run("strip", ["--version"]) != nil
    }

    /// What is counted: these kinds on these workloads, for LocationWire, C++ and upb (every variant they have).
    static let plan: [(workload: String, kinds: Set<OperationKind>)] = [
        ("batch-walk-1000", [.decode, .readAll, .encode, .jsonPrint, .jsonParse, .validate]),
        ("batch-compact-walk-1000", [.decode, .expand, .encode]),
        ("batch-walk-1", [.decode, .encode]),
        ("fence-event", [.decode, .encode]),
        ("assignment-20", [.decode, .encode, .validate]),
    ]
    static let implementations = [Implementations.locationWire, Implementations.cpp, Implementations.upb]

    static func measure(
        harnesses: [(HarnessCommand, HarnessClient)], workloads: URL, progress: (String) -> Void
    ) throws -> [InstructionCount] {
        // A directory with only the planned workloads: a harness may load every workload it finds, which under
        // valgrind would take minutes.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locwire-bench-callgrind-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Only the planned workloads of this run: a slice (`--workload`) has written no others.
        let selected = plan.filter { workload, _ in
            FileManager.default.fileExists(atPath: workloads.appendingPathComponent("\(workload).meta.json").path)
        }
        for (workload, _) in selected {
            for suffix in ["meta.json", "binpb.frames", "json.frames"] {
                try FileManager.default.copyItem(
                    at: workloads.appendingPathComponent("\(workload).\(suffix)"),
                    to: directory.appendingPathComponent("\(workload).\(suffix)"))
            }
        }
        // valgrind 3.19 gives up on the debug information Swift 6.3 writes, so the Swift harness runs as a copy
        // without it.
        let stripped = directory.appendingPathComponent("locwire-bench").path
        try FileManager.default.copyItem(
            atPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), toPath: stripped)
        guard Environment.run("strip", ["-g", stripped]) != nil else {
            throw BenchmarkError("strip -g failed on \(stripped)")
        }

        var counts: [InstructionCount] = []
        for (harness, client) in harnesses where implementations.contains(client.implementation) {
            var command = harness.command
            if client.implementation == Implementations.locationWire { command[0] = stripped }
            for (workload, kinds) in selected {
                for operation in client.operations where kinds.contains(OperationKind(operation)) {
                    progress("callgrind: \(client.implementation) \(operation) \(workload)")
                    func instructions(_ iterations: Int) throws -> Int? {
                        try callgrind(
                            command + ["--workloads", directory.path],
                            input:
                                "prepare \(workload) \(operation)\nrun \(workload) \(operation) \(iterations)\nquit\n")
                    }
                    guard let short = try instructions(shortRun), let long = try instructions(longRun) else { continue }
                    // Fewer instructions for more operations: something in the harness does not repeat (seen once,
                    // on fence-event's decode-reuse and encode-reuse). Not a count; said, not reported.
                    guard long >= short else {
                        progress(
                            "callgrind: \(client.implementation) \(operation) \(workload): \(long) instructions for "
                                + "\(longRun) operations, \(short) for \(shortRun); not reported")
                        continue
                    }
                    counts.append(
                        InstructionCount(
                            implementation: client.implementation, workload: workload, operation: operation,
                            instructions: (long - short) / (longRun - shortRun)))
                }
            }
        }
        return counts
    }

    /// Total instructions of one run of `command` under callgrind, fed `input`; nil when the operation does not
    /// apply (prepare answered ok: false).
    private static func callgrind(_ command: [String], input: String) throws -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command
        // Swift's dictionaries hash with a random seed per process; a fixed one makes the counts repeat exactly.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { $1 }
        let errors = Pipe()
        let output = Pipe()
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // The answers are three short lines, far below a pipe's buffer, so reading the log first cannot block.
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if text.contains("\"ok\":false") || text.contains("\"ok\": false") { return nil }
        // "==123== I   refs:      74,248,810"
        guard process.terminationStatus == 0, !text.contains("\"error\""),
            let line = log.split(separator: "\n").first(where: { $0.contains("I   refs:") }),
            let count = Int(line.split(separator: " ").last!.replacingOccurrences(of: ",", with: ""))
        else {
            throw BenchmarkError("callgrind failed on \(command.joined(separator: " ")):\n\(text)\n\(log.suffix(1500))")
        }
        return count
    }
}
