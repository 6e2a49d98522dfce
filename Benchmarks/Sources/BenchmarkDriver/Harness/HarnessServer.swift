import CMallocCounter
import Foundation

/// The workload directory as Benchmarks/peers/PROTOCOL.md defines it, read by the Swift harnesses.
struct WorkloadFiles {
    let name: String
    let typeName: String
    let inputs: [[UInt8]]
    /// Empty for workloads without JSON texts (the scaling curve).
    let json: [[UInt8]]
    let fixesPerInput: Int

    init(directory: URL, name: String) throws {
        self.name = name
        let metaURL = directory.appendingPathComponent("\(name).meta.json")
        guard let meta = try JSONSerialization.jsonObject(with: Data(contentsOf: metaURL)) as? [String: Any],
            let typeName = meta["type"] as? String, let fixes = meta["fixes_per_input"] as? Int
        else { throw BenchmarkError("\(metaURL.path): not a workload description") }
        self.typeName = typeName
        fixesPerInput = fixes
        inputs = try Self.frames(directory.appendingPathComponent("\(name).binpb.frames"))
        let jsonURL = directory.appendingPathComponent("\(name).json.frames")
        json = FileManager.default.fileExists(atPath: jsonURL.path) ? try Self.frames(jsonURL) : []
        guard !inputs.isEmpty, json.isEmpty || json.count == inputs.count else {
            throw BenchmarkError("\(name): \(inputs.count) binary inputs and \(json.count) JSON texts")
        }
    }

    /// The workload with only its first `count` inputs (and JSON texts).
    func prefix(_ count: Int) -> WorkloadFiles {
        WorkloadFiles(
            name: name, typeName: typeName, inputs: Array(inputs.prefix(count)), json: Array(json.prefix(count)),
            fixesPerInput: fixesPerInput)
    }

    private init(name: String, typeName: String, inputs: [[UInt8]], json: [[UInt8]], fixesPerInput: Int) {
        self.name = name
        self.typeName = typeName
        self.inputs = inputs
        self.json = json
        self.fixesPerInput = fixesPerInput
    }

    /// Reads a file of 4-byte little-endian lengths each followed by that many bytes.
    static func frames(_ url: URL) throws -> [[UInt8]] {
        let data = [UInt8](try Data(contentsOf: url))
        var frames: [[UInt8]] = []
        var offset = 0
        while offset < data.count {
            guard offset + 4 <= data.count else { throw BenchmarkError("\(url.path): truncated length at \(offset)") }
            let length =
                Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3])
                << 24
            offset += 4
            guard length <= data.count - offset else {
                throw BenchmarkError("\(url.path): frame at \(offset - 4) runs past the end")
            }
            frames.append(Array(data[offset..<offset + length]))
            offset += length
        }
        return frames
    }
}

/// An operation prepared on one workload: `loop(iterations, &cursor)` runs it `iterations` times, rotating through
/// the inputs from `cursor`, and returns the elapsed nanoseconds (built with ``timedLoop(_:_:_:_:)``).
struct PreparedOperation {
    let loop: (Int, inout Int) -> UInt64
    /// The checks `prepare` reports (PROTOCOL.md): "checksum", "encoded_bytes", "json_bytes".
    let checks: [String: Any]
}

/// The loop of PROTOCOL.md, the same in every harness: nothing but the operation and the rotation between the two
/// clock reads. Inlined into each operation, so the body is not an indirect call.
@inline(__always)
func timedLoop(_ iterations: Int, _ cursor: inout Int, _ inputCount: Int, _ body: (Int) -> Void) -> UInt64 {
    var index = cursor
    let start = Clock.nanoseconds()
    for _ in 0..<iterations {
        body(index)
        index += 1
        if index == inputCount { index = 0 }
    }
    let elapsed = Clock.nanoseconds() - start
    cursor = index
    return elapsed
}

/// What a Swift harness implements; ``HarnessServer`` speaks the protocol for it.
protocol SwiftHarness {
    var implementation: String { get }
    var version: String { get }
    var operations: [String] { get }
    /// nil when the operation does not apply to the workload, for ``notApplicableReason(_:)``.
    func prepare(_ operation: String, on workload: WorkloadFiles) throws -> PreparedOperation?
    /// Why `prepare` declines `operation` where it does.
    func notApplicableReason(_ operation: String) -> String
}

/// Serves PROTOCOL.md's commands on standard input and output for one Swift harness.
struct HarnessServer {
    let harness: any SwiftHarness
    let directory: URL

    func serve() throws {
        var workloads: [String: WorkloadFiles] = [:]
        var prepared: [String: PreparedOperation] = [:]
        var cursors: [String: Int] = [:]
        func workload(_ name: String) throws -> WorkloadFiles {
            if let loaded = workloads[name] { return loaded }
            let loaded = try WorkloadFiles(directory: directory, name: name)
            workloads[name] = loaded
            return loaded
        }
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            guard let command = words.first else { continue }
            do {
                switch (command, words.count) {
                case ("hello", 1):
                    answer([
                        "implementation": harness.implementation, "version": harness.version,
                        "operations": harness.operations, "warmup_ms": 200,
                    ])
                case ("prepare", 3):
                    guard harness.operations.contains(words[2]) else {
                        throw BenchmarkError("unknown operation \(words[2])")
                    }
                    if let operation = try harness.prepare(words[2], on: try workload(words[1])) {
                        prepared[words[1] + " " + words[2]] = operation
                        answer(["ok": true].merging(operation.checks) { first, _ in first })
                    } else {
                        answer(["ok": false, "reason": harness.notApplicableReason(words[2])])
                    }
                case ("run", 4), ("memory", 4):
                    let key = words[1] + " " + words[2]
                    guard let operation = prepared[key], let iterations = Int(words[3]), iterations > 0 else {
                        throw BenchmarkError("\(line): not prepared, or not a positive iteration count")
                    }
                    var cursor = cursors[key, default: 0]
                    if command == "run" {
                        answer(["ns": operation.loop(iterations, &cursor)])
                    } else {
                        lw_peak_rss_reset()
                        lw_allocation_counting_start()
                        _ = operation.loop(iterations, &cursor)
                        let allocations = lw_allocation_counting_stop()
                        answer([
                            "allocations": Double(allocations) / Double(iterations),
                            "allocated_bytes": Double(lw_allocated_bytes()) / Double(iterations),
                            "peak_rss_kib": lw_peak_rss_kib(),
                        ])
                    }
                    cursors[key] = cursor
                case ("release", 2):
                    workloads[words[1]] = nil
                    for key in prepared.keys where key.hasPrefix(words[1] + " ") {
                        prepared[key] = nil
                        cursors[key] = nil
                    }
                    answer(["ok": true])
                case ("quit", 1):
                    return
                default:
                    throw BenchmarkError("unknown command: \(line)")
                }
            } catch {
                answer(["error": "\(error)"])
            }
        }
    }

    private func answer(_ object: [String: Any]) {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// Keeps results alive so the optimizer cannot drop the work being measured.
nonisolated(unsafe) var benchmarkSink = 0

@inline(never)
func consume(_ value: Int) {
    benchmarkSink &+= value
}

enum Clock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// Any error in words: a file error names the file and what is wrong with it, not Foundation's domain and
    /// code ("NSCocoaErrorDomain Code=260").
    static func words(_ error: any Error) -> String {
        guard let error = error as? CocoaError else { return "\(error)" }
        let file = error.filePath ?? error.url?.path ?? "a file"
        switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "\(file) does not exist"
        case .fileReadNoPermission, .fileWriteNoPermission: return "\(file): permission denied"
        case .fileWriteOutOfSpace: return "\(file): the disk is full"
        case .fileWriteFileExists: return "\(file) already exists"
        case .fileReadCorruptFile: return "\(file) is not in the format expected"
        default: return "\(file): \(error.localizedDescription)"
        }
    }
}
