import Foundation
import LocationWireRandom

/// The measurement method, owned by the coordinator for every harness alike (Benchmarks/peers/PROTOCOL.md).
struct Method: Codable, Sendable {
    /// Rounds per workload; within a round every implementation's operations on the workload take
    /// `samplesPerRound` samples, in a fresh random order for each sample.
    var rounds = 10
    var samplesPerRound = 3
    /// The length a sample aims at (at least one operation).
    var sampleMilliseconds = 10.0
    /// The least warm-up of an operation before its first sample; a harness may ask for more (a JIT does).
    var warmupMilliseconds = 200.0
    /// Operations run with allocation counting on, per (implementation, workload, operation).
    var memoryIterations = 100
    /// Whether a harness's longer warm-up (`hello`'s `warmup_ms`) is honoured; a quick run caps it at 200 ms.
    var honoursHarnessWarmup = true
}

/// A harness the coordinator knows how to start, and where its build script puts it.
struct HarnessCommand {
    /// The implementation it measures, as its `hello` must name it.
    let implementation: String
    let command: [String]
    let build: String
    /// Whether it takes part in the scaling curve (10 to 100,000 fixes: decode and encode only).
    let scales: Bool

    var isAvailable: Bool {
        let path = command[0] == "python3" ? command[1] : command[0]
        return command[0] == "python3"
            ? FileManager.default.fileExists(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("build/python")
                    .path)
            : FileManager.default.isExecutableFile(atPath: path)
    }

    static func all(root: URL) -> [HarnessCommand] {
        let peers = root.appendingPathComponent("Benchmarks/peers")
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        func peer(_ path: String) -> String { peers.appendingPathComponent(path).path }
        return [
            HarnessCommand(
                implementation: Implementations.locationWire, command: [me, "harness", Implementations.locationWire],
                build: "",
                scales: true),
            HarnessCommand(
                implementation: Implementations.cpp, command: [peer("build/bench_cpp")],
                build: "Benchmarks/peers/build.sh", scales: true),
            HarnessCommand(
                implementation: Implementations.upb, command: [peer("build-upb/bench_upb")],
                build: "Benchmarks/peers/build-upb.sh", scales: true),
            HarnessCommand(
                implementation: Implementations.go, command: [peer("build-go/bench_go")],
                build: "Benchmarks/peers/build-go.sh", scales: false),
            HarnessCommand(
                implementation: Implementations.java, command: [peer("build-java/bench_java")],
                build: "Benchmarks/peers/build-java.sh", scales: false),
            HarnessCommand(
                implementation: Implementations.protobufC, command: [peer("build/bench_c")],
                build: "Benchmarks/peers/build.sh", scales: false),
            HarnessCommand(
                implementation: Implementations.swiftProtobuf, command: [me, "harness", Implementations.swiftProtobuf],
                build: "", scales: false),
            HarnessCommand(
                implementation: Implementations.python, command: ["python3", peer("bench_python.py")],
                build: "Benchmarks/peers/build.sh",
                scales: false),
        ]
    }
}

/// A check across implementations from `prepare`'s answers: that they read and write the same thing.
struct CrossCheck: Codable {
    let workload: String
    let description: String
    let passed: Bool
}

/// An operation a harness declined for a workload (`prepare` answered `ok: false`).
struct NotApplicable: Codable {
    let implementation: String
    let operation: String
    let workload: String
    let reason: String
}

/// Drives every harness through the protocol: prepare, warm up, then rounds of interleaved samples, then the memory
/// runs.
struct Coordinator {
    let method: Method
    let workloads: [Workload]
    let directory: URL
    let clients: [(HarnessClient, scales: Bool)]
    var results: Results
    var crossChecks: [CrossCheck] = []
    /// Operations a harness has that do not apply to a workload, with its reason; said in the report.
    var notApplicable: [NotApplicable] = []
    /// The shuffles' source: the same seed gives the same order.
    private var generator = SeededRandom(seed: 0xB3AC)

    init(method: Method, workloads: [Workload], directory: URL, clients: [(HarnessClient, scales: Bool)]) {
        self.method = method
        self.workloads = workloads
        self.directory = directory
        self.clients = clients
        results = Results(series: [], rounds: method.rounds)
    }

    /// The operations of the scaling curve.
    static let scalingKinds: Set<OperationKind> = [.decode, .encode, .validate]

    /// Everything, one workload at a time: prepare every implementation's operations on it, warm them up, take
    /// the rounds of interleaved samples and the memory runs, then release it in every harness, so that each holds
    /// one workload at a time (a collector paces itself on that, and peak RSS shows one workload's footprint).
    mutating func run(progress: (String) -> Void) throws {
        for (position, workload) in workloads.enumerated() {
            let first = results.series.count
            try prepare(workload)
            let members = Array(first..<results.series.count)
            try calibrate(members)
            try measure(members)
            try measureMemory(members)
            for (client, _) in clients { try client.send("release \(workload.name)") }
            progress("\(position + 1)/\(workloads.count) \(workload.name): \(members.count) operations")
        }
    }

    private mutating func prepare(_ workload: Workload) throws {
        for (client, scales) in clients {
            if !workload.isHeadline && !scales { continue }
            for operation in client.operations {
                if !workload.isHeadline && !Self.scalingKinds.contains(OperationKind(operation)) { continue }
                let answer = try client.send("prepare \(workload.name) \(operation)")
                guard answer["ok"] as? Bool == true else {
                    notApplicable.append(
                        NotApplicable(
                            implementation: client.implementation, operation: operation, workload: workload.name,
                            reason: answer["reason"].map { "\($0)" } ?? "no reason given"))
                    continue
                }
                var series = Series(
                    implementation: client.implementation, version: client.version, workload: workload.name,
                    operation: operation, bytesPerInput: workload.averageInputBytes,
                    fixesPerInput: workload.fixesPerInput)
                for key in ["checksum", "encoded_bytes", "json_bytes"] {
                    if let value = answer[key] { series.checks[key] = "\(value)" }
                }
                results.series.append(series)
            }
        }
        checkAgreement(workload)
    }

    /// Read-all and expansion checksums must agree between implementations, and every encoder must write the
    /// canonical number of bytes.
    private mutating func checkAgreement(_ workload: Workload) {
        let own = results.series.filter { $0.workload == workload.name }
        for kind in [OperationKind.readAll, .expand] {
            let sums = own.filter { $0.kind == kind }.compactMap { series in
                series.checks["checksum"].map { (series.implementation, $0) }
            }
            guard sums.count > 1 else { continue }
            let agree = Set(sums.map(\.1)).count == 1
            crossChecks.append(
                CrossCheck(
                    workload: workload.name,
                    description: "\(kind.rawValue) checksum of "
                        + sums.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + (agree ? ": equal" : ": DIFFERENT"),
                    passed: agree))
        }
        let canonical = workload.canonical.reduce(0) { $0 + $1.count }
        for series in own where series.kind == .encode {
            guard let written = series.checks["encoded_bytes"].flatMap(Int.init) else { continue }
            if written != canonical {
                crossChecks.append(
                    CrossCheck(
                        workload: workload.name,
                        description:
                            "\(series.implementation) \(series.operation) wrote \(written) bytes, the canonical encodings are \(canonical)",
                        passed: false))
            }
        }
    }

    private func client(_ implementation: String) -> HarnessClient {
        clients.first { $0.0.implementation == implementation }!.0
    }

    /// Warms each operation up and sets its iterations per sample: doubling from one until a run takes a quarter of
    /// a sample, for at least the warm-up time.
    private mutating func calibrate(_ members: [Int]) throws {
        for index in members {
            let series = results.series[index]
            let client = client(series.implementation)
            let requested =
                method.honoursHarnessWarmup ? client.warmupMilliseconds : min(client.warmupMilliseconds, 200)
            let warmupNs = max(method.warmupMilliseconds, requested) * 1e6
            let sampleNs = method.sampleMilliseconds * 1e6
            var iterations = 1
            var spent = 0.0
            var last = 0.0
            repeat {
                last = try client.run(series.workload, series.operation, iterations: iterations)
                spent += last
                if last < sampleNs / 4 { iterations *= 2 }
            } while spent < warmupNs || last < sampleNs / 4
            let perOperation = last / Double(iterations)
            results.series[index].iterationsPerSample = max(1, Int((sampleNs / perOperation).rounded()))
        }
    }

    /// The rounds: in each, `samplesPerRound` times, every operation of every implementation on the workload takes
    /// one sample, in a fresh shuffled order each time.
    private mutating func measure(_ members: [Int]) throws {
        for round in 1...method.rounds {
            for sampleIndex in 0..<method.samplesPerRound {
                for index in members.shuffled(using: &generator) {
                    let series = results.series[index]
                    let ns = try client(series.implementation).run(
                        series.workload, series.operation, iterations: series.iterationsPerSample)
                    results.series[index].samples.append(
                        Sample(
                            round: round, index: sampleIndex, nsPerOperation: ns / Double(series.iterationsPerSample)))
                }
            }
        }
    }

    /// Allocations, bytes and peak RSS per operation.
    private mutating func measureMemory(_ members: [Int]) throws {
        for index in members {
            let series = results.series[index]
            let iterations = max(1, min(method.memoryIterations, series.iterationsPerSample))
            let answer = try client(series.implementation).send(
                "memory \(series.workload) \(series.operation) \(iterations)")
            results.series[index].allocations = (answer["allocations"] as? NSNumber)?.doubleValue
            results.series[index].allocatedBytes = (answer["allocated_bytes"] as? NSNumber)?.doubleValue
            results.series[index].peakRSSKiB = (answer["peak_rss_kib"] as? NSNumber)?.intValue
        }
    }
}
