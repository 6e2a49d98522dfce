import Foundation

/// One harness process, driven through Benchmarks/peers/PROTOCOL.md: a command line in, one JSON line out.
final class HarnessClient {
    /// What `hello` said.
    private(set) var implementation: String
    private(set) var version: String
    private(set) var operations: [String]
    private(set) var warmupMilliseconds: Double
    let command: [String]

    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    private var buffer: [UInt8] = []

    /// Starts `command` (the harness, with `--workloads DIRECTORY` appended) and greets it.
    init(command: [String], workloads: URL) throws {
        self.command = command + ["--workloads", workloads.path]
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = self.command
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = FileHandle.standardError
        try process.run()
        input = inputPipe.fileHandleForWriting
        output = outputPipe.fileHandleForReading
        implementation = ""
        version = ""
        operations = []
        warmupMilliseconds = 0
        let hello = try send("hello")
        guard let implementation = hello["implementation"] as? String, let version = hello["version"] as? String,
            let operations = hello["operations"] as? [String]
        else { throw BenchmarkError("\(command.joined(separator: " ")): hello answered \(hello)") }
        self.implementation = implementation
        self.version = version
        self.operations = operations
        warmupMilliseconds = (hello["warmup_ms"] as? NSNumber)?.doubleValue ?? 0
    }

    /// Sends one command and returns the answer; an `error` answer, a malformed line or the harness's exit throws.
    @discardableResult
    func send(_ line: String) throws -> [String: Any] {
        do {
            try input.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            throw BenchmarkError("\(command.first ?? "harness"): cannot send \"\(line)\": \(error)")
        }
        let answer = try readLine()
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any] else {
            throw BenchmarkError(
                "\(command.joined(separator: " ")): \"\(line)\" got \"\(String(decoding: answer, as: UTF8.self))\"")
        }
        if let error = object["error"] { throw BenchmarkError("\(implementation): \"\(line)\" failed: \(error)") }
        return object
    }

    /// `run WORKLOAD OPERATION ITERATIONS`: the loop's elapsed nanoseconds.
    func run(_ workload: String, _ operation: String, iterations: Int) throws -> Double {
        let answer = try send("run \(workload) \(operation) \(iterations)")
        guard let ns = (answer["ns"] as? NSNumber)?.doubleValue, ns >= 0 else {
            throw BenchmarkError("\(implementation): run answered \(answer)")
        }
        return ns
    }

    private func readLine() throws -> [UInt8] {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = output.availableData
            if chunk.isEmpty {
                process.waitUntilExit()
                throw BenchmarkError(
                    "\(command.joined(separator: " ")) exited (status \(process.terminationStatus)) without answering")
            }
            buffer += chunk
        }
    }

    func close() {
        try? input.write(contentsOf: Data("quit\n".utf8))
        try? input.close()
        process.waitUntilExit()
    }
}
