import LocationWire

extension BatchAck: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(batchId != 0, path().appending(field: "batch_id"), "the batch id of the batch answered")
        report.require(outcome != .unspecified, path().appending(field: "outcome"), "a batch outcome")
        if outcome == .hold, holdReason == .unspecified {
            report.add(.holdReasonMissing, path().appending(field: "hold_reason"), "a HOLD says why")
        }
        // Enums are open (§open-enums): an outcome or result this revision does not know is not judged.
        if outcome.isKnown, outcome != .hold, holdReason != .unspecified {
            report.add(
                .holdReasonWithoutHold, path().appending(field: "hold_reason"), "only a HOLD outcome has a hold reason")
        }
        validateRanges(fixResults, into: &report, at: path().appending(field: "fix_results"))
        validateRanges(fenceEventResults, into: &report, at: path().appending(field: "fence_event_results"))
        report.checkTime(serverTimeMs, path().appending(field: "server_time_ms"))
        report.checkRange(maxBatchBytes, TrackingPolicy.maxBatchBytesRange, path().appending(field: "max_batch_bytes"))
        trackingPolicy?.validate(into: &report, at: path().appending(field: "tracking_policy"))
        var commandIds: Set<UInt64> = []
        for (index, command) in commands.enumerated() {
            command.validate(into: &report, at: path().appending(field: "commands").appending(index: index))
            if command.commandId != 0, !commandIds.insert(command.commandId).inserted {
                report.add(
                    .duplicateCommandId,
                    path().appending(field: "commands").appending(index: index).appending(field: "command_id"),
                    "command id \(command.commandId) appears more than once")
            }
        }
    }

    /// Each range valid; ranges sorted by first sequence number and not overlapping, so every item has at most
    /// one result; and no ranges at all unless the batch was processed.
    private func validateRanges(
        _ ranges: [AckRange], into report: inout ValidationReport, at path: @autoclosure () -> FieldPath
    ) {
        if outcome == .unspecified || outcome == .hold || outcome == .tooLarge, !ranges.isEmpty {
            report.add(.rangesWithoutProcessing, path(), "only a PROCESSED outcome has item results")
        }
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
        if result == .rejected, rejectReason.rawValue == 5 || rejectReason.rawValue == 6 {
            report.add(
                .rejectReasonRetired, path().appending(field: "reject_reason"),
                "reason \(rejectReason.rawValue) was a passing condition of revision 0; it is a HOLD now")
        }
        if result.isKnown, result != .rejected, rejectReason != .unspecified {
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
        report.checkRange(maxBatchBytes, Self.maxBatchBytesRange, path().appending(field: "max_batch_bytes"))
        report.checkRange(maxBatchesInFlight, 1...16, path().appending(field: "max_batches_in_flight"))
        report.checkRange(fixWindowMs, 0...3_600_000, path().appending(field: "fix_window_ms"))
        report.checkRange(dutyCycleOnMs, 0...3_600_000, path().appending(field: "duty_cycle_on_ms"))
        report.checkRange(dutyCycleOffMs, 0...86_400_000, path().appending(field: "duty_cycle_off_ms"))
        report.checkRange(fenceHysteresisM, 0...10_000, path().appending(field: "fence_hysteresis_m"))
        report.checkRange(fenceConfirmMs, 0...600_000, path().appending(field: "fence_confirm_ms"))
        report.checkRange(fenceMaxAccuracyCm, 1...10_000_000, path().appending(field: "fence_max_accuracy_cm"))
        report.checkRange(retentionDays, 1...36_500, path().appending(field: "retention_days"))
    }

    /// The range of `max_batch_bytes`, in TrackingPolicy and in BatchAck: 16 KiB to 64 MiB.
    static let maxBatchBytesRange: ClosedRange<Int64> = 16_384...67_108_864
}

extension DeviceCommand: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(commandId != 0, path().appending(field: "command_id"), "a command id")
        report.require(kind != .unspecified, path().appending(field: "kind"), "a command kind")
        report.checkTime(expiresAtMs, path().appending(field: "expires_at_ms"))
    }
}
