import LocationWire

extension BatchAck: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(batchId != 0, path().appending(field: "batch_id"), "the batch id of the batch answered")
        validateRanges(fixResults, into: &report, at: path().appending(field: "fix_results"))
        validateRanges(fenceEventResults, into: &report, at: path().appending(field: "fence_event_results"))
        report.checkTime(serverTimeMs, path().appending(field: "server_time_ms"))
        trackingPolicy?.validate(into: &report, at: path().appending(field: "tracking_policy"))
    }

    /// Each range valid; ranges sorted by first sequence number and not overlapping, so every item has at most
    /// one result.
    private func validateRanges(
        _ ranges: [AckRange], into report: inout ValidationReport, at path: @autoclosure () -> FieldPath
    ) {
        var previous: AckRange?
        for (index, range) in ranges.enumerated() {
            range.validate(into: &report, at: path().appending(index: index))
            if let previous {
                if range.firstSequence < previous.firstSequence {
                    report.add(
                        .rangesNotSorted, path().appending(index: index).appending(field: "first_sequence"),
                        "ranges must be sorted by first_sequence")
                } else if range.firstSequence <= previous.lastSequence {
                    report.add(
                        .rangesOverlap, path().appending(index: index).appending(field: "first_sequence"),
                        "\(range.firstSequence) lies in the previous range, which ends at \(previous.lastSequence)")
                }
            }
            previous = range
        }
    }
}

extension AckRange: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(firstSequence != 0, path().appending(field: "first_sequence"), "a first sequence number")
        if lastSequence < firstSequence {
            report.add(
                .rangeInverted, path().appending(field: "last_sequence"),
                "\(lastSequence) is below first_sequence \(firstSequence)")
        }
        report.require(result != .unspecified, path().appending(field: "result"), "a result")
        if result == .rejected, rejectReason == .unspecified {
            report.add(.rejectReasonMissing, path().appending(field: "reject_reason"), "a REJECTED range says why")
        }
        if result != .rejected, rejectReason != .unspecified {
            report.add(
                .rejectReasonWithoutRejection, path().appending(field: "reject_reason"),
                "only a REJECTED range has a reason")
        }
        report.checkLength(detail, max: 256, path().appending(field: "detail"))
    }
}

extension TrackingPolicy: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.checkRange(speedThresholdCmS, 0...50_000, path().appending(field: "speed_threshold_cm_s"))
        report.checkRange(timeIntervalMs, 1_000...86_400_000, path().appending(field: "time_interval_ms"))
        report.checkRange(distanceIntervalM, 0...100_000, path().appending(field: "distance_interval_m"))
        report.checkRange(
            maxHorizontalAccuracyCm, 1...10_000_000, path().appending(field: "max_horizontal_accuracy_cm"))
        report.checkRange(uploadIntervalMs, 1_000...86_400_000, path().appending(field: "upload_interval_ms"))
        report.checkRange(maxBatchSize, 1...10_000, path().appending(field: "max_batch_size"))
        report.checkRange(maxBatchAgeMs, 1_000...604_800_000, path().appending(field: "max_batch_age_ms"))
        report.checkRange(stationaryRadiusM, 1...1_000, path().appending(field: "stationary_radius_m"))
        report.checkRange(stopTimeoutMs, 0...3_600_000, path().appending(field: "stop_timeout_ms"))
        report.checkRange(heartbeatIntervalMs, 0...86_400_000, path().appending(field: "heartbeat_interval_ms"))
    }
}
