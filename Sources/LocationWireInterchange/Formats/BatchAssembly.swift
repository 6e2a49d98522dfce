import Foundation
import LocationWire
import LocationWireValidation

/// How an import divides its fixes into batches (`locwire import --split-by`).
public enum SplitBy: String, CaseIterable, Sendable {
    /// One batch; a file of several devices is refused (a batch is one device's).
    case none
    /// One batch per device (OwnTracks `tid` or topic, Overland `device_id`), each its own installation.
    case device
    /// One batch per recording segment; the batches continue one installation's sequence.
    case segment
    /// One batch per calendar day in the import's time zone; the batches continue one installation's sequence.
    case day
}

/// One batch an import writes, with the name a split gives it (the device, `segment-3`, `2024-05-04`).
public struct ImportedBatch: Sendable {
    /// Nil for the one batch of an import that is not split.
    public var name: String?
    public var batch: LocationBatch
}

/// Builds the LocationBatches an import writes, and reads the fixes an export writes.
///
/// The batch's own fields, which none of the foreign formats carry, are chosen so that importing the same file
/// twice gives the same bytes:
/// - `install_id`: given, or an FNV-1a hash of the device id (never 0), so that re-imports of one device's
///   files share one installation and their (device_id, install_id, sequence) keys mean the same fixes.
/// - `batch_id`: an FNV-1a hash of the device id, the number of fixes and the first and last time (never 0).
/// - `sent_at_ms`: the time of the latest fix, as if the batch were sent right after it was recorded.
/// - `boot_id` 0 (unknown) and no `elapsed_realtime_ms`: no format here has a monotonic clock, and one is not
///   invented, unless asked for (`elapsedFromTime`): then the convention `simulate` applies to a GPX track,
///   `GPXTrace.Options`: `boot_id` 1, and `elapsed_realtime_ms` 3,600,000 at the first fix plus the time since
///   it, so the behaviour commands can replay the batch. `datum` WGS84: GPX, GeoJSON (RFC 7946), OwnTracks,
///   Overland and the CSV columns all use it.
/// - Sequences 1 ... n in time order over a device's fixes (split batches continue them), `fix_sequence_floor`
///   1, `protocol_revision` 1. Fixes with equal times keep their file order; a fix earlier than the one before it
///   in the file is sorted to its place in time.
/// - Recording segments (``PointOrigin/segment``) are kept as `§trace-segments` says: a `LAUNCHED` lifecycle
///   event at the first fix of each segment after the first.
/// - A device id from the file (``PointOrigin/device``) is appended to the given one (`phone-ic`) when split by
///   device; without the split, a file of several devices is refused.
public enum BatchAssembly {
    /// The one batch of `fixes` (all from one device; segment 0 unless `origins` says otherwise).
    public static func batch(
        _ fixes: [LocationFix], origins: [PointOrigin]? = nil, deviceId: String, installId: UInt64? = nil,
        elapsedFromTime: Bool = false
    ) throws(InterchangeError) -> (LocationBatch, outOfOrder: Int, sameTime: Int) {
        let result = try batches(
            fixes, origins: origins, deviceId: deviceId, installId: installId, elapsedFromTime: elapsedFromTime)
        guard result.batches.count == 1 else {
            throw InterchangeError("", "the file holds \(result.batches.count) batches' fixes")
        }
        return (result.batches[0].batch, result.outOfOrder, result.sameTime)
    }

    /// The batches of `fixes`, split as asked, with the counts the summary reports.
    public static func batches(
        _ fixes: consuming [LocationFix], origins: consuming [PointOrigin]? = nil, deviceId: String,
        installId: UInt64? = nil,
        elapsedFromTime: Bool = false, splitBy: SplitBy = .none, timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) throws(InterchangeError) -> (batches: [ImportedBatch], outOfOrder: Int, sameTime: Int) {
        guard !fixes.isEmpty else { throw InterchangeError("", "no point could be imported (see the summary)") }
        guard !deviceId.isEmpty, deviceId.utf8.count <= 128 else {
            throw InterchangeError("--device-id", "needs 1 to 128 bytes of UTF-8")
        }
        let count = fixes.count
        let origins = (consume origins) ?? Array(repeating: PointOrigin(), count: count)
        // The devices, in order of first appearance.
        var devices: [String?] = []
        for origin in origins where !devices.contains(origin.device) { devices.append(origin.device) }
        let named = devices.compactMap { $0 }
        if splitBy != .device && named.count > 1 {
            throw InterchangeError(
                "",
                "the file holds the fixes of \(named.count) devices (\(named.prefix(5).joined(separator: ", ")))"
                    + ": --split-by device writes a batch for each")
        }
        var result: [ImportedBatch] = []
        var outOfOrder = 0
        var sameTime = 0
        // Without the device split, the fixes without a device name and those of the one named device are one, and
        // are put in order where they are: a million fixes are not copied.
        var remaining = consume fixes
        var remainingOrigins = consume origins
        for device in splitBy == .device ? devices : [named.first] {
            var sorted: [LocationFix]
            var segmentOf: [Int]
            if splitBy == .device && devices.count > 1 {
                let indices = remaining.indices.filter { remainingOrigins[$0].device == device }
                sorted = indices.map { remaining[$0] }
                segmentOf = indices.map { remainingOrigins[$0].segment }
            } else {
                sorted = remaining
                segmentOf = remainingOrigins.map(\.segment)
                remaining = []
                remainingOrigins = []
            }
            let deviceName = splitBy == .device ? device.map { "\(deviceId)-\($0)" } ?? deviceId : deviceId
            guard deviceName.utf8.count <= 128 else {
                throw InterchangeError("", "the device id \(deviceName.prefix(40))... is longer than 128 bytes")
            }
            outOfOrder += putInTimeOrder(&sorted, &segmentOf)
            let first = sorted[0].timeMs
            let convention = GPXTrace.Options()
            for position in sorted.indices {
                sorted[position].sequence = UInt64(position + 1)
                if position > 0, sorted[position].timeMs == sorted[position - 1].timeMs { sameTime += 1 }
                if elapsedFromTime {
                    sorted[position].elapsedRealtimeMs =
                        convention.firstElapsedMs + UInt64(sorted[position].timeMs - first)
                }
            }
            let times = sorted.map(\.timeMs)
            // Each segment's first fix in time order; the earliest segment starts the trace.
            var segmentStarts: [Int: Int] = [:]
            for (position, segment) in segmentOf.enumerated() where segmentStarts[segment] == nil {
                segmentStarts[segment] = position
            }
            let markers = TraceSegments.markers(times: times, starts: segmentStarts.values.sorted())
            let groups: [(name: String?, positions: [Int])]
            switch splitBy {
            case .none: groups = [(nil, Array(sorted.indices))]
            case .device: groups = [(devices.count > 1 ? device ?? "unnamed" : nil, Array(sorted.indices))]
            case .segment:
                let ordered = segmentStarts.sorted { $0.value < $1.value }.map(\.key)
                groups = ordered.enumerated().map { number, segment in
                    ("segment-\(number + 1)", sorted.indices.filter { segmentOf[$0] == segment })
                }
            case .day:
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = timeZone
                var days: [String: [Int]] = [:]
                var dayOrder: [String] = []
                for position in sorted.indices {
                    let date = Date(timeIntervalSince1970: Double(times[position]) / 1000)
                    let parts = calendar.dateComponents([.year, .month, .day], from: date)
                    let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
                    if days[day] == nil { dayOrder.append(day) }
                    days[day, default: []].append(position)
                }
                groups = dayOrder.map { ($0, days[$0] ?? []) }
            }
            for group in groups {
                let members = group.positions.count == sorted.count ? sorted : group.positions.map { sorted[$0] }
                let span = (members[0].timeMs, members[members.count - 1].timeMs)
                // A marker belongs to the batch whose fixes it separates: after its first fix, up to its last.
                let inside = markers.filter { $0.timeMs > span.0 && $0.timeMs <= span.1 }
                let batch = try assemble(
                    members, markers: splitBy == .segment ? [] : inside, deviceId: deviceName, installId: installId,
                    bootId: elapsedFromTime ? convention.bootId : 0)
                result.append(ImportedBatch(name: group.name, batch: batch))
            }
        }
        return (result, outOfOrder, sameTime)
    }

    /// Sorts `fixes` (and their `segments`) by time, stably, so equal times keep their file order, without a
    /// second copy of the fixes: a file already in order (the common case) is only checked; another is put in
    /// order by following the cycles of the sorting permutation. Returns how many fixes were earlier than the
    /// one before them.
    static func putInTimeOrder(_ fixes: inout [LocationFix], _ segments: inout [Int]) -> Int {
        var outOfOrder = 0
        for index in fixes.indices.dropFirst() where fixes[index].timeMs < fixes[index - 1].timeMs { outOfOrder += 1 }
        guard outOfOrder > 0 else { return 0 }
        // Swift's sort is not stable; sorting by (time, file position) is.
        let order = fixes.indices.sorted { (fixes[$0].timeMs, $0) < (fixes[$1].timeMs, $1) }
        var placed = [Bool](repeating: false, count: fixes.count)
        for start in fixes.indices where !placed[start] {
            // Position `start` takes the fix at order[start], whose position takes the fix at order[...], and so
            // on back to `start`.
            let (firstFix, firstSegment) = (fixes[start], segments[start])
            var position = start
            while true {
                placed[position] = true
                let source = order[position]
                if source == start {
                    fixes[position] = firstFix
                    segments[position] = firstSegment
                    break
                }
                fixes[position] = fixes[source]
                segments[position] = segments[source]
                position = source
            }
        }
        return outOfOrder
    }

    /// One batch of sequenced fixes in time order.
    private static func assemble(
        _ sorted: [LocationFix], markers: [LifecycleEvent], deviceId: String, installId: UInt64?, bootId: UInt64
    ) throws(InterchangeError) -> LocationBatch {
        var batch = LocationBatch()
        batch.bootId = bootId
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
        batch.lifecycleEvents = markers
        batch.fixSequenceFloor = 1
        batch.protocolRevision = 1
        let report = batch.validationReport()
        guard report.isValid else {
            // The converter range-checks every value, so this is a bug in it, not bad input; say so.
            throw InterchangeError(
                "", "internal error: the imported batch breaks \(report.errors.first.map { "\($0)" } ?? "a rule")")
        }
        return batch
    }

    /// The fixes an export writes, in order: the backlog (rows as they are, compact expanded) and the live fix;
    /// `boot_id` is left as it is, since no format writes it. The rows are not copied.
    public static func exportedFixes(of batch: LocationBatch) throws(InterchangeError) -> ExportedFixes {
        var backlog = batch.fixes
        if let compact = batch.compactFixes {
            do {
                backlog = try compact.fixes()
            } catch {
                throw InterchangeError("compact_fixes", "does not rebuild: \(error.code.rawValue)")
            }
        }
        return ExportedFixes(backlog: backlog, live: batch.liveFix)
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
