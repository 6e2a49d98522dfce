import LocationWire

/// `locationwire.conformance.v1.LedgerResponse`: the server's ack to each batch, and what it keeps.
public struct LedgerResponse: ProtocolMessage {
    public var vectorId: String = ""
    public var acks: [BatchAck] = []
    public var installations: [InstallationState] = []
    /// Set when the ledger did not run (the oneof `failure`).
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(vectorId: String, failure: TesteeFailure? = nil) {
        self.vectorId = vectorId
        self.failure = failure
    }

    public static let fieldTable = FieldTable<LedgerResponse>(
        "locationwire.conformance.v1.LedgerResponse",
        [
            .singular(1, "vector_id", .string, \.vectorId),
            .repeated(2, "acks", .message, \.acks),
            .repeated(3, "installations", .message, \.installations),
        ] + TesteeFailure.oneofMembers(skipped: 4, runtimeError: 5, in: \.failure))
}

/// `locationwire.conformance.v1.InstallationState`: what a server knows of one installation.
public struct InstallationState: ProtocolMessage {
    public var deviceId: String = ""
    public var installId: UInt64 = 0
    public var storedFixes: [SequenceRange] = []
    public var rejectedFixes: [SequenceRange] = []
    public var lostFixes: [SequenceRange] = []
    public var storedEvents: [SequenceRange] = []
    public var rejectedEvents: [SequenceRange] = []
    public var lostEvents: [SequenceRange] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public static let fieldTable = FieldTable<InstallationState>(
        "locationwire.conformance.v1.InstallationState",
        [
            .singular(1, "device_id", .string, \.deviceId),
            .singular(2, "install_id", .fixed64, \.installId),
            .repeated(3, "stored_fixes", .message, \.storedFixes),
            .repeated(4, "rejected_fixes", .message, \.rejectedFixes),
            .repeated(5, "lost_fixes", .message, \.lostFixes),
            .repeated(6, "stored_events", .message, \.storedEvents),
            .repeated(7, "rejected_events", .message, \.rejectedEvents),
            .repeated(8, "lost_events", .message, \.lostEvents),
        ])
}

/// `locationwire.conformance.v1.SequenceRange`: the sequence numbers [first, last], both included.
public struct SequenceRange: ProtocolMessage {
    public var first: UInt64 = 0
    public var last: UInt64 = 0
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ range: ClosedRange<UInt64>) {
        first = range.lowerBound
        last = range.upperBound
    }

    public static let fieldTable = FieldTable<SequenceRange>(
        "locationwire.conformance.v1.SequenceRange",
        [
            .singular(1, "first", .uint64, \.first),
            .singular(2, "last", .uint64, \.last),
        ])
}
