import Crypto
import LocationWire
import LocationWireSession

/// The rows every backend stores, built once from the messages so that SQLite and PostgreSQL keep the same
/// columns. Wire UInt64 values (install ids, sequences) are kept as the same 64 bits in a signed 64-bit column.
///
/// Each item row keeps the item's canonical encoding (`body`, the codec's bytes) next to copies of the fields
/// that queries need; the read-back decodes `body`, so a column can never disagree with what was acked.
enum StoredRows {
    /// The digest a token is kept as: SHA-256 of its UTF-8 bytes, lowercase hex. A leaked database then gives
    /// no usable tokens.
    static func tokenDigest(_ token: String) -> String {
        lowercaseHex(sha256(token))
    }

    /// SHA-256 of `text`'s UTF-8 bytes: the digest of tokens, and the bucket of a device
    /// (``ShardMap/bucket(ofDevice:)``).
    static func sha256(_ text: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)))
    }

    /// What an installation's ledger record keeps after its device's data is erased (`§http-erase`): the
    /// sequence sets and floors, which are numbers and say nothing of where or when, so that a resend of an
    /// erased item is `DUPLICATE` and no erased number is reported lost. The lifecycle events' kinds and times
    /// go: a lifecycle event resent after an erasure is stored again.
    static func erased(_ record: InstallationRecord) -> InstallationRecord {
        var kept = record
        kept.lifecycleKinds = []
        kept.lifecycleTimes = []
        return kept
    }

    /// What an erasure or a retention pass keeps of the assignment last sent to a device
    /// (`§http-erase-assignments`): an empty `FULL_REPLACEMENT` of its version, so that the next plan is full and
    /// numbered above it (a device ignores an assignment whose version is not above the one it holds). `removed`
    /// says whether there was more than that to remove.
    static func erasedAssignment(_ body: [UInt8]) -> (kept: [UInt8], removed: Bool) {
        var kept = RegionAssignment()
        kept.mode = .fullReplacement
        kept.assignmentVersion = (try? RegionAssignment(serializedBytes: body))?.assignmentVersion ?? 0
        let bytes = kept.serializedBytes()
        return (bytes, bytes != body)
    }

    /// Key `(device_id, install_id, sequence)` (`§fix-key`).
    struct Fix {
        var sequence: Int64
        var timeMs: Int64
        var latitudeE7: Int32?
        var longitudeE7: Int32?
        var body: [UInt8]

        init(_ fix: LocationFix) {
            sequence = Int64(bitPattern: fix.sequence)
            timeMs = fix.timeMs
            latitudeE7 = fix.latitudeE7
            longitudeE7 = fix.longitudeE7
            body = fix.serializedBytes()
        }
    }

    /// Key `(device_id, install_id, event_sequence)`.
    struct FenceEvent {
        var eventSequence: Int64
        var regionId: String
        var kind: Int32
        var body: [UInt8]

        init(_ event: LocationWire.FenceEvent) {
            eventSequence = Int64(bitPattern: event.eventSequence)
            regionId = event.regionId
            kind = event.kind.rawValue
            body = event.serializedBytes()
        }
    }

    /// Lifecycle events have no sequence; the ledger de-duplicates them by `(kind, time_ms)`, the key here too.
    struct LifecycleEvent {
        var kind: Int32
        var timeMs: Int64
        var body: [UInt8]

        init(_ event: LocationWire.LifecycleEvent) {
            kind = event.kind.rawValue
            timeMs = event.timeMs
            body = event.serializedBytes()
        }
    }

    /// The latest `DeviceStatus` of an installation: the one of the batch with the greatest `sent_at_ms`, so
    /// that a backlog sent late does not overwrite a newer status.
    struct DeviceStatus {
        var sentAtMs: Int64
        var body: [UInt8]

        init?(_ batch: LocationBatch) {
            guard let status = batch.deviceStatus else { return nil }
            sentAtMs = batch.sentAtMs
            body = status.serializedBytes()
        }
    }
}
