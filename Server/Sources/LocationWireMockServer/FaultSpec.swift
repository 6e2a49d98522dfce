import LocationWireHTTP

/// One way the mock server misbehaves on a `POST /v1/batches`, with its parameters. What each stores and what
/// the client sees is tabled in Server/MOCK-SERVER.md ("Faults"), the page users read.
public enum Fault: Hashable, Sendable, CustomStringConvertible {
    /// Stores the batch, then closes the connection (FIN) without an answer.
    case dropAfterCommit
    /// 503 with `Retry-After: retryAfterSeconds`; stores nothing.
    case status503(retryAfterSeconds: Int)
    /// 429 with `Retry-After: retryAfterSeconds`; stores nothing.
    case status429(retryAfterSeconds: Int)
    /// Stores and acknowledges the first `keep` share (0 ≤ keep < 1, rounded down) of the batch's fixes, taken in
    /// sequence order, so that the ack's ranges end below every fix left out and never cover one (`§ack-scope`).
    case partialAck(keep: Double)
    /// Stores nothing and answers with an ack of another batch (see ``MockStore``).
    case duplicateResponse
    /// Stores the batch, sends `keep` (0 ≤ keep < 1) of the ack's bytes under the full `Content-Length`, then
    /// closes.
    case truncate(keep: Double)
    /// Stores the batch and answers right, `delayMs` milliseconds later.
    case slow(delayMs: Int)
    /// Resets the connection (RST) without an answer, before or after the commit (`either`: a fair draw).
    case reset(ResetMoment)
    /// Stores the batch and answers right, with commands in the ack: a new one (`RECORD_FIX`, `REQUEST_REGIONS`
    /// and `UPLOAD_NOW` in turn) and the installation's previous one again, under its old id. A device runs each
    /// at most once (`§commands`); the report counts the fixes stored as `SERVER_REQUEST` against the
    /// `RECORD_FIX` commands given.
    case commands

    public enum ResetMoment: String, Hashable, Sendable, CaseIterable {
        case before, after, either
    }

    /// The name in a SPEC, in the journal and in the report.
    public var name: String {
        switch self {
        case .dropAfterCommit: "drop-after-commit"
        case .status503: "status-503"
        case .status429: "status-429"
        case .partialAck: "partial-ack"
        case .duplicateResponse: "duplicate-response"
        case .truncate: "truncate"
        case .slow: "slow"
        case .reset: "reset"
        case .commands: "commands"
        }
    }

    public var description: String { name }
}

/// Which faults the mock server injects and how often: the `--faults SPEC` of `locwire-server mock-server`.
///
///     SPEC   = "none" | ENTRY ("," ENTRY)*
///     ENTRY  = FAULT "=" PROBABILITY (":" PARAM "=" VALUE)*
///
/// Probabilities are in [0, 1] and add up to at most 1; the rest is the chance of no fault. Each request draws one
/// number from the seeded generator and gets at most one fault (``fault(forDraw:)``), so a run is reproducible from
/// its seed and the order the requests arrive in. The parameters and their defaults are in
/// ``fault(named:parameters:entry:)`` and, for users, in Server/MOCK-SERVER.md.
public struct FaultSpec: Hashable, Sendable, CustomStringConvertible {
    /// The faults with their probabilities, in the order given.
    public var entries: [(fault: Fault, probability: Double)]

    public static func == (a: Self, b: Self) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.fault == $1.fault && $0.probability == $1.probability }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.fault)
            hasher.combine(entry.probability)
        }
    }

    public init(entries: [(fault: Fault, probability: Double)] = []) {
        self.entries = entries
    }

    /// A SPEC that is not of the grammar: the message says which entry and why.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Parses a SPEC of the grammar above.
    public init(parsing text: String) throws(ParseError) {
        entries = []
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty || trimmed == "none" { return }
        var total = 0.0
        var seen = Set<String>()
        for entry in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let head = parts[0].split(separator: "=", maxSplits: 1).map(String.init)
            guard head.count == 2 else {
                throw ParseError(message: "'\(entry)': write FAULT=PROBABILITY, e.g. status-503=0.05")
            }
            let name = head[0]
            guard let probability = Double(head[1]), probability.isFinite, (0...1).contains(probability) else {
                throw ParseError(message: "'\(entry)': the probability '\(head[1])' is not a number in [0, 1]")
            }
            guard seen.insert(name).inserted else { throw ParseError(message: "'\(name)' appears twice") }
            var parameters: [String: String] = [:]
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, parameters[pair[0]] == nil else {
                    throw ParseError(message: "'\(entry)': '\(parameter)' is not one PARAM=VALUE")
                }
                parameters[pair[0]] = pair[1]
            }
            let fault = try Self.fault(named: name, parameters: parameters, entry: String(entry))
            total += probability
            entries.append((fault, probability))
        }
        // A little slack for decimals such as 0.1 + 0.2 that do not add up exactly in binary.
        guard total <= 1 + 1e-9 else {
            throw ParseError(message: "the probabilities add up to \(total), more than 1")
        }
    }

    static func fault(named name: String, parameters: [String: String], entry: String) throws(ParseError) -> Fault {
        var remaining = parameters
        func take(_ key: String) -> String? { remaining.removeValue(forKey: key) }
        func integer(_ key: String, default value: Int, in range: ClosedRange<Int>) throws(ParseError) -> Int {
            guard let text = take(key) else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw ParseError(message: "'\(entry)': \(key) must be an integer in \(range), not '\(text)'")
            }
            return number
        }
        func share(_ key: String) throws(ParseError) -> Double {
            guard let text = take(key) else { return 0.5 }
            guard let number = Double(text), number >= 0, number < 1 else {
                throw ParseError(message: "'\(entry)': \(key) must be a share in [0, 1), not '\(text)'")
            }
            return number
        }
        let fault: Fault
        switch name {
        case "drop-after-commit": fault = .dropAfterCommit
        case "status-503": fault = .status503(retryAfterSeconds: try integer("retry-after", default: 1, in: 0...86400))
        case "status-429": fault = .status429(retryAfterSeconds: try integer("retry-after", default: 1, in: 0...86400))
        case "partial-ack": fault = .partialAck(keep: try share("keep"))
        case "duplicate-response": fault = .duplicateResponse
        case "commands": fault = .commands
        case "truncate": fault = .truncate(keep: try share("keep"))
        case "slow": fault = .slow(delayMs: try integer("delay-ms", default: 2000, in: 0...600_000))
        case "reset":
            let text = take("when") ?? "either"
            guard let moment = Fault.ResetMoment(rawValue: text) else {
                throw ParseError(message: "'\(entry)': when must be before, after or either, not '\(text)'")
            }
            fault = .reset(moment)
        default:
            throw ParseError(
                message: "'\(name)' is not a fault; the faults are drop-after-commit, status-503, status-429, "
                    + "partial-ack, duplicate-response, truncate, slow, reset, commands")
        }
        if let unknown = remaining.keys.sorted().first {
            throw ParseError(message: "'\(entry)': \(name) takes no parameter '\(unknown)'")
        }
        return fault
    }

    /// The fault for a draw `u` in [0, 1): the entry whose share of [0, 1), laid out in order, holds `u`; nil
    /// past the last one.
    public func fault(forDraw u: Double) -> Fault? {
        var upper = 0.0
        for entry in entries {
            upper += entry.probability
            if u < upper { return entry.fault }
        }
        return nil
    }

    /// The SPEC again, every parameter written out, as the server prints it at start.
    public var description: String {
        guard !entries.isEmpty else { return "none" }
        return entries.map { entry in
            let parameters =
                switch entry.fault {
                case .status503(let seconds), .status429(let seconds): ":retry-after=\(seconds)"
                case .partialAck(let keep), .truncate(let keep): ":keep=\(keep)"
                case .slow(let delayMs): ":delay-ms=\(delayMs)"
                case .reset(let moment): ":when=\(moment.rawValue)"
                case .dropAfterCommit, .duplicateResponse, .commands: ""
                }
            return "\(entry.fault.name)=\(entry.probability)\(parameters)"
        }.joined(separator: ",")
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small generator whose whole state is one seed, so that a run of the
/// mock server is reproducible from `--seed`.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
