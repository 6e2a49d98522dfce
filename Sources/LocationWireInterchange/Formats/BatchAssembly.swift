import LocationWire
import LocationWireFiles
import LocationWireValidation

/// Builds the LocationBatch an import writes, and reads the fixes an export writes.
///
/// The batch's own fields, which none of the foreign formats carry, are chosen so that importing the same file
/// twice gives the same bytes:
/// - `install_id`: given, or an FNV-1a hash of the device id (never 0), so that re-imports of one device's
///   files share one installation and their (device_id, install_id, sequence) keys mean the same fixes.
/// - `batch_id`: an FNV-1a hash of the device id, the number of fixes and the first and last time (never 0).
/// - `sent_at_ms`: the time of the latest fix, as if the batch were sent right after it was recorded.
/// - `boot_id` 0 (unknown) and no `elapsed_realtime_ms`: no format here has a monotonic clock, and one is not
///   invented, unless asked for (`elapsedFromTime`): then the convention `simulate` applies to a GPX track,
///   ``GPXTrace/Options``: `boot_id` 1, and `elapsed_realtime_ms` 3,600,000 at the first fix plus the time since
///   it, so the behaviour commands can replay the batch. `datum` WGS84: GPX, GeoJSON (RFC 7946), OwnTracks,
///   Overland and the CSV columns all use it.
/// - Sequences 1 ... n in time order, `fix_sequence_floor` 1, `protocol_revision` 1. Fixes with equal times keep
///   their file order; a fix earlier than the one before it in the file is sorted to its place in time.
public enum BatchAssembly {
    public static func batch(
        _ fixes: [LocationFix], deviceId: String, installId: UInt64? = nil, elapsedFromTime: Bool = false
    ) throws(InterchangeError) -> (LocationBatch, outOfOrder: Int, sameTime: Int) {
        guard !fixes.isEmpty else { throw InterchangeError("", "no point could be imported (see the summary)") }
        guard !deviceId.isEmpty, deviceId.utf8.count <= 128 else {
            throw InterchangeError("--device-id", "needs 1 to 128 bytes of UTF-8")
        }
        var outOfOrder = 0
        for index in fixes.indices.dropFirst() where fixes[index].timeMs < fixes[index - 1].timeMs { outOfOrder += 1 }
        // Swift's sort is not stable; sorting by (time, file position) is, and keeps equal times in file order.
        var sorted = fixes.enumerated().sorted { ($0.element.timeMs, $0.offset) < ($1.element.timeMs, $1.offset) }
            .map(\.element)
        var sameTime = 0
        for index in sorted.indices {
            sorted[index].sequence = UInt64(index + 1)
            if index > 0, sorted[index].timeMs == sorted[index - 1].timeMs { sameTime += 1 }
        }
        var batch = LocationBatch()
        if elapsedFromTime {
            let convention = GPXTrace.Options()
            let first = sorted[0].timeMs
            batch.bootId = convention.bootId
            for index in sorted.indices {
                sorted[index].elapsedRealtimeMs = convention.firstElapsedMs + UInt64(sorted[index].timeMs - first)
            }
        }
        batch.deviceId = deviceId
        batch.installId = installId ?? nonZero(fnv1a(Array(deviceId.utf8)))
        let last = sorted[sorted.count - 1].timeMs
        batch.batchId = nonZero(
            fnv1a(
                Array(deviceId.utf8) + bytes(UInt64(sorted.count)) + bytes(UInt64(bitPattern: sorted[0].timeMs))
                    + bytes(UInt64(bitPattern: last))))
        batch.sentAtMs = last
        batch.datum = .wgs84
        batch.fixes = sorted
        batch.fixSequenceFloor = 1
        batch.protocolRevision = 1
        let report = batch.validationReport()
        guard report.isValid else {
            // The converter range-checks every value, so this is a bug in it, not bad input; say so.
            throw InterchangeError(
                "", "internal error: the imported batch breaks \(report.errors.first.map { "\($0)" } ?? "a rule")")
        }
        return (batch, outOfOrder, sameTime)
    }

    /// Every fix of a batch in order: the backlog (rows or compact) and then the live fix. Fixes whose boot_id is
    /// 0 take the batch's, as `§item-boot` says.
    public static func fixes(of batch: LocationBatch) throws(InterchangeError) -> [LocationFix] {
        var fixes = batch.fixes
        if let compact = batch.compactFixes {
            do {
                fixes = try compact.fixes()
            } catch {
                throw InterchangeError("compact_fixes", "does not rebuild: \(error.code.rawValue)")
            }
        }
        if let live = batch.liveFix { fixes.append(live) }
        for index in fixes.indices where fixes[index].bootId == 0 { fixes[index].bootId = batch.bootId }
        return fixes
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    private static func nonZero(_ value: UInt64) -> UInt64 { value == 0 ? 1 : value }

    private static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
