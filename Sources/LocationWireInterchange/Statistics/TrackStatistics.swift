import LocationWire
import LocationWireBehavior
import LocationWireGeometry

/// What a LocationBatch holds, measured: fixes, time span, distance, gaps, the accuracy and speed
/// distributions, and what the batch costs on the wire in row form, compact form and gzipped (`locwire stats`).
///
/// Fixes are taken in the batch's order: the backlog (rows or compact) and then the live fix, as
/// `proto/README.md` orders them. Distances are great-circle distances on the spec's sphere (`Sphere`), between
/// consecutive fixes that have a position, within a recording segment: the batch's lifecycle events break it
/// into segments (`§trace-segments`, `TraceSegments`), and no distance is counted across a break.
public struct TrackStatistics: Sendable, Equatable {
    /// Every fix: backlog rows or compact fixes, and the live fix.
    public var fixes: Int
    /// Fixes with both latitude and longitude.
    public var positionedFixes: Int
    /// The earliest and latest `time_ms` among the fixes (UTC, ms since the epoch); nil without fixes.
    public var firstTimeMs: Int64?
    public var lastTimeMs: Int64?
    /// Sum of the great-circle distances between consecutive positioned fixes of one segment, metres.
    public var distanceM: Double
    /// The recording segments, in batch order; one when the batch has no lifecycle event that breaks it.
    public var segments: [Segment]
    /// Steps between consecutive fixes whose `time_ms` goes backwards (a clock set back, or a backlog out of
    /// order): they count in no interval and no gap.
    public var backwardSteps: Int
    /// The time between consecutive fixes, ms.
    public var intervalMs: Distribution?
    /// Intervals longer than the gap threshold, longest first.
    public var gaps: [Gap]
    /// The threshold `gaps` used, ms.
    public var gapThresholdMs: Int64
    /// `horizontal_accuracy_cm` of the fixes that carry it, in metres.
    public var horizontalAccuracyM: Distribution?
    /// `speed_cm_s` of the fixes that carry it, in m/s.
    public var speedMS: Distribution?
    /// The batch's size in each form.
    public var encoding: EncodedSizes

    /// The time span from the first to the last fix, ms; 0 without fixes.
    public var spanMs: Int64 {
        guard let firstTimeMs, let lastTimeMs else { return 0 }
        return lastTimeMs - firstTimeMs
    }

    /// A run of fixes recorded in one go.
    public struct Segment: Sendable, Equatable {
        /// The index (in batch order) of its first fix, and how many fixes it has.
        public var firstFixIndex: Int
        public var fixes: Int
        /// `time_ms` of its first and last fix.
        public var firstTimeMs: Int64
        public var lastTimeMs: Int64
        /// Great-circle distance between its consecutive positioned fixes, metres.
        public var distanceM: Double
    }

    /// A time between two consecutive fixes longer than the threshold.
    public struct Gap: Sendable, Equatable {
        /// The index (in batch order) of the fix after the gap.
        public var afterFixIndex: Int
        /// `time_ms` of the fix before the gap and of the one after it (UTC, ms since the epoch).
        public var fromTimeMs: Int64
        public var toTimeMs: Int64
        /// The gap's length, ms.
        public var durationMs: Int64 { toTimeMs - fromTimeMs }
    }

    /// Order statistics of a sample, in the unit of the property that holds it. Percentiles are nearest-rank:
    /// `p50` is the smallest value with at least half the sample at or below it, so every figure is a value
    /// that occurred.
    public struct Distribution: Sendable, Equatable {
        public var count: Int
        public var minimum: Double
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var maximum: Double
        public var mean: Double

        /// Nil for an empty sample.
        public init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            func rank(_ fraction: Double) -> Double {
                // Nearest rank: ceil(fraction * n), 1-based.
                let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
                return sorted[min(max(index, 0), sorted.count - 1)]
            }
            count = sorted.count
            minimum = sorted[0]
            p50 = rank(0.5)
            p90 = rank(0.9)
            p99 = rank(0.99)
            maximum = sorted[sorted.count - 1]
            mean = sorted.reduce(0, +) / Double(sorted.count)
        }
    }

    /// Sizes of the whole batch, envelope included, in bytes. "Per fix" figures divide by every fix (live fix
    /// included), so the row and compact figures compare the same batch.
    public struct EncodedSizes: Sendable, Equatable {
        /// The batch with its backlog as `fixes` rows.
        public var rowBytes: Int
        public var rowGzipBytes: Int
        /// The batch with its backlog as canonical `compact_fixes`; nil when the backlog cannot be compacted.
        public var compactBytes: Int?
        public var compactGzipBytes: Int?
        /// Why the backlog cannot be compacted (a fix with unknown fields, say), when it cannot.
        public var compactRefusal: String?
    }

    /// Measures `batch`. A compact backlog is expanded first (at most `fixLimit` fixes), so a batch in either
    /// form gives the same figures. Throws when the compact backlog does not rebuild.
    public init(
        batch: LocationBatch, gapThresholdMs: Int64 = 60_000, fixLimit: Int = CompactFixes.defaultFixLimit
    ) throws(CompactFixesError) {
        var rowsBatch = batch
        if let compact = batch.compactFixes {
            rowsBatch.fixes = try compact.fixes(limit: fixLimit)
            rowsBatch.compactFixes = nil
        }
        let all = rowsBatch.fixes + (rowsBatch.liveFix.map { [$0] } ?? [])
        fixes = all.count
        self.gapThresholdMs = gapThresholdMs
        firstTimeMs = all.map(\.timeMs).min()
        lastTimeMs = all.map(\.timeMs).max()

        let breaks = TraceSegments.breaks(times: all.map(\.timeMs), lifecycleEvents: batch.lifecycleEvents)
        var positioned = 0
        segments = TraceSegments.ranges(count: all.count, breaks: breaks).map { range in
            var distance = 0.0
            var previousPoint: SpherePoint?
            for fix in all[range] {
                guard let latitude = fix.latitudeE7, let longitude = fix.longitudeE7 else { continue }
                positioned += 1
                let point = SpherePoint(latitudeE7: latitude, longitudeE7: longitude)
                if let previousPoint { distance += previousPoint.distanceM(to: point) }
                previousPoint = point
            }
            return Segment(
                firstFixIndex: range.lowerBound, fixes: range.count, firstTimeMs: all[range.lowerBound].timeMs,
                lastTimeMs: all[range.upperBound - 1].timeMs, distanceM: distance)
        }
        positionedFixes = positioned
        distanceM = segments.reduce(0) { $0 + $1.distanceM }

        var intervals: [Double] = []
        var foundGaps: [Gap] = []
        var backwards = 0
        for index in all.indices.dropFirst() {
            let step = all[index].timeMs &- all[index - 1].timeMs
            guard step >= 0 else {
                backwards += 1
                continue
            }
            intervals.append(Double(step))
            if step > gapThresholdMs {
                foundGaps.append(
                    Gap(afterFixIndex: index, fromTimeMs: all[index - 1].timeMs, toTimeMs: all[index].timeMs))
            }
        }
        backwardSteps = backwards
        intervalMs = Distribution(intervals)
        gaps = foundGaps.sorted { ($0.durationMs, $1.afterFixIndex) > ($1.durationMs, $0.afterFixIndex) }
        horizontalAccuracyM = Distribution(all.compactMap { $0.horizontalAccuracyCm.map { Double($0) / 100 } })
        speedMS = Distribution(all.compactMap { $0.speedCmS.map { Double($0) / 100 } })
        encoding = EncodedSizes(rowsBatch: rowsBatch)
    }
}

extension TrackStatistics.EncodedSizes {
    /// Encodes `rowsBatch` (backlog as rows) both ways.
    init(rowsBatch: LocationBatch) {
        let rows = rowsBatch.serializedBytes()
        rowBytes = rows.count
        rowGzipBytes = Gzip.compress(rows).count
        do {
            var compactBatch = rowsBatch
            compactBatch.compactFixes = try CompactFixes(fixes: rowsBatch.fixes)
            compactBatch.fixes = []
            let compact = compactBatch.serializedBytes()
            compactBytes = compact.count
            compactGzipBytes = Gzip.compress(compact).count
            compactRefusal = nil
        } catch {
            compactBytes = nil
            compactGzipBytes = nil
            compactRefusal = error.description
        }
    }
}
