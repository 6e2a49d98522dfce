import LocationWireHTTP
import LocationWireRandom

/// One way the mock server misbehaves on a `POST /v1/batches`, with its parameters. ``FaultCatalogue`` is the one
/// table of them: names, parameters with their defaults, what each stores and what the client sees; the parser,
/// its error messages, `mock-server run --help` and Server/MOCK-SERVER.md's table all come from it.
public enum Fault: Hashable, Sendable, CustomStringConvertible {
    /// Stores the batch, then closes the connection (FIN) without an answer.
    case dropAfterCommit
    /// 503 with `Retry-After` in `form`: `retryAfterSeconds`, or the HTTP-date that many seconds on; stores nothing.
    case status503(retryAfterSeconds: Int, form: RetryAfterForm = .seconds)
    /// 429 with `Retry-After` as for ``status503(retryAfterSeconds:form:)``; stores nothing.
    case status429(retryAfterSeconds: Int, form: RetryAfterForm = .seconds)
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
    /// 400 `truncated`, as for a body that does not decode; stores nothing.
    case status400
    /// 401 `unauthenticated` with `WWW-Authenticate: Bearer`; stores nothing.
    case status401
    /// 403 `device-mismatch`; stores nothing.
    case status403
    /// 408 `incomplete-body`, with `Retry-After` when `retryAfterSeconds` is set; stores nothing.
    case status408(retryAfterSeconds: Int?)
    /// 413 `body-too-large`, with `maxBatchBytes` when set; stores nothing.
    case status413(maxBatchBytes: Int?)
    /// 415 `unsupported-content-encoding` with `Accept-Encoding: gzip`; stores nothing.
    case status415
    /// Stores nothing; a 200 whose `Content-Length` covers a whole ack claiming every fix `ACCEPTED` and padding
    /// after it, of which only the ack's bytes are sent before the connection closes (`§http-whole-body`).
    case cutAck
    /// Stores nothing; a `PROCESSED` ack with every fix and fence event `RETRY_LATER`.
    case retryLater
    /// Stores nothing; a `PROCESSED` ack with every fix `REJECTED` with reason ``unknownRejectReason``.
    case rejectUnknown
    /// Stores the batch and answers right, with a `TrackingPolicy` of this `policy_version` in the ack.
    case policy(version: UInt64)
    /// Stores the batch and answers right, with `latest_assignment_version` ``hintedAssignmentVersion``.
    case hint

    public enum ResetMoment: String, Hashable, Sendable, CaseIterable {
        case before, after, either
    }

    /// How a `Retry-After` is written (`§http-retry-after`: a device reads both).
    public enum RetryAfterForm: String, Hashable, Sendable, CaseIterable {
        /// delay-seconds.
        case seconds
        /// The IMF-fixdate of the time the answer is sent plus the seconds.
        case date
    }

    /// The reject reason of `reject-unknown`: one this revision does not define (`§reject-reason-unknown`).
    public static let unknownRejectReason: Int32 = 99
    /// The `latest_assignment_version` of `hint`.
    public static let hintedAssignmentVersion: UInt64 = 5

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
        case .status400: "status-400"
        case .status401: "status-401"
        case .status403: "status-403"
        case .status408: "status-408"
        case .status413: "status-413"
        case .status415: "status-415"
        case .cutAck: "cut-ack"
        case .retryLater: "retry-later"
        case .rejectUnknown: "reject-unknown"
        case .policy: "policy"
        case .hint: "hint"
        }
    }

    /// Every parameter written out, in the catalogue's order, as a SPEC takes them: `[(name, value)]`.
    public var parameters: [(name: String, value: String)] {
        func optional(_ value: Int?) -> String { value.map(String.init) ?? "none" }
        return switch self {
        case .status503(let seconds, let form), .status429(let seconds, let form):
            [("retry-after", "\(seconds)"), ("retry-after-form", form.rawValue)]
        case .partialAck(let keep), .truncate(let keep): [("keep", "\(keep)")]
        case .slow(let delayMs): [("delay-ms", "\(delayMs)")]
        case .reset(let moment): [("when", moment.rawValue)]
        case .status408(let seconds): [("retry-after", optional(seconds))]
        case .status413(let limit): [("max-batch-bytes", optional(limit))]
        case .policy(let version): [("version", "\(version)")]
        case .dropAfterCommit, .duplicateResponse, .commands, .status400, .status401, .status403, .status415, .cutAck,
            .retryLater, .rejectUnknown, .hint:
            []
        }
    }

    public var description: String { name }
}

/// The faults the mock server knows: one row per fault, with its parameters, what it stores and what the client
/// sees. The SPEC parser reads parameters and their defaults from here, so a default stated here is the default
/// applied; MockServerTests hold Server/MOCK-SERVER.md's table to ``markdownTable``.
public struct FaultCatalogue: Sendable {
    /// One fault of the table.
    public struct Entry: Sendable {
        public var name: String
        public var parameters: [Parameter]
        /// What the mock server stores of the batch.
        public var stores: String
        /// What the client sees, and what it must do.
        public var clientSees: String
        /// Builds the fault from its parameters; the reader supplies the defaults above.
        let make: @Sendable (inout ParameterReader) throws(FaultSpec.ParseError) -> Fault
    }

    /// One parameter of a fault: `NAME=VALUES`, with the default taken when it is not given.
    public struct Parameter: Sendable {
        public var name: String
        /// The values taken, as the documentation writes them: `SECONDS`, `seconds|date`.
        public var values: String
        /// The default, as it would be written in a SPEC.
        public var defaultValue: String
        /// Said after the default in the table, e.g. the range.
        public var note: String = ""
    }

    /// The parameters of one SPEC entry, read against its fault's ``Parameter``s.
    public struct ParameterReader {
        let entry: String
        let fault: Entry
        var given: [String: String]

        func text(_ key: String) -> String {
            guard let parameter = fault.parameters.first(where: { $0.name == key }) else {
                preconditionFailure("\(fault.name) reads the undeclared parameter \(key)")
            }
            return given[key] ?? parameter.defaultValue
        }

        func fail(_ key: String, _ what: String) -> FaultSpec.ParseError {
            FaultSpec.ParseError(message: "'\(entry)': \(key) must be \(what), not '\(text(key))'")
        }

        func integer(_ key: String, in range: ClosedRange<Int>) throws(FaultSpec.ParseError) -> Int {
            guard let number = Int(text(key)), range.contains(number) else {
                throw fail(key, "an integer in \(range)")
            }
            return number
        }

        func integerOrNone(_ key: String, in range: ClosedRange<Int>) throws(FaultSpec.ParseError) -> Int? {
            if text(key) == "none" { return nil }
            guard let number = Int(text(key)), range.contains(number) else {
                throw fail(key, "an integer in \(range) or none")
            }
            return number
        }

        func share(_ key: String) throws(FaultSpec.ParseError) -> Double {
            guard let number = Double(text(key)), number >= 0, number < 1 else {
                throw fail(key, "a share in [0, 1)")
            }
            return number
        }

        func choice<Choice: RawRepresentable & CaseIterable>(
            _ key: String, of _: Choice.Type
        ) throws(FaultSpec.ParseError) -> Choice where Choice.RawValue == String {
            guard let choice = Choice(rawValue: text(key)) else {
                throw fail(key, Choice.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return choice
        }
    }

    public var entries: [Entry]

    /// The entry of a fault name, or nil.
    public func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// The fault names, in the table's order.
    public var names: [String] { entries.map(\.name) }

    /// One line for `mock-server run --help`: each fault with its parameters.
    public var helpText: String {
        entries.map { entry in
            entry.parameters.isEmpty
                ? entry.name
                : "\(entry.name) (\(entry.parameters.map { "\($0.name)=\($0.values)" }.joined(separator: ", ")))"
        }.joined(separator: ", ")
    }

    /// The table of Server/MOCK-SERVER.md ("Faults"), exactly as the page has it.
    public var markdownTable: String {
        func cell(_ text: String) -> String { text.replacing("|", with: "\\|") }
        var lines = ["| FAULT | PARAM (default) | stores | the client sees |", "|---|---|---|---|"]
        for entry in entries {
            let parameters = entry.parameters.map { parameter in
                "`\(parameter.name)=\(parameter.values)` (\(parameter.defaultValue))"
                    + (parameter.note.isEmpty ? "" : ", \(parameter.note)")
            }.joined(separator: "; ")
            let cells = ["`\(entry.name)`", cell(parameters), cell(entry.stores), cell(entry.clientSees)]
            lines.append("|" + cells.map { $0.isEmpty ? " " : " \($0) " }.joined(separator: "|") + "|")
        }
        return lines.joined(separator: "\n")
    }

    /// The mock server's faults.
    public static let standard = FaultCatalogue(entries: [
        Entry(
            name: "drop-after-commit", parameters: [], stores: "the batch",
            clientSees: "the connection closed (FIN) without an answer"
        ) { _ throws(FaultSpec.ParseError) in .dropAfterCommit },
        statusWithWait(503, code: "unavailable"),
        statusWithWait(429, code: "rate-limited"),
        Entry(
            name: "partial-ack",
            parameters: [Parameter(name: "keep", values: "SHARE", defaultValue: "0.5", note: "0 ≤ SHARE < 1")],
            stores: "the first SHARE of the fixes, by sequence",
            clientSees: "a `200` ack whose ranges cover only those; the rest (fence events too) is unacknowledged "
                + "and must be kept and sent again"
        ) { reader throws(FaultSpec.ParseError) in .partialAck(keep: try reader.share("keep")) },
        Entry(
            name: "duplicate-response", parameters: [], stores: "nothing",
            clientSees: "a `200` ack of another batch: the installation's latest ack of another `batch_id`, sent "
                + "again (the same BatchAck, in this request's format: an ack delivered twice, or a stale one); when "
                + "there is none yet, an ack for an unused `batch_id` that claims the request's fixes `ACCEPTED`. A "
                + "client must match `batch_id` and ignore it (`ack-unknown-batch`), or apply it to the batch it "
                + "names; for the batch just sent it is no ack, a failure (`§http-late-ack`)"
        ) { _ throws(FaultSpec.ParseError) in .duplicateResponse },
        Entry(
            name: "truncate",
            parameters: [Parameter(name: "keep", values: "SHARE", defaultValue: "0.5", note: "of the ack's bytes")],
            stores: "the batch",
            clientSees: "a `200` with the whole ack's `Content-Length`, the first SHARE of its bytes, then the "
                + "connection closes"
        ) { reader throws(FaultSpec.ParseError) in .truncate(keep: try reader.share("keep")) },
        Entry(
            name: "slow",
            parameters: [Parameter(name: "delay-ms", values: "MS", defaultValue: "2000", note: "at most 600000")],
            stores: "the batch, at once",
            clientSees: "the right ack, MS later (a client whose time-out is shorter gives up, and its resend gets "
                + "`DUPLICATE`)"
        ) { reader throws(FaultSpec.ParseError) in .slow(delayMs: try reader.integer("delay-ms", in: 0...600_000)) },
        Entry(
            name: "reset",
            parameters: [Parameter(name: "when", values: "before|after|either", defaultValue: "either")],
            stores: "nothing before, the batch after the commit",
            clientSees: "the connection reset (RST, `ECONNRESET`) without an answer; `either` draws a fair coin per "
                + "request"
        ) { reader throws(FaultSpec.ParseError) in .reset(try reader.choice("when", of: Fault.ResetMoment.self)) },
        Entry(
            name: "commands", parameters: [], stores: "the batch",
            clientSees: "the right ack with commands in it: a new one (`RECORD_FIX`, `REQUEST_REGIONS` and "
                + "`UPLOAD_NOW` in turn, each id above the last and at least the server's clock in ms) and the "
                + "installation's previous one again under its old id. A client runs each at most once "
                + "(`§commands`): the check `commands` fails when more fixes were stored with reason "
                + "`SERVER_REQUEST` than `RECORD_FIX` commands were given"
        ) { _ throws(FaultSpec.ParseError) in .commands },
        Entry(
            name: "status-400", parameters: [], stores: "nothing",
            clientSees: "`400` with error code `truncated` (as for a body that does not decode): the client must "
                + "not send the same bytes again, and backs off (`new-bytes-after-400`)"
        ) { _ throws(FaultSpec.ParseError) in .status400 },
        Entry(
            name: "status-401", parameters: [], stores: "nothing",
            clientSees: "`401` `unauthenticated` with `WWW-Authenticate: Bearer`: the client must send nothing more "
                + "with this token, batches or regions (`credentials`)"
        ) { _ throws(FaultSpec.ParseError) in .status401 },
        Entry(
            name: "status-403", parameters: [], stores: "nothing",
            clientSees: "`403` `device-mismatch`: as `status-401`"
        ) { _ throws(FaultSpec.ParseError) in .status403 },
        Entry(
            name: "status-408",
            parameters: [Parameter(name: "retry-after", values: "SECONDS|none", defaultValue: "none")],
            stores: "nothing",
            clientSees: "`408` `incomplete-body` and `Connection: close`, with `Retry-After: SECONDS` unless none: "
                + "the client waits it (or its back-off), then sends batches of at most half the size, never under "
                + "16384 (`shrink`)"
        ) { reader throws(FaultSpec.ParseError) in
            .status408(retryAfterSeconds: try reader.integerOrNone("retry-after", in: 0...86400))
        },
        Entry(
            name: "status-413",
            parameters: [Parameter(name: "max-batch-bytes", values: "N|none", defaultValue: "none")],
            stores: "nothing",
            clientSees: "`413` `body-too-large` and `Connection: close`, with `maxBatchBytes` N unless none: the "
                + "client builds within N (counted as at least 16384) when that is below the size it sent, else "
                + "within half that size, and sends again at once; an item refused alone is discarded (`shrink`)"
        ) { reader throws(FaultSpec.ParseError) in
            .status413(maxBatchBytes: try reader.integerOrNone("max-batch-bytes", in: 1...67_108_864))
        },
        Entry(
            name: "status-415", parameters: [], stores: "nothing",
            clientSees: "`415` `unsupported-content-encoding` with `Accept-Encoding: gzip`: the client sends "
                + "without content coding from then on (`encoding-after-415`)"
        ) { _ throws(FaultSpec.ParseError) in .status415 },
        Entry(
            name: "cut-ack", parameters: [], stores: "nothing",
            clientSees: "a `200` whose `Content-Length` covers a whole ack claiming every fix of the batch "
                + "`ACCEPTED` and padding after it (JSON: spaces; binary: an unknown field 50001); only the ack's "
                + "bytes are sent, then the connection closes. They parse, but the body is cut short: no ack "
                + "(`§http-whole-body`), and a client that applies it loses the fixes"
        ) { _ throws(FaultSpec.ParseError) in .cutAck },
        Entry(
            name: "retry-later", parameters: [], stores: "nothing",
            clientSees: "a `200` `PROCESSED` ack with every fix and fence event `RETRY_LATER`: the client keeps "
                + "them, and it is a failure for the back-off (`paced`)"
        ) { _ throws(FaultSpec.ParseError) in .retryLater },
        Entry(
            name: "reject-unknown", parameters: [], stores: "nothing; the journal lists the fixes as `rejected`",
            clientSees: "a `200` `PROCESSED` ack with every fix `REJECTED` with reason 99, which this revision does "
                + "not define, and fence events `RETRY_LATER`: the client deletes the fixes and never sends them "
                + "again (`rejected-not-resent`)"
        ) { _ throws(FaultSpec.ParseError) in .rejectUnknown },
        Entry(
            name: "policy",
            parameters: [Parameter(name: "version", values: "N", defaultValue: "7")],
            stores: "the batch",
            clientSees: "the right ack with a `TrackingPolicy` of `policy_version` N and nothing else set: every "
                + "later batch states `policy_version` N or more (`policy-version`)"
        ) { reader throws(FaultSpec.ParseError) in
            .policy(version: UInt64(try reader.integer("version", in: 1...Int.max)))
        },
        Entry(
            name: "hint", parameters: [], stores: "the batch",
            clientSees: "the right ack with `latest_assignment_version` 5: a client that asks `POST /v1/regions` "
                + "gets `404` `not-offered` and must not ask again (`regions-absent`)"
        ) { _ throws(FaultSpec.ParseError) in .hint },
    ])

    /// `status-503` and `status-429`: a status that states when to come back.
    private static func statusWithWait(_ status: Int, code: String) -> Entry {
        Entry(
            name: "status-\(status)",
            parameters: [
                Parameter(name: "retry-after", values: "SECONDS", defaultValue: "1"),
                Parameter(name: "retry-after-form", values: "seconds|date", defaultValue: "seconds"),
            ],
            stores: "nothing",
            clientSees: "`\(status)`, error code `\(code)`, `Retry-After: SECONDS`, or with `date` the IMF-fixdate "
                + "of the answer's time plus SECONDS: the client waits that long (`paced`)"
        ) { reader throws(FaultSpec.ParseError) in
            let seconds = try reader.integer("retry-after", in: 0...86400)
            let form = try reader.choice("retry-after-form", of: Fault.RetryAfterForm.self)
            return status == 503
                ? .status503(retryAfterSeconds: seconds, form: form)
                : .status429(retryAfterSeconds: seconds, form: form)
        }
    }
}

/// Which faults the mock server injects and how often: the `--faults SPEC` of `locwire-server mock-server`.
///
///     SPEC   = "none" | ENTRY ("," ENTRY)*      ; each FAULT in at most one ENTRY
///     ENTRY  = FAULT "=" PROBABILITY (":" PARAM "=" VALUE)*
///
/// Probabilities are in [0, 1] and add up to at most 1; the rest is the chance of no fault. Each request draws one
/// number from the seeded generator and gets at most one fault (``fault(forDraw:)``), so a run is reproducible from
/// its seed and the order the requests arrive in. The faults, their parameters and defaults are
/// ``FaultCatalogue/standard``.
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
    public init(parsing text: String, catalogue: FaultCatalogue = .standard) throws(ParseError) {
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
            guard let known = catalogue.entry(named: name) else {
                throw ParseError(
                    message: "'\(name)' is not a fault; the faults are "
                        + catalogue.names.joined(separator: ", "))
            }
            guard seen.insert(name).inserted else {
                throw ParseError(message: "'\(name)' appears twice; give each fault once, with its parameters")
            }
            var parameters: [String: String] = [:]
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, parameters[pair[0]] == nil else {
                    throw ParseError(message: "'\(entry)': '\(parameter)' is not one PARAM=VALUE")
                }
                parameters[pair[0]] = pair[1]
            }
            if let unknown = parameters.keys.sorted().first(where: { key in
                !known.parameters.contains { $0.name == key }
            }) {
                let takes = known.parameters.map(\.name)
                throw ParseError(
                    message: "'\(entry)': \(name) takes no parameter '\(unknown)'"
                        + (takes.isEmpty ? "" : "; it takes \(takes.joined(separator: ", "))"))
            }
            var reader = FaultCatalogue.ParameterReader(entry: String(entry), fault: known, given: parameters)
            let fault = try known.make(&reader)
            total += probability
            entries.append((fault, probability))
        }
        // A little slack for decimals such as 0.1 + 0.2 that do not add up exactly in binary.
        guard total <= 1 + 1e-9 else {
            throw ParseError(message: "the probabilities add up to \(total), more than 1")
        }
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
            "\(entry.fault.name)=\(entry.probability)"
                + entry.fault.parameters.map { ":\($0.name)=\($0.value)" }.joined()
        }.joined(separator: ",")
    }
}
