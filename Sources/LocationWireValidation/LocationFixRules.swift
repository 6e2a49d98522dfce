import LocationWire

extension LocationFix: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        validate(into: &report, at: path(), requireSequence: true)
    }

    /// True when the fix breaks none of the rules below: plain comparisons, for the common case of a valid fix
    /// (the reporting rules then do not run at all). It must agree with them exactly; a test checks that on
    /// random fixes.
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
        validate(into: &report, at: path(), sentAtMs: nil)
    }

    /// Reconstructs the rows and checks them like row fixes; a fix's path is `<path>[i]`, i being the index of
    /// the reconstructed fix. Returns the rows, or nil when they cannot be reconstructed.
    @discardableResult
    func validate(
        into report: inout ValidationReport, at path: @autoclosure () -> FieldPath, sentAtMs: Int64?
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
        validateSequence(rows, into: &report, at: path(), sentAtMs: sentAtMs)
        return rows
    }
}

/// The rules for a run of backlog fixes: each fix valid, sequence numbers strictly increasing, no fix stamped
/// more than 10 minutes after the batch was sent.
///
/// The fixes are read in place through a pointer: a loop over the array, or a method call on an element, copies
/// each fix first (a retain and a release included), which cost as much as the checks themselves.
func validateSequence(
    _ fixes: [LocationFix], into report: inout ValidationReport, at path: @autoclosure () -> FieldPath, sentAtMs: Int64?
) {
    var latestTime = Int64.max
    if let sentAtMs, sentAtMs != 0 {
        // Saturating: an untrusted sent_at_ms near Int64.max must not overflow.
        let (sum, overflow) = sentAtMs.addingReportingOverflow(600_000)
        latestTime = overflow ? .max : sum
    }
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
            let timeMs = fix.pointee.timeMs
            if timeMs > latestTime, let sentAtMs {
                report.add(
                    .timeAfterSend, path().appending(index: index).appending(field: "time_ms"),
                    "the fix is stamped \(ValidationReport.difference(timeMs, sentAtMs, dividedBy: 1000)) s after the batch was sent"
                )
            }
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
