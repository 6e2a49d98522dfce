import Foundation
import LocationWire
import LocationWireFiles
import LocationWireFuzzing
import LocationWireInspection
import LocationWireRandom
import LocationWireSimulation

/// Differential fuzzing of any implementation that speaks the testee protocol, against a reference (LocationWire's
/// own implementation by default): the same mutated inputs go to both, and every crash, hang, and disagreement in
/// verdict (accept or reject) or decoded value is a finding.
///
/// Findings are classified by a signature (`verdict.reference-rejects.invalid-tag`, `binary.unknown-fields`,
/// `value`, `json`, `crash`, `hang`, ...). Signatures listed in a known-differences file (`conformance/failures/
/// <implementation>.fuzz.txt`, same syntax as failure lists) are explained and only counted; every other finding
/// is minimized and written out as raw bytes and as a ready-to-add conformance vector.
public final class DifferentialFuzzer {
    public struct Options: Sendable {
        public var seed: UInt64
        public var iterations: Int?
        public var seconds: Double?
        public var timeoutMilliseconds = 5_000
        /// Unexplained findings kept (minimized and written) per signature.
        public var examplesPerSignature = 3
        public var findingsDirectory: URL?
        /// Where raw inputs of findings also go, as FuzzValidation regression files (selector byte + input).
        public var regressionDirectory: URL?
        public var vectorsDirectory: URL?

        public init(seed: UInt64) {
            self.seed = seed
        }
    }

    public struct Finding: Sendable {
        public let signature: String
        public let messageType: String
        public let input: [UInt8]
        public let detail: String
        public let explanation: String?
    }

    public struct Summary: Sendable {
        public var inputs = 0
        public var acceptedByBoth = 0
        public var rejectedByBoth = 0
        public var skipped = 0
        public var bySignature: [String: Int] = [:]
        public var explained: [String: String] = [:]
        public var findings: [Finding] = []
        public var testeeStarts = 0
        public var seconds = 0.0

        public var unexplainedCount: Int {
            bySignature.filter { explained[$0.key] == nil }.values.reduce(0, +)
        }
    }

    /// The implementation answers are compared against.
    public enum Reference {
        case builtin
        case process(TesteeProcess)
    }

    let testee: TesteeProcess
    let reference: Reference
    let known: FailureList
    let options: Options
    private var random: SeededRandom
    private var mutator: WireMutator
    private var seeds: [(type: any LocationWireMessage.Type, bytes: [UInt8])] = []
    private var testeeFeatures: Set<TesteeFeature> = []

    public init(testee: TesteeProcess, reference: Reference, known: FailureList, options: Options) {
        self.testee = testee
        self.reference = reference
        self.known = known
        self.options = options
        self.random = SeededRandom(seed: options.seed)
        self.mutator = WireMutator(random: SeededRandom(seed: options.seed ^ 0xA5A5_5A5A_F00D_CAFE))
    }

    /// Valid messages to mutate: fixture batches of every scenario, a full sample of every message type, and
    /// the valid binary inputs of the conformance vectors when a vector directory is given.
    private func buildSeeds() {
        for scenario in TraceSimulator.Scenario.allCases {
            for seed in 1...2 as ClosedRange<UInt64> {
                for batch in FixtureGenerator(scenario: scenario, seed: seed).batches(count: 3) {
                    seeds.append((LocationBatch.self, batch.serializedBytes()))
                }
            }
        }
        for type in MessageRegistry.allTypes {
            seeds.append((type, SampleMessages.full(type.schema)))
        }
        if let directory = options.vectorsDirectory, let files = try? ConformanceRunner.loadVectors(from: directory) {
            for vector in files.flatMap(\.vectors) where vector.result == .valid {
                if let hex = vector.inputHex, let bytes = Hex.decode(hex),
                    let type = MessageRegistry.type(named: vector.messageType)
                {
                    seeds.append((type, bytes))
                }
            }
        }
    }

    /// Runs until the iteration count or the time is reached. `progress` is called about once a second.
    public func run(progress: (Summary) -> Void = { _ in }) throws -> Summary {
        let hello = try testee.start(timeoutMilliseconds: max(options.timeoutMilliseconds, 30_000))
        testeeFeatures = Set(hello.features)
        if case .process(let process) = reference { try process.start() }
        buildSeeds()
        var summary = Summary()
        let start = Date()
        var lastProgress = start
        while true {
            if let iterations = options.iterations, summary.inputs >= iterations { break }
            if let seconds = options.seconds, Date().timeIntervalSince(start) >= seconds { break }
            let (type, input) = nextInput()
            summary.inputs += 1
            let outcome = compare(type, input, id: "fuzz-\(summary.inputs)")
            switch outcome {
            case .agreeAccepted: summary.acceptedByBoth += 1
            case .agreeRejected: summary.rejectedByBoth += 1
            case .skipped: summary.skipped += 1
            case .finding(let signature, let detail):
                summary.bySignature[signature, default: 0] += 1
                if let entry = known.entry(for: signature) {
                    summary.explained[signature] = entry.reason
                } else if summary.findings.filter({ $0.signature == signature }).count < options.examplesPerSignature {
                    let minimized = minimize(type, input, signature: signature)
                    let finding = Finding(
                        signature: signature, messageType: type.fullMessageName, input: minimized, detail: detail,
                        explanation: nil)
                    summary.findings.append(finding)
                    try? write(finding, type: type)
                }
            }
            if Date().timeIntervalSince(lastProgress) >= 1 {
                lastProgress = Date()
                summary.seconds = lastProgress.timeIntervalSince(start)
                summary.testeeStarts = testee.starts
                progress(summary)
            }
        }
        summary.seconds = Date().timeIntervalSince(start)
        summary.testeeStarts = testee.starts
        testee.stop()
        if case .process(let process) = reference { process.stop() }
        return summary
    }

    private func nextInput() -> (any LocationWireMessage.Type, [UInt8]) {
        let seed = seeds[random.index(seeds.count)]
        let donor = seeds[random.index(seeds.count)]
        // One input in twenty goes in unmutated: valid inputs must agree too.
        if random.index(20) == 0 { return seed }
        return (seed.type, mutator.mutate(seed.bytes, schema: seed.type.schema, donor: donor.bytes))
    }

    enum Comparison {
        case agreeAccepted, agreeRejected, skipped
        case finding(signature: String, detail: String)
    }

    /// Sends one input to both implementations and compares their answers.
    func compare(_ type: any LocationWireMessage.Type, _ input: [UInt8], id: String) -> Comparison {
        var checks: [TesteeCheck] = [.binaryOutput]
        if testeeFeatures.contains(.jsonOutput) { checks.append(.jsonOutput) }
        let request = VectorRequest(
            vectorId: id, messageType: type.fullMessageName, input: .binaryInput(input), checks: checks)
        guard let expected = referenceResponse(request) else {
            return .finding(signature: "reference-failed", detail: "the reference crashed or hung")
        }
        let actual: VectorResponse
        switch testee.run(request, timeoutMilliseconds: options.timeoutMilliseconds) {
        case .response(let response): actual = response
        case .crashed(let how): return .finding(signature: "crash", detail: how)
        case .timedOut: return .finding(signature: "hang", detail: "no answer within \(options.timeoutMilliseconds) ms")
        }
        switch (expected.result, actual.result) {
        case (_, .skipped?):
            return .skipped
        case (_, .runtimeError(let message)?):
            return .finding(signature: "runtime-error", detail: message)
        case (.parseError?, .parseError?):
            return .agreeRejected
        case (.parseError(let error)?, .decoded?):
            let code = error.code.isEmpty ? "error" : error.code
            // Errors inside unknown fields (an unknown group's contents) are told apart: implementations differ
            // in how closely they check what they skip.
            let insideUnknown = error.fieldPath.split(separator: ".").last?.hasPrefix("#") == true
            return .finding(
                signature: "verdict.reference-rejects.\(code)" + (insideUnknown ? ".in-unknown-field" : ""),
                detail: "the reference rejects it (\(error.message)); the testee accepts it")
        case (.decoded(let referenceOutput)?, .parseError(let error)?):
            // A 10-byte varint whose last byte is above 1 carries bits beyond 64, which C++, upb and LocationWire
            // drop and protobuf-go rejects. Told apart by proof, not by guess: with those bits cleared, the
            // reference must read the same known values (an unknown field keeps its bytes, so only its bytes
            // change) and the testee must accept it (any difference left in the outputs is a finding of its own).
            var signature = "verdict.testee-rejects"
            for cleared in Self.clearingTenthVarintByteHighBits(input) {
                var clearedRequest = request
                clearedRequest.input = .binaryInput(cleared)
                if case .decoded(let clearedOutput)? = referenceResponse(clearedRequest)?.result,
                    referenceOutput.jsonOutput.isEmpty
                        ? clearedOutput.binaryOutput == referenceOutput.binaryOutput
                        : clearedOutput.jsonOutput == referenceOutput.jsonOutput,
                    case .response(let clearedAnswer) = testee.run(
                        clearedRequest, timeoutMilliseconds: options.timeoutMilliseconds),
                    case .decoded? = clearedAnswer.result
                {
                    signature += ".varint-10th-byte"
                    break
                }
            }
            return .finding(
                signature: signature,
                detail: "the testee rejects it (\(error.message)); the reference accepts it")
        case (.decoded(let reference)?, .decoded(let output)?):
            return compareOutputs(type, reference: reference, testee: output)
        default:
            return .finding(signature: "reference-failed", detail: "the reference gave no usable answer")
        }
    }

    /// Both accepted: the re-encodings must match; where they do not, the JSON of both (which leaves unknown
    /// fields out) tells a difference in known values from one in unknown fields only.
    private func compareOutputs(
        _ type: any LocationWireMessage.Type, reference: DecodedOutput, testee: DecodedOutput
    ) -> Comparison {
        let codec = AnyMessageCodec(type)
        if testee.binaryOutput != reference.binaryOutput {
            guard let decoded = try? codec.decodeBinary(testee.binaryOutput) else {
                return .finding(
                    signature: "binary.undecodable",
                    detail: "the testee's re-encoding does not decode: \(Hex.encode(testee.binaryOutput))")
            }
            let testeeJSON = AnyMessageCodec.encodeJSON(decoded)
            if testeeJSON != reference.jsonOutput {
                return .finding(
                    signature: "value",
                    detail: "decoded values differ\n  reference: \(reference.jsonOutput)\n     testee: \(testeeJSON)")
            }
            // The same fields and unknown-field bytes in another order (protobuf-go writes oneof members last):
            // both re-encodings read back and written canonically give the same bytes.
            if let referenceDecoded = try? codec.decodeBinary(reference.binaryOutput),
                AnyMessageCodec.encodeBinary(decoded) == AnyMessageCodec.encodeBinary(referenceDecoded)
            {
                return .finding(
                    signature: "binary.field-order",
                    detail:
                        "same fields, written in another order\n  reference: \(Hex.encode(reference.binaryOutput))\n     testee: \(Hex.encode(testee.binaryOutput))"
                )
            }
            return .finding(
                signature: "binary.unknown-fields",
                detail:
                    "same known fields, different unknown-field bytes\n  reference: \(Hex.encode(reference.binaryOutput))\n     testee: \(Hex.encode(testee.binaryOutput))"
            )
        }
        if testeeFeatures.contains(.jsonOutput) {
            guard let fromJSON = try? codec.decodeJSON(Array(testee.jsonOutput.utf8)) else {
                return .finding(
                    signature: "json.unparsable", detail: "the testee's JSON does not parse: \(testee.jsonOutput)")
            }
            if AnyMessageCodec.encodeJSON(fromJSON) != reference.jsonOutput {
                return .finding(
                    signature: "json.value",
                    detail:
                        "the JSON means something else\n  reference: \(reference.jsonOutput)\n     testee: \(testee.jsonOutput)"
                )
            }
        }
        return .agreeAccepted
    }

    /// The reference's answer to a request, or nil when it crashed or hung.
    private func referenceResponse(_ request: VectorRequest) -> VectorResponse? {
        switch reference {
        case .builtin:
            var all = request
            all.checks = [.binaryOutput, .jsonOutput]
            return BuiltinTestee().run(all)
        case .process(let process):
            guard case .response(let response) = process.run(request, timeoutMilliseconds: options.timeoutMilliseconds)
            else { return nil }
            return response
        }
    }

    /// Inputs with the high bits of bytes that may end a 10-byte varint (nine bytes with the continuation bit, then
    /// one without, above 1) cleared to their lowest bit: all of them, then all but one, then each alone (such a
    /// byte can also follow a string's bytes, where clearing it breaks the input). Empty when there is none.
    public static func clearingTenthVarintByteHighBits(_ input: [UInt8]) -> [[UInt8]] {
        var candidates: [Int] = []
        var run = 0  // continuation bytes (0x80 and above) just before this one
        for index in input.indices {
            if input[index] >= 0x80 {
                run += 1
                continue
            }
            if run >= 9, input[index] > 1 { candidates.append(index) }
            run = 0
        }
        guard !candidates.isEmpty else { return [] }
        func clearing(_ positions: [Int]) -> [UInt8] {
            var output = input
            for position in positions { output[position] &= 1 }
            return output
        }
        var variants = [clearing(candidates)]
        let limited = candidates.prefix(8)
        if limited.count > 1 {
            variants += limited.map { left in clearing(candidates.filter { $0 != left }) }
            variants += limited.map { clearing([$0]) }
        }
        return variants
    }

    private func signature(_ type: any LocationWireMessage.Type, _ input: [UInt8]) -> String? {
        if case .finding(let signature, _) = compare(type, input, id: "minimize") { return signature }
        return nil
    }

    /// Shrinks an input while it keeps its signature: removes ever smaller chunks, then zeroes bytes. Bounded to
    /// 2000 comparisons.
    func minimize(_ type: any LocationWireMessage.Type, _ input: [UInt8], signature target: String) -> [UInt8] {
        var best = input
        var budget = 2000
        var chunk = max(best.count / 2, 1)
        while chunk >= 1, budget > 0 {
            var offset = 0
            var shrunk = false
            while offset < best.count, budget > 0 {
                var candidate = best
                candidate.removeSubrange(offset..<min(offset + chunk, best.count))
                budget -= 1
                if signature(type, candidate) == target {
                    best = candidate
                    shrunk = true
                } else {
                    offset += chunk
                }
            }
            if !shrunk { chunk /= 2 }
        }
        for index in best.indices where budget > 0 && best[index] != 0 {
            var candidate = best
            candidate[index] = 0
            budget -= 1
            if signature(type, candidate) == target { best = candidate }
        }
        return best
    }

    /// Writes a finding: raw input, a ready-to-add conformance vector, and a regression input for FuzzValidation.
    private func write(_ finding: Finding, type: any LocationWireMessage.Type) throws {
        let digest = Self.fnv1a(finding.input)
        let slug = finding.signature.replacingOccurrences(of: ".", with: "-")
        let id = "wire.\(type.messageName).fuzz.\(slug).\(digest)"
        if let directory = options.findingsDirectory {
            try FileAccess.createDirectory(directory.path)
            try FileAccess.write(finding.input, to: directory.appendingPathComponent("\(id).binpb").path)
            let vector = Self.vector(
                id: id, type: type, input: finding.input, testeeName: testee.hello?.implementation ?? "testee",
                finding: finding)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try FileAccess.write(
                [UInt8](encoder.encode(vector) + Data("\n".utf8)),
                to: directory.appendingPathComponent("\(id).vector.json").path)
        }
        if let regressions = options.regressionDirectory {
            let folder = regressions.appendingPathComponent(FuzzOracle.Target.validation.rawValue)
            try FileAccess.createDirectory(folder.path)
            let selector = UInt8(
                MessageRegistry.allTypes.firstIndex { ObjectIdentifier($0) == ObjectIdentifier(type) }!)
            try FileAccess.write(
                [selector] + finding.input, to: folder.appendingPathComponent("differential-\(slug)-\(digest)").path)
        }
    }

    /// The conformance vector for a finding, with the reference's verdict as the expectation; the comment says
    /// what the testee did, for whoever adds it to conformance/regressions/.
    static func vector(
        id: String, type: any LocationWireMessage.Type, input: [UInt8], testeeName: String, finding: Finding
    ) -> Vector {
        let codec = AnyMessageCodec(type)
        var vector = Vector(
            id: id, messageType: type.fullMessageName, inputHex: Hex.encode(input), result: .valid,
            flags: ["fuzz-finding"],
            comment:
                "Found by `locwire fuzz` against \(testeeName) (\(finding.signature)): \(finding.detail.split(separator: "\n").first ?? "")"
        )
        do {
            let message = try codec.decodeBinary(input)
            vector.canonicalHex = Hex.encode(AnyMessageCodec.encodeBinary(message))
            vector.canonicalJSON = AnyMessageCodec.encodeJSON(message)
        } catch {
            vector.result = .invalid
            vector.errorCategory = BuiltinTestee.category(of: error.code).vectorName
        }
        return vector
    }

    static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
