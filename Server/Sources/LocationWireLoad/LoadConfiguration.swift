/// What one load run does: how many simulated devices upload to which servers, for how long, in batches of what
/// size. `locwire-server load` fills it from its options.
public struct LoadConfiguration: Sendable {
    /// Base URLs of the servers; device `i` (from 0) talks to `serverURLs[i % count]` for the whole run, as a load
    /// balancer with per-device affinity would send it. At least one.
    public var serverURLs: [String]
    /// Bearer token per device id: `device-1` ... `device-N` must all be present (the JSON that
    /// `serve --extra-devices N-1 --tokens-file F` writes).
    public var tokens: [String: String]
    /// Simulated devices, each one connection and one batch in flight at a time.
    public var devices: Int = 1000
    /// How long devices start new batches; a batch in flight at the end is still answered and counted.
    public var duration: Duration = .seconds(60)
    /// Fixes recorded between two batches of a device (at most 500, the spec's default `max_batch_size`).
    public var fixesPerBatch: Int = 50
    /// Time from one batch's start to the next of the same device; nil sends the next batch as soon as the ack
    /// is applied (a closed loop, the most load the devices can offer).
    public var batchInterval: Duration?
    /// Seeds each device's trace, install id and batch ids, so runs are repeatable up to timing.
    public var seed: UInt64 = 1
    /// Appends every acknowledged fix to this file (``AckJournal``) before the device's next batch.
    public var ackJournalPath: String?
    /// Appends a line for every upload attempt (``RequestLog``): when it started, the device, its latency and
    /// its answer.
    public var requestLogPath: String?
    /// Takes every ack a server sends as the answer to the batch just sent: its `batch_id` is replaced by the
    /// batch's before the device's queue applies it. For the floor servers (`locwire-floor`), which
    /// answer every batch with one constant ack that names no batch; the queue still decodes the ack and checks
    /// its structure (`§ack-ignore`), but nothing checks that the ack is this batch's, so a run with it says how
    /// fast a server answers, not whether it stores. Not with ``ackJournalPath``.
    public var constantAck = false
    /// How often a progress line goes to standard error; nil for none.
    public var progressInterval: Duration? = .seconds(5)
    /// One upload's time-out: past it the batch is given up (`§no-ack`) and sent again.
    public var requestTimeout: Duration = .seconds(30)
    /// The longest a device waits before its first batch, spread evenly, so that N devices do not all connect in
    /// the same millisecond (the server's listen backlog is finite).
    public var startSpread: Duration = .seconds(1)

    public init(serverURLs: [String], tokens: [String: String]) {
        self.serverURLs = serverURLs
        self.tokens = tokens
    }

    /// The id of device `index` (from 0), as `serve --extra-devices` names them.
    public static func deviceId(_ index: Int) -> String { "device-\(index + 1)" }
}

/// A configuration that cannot run, said plainly for the command line.
public struct LoadConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension LoadConfiguration {
    /// Checks what the run needs before any device starts.
    public func validate() throws(LoadConfigurationError) {
        guard !serverURLs.isEmpty else { throw LoadConfigurationError(description: "no --server URL given") }
        for url in serverURLs where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw LoadConfigurationError(description: "--server \(url): not an http:// or https:// URL")
        }
        guard (1...100_000).contains(devices) else {
            throw LoadConfigurationError(description: "--devices must be 1 ... 100000, not \(devices)")
        }
        guard (1...5000).contains(fixesPerBatch) else {
            throw LoadConfigurationError(description: "--fixes-per-batch must be 1 ... 5000, not \(fixesPerBatch)")
        }
        guard duration > .zero else { throw LoadConfigurationError(description: "--seconds must be positive") }
        if constantAck, ackJournalPath != nil {
            throw LoadConfigurationError(
                description: "--constant-ack takes acks that name no batch: nothing it counts is known to be "
                    + "stored, so it cannot write an --ack-journal")
        }
        let missing = (0..<devices).lazy.map(Self.deviceId).first { tokens[$0] == nil }
        if let missing {
            throw LoadConfigurationError(
                description:
                    "the tokens file has no token for \(missing); start serve with --extra-devices \(devices - 1) "
                    + "(or more) and --tokens-file")
        }
    }
}
