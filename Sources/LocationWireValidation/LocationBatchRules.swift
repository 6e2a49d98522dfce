import LocationWire

extension LocationBatch: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(!deviceId.isEmpty, path().appending(field: "device_id"), "a device id")
        report.checkLength(deviceId, max: 128, path().appending(field: "device_id"))
        report.require(batchId != 0, path().appending(field: "batch_id"), "a batch id")
        report.require(installId != 0, path().appending(field: "install_id"), "an install id")
        report.requireTime(sentAtMs, path().appending(field: "sent_at_ms"))

        var context = BatchContext(batch: self)
        validateSequence(fixes, into: &report, at: path().appending(field: "fixes"), context: &context)
        if let compactFixes {
            if !fixes.isEmpty {
                report.add(
                    .rowsAndCompact, path().appending(field: "compact_fixes"),
                    "a batch uses fixes or compact_fixes, not both")
            }
            compactFixes.validate(into: &report, at: path().appending(field: "compact_fixes"), context: &context)
        }
        if let liveFix {
            liveFix.validate(into: &report, at: path().appending(field: "live_fix"))
            if let latest = context.highestSequence, liveFix.sequence <= latest {
                report.add(
                    .liveFixNotLatest, path().appending(field: "live_fix").appending(field: "sequence"),
                    "the live fix's sequence \(liveFix.sequence) is not above the backlog's \(latest)")
            }
            withUnsafePointer(to: liveFix) {
                context.check($0, into: &report, at: path().appending(field: "live_fix"))
            }
        }
        if fixSequenceFloor != 0, let lowest = context.lowestSequence, fixSequenceFloor > lowest {
            report.add(
                .sequenceFloorAboveBatch, path().appending(field: "fix_sequence_floor"),
                "the floor \(fixSequenceFloor) is above the batch's fix sequence \(lowest)")
        }
        var previousEvent: UInt64?
        var lowestEvent: UInt64?
        for (index, event) in fenceEvents.enumerated() {
            if event.eventSequence != 0 { lowestEvent = min(lowestEvent ?? .max, event.eventSequence) }
            event.validate(into: &report, at: path().appending(field: "fence_events").appending(index: index))
            if let previousEvent, event.eventSequence <= previousEvent {
                report.add(
                    .eventSequenceNotIncreasing,
                    path().appending(field: "fence_events").appending(index: index).appending(field: "event_sequence"),
                    "\(event.eventSequence) does not follow \(previousEvent)")
            }
            previousEvent = event.eventSequence
        }
        if eventSequenceFloor != 0, let lowestEvent, eventSequenceFloor > lowestEvent {
            report.add(
                .sequenceFloorAboveBatch, path().appending(field: "event_sequence_floor"),
                "the floor \(eventSequenceFloor) is above the batch's event sequence \(lowestEvent)")
        }
        deviceStatus?.validate(into: &report, at: path().appending(field: "device_status"))
        var previousTime: Int64?
        for (index, event) in lifecycleEvents.enumerated() {
            event.validate(into: &report, at: path().appending(field: "lifecycle_events").appending(index: index))
            // An event without a time (0, required-field-missing) is not compared: the next timed event is
            // compared with the last timed one before it. Equal times are in order.
            guard event.timeMs != 0 else { continue }
            if let previousTime, event.timeMs < previousTime {
                report.add(
                    .lifecycleEventsNotOrdered,
                    path().appending(field: "lifecycle_events").appending(index: index).appending(field: "time_ms"),
                    "lifecycle events must be oldest first")
            }
            previousTime = event.timeMs
        }
        armedRegions?.validate(into: &report, at: path().appending(field: "armed_regions"))
    }
}

extension FenceEvent: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(eventSequence != 0, path().appending(field: "event_sequence"), "an event sequence number")
        report.checkRegionId(regionId, path().appending(field: "region_id"), required: true)
        report.require(kind != .unspecified, path().appending(field: "kind"), "an event kind")
        report.checkTime(osEventTimeMs, path().appending(field: "os_event_time_ms"))
        report.requireTime(detectedAtMs, path().appending(field: "detected_at_ms"))
        if osEventTimeMs != 0, detectedAtMs != 0, detectedAtMs < osEventTimeMs {
            report.add(
                .detectedBeforeEvent, path().appending(field: "detected_at_ms"),
                "detected \(ValidationReport.difference(osEventTimeMs, detectedAtMs)) ms before the OS says it happened"
            )
        }
        triggerFix?.validate(into: &report, at: path().appending(field: "trigger_fix"), requireSequence: false)
        report.require(source != .unspecified, path().appending(field: "source"), "an event source")
        if dwellMs != nil, kind != .dwell {
            report.add(
                .dwellWithoutDwellKind, path().appending(field: "dwell_ms"), "only a DWELL event has a dwell time")
        }
        if dwellMs == nil, kind == .dwell {
            report.add(.dwellMsMissing, path().appending(field: "dwell_ms"), "a DWELL event says how long it dwelt")
        }
    }
}

extension DeviceStatus: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.requireTime(observedAtMs, path().appending(field: "observed_at_ms"))
        report.checkLength(osVersion, max: 64, path().appending(field: "os_version"))
        report.checkLength(appVersion, max: 64, path().appending(field: "app_version"))
    }
}

extension LifecycleEvent: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(kind != .unspecified, path().appending(field: "kind"), "an event kind")
        report.requireTime(timeMs, path().appending(field: "time_ms"))
        if relaunchReason != .unspecified, kind != .relaunchedBySystem {
            report.add(
                .relaunchReasonWithoutRelaunch, path().appending(field: "relaunch_reason"),
                "only a RELAUNCHED_BY_SYSTEM event has a relaunch reason")
        }
    }
}

extension ArmedRegions: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        for (index, id) in regionIds.enumerated() {
            report.checkRegionId(id, path().appending(field: "region_ids").appending(index: index), required: true)
        }
        for (index, id) in failedRegionIds.enumerated() {
            report.checkRegionId(
                id, path().appending(field: "failed_region_ids").appending(index: index), required: true)
        }
        report.checkUnique(regionIds, path().appending(field: "region_ids"))
        report.checkUnique(failedRegionIds, path().appending(field: "failed_region_ids"))
        if !failureReasons.isEmpty, failureReasons.count != failedRegionIds.count {
            report.add(
                .failureReasonsLengthMismatch, path().appending(field: "failure_reasons"),
                "\(failureReasons.count) failure reasons for \(failedRegionIds.count) failed region ids")
        }
        let armed = Set(regionIds)
        for (index, id) in failedRegionIds.enumerated() where armed.contains(id) {
            report.add(
                .regionArmedAndFailed, path().appending(field: "failed_region_ids").appending(index: index),
                "\"\(id)\" is listed as armed and as failed")
        }
    }
}
