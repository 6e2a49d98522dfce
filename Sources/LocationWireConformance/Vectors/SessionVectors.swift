import Foundation
import LocationWire
import LocationWireJSON

// The expectations of the `session` (device side) and `ledger` (server side) families. A vector of these
// families carries its request as proto3 JSON (`request`) and states only what the spec fixes: which items a
// device keeps, the codes it ignores acks with, the shape of the batch it builds next; a server's outcome, each
// item's result and the keys it keeps. What implementations may do differently (how ranges are coalesced, how a
// batch is cut to fit a byte limit) is left out.

extension JSONValue {
    /// The value as compact JSON text, keys sorted, as a vector file holds it.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// Session family: what one step of a `SessionRequest` must have done. Every key but `step` is optional: an
/// absent key is not checked.
public struct ExpectedStep: Codable, Sendable, Equatable {
    /// The step's index in the request's `steps`, from 0.
    public var step: Int
    /// record_fix, record_fence_event: the sequence number the item gets.
    public var sequence: UInt64?
    /// send: the batch the device must build. The runner also checks, for every batch sent, that it carries the
    /// request's device_id and install_id and the step's batch_id, boot_id and sent_at_ms (= now_ms).
    public var batch: ExpectedBatch?
    /// send: true when the device must send nothing at this step.
    public var nothingSent: Bool?
    /// ack, ack_bytes: `applied`, or the code the device ignores the ack with (`ack-unknown-batch`, ...).
    public var ack: String?
    /// ack, applied: the command ids the device executes now, in order.
    public var executedCommandIds: [UInt64]?
    /// ack, applied: whether the ack asks for a RegionRequest.
    public var requestRegions: Bool?
    /// After the step: the fix sequences the device holds, ascending.
    public var heldFixes: [UInt64]?
    /// After the step: the fence event sequences the device holds, ascending.
    public var heldEvents: [UInt64]?
    /// After the step: how many lifecycle events the device holds.
    public var heldLifecycleEvents: UInt32?
    /// After the step: the floors the device's next batch states.
    public var fixSequenceFloor: UInt64?
    public var eventSequenceFloor: UInt64?

    public init(step: Int) {
        self.step = step
    }
}

/// Session family: what a batch the device builds must carry. Absent keys are not checked.
public struct ExpectedBatch: Codable, Sendable, Equatable {
    /// The backlog's fix sequences, in order, whether sent as rows or compact.
    public var backlog: [UInt64]?
    /// `rows`, `compact`, or `none` (no backlog).
    public var backlogForm: String?
    /// The live fix's sequence; 0: no live fix.
    public var liveFix: UInt64?
    /// The fence events' sequences, in order.
    public var events: [UInt64]?
    /// How many lifecycle events it carries.
    public var lifecycleEvents: UInt32?
    /// LocationBatch.fix_sequence_floor and event_sequence_floor.
    public var fixSequenceFloor: UInt64?
    public var eventSequenceFloor: UInt64?
    /// Whether it carries device_status, armed_regions.
    public var deviceStatus: Bool?
    public var armedRegions: Bool?
    /// The boot_id of each fix as written, backlog then live fix (0 where it equals the batch's, `§item-boot`).
    public var fixBootIds: [UInt64]?
    /// LocationBatch.protocol_revision.
    public var protocolRevision: UInt32?
    /// The largest encoded size the batch may have, bytes (`§batch-size`).
    public var maxBytes: Int?
    /// The step whose batch was refused as too large without a usable limit: this one must keep within the limit
    /// that gives, half that batch's encoded size but not under 16384 bytes unless it was within 16384 already
    /// (proto/HTTP.md `§http-shrink`). Only the device knows the size it sent, so the judge computes the limit.
    public var shrunkAfterStep: Int?

    public init() {}
}

/// Ledger family: the BatchAck a server must answer one batch with. Item results are read per item from the
/// ranges (which may be coalesced across numbers the batch did not contain), so only each item's result counts.
/// The runner also checks that every ack names its batch and is one a device would not ignore.
public struct ExpectedAck: Codable, Sendable, Equatable {
    /// `PROCESSED`, `HOLD` or `TOO_LARGE`.
    public var outcome: String
    /// With HOLD: the reason, e.g. `UNKNOWN_DATUM`.
    public var holdReason: String?
    /// With TOO_LARGE: BatchAck.max_batch_bytes.
    public var maxBatchBytes: UInt32?
    /// BatchAck.retry_after_ms.
    public var retryAfterMs: UInt32?
    /// The result of each fix of the batch, by sequence: `ACCEPTED`, `DUPLICATE`, `RETRY_LATER`,
    /// `REJECTED:<reason>` (e.g. `REJECTED:MOCK_LOCATION`).
    public var fixResults: [String: String]?
    /// The same for fence events, by event sequence.
    public var eventResults: [String: String]?
    /// BatchAck.tracking_policy's policy_version, when the ack must carry the server's policy
    /// (`§policy-in-acks`); absent when it may or may not.
    public var trackingPolicyVersion: UInt64?

    public init(outcome: String) {
        self.outcome = outcome
    }
}

/// Ledger family: what the server must know of one installation after the last batch. Each list holds
/// `[first, last]` pairs; an absent list must be empty.
public struct ExpectedInstallation: Codable, Sendable, Equatable {
    public var deviceId: String
    public var installId: UInt64
    public var storedFixes: [[UInt64]]?
    public var rejectedFixes: [[UInt64]]?
    public var lostFixes: [[UInt64]]?
    public var storedEvents: [[UInt64]]?
    public var rejectedEvents: [[UInt64]]?
    public var lostEvents: [[UInt64]]?

    public init(deviceId: String, installId: UInt64) {
        self.deviceId = deviceId
        self.installId = installId
    }
}

/// Short names of the protocol enums in session and ledger vectors: the proto name without its type prefix.
public enum ShortEnumName {
    public static func of<Enum: LocationWireEnum>(_ value: Enum, prefix: String) -> String
    where Enum.RawValue == Int32 {
        guard let name = value.name, name.hasPrefix(prefix) else { return String(value.rawValue) }
        return String(name.dropFirst(prefix.count))
    }

    public static func outcome(_ value: BatchOutcome) -> String { of(value, prefix: "BATCH_OUTCOME_") }
    public static func holdReason(_ value: HoldReason) -> String { of(value, prefix: "HOLD_REASON_") }

    /// `ACCEPTED`, `REJECTED:MOCK_LOCATION`, ...
    public static func result(_ range: AckRange) -> String {
        let result = of(range.result, prefix: "ACK_RESULT_")
        guard range.result == .rejected else { return result }
        return result + ":" + of(range.rejectReason, prefix: "REJECT_REASON_")
    }
}
