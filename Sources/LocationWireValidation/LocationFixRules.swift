import LocationWire

extension LocationFix: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        validate(into: &report, at: path(), requireSequence: true)
    }

    /// True when the fix breaks none of the rules below: plain comparisons, for the common case of a valid fix
    /// (the reporting rules then do not run at all). It must agree with them exactly; a test checks that on
    /// random fixes (ValidationTests). A rule is written here and below on purpose: one rule body, generic over a
    /// judge run in a fast and a reporting mode, cost more a fix in every form tried, because a guard chain
    /// branches out of each rule, the generic body's flag was and-ed along, and a throwing judge made each fix be
    /// copied or kept its body out of line (Benchmarks/NOTES.md, "Figures behind the code").
    @inline(__always)
    package func satisfiesAllRules(requireSequence: Bool) -> Bool {
        guard !requireSequence || sequence != 0,
            timeMs >= ValidationReport.earliestTimeMs, timeMs < ValidationReport.latestTimeMs,
            let latitude = latitudeE7, let longitude = longitudeE7,
            latitude >= -900_000_000, latitude <= 900_000_000, longitude >= -1_800_000_000, longitude <= 1_800_000_000,
            latitude != 0 || longitude != 0,
            horizontalAccuracyCm != 0, verticalAccuracyCm != 0, speedAccuracyCmS != 0, courseAccuracyCdeg != 0,
            (courseAccuracyCdeg ?? 0) <= 18_000, (speedCmS ?? 0) <= 50_000, (courseCdeg ?? 0) <= 35_999,
            (batteryPercent ?? 0) <= 100, (motionConfidencePct ?? 0) <= 100
        else { return false }
        if let altitudeCm, altitudeCm < -1_000_000 || altitudeCm > 10_000_000 { return false }
        if let ellipsoidalHeightCm, ellipsoidalHeightCm < -1_000_000 || ellipsoidalHeightCm > 10_000_000 {
            return false
        }
        if let floor, floor < -200 || floor > 300 { return false }
        if let pressure = pressureHpa, !(pressure.isFinite && pressure >= 100 && pressure <= 1200) { return false }
        return true
    }

    /// The rules of `location_fix.proto`. A fix that only describes a position (a fence event's trigger fix, a
    /// region request's current fix) need not carry a sequence number.
    package func validate(
        into report: inout ValidationReport, at path: @autoclosure () -> FieldPath, requireSequence: Bool
    ) {
        if satisfiesAllRules(requireSequence: requireSequence) { return }
        checkEveryRule(into: &report, at: path(), requireSequence: requireSequence)
    }

    /// The violations of the reporting rules alone, without the fast path (for tests of the fast path).
    package func detailedViolations(requireSequence: Bool) -> [Violation] {
        var report = ValidationReport()
        checkEveryRule(into: &report, at: FieldPath(message: "LocationFix"), requireSequence: requireSequence)
        return report.violations
    }

    private func checkEveryRule(
        into report: inout ValidationReport, at path: @autoclosure () -> FieldPath, requireSequence: Bool
    ) {
        if requireSequence { report.require(sequence != 0, path().appending(field: "sequence"), "a sequence number") }
        report.requireTime(timeMs, path().appending(field: "time_ms"))
        report.checkLatitude(latitudeE7, path().appending(field: "latitude_e7"), required: true)
        report.checkLongitude(longitudeE7, path().appending(field: "longitude_e7"), required: true)
        if latitudeE7 == 0, longitudeE7 == 0 {
            report.add(.nullIsland, path().appending(field: "latitude_e7"), "(0, 0) is a placeholder, not a position")
        }
        // Each accuracy checked directly: a table of them would allocate for every fix.
        if horizontalAccuracyCm == 0 { accuracyNotPositive(&report, path().appending(field: "horizontal_accuracy_cm")) }
        if verticalAccuracyCm == 0 { accuracyNotPositive(&report, path().appending(field: "vertical_accuracy_cm")) }
        if speedAccuracyCmS == 0 { accuracyNotPositive(&report, path().appending(field: "speed_accuracy_cm_s")) }
        if courseAccuracyCdeg == 0 { accuracyNotPositive(&report, path().appending(field: "course_accuracy_cdeg")) }
        report.checkRange(altitudeCm, -1_000_000...10_000_000, path().appending(field: "altitude_cm"), unit: " cm")
        report.checkRange(
            ellipsoidalHeightCm, -1_000_000...10_000_000, path().appending(field: "ellipsoidal_height_cm"), unit: " cm")
        report.checkRange(speedCmS, 0...50_000, path().appending(field: "speed_cm_s"), unit: " cm/s")
        report.checkRange(courseCdeg, 0...35_999, path().appending(field: "course_cdeg"), unit: " cdeg")
        report.checkRange(
            courseAccuracyCdeg, 0...18_000, path().appending(field: "course_accuracy_cdeg"), unit: " cdeg")
        report.checkRange(batteryPercent, 0...100, path().appending(field: "battery_percent"), unit: " %")
        report.checkRange(motionConfidencePct, 0...100, path().appending(field: "motion_confidence_pct"), unit: " %")
        report.checkRange(floor, -200...300, path().appending(field: "floor"))
        if let pressure = pressureHpa, !(pressure.isFinite && (100...1200).contains(pressure)) {
            report.add(
                .valueOutOfRange, path().appending(field: "pressure_hpa"), "\(pressure) hPa is outside 100 ... 1200")
        }
    }
}

private func accuracyNotPositive(_ report: inout ValidationReport, _ path: @autoclosure () -> FieldPath) {
    report.add(.accuracyNotPositive, path(), "an accuracy must be greater than 0")
}

extension CompactFixes: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        var context = BatchContext(batch: nil)
        validate(into: &report, at: path(), context: &context)
    }

    /// Reconstructs the rows and checks them like row fixes; a fix's path is `<path>[i]`, i being the index of
    /// the reconstructed fix. Returns the rows, or nil when they cannot be reconstructed.
    @discardableResult
    func validate(
        into report: inout ValidationReport, at path: @autoclosure () -> FieldPath, context: inout BatchContext
    ) -> [LocationFix]? {
        let rows: [LocationFix]
        do {
            rows = try fixes()
        } catch {
            var errorPath = path()
            if let fixIndex = error.fixIndex { errorPath = errorPath.appending(index: fixIndex) }
            if let field = error.fieldNumber, let name = LocationFix.schema.field(number: UInt32(field))?.name {
                errorPath = errorPath.appending(field: name)
            }
            report.add(.compact(error.code), errorPath, error.message)
            return nil
        }
        validateSequence(rows, into: &report, at: path(), context: &context)
        return rows
    }
}

/// What the fixes of one batch are checked against beyond their own fields: the batch's send time
/// (`time-after-send`) and the previous fix's clocks (`clock-jump`); outside a batch (a CompactFixes on its
/// own) neither applies. It also gathers the lowest and highest sequence numbers seen, for the rules that compare
/// the batch's fixes with its live fix and its sequence floor.
struct BatchContext {
    /// The lowest non-zero sequence number of the fixes checked so far (a 0 is `required-field-missing`).
    private(set) var lowestSequence: UInt64?
    /// The highest sequence number of the fixes checked so far.
    private(set) var highestSequence: UInt64?
    /// The latest fix time allowed: `sent_at_ms` plus 10 minutes, saturating; nil outside a batch or without a
    /// send time.
    private let latestTimeMs: Int64?
    private let sentAtMs: Int64
    private let batchBootId: UInt64
    /// The boot, wall-clock time and monotonic time of the previous fix; nil when it had no usable boot,
    /// wall-clock time or monotonic time, or outside a batch.
    private var previous: (bootId: UInt64, timeMs: Int64, elapsedMs: UInt64)?
    private let inBatch: Bool

    static let maxTimeAfterSendMs: Int64 = 600_000
    static let maxClockDriftMs: UInt64 = 1_000

    init(batch: LocationBatch?) {
        inBatch = batch != nil
        sentAtMs = batch?.sentAtMs ?? 0
        batchBootId = batch?.bootId ?? 0
        if let batch, batch.sentAtMs != 0 {
            // Saturating: an untrusted sent_at_ms near Int64.max must not overflow.
            let (sum, overflow) = batch.sentAtMs.addingReportingOverflow(Self.maxTimeAfterSendMs)
            latestTimeMs = overflow ? .max : sum
        } else {
            latestTimeMs = nil
        }
    }

    /// Checks `fix`, the next fix of the batch in order (backlog, then live fix), against the send time and
    /// against the previous fix of the same boot, and counts its sequence number in.
    mutating func check(
        _ fix: UnsafePointer<LocationFix>, into report: inout ValidationReport, at path: @autoclosure () -> FieldPath
    ) {
        let sequence = fix.pointee.sequence
        if sequence != 0 { lowestSequence = min(lowestSequence ?? .max, sequence) }
        highestSequence = max(highestSequence ?? 0, sequence)
        guard inBatch else { return }
        let timeMs = fix.pointee.timeMs
        if let latestTimeMs, timeMs > latestTimeMs {
            report.add(
                .timeAfterSend, path().appending(field: "time_ms"),
                "the fix is stamped \(ValidationReport.difference(timeMs, sentAtMs, dividedBy: 1000)) s after the batch was sent"
            )
        }
        // A fix without a boot, a monotonic time or a wall-clock time (time_ms 0, required-field-missing) is not
        // compared, and breaks the chain: the next fix is not compared across it.
        let bootId = fix.pointee.bootId != 0 ? fix.pointee.bootId : batchBootId
        guard bootId != 0, timeMs != 0, let elapsedMs = fix.pointee.elapsedRealtimeMs else {
            previous = nil
            return
        }
        if let previous, previous.bootId == bootId {
            let drift = Self.drift(wallClock: (previous.timeMs, timeMs), monotonic: (previous.elapsedMs, elapsedMs))
            if drift > Self.maxClockDriftMs {
                report.add(
                    .clockJump, path().appending(field: "time_ms"),
                    "time_ms and elapsed_realtime_ms moved apart by \(drift) ms since the previous fix of this boot")
            }
        }
        previous = (bootId, timeMs, elapsedMs)
    }

    /// |(later - earlier wall clock) - (later - earlier monotonic)|, saturating at `UInt64.max`. Untrusted
    /// clocks can be 2^64 apart: each difference is kept as a sign and a magnitude, which always fits.
    static func drift(wallClock: (Int64, Int64), monotonic: (UInt64, UInt64)) -> UInt64 {
        let wallForward = wallClock.1 >= wallClock.0
        let wall = UInt64(bitPattern: wallForward ? wallClock.1 &- wallClock.0 : wallClock.0 &- wallClock.1)
        let monotonicForward = monotonic.1 >= monotonic.0
        let elapsed = monotonicForward ? monotonic.1 - monotonic.0 : monotonic.0 - monotonic.1
        guard wallForward == monotonicForward else {
            let (sum, overflow) = wall.addingReportingOverflow(elapsed)
            return overflow ? .max : sum
        }
        return wall >= elapsed ? wall - elapsed : elapsed - wall
    }
}

/// The rules for a run of backlog fixes: each fix valid, sequence numbers strictly increasing, and, in a batch,
/// no fix stamped more than 10 minutes after the batch was sent and no clock jump between consecutive fixes.
///
/// The fixes are read in place through a pointer: a loop over the array, or a method call on an element, copies
/// each fix first (a retain and a release included), which cost as much as the checks themselves.
func validateSequence(
    _ fixes: [LocationFix], into report: inout ValidationReport, at path: @autoclosure () -> FieldPath,
    context: inout BatchContext
) {
    fixes.withUnsafeBufferPointer { fixes in
        var previous: UInt64?
        for index in fixes.indices {
            if report.stopIfFull() { return }
            let fix = fixes.baseAddress! + index
            if !fix.pointee.satisfiesAllRules(requireSequence: true) {
                fix.pointee.validate(into: &report, at: path().appending(index: index), requireSequence: true)
            }
            let sequence = fix.pointee.sequence
            if let previous, sequence <= previous {
                report.add(
                    .sequenceNotIncreasing, path().appending(index: index).appending(field: "sequence"),
                    "\(sequence) does not follow \(previous)")
            }
            previous = sequence
            context.check(fix, into: &report, at: path().appending(index: index))
        }
    }
}

extension FixColumn: Validatable {
    /// A column alone has no fix count to check against; CompactFixes checks columns in context.
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        if !runLengths.isEmpty, runLengths.count != deltas.count {
            report.add(
                .compact(.runLengthsMismatch), path().appending(field: "run_lengths"),
                "\(runLengths.count) run lengths for \(deltas.count) deltas")
        }
        for (index, length) in runLengths.enumerated() where length == 0 {
            report.add(
                .compact(.runLengthsMismatch), path().appending(field: "run_lengths").appending(index: index),
                "a run length is 0")
        }
    }
}
