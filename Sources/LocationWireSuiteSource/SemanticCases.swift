import LocationWire
import LocationWireValidation

// The semantic cases: valid baselines and one broken rule each. The unit tests (ValidationTests) check the
// validator against them, and the semantic vector family is generated from them.

/// Valid baselines: each passes every rule. Every failing case below breaks exactly one rule of a baseline.
package enum Valid {
    package static let time: Int64 = 1_700_000_000_000

    package static func fix(_ sequence: UInt64) -> LocationFix {
        var fix = LocationFix()
        fix.sequence = sequence
        fix.timeMs = time + Int64(sequence) * 1000
        fix.elapsedRealtimeMs = 5_000_000 + sequence * 1000  // in step with time_ms: no clock jump
        fix.latitudeE7 = 450_000_000
        fix.longitudeE7 = 90_000_000
        fix.horizontalAccuracyCm = 500
        return fix
    }

    package static func fenceEvent(_ sequence: UInt64) -> FenceEvent {
        var event = FenceEvent()
        event.eventSequence = sequence
        event.regionId = "shop:1"
        event.kind = .enter
        event.detectedAtMs = time
        event.source = .osRegionMonitor
        return event
    }

    package static var batch: LocationBatch {
        var batch = LocationBatch()
        batch.deviceId = "ios-1"
        batch.installId = 0x1157
        batch.batchId = 1
        batch.bootId = 0xB007
        batch.protocolRevision = 1
        batch.sentAtMs = time + 100_000
        batch.fixSequenceFloor = 1
        batch.eventSequenceFloor = 1
        batch.fixes = [fix(1), fix(2)]
        batch.liveFix = fix(3)
        batch.fenceEvents = [fenceEvent(1), fenceEvent(2)]
        var status = DeviceStatus()
        status.observedAtMs = time
        batch.deviceStatus = status
        var event = LifecycleEvent()
        event.kind = .relaunchedBySystem
        event.timeMs = time
        event.relaunchReason = .regionEvent
        batch.lifecycleEvents = [event]
        var armed = ArmedRegions()
        armed.regionIds = ["shop:1", "city:paris"]
        armed.failedRegionIds = ["shop:2"]
        armed.failureReasons = [.slotLimit]
        batch.armedRegions = armed
        return batch
    }

    package static func region(_ id: String = "shop:1") -> Region {
        var region = Region()
        region.id = id
        region.version = 1
        region.circle = Circle(latitudeE7: 450_000_000, longitudeE7: 90_000_000, radiusM: 200)
        region.level = .site
        region.notifyOnEntry = true
        return region
    }

    package static var assignment: RegionAssignment {
        var assignment = RegionAssignment()
        assignment.assignmentVersion = 2
        assignment.issuedAtMs = time
        assignment.mode = .fullReplacement
        assignment.regions = [region("shop:1"), region("shop:2")]
        assignment.slotBudget = 18
        return assignment
    }

    package static var request: RegionRequest {
        var request = RegionRequest()
        request.deviceId = "ios-1"
        request.reason = .initial
        request.platformSlotLimit = 20
        request.reservedAppSlots = 2
        request.sentAtMs = time
        var current = fix(0)
        current.sequence = 0  // a position only: no sequence needed
        request.currentFix = current
        return request
    }

    package static var ack: BatchAck {
        var ack = BatchAck()
        ack.batchId = 1
        ack.outcome = .processed
        ack.protocolRevision = 1
        ack.fixResults = [
            AckRange(first: 1, last: 2, result: .accepted),
            AckRange(first: 3, last: 3, result: .rejected, rejectReason: .invalid),
        ]
        ack.fenceEventResults = [AckRange(first: 1, last: 2, result: .duplicate)]
        ack.serverTimeMs = time
        ack.commands = [
            DeviceCommand(commandId: 1, kind: .recordFix),
            DeviceCommand(commandId: 2, kind: .uploadNow, expiresAtMs: time + 60_000),
        ]
        return ack
    }
}

/// One broken rule: the message, and the violation it must produce.
package struct ViolationCase: Sendable {
    package let code: Violation.Code
    package let path: String
    package let violations: @Sendable () -> [Violation]
    /// The message, encoded: the input of the semantic vector made from this case.
    package let messageBytes: [UInt8]
    package let messageType: String

    package init<Message: Validatable>(_ code: Violation.Code, _ path: String, _ message: Message) {
        self.code = code
        self.path = path
        self.violations = { message.validate() }
        self.messageBytes = message.serializedBytes()
        self.messageType = Message.messageName
    }
}

package func modified<Value>(_ value: Value, _ change: (inout Value) -> Void) -> Value {
    var copy = value
    change(&copy)
    return copy
}

package enum ViolationCases {
    package static let fix = Valid.fix(1)
    package static let batch = Valid.batch

    package static let all: [ViolationCase] =
        fixCases + batchCases + regionCases + assignmentCases + otherCases + revisionOneCases

    package static let fixCases: [ViolationCase] = [
        .init(.requiredFieldMissing, "LocationFix.sequence", modified(fix) { $0.sequence = 0 }),
        .init(.requiredFieldMissing, "LocationFix.time_ms", modified(fix) { $0.timeMs = 0 }),
        .init(.requiredFieldMissing, "LocationFix.latitude_e7", modified(fix) { $0.latitudeE7 = nil }),
        .init(.requiredFieldMissing, "LocationFix.longitude_e7", modified(fix) { $0.longitudeE7 = nil }),
        .init(.timeOutOfRange, "LocationFix.time_ms", modified(fix) { $0.timeMs = 1_700_000_000 }),  // seconds
        .init(.timeOutOfRange, "LocationFix.time_ms", modified(fix) { $0.timeMs = 4_102_444_800_000 }),
        .init(.valueOutOfRange, "LocationFix.latitude_e7", modified(fix) { $0.latitudeE7 = 900_000_001 }),
        .init(.valueOutOfRange, "LocationFix.longitude_e7", modified(fix) { $0.longitudeE7 = -1_800_000_001 }),
        .init(.valueOutOfRange, "LocationFix.altitude_cm", modified(fix) { $0.altitudeCm = 10_000_001 }),
        .init(
            .valueOutOfRange, "LocationFix.ellipsoidal_height_cm", modified(fix) { $0.ellipsoidalHeightCm = -1_000_001 }
        ),
        .init(.valueOutOfRange, "LocationFix.speed_cm_s", modified(fix) { $0.speedCmS = 50_001 }),
        .init(.valueOutOfRange, "LocationFix.course_cdeg", modified(fix) { $0.courseCdeg = 36_000 }),
        .init(.valueOutOfRange, "LocationFix.course_accuracy_cdeg", modified(fix) { $0.courseAccuracyCdeg = 18_001 }),
        .init(.valueOutOfRange, "LocationFix.battery_percent", modified(fix) { $0.batteryPercent = 101 }),
        .init(.valueOutOfRange, "LocationFix.motion_confidence_pct", modified(fix) { $0.motionConfidencePct = 101 }),
        .init(.valueOutOfRange, "LocationFix.floor", modified(fix) { $0.floor = 301 }),
        .init(.valueOutOfRange, "LocationFix.pressure_hpa", modified(fix) { $0.pressureHpa = 99.9 }),
        .init(.valueOutOfRange, "LocationFix.pressure_hpa", modified(fix) { $0.pressureHpa = .nan }),
        .init(
            .nullIsland, "LocationFix.latitude_e7",
            modified(fix) {
                $0.latitudeE7 = 0
                $0.longitudeE7 = 0
            }),
        .init(
            .accuracyNotPositive, "LocationFix.horizontal_accuracy_cm", modified(fix) { $0.horizontalAccuracyCm = 0 }),
        .init(.accuracyNotPositive, "LocationFix.vertical_accuracy_cm", modified(fix) { $0.verticalAccuracyCm = 0 }),
        .init(.accuracyNotPositive, "LocationFix.speed_accuracy_cm_s", modified(fix) { $0.speedAccuracyCmS = 0 }),
        .init(.accuracyNotPositive, "LocationFix.course_accuracy_cdeg", modified(fix) { $0.courseAccuracyCdeg = 0 }),
    ]

    package static let batchCases: [ViolationCase] = [
        .init(.requiredFieldMissing, "LocationBatch.device_id", modified(batch) { $0.deviceId = "" }),
        .init(
            .stringTooLong, "LocationBatch.device_id",
            modified(batch) { $0.deviceId = String(repeating: "d", count: 129) }),
        .init(.requiredFieldMissing, "LocationBatch.batch_id", modified(batch) { $0.batchId = 0 }),
        .init(.requiredFieldMissing, "LocationBatch.sent_at_ms", modified(batch) { $0.sentAtMs = 0 }),
        .init(.requiredFieldMissing, "LocationBatch.fixes[1].sequence", modified(batch) { $0.fixes[1].sequence = 0 }),
        .init(.sequenceNotIncreasing, "LocationBatch.fixes[1].sequence", modified(batch) { $0.fixes[1].sequence = 1 }),
        .init(.liveFixNotLatest, "LocationBatch.live_fix.sequence", modified(batch) { $0.liveFix!.sequence = 2 }),
        .init(
            .timeAfterSend, "LocationBatch.fixes[0].time_ms",
            modified(batch) { $0.fixes[0].timeMs = $0.sentAtMs + 600_001 }),
        .init(
            .rowsAndCompact, "LocationBatch.compact_fixes",
            modified(batch) { $0.compactFixes = try! CompactFixes(fixes: [Valid.fix(0)]) }),
        .init(
            .compact(.presenceMismatch), "LocationBatch.compact_fixes.sequence",
            modified(batch) {
                $0.fixes = []
                var compact = CompactFixes()
                compact.count = 2
                compact[column: 1] = FixColumn(deltas: [1])
                $0.compactFixes = compact
            }),
        .init(
            .compact(.runLengthsMismatch), "LocationBatch.compact_fixes.time_ms",
            modified(batch) {
                $0.fixes = []
                var compact = try! CompactFixes(fixes: [Valid.fix(1), Valid.fix(2)])
                compact[column: 2] = FixColumn(deltas: [1, 2], runLengths: [2])
                $0.compactFixes = compact
            }),
        .init(
            .compact(.columnTooLong), "LocationBatch.compact_fixes.time_ms",
            modified(batch) {
                $0.fixes = []
                var compact = try! CompactFixes(fixes: [Valid.fix(1), Valid.fix(2)])
                compact[column: 2] = FixColumn(deltas: [1, 2], runLengths: [1, 2])
                $0.compactFixes = compact
            }),
        .init(
            .compact(.valueOutOfRange), "LocationBatch.compact_fixes[1].latitude_e7",
            modified(batch) {
                $0.fixes = []
                var compact = try! CompactFixes(fixes: [Valid.fix(1), Valid.fix(2)])
                compact[column: 3] = FixColumn(deltas: [0, Int64(Int32.max) + 1])
                $0.compactFixes = compact
            }),
        .init(
            .valueOutOfRange, "LocationBatch.compact_fixes[1].latitude_e7",
            modified(batch) {
                $0.fixes = []
                $0.compactFixes = try! CompactFixes(fixes: [
                    Valid.fix(1), modified(Valid.fix(2)) { $0.latitudeE7 = 950_000_000 },
                ])
            }),
        .init(
            .eventSequenceNotIncreasing, "LocationBatch.fence_events[1].event_sequence",
            modified(batch) { $0.fenceEvents[1].eventSequence = 1 }),
        .init(
            .lifecycleEventsNotOrdered, "LocationBatch.lifecycle_events[1].time_ms",
            modified(batch) { $0.lifecycleEvents.append(modified($0.lifecycleEvents[0]) { $0.timeMs -= 1 }) }),
        .init(
            .requiredFieldMissing, "LocationBatch.device_status.observed_at_ms",
            modified(batch) { $0.deviceStatus!.observedAtMs = 0 }),
        .init(
            .stringTooLong, "LocationBatch.device_status.os_version",
            modified(batch) { $0.deviceStatus!.osVersion = String(repeating: "1", count: 65) }),
        .init(
            .duplicateRegionId, "LocationBatch.armed_regions.region_ids[2]",
            modified(batch) { $0.armedRegions!.regionIds.append("shop:1") }),
        .init(
            .regionArmedAndFailed, "LocationBatch.armed_regions.failed_region_ids[1]",
            modified(batch) { $0.armedRegions!.failedRegionIds.append("shop:1") }),
        .init(
            .regionIdMalformed, "LocationBatch.armed_regions.region_ids[0]",
            modified(batch) { $0.armedRegions!.regionIds[0] = "shop" }),
        .init(
            .requiredFieldMissing, "LocationBatch.lifecycle_events[0].kind",
            modified(batch) { $0.lifecycleEvents[0].kind = .unspecified }),
        .init(
            .relaunchReasonWithoutRelaunch, "LocationBatch.lifecycle_events[0].relaunch_reason",
            modified(batch) { $0.lifecycleEvents[0].kind = .terminated }),
        .init(
            .requiredFieldMissing, "FenceEvent.event_sequence", modified(Valid.fenceEvent(1)) { $0.eventSequence = 0 }),
        .init(.requiredFieldMissing, "FenceEvent.region_id", modified(Valid.fenceEvent(1)) { $0.regionId = "" }),
        .init(.requiredFieldMissing, "FenceEvent.kind", modified(Valid.fenceEvent(1)) { $0.kind = .unspecified }),
        .init(.requiredFieldMissing, "FenceEvent.source", modified(Valid.fenceEvent(1)) { $0.source = .unspecified }),
        .init(
            .requiredFieldMissing, "FenceEvent.detected_at_ms", modified(Valid.fenceEvent(1)) { $0.detectedAtMs = 0 }),
        .init(.timeOutOfRange, "FenceEvent.os_event_time_ms", modified(Valid.fenceEvent(1)) { $0.osEventTimeMs = -1 }),
        .init(
            .detectedBeforeEvent, "FenceEvent.detected_at_ms",
            modified(Valid.fenceEvent(1)) { $0.osEventTimeMs = $0.detectedAtMs + 1 }),
        .init(.dwellWithoutDwellKind, "FenceEvent.dwell_ms", modified(Valid.fenceEvent(1)) { $0.dwellMs = 0 }),
        .init(
            .valueOutOfRange, "FenceEvent.trigger_fix.latitude_e7",
            modified(Valid.fenceEvent(1)) { $0.triggerFix = modified(Valid.fix(0)) { $0.latitudeE7 = -900_000_001 } }),
    ]

    package static let regionCases: [ViolationCase] =
        [
            "", "shop", "Shop:1", "shop:", ":1", "shop:a b", "shop:é", String(repeating: "n", count: 33) + ":1",
            "shop:" + String(repeating: "x", count: 96),
        ]
        .map { id in
            ViolationCase(
                id.isEmpty ? .requiredFieldMissing : .regionIdMalformed, "Region.id",
                modified(Valid.region()) { $0.id = id })
        }
        + [
            .init(.requiredFieldMissing, "Region.version", modified(Valid.region()) { $0.version = 0 }),
            .init(.requiredFieldMissing, "Region.circle", modified(Valid.region()) { $0.circle = nil }),
            .init(.requiredFieldMissing, "Region.circle.radius_m", modified(Valid.region()) { $0.circle!.radiusM = 0 }),
            .init(
                .valueOutOfRange, "Region.circle.radius_m", modified(Valid.region()) { $0.circle!.radiusM = 1_000_001 }),
            .init(
                .requiredFieldMissing, "Region.circle.center_latitude_e7",
                modified(Valid.region()) { $0.circle!.centerLatitudeE7 = nil }),
            .init(
                .valueOutOfRange, "Circle.center_longitude_e7",
                modified(Valid.region().circle!) { $0.centerLongitudeE7 = Int32.max }),
            .init(
                .polygonTooFewVertices, "Region.polygon.latitudes_e7",
                modified(Valid.region()) { $0.polygon = polygon(2) }),
            .init(
                .polygonTooManyVertices, "Region.polygon.latitudes_e7",
                modified(Valid.region()) {
                    $0.circle!.radiusM = 1000
                    $0.polygon = polygon(1001)
                }),
            .init(
                .polygonLengthMismatch, "Region.polygon.longitudes_e7",
                modified(Valid.region()) {
                    $0.polygon = polygon(3)
                    $0.polygon!.longitudesE7.removeLast()
                }),
            .init(
                .valueOutOfRange, "Polygon.latitudes_e7[1]", modified(polygon(3)) { $0.latitudesE7[1] = 900_000_001 }),
            .init(
                .polygonOutsideCircle, "Region.polygon.latitudes_e7[2]",
                modified(Valid.region()) {
                    $0.polygon = polygon(3)
                    $0.polygon!.latitudesE7[2] = 450_000_000 + 19_000  // about 211 m north of the centre
                }),
            .init(.requiredFieldMissing, "Region.level", modified(Valid.region()) { $0.level = .unspecified }),
            .init(.parentIsSelf, "Region.parent_id", modified(Valid.region()) { $0.parentId = "shop:1" }),
            .init(.regionIdMalformed, "Region.parent_id", modified(Valid.region()) { $0.parentId = "city" }),
            .init(.noTransition, "Region.notify_on_entry", modified(Valid.region()) { $0.notifyOnEntry = false }),
            .init(
                .requiredFieldMissing, "Region.loitering_delay_ms", modified(Valid.region()) { $0.notifyOnDwell = true }
            ),
            .init(
                .valueOutOfRange, "Region.loitering_delay_ms",
                modified(Valid.region()) {
                    $0.notifyOnDwell = true
                    $0.loiteringDelayMs = 999
                }),
            .init(
                .loiteringDelayWithoutDwell, "Region.loitering_delay_ms",
                modified(Valid.region()) { $0.loiteringDelayMs = 60_000 }),
            .init(.timeOutOfRange, "Region.expires_at_ms", modified(Valid.region()) { $0.expiresAtMs = 5 }),
            .init(
                .stringTooLong, "Region.name", modified(Valid.region()) { $0.name = String(repeating: "n", count: 129) }
            ),
        ]

    /// A small polygon around the baseline region's centre (within its 200 m radius).
    package static func polygon(_ vertices: Int) -> Polygon {
        var polygon = Polygon()
        for index in 0..<vertices {
            polygon.latitudesE7.append(450_000_000 + Int32(index % 7) * 100)
            polygon.longitudesE7.append(90_000_000 + Int32(index % 5) * 100)
        }
        return polygon
    }

    package static let assignmentCases: [ViolationCase] = [
        .init(
            .requiredFieldMissing, "RegionAssignment.assignment_version",
            modified(Valid.assignment) { $0.assignmentVersion = 0 }),
        .init(.requiredFieldMissing, "RegionAssignment.issued_at_ms", modified(Valid.assignment) { $0.issuedAtMs = 0 }),
        .init(
            .expiresBeforeIssued, "RegionAssignment.expires_at_ms",
            modified(Valid.assignment) { $0.expiresAtMs = $0.issuedAtMs }),
        .init(.requiredFieldMissing, "RegionAssignment.mode", modified(Valid.assignment) { $0.mode = .unspecified }),
        .init(.requiredFieldMissing, "RegionAssignment.slot_budget", modified(Valid.assignment) { $0.slotBudget = 0 }),
        .init(.baseVersionInFull, "RegionAssignment.base_version", modified(Valid.assignment) { $0.baseVersion = 1 }),
        .init(
            .removalsInFull, "RegionAssignment.removed_region_ids",
            modified(Valid.assignment) { $0.removedRegionIds = ["shop:9"] }),
        .init(.regionCountExceedsBudget, "RegionAssignment.regions", modified(Valid.assignment) { $0.slotBudget = 1 }),
        .init(.requiredFieldMissing, "RegionAssignment.base_version", modified(Valid.assignment) { $0.mode = .delta }),
        .init(
            .baseVersionNotOlder, "RegionAssignment.base_version",
            modified(Valid.assignment) {
                $0.mode = .delta
                $0.baseVersion = 2
            }),
        .init(
            .duplicateRegionId, "RegionAssignment.regions[1].id",
            modified(Valid.assignment) { $0.regions[1].id = "shop:1" }),
        .init(
            .duplicateRegionId, "RegionAssignment.removed_region_ids[1]",
            modified(Valid.assignment) {
                $0.mode = .delta
                $0.baseVersion = 1
                $0.removedRegionIds = ["shop:9", "shop:9"]
            }),
        .init(
            .regionRemovedAndUpserted, "RegionAssignment.removed_region_ids[0]",
            modified(Valid.assignment) {
                $0.mode = .delta
                $0.baseVersion = 1
                $0.removedRegionIds = ["shop:2"]
            }),
        .init(
            .parentLevelNotCoarser, "RegionAssignment.regions[1].parent_id",
            modified(Valid.assignment) { $0.regions[1].parentId = "shop:1" }),
        .init(
            .valueOutOfRange, "RegionAssignment.regions[0].circle.radius_m",
            modified(Valid.assignment) { $0.regions[0].circle!.radiusM = 2_000_000 }),
        .init(
            .refreshAnchorMissing, "RegionAssignment.refresh.anchor_longitude_e7",
            modified(Valid.assignment) {
                var refresh = RefreshPolicy()
                refresh.refreshDistanceM = 1000
                refresh.anchorLatitudeE7 = 1
                $0.refresh = refresh
            }),
        .init(
            .valueOutOfRange, "RefreshPolicy.refresh_distance_m",
            modified(RefreshPolicy()) {
                $0.refreshDistanceM = 0
                $0.anchorLatitudeE7 = 1
                $0.anchorLongitudeE7 = 1
            }),
    ]

    package static let otherCases: [ViolationCase] = [
        .init(.requiredFieldMissing, "RegionRequest.device_id", modified(Valid.request) { $0.deviceId = "" }),
        .init(.requiredFieldMissing, "RegionRequest.reason", modified(Valid.request) { $0.reason = .unspecified }),
        .init(
            .requiredFieldMissing, "RegionRequest.platform_slot_limit",
            modified(Valid.request) { $0.platformSlotLimit = 0 }),
        .init(
            .reservedSlotsExceedLimit, "RegionRequest.reserved_app_slots",
            modified(Valid.request) { $0.reservedAppSlots = 20 }),
        .init(
            .requiredFieldMissing, "RegionRequest.refine_region_id",
            modified(Valid.request) { $0.reason = .refineOnEntry }),
        .init(
            .refineRegionWithoutRefineReason, "RegionRequest.refine_region_id",
            modified(Valid.request) { $0.refineRegionId = "city:paris" }),
        .init(.requiredFieldMissing, "RegionRequest.sent_at_ms", modified(Valid.request) { $0.sentAtMs = 0 }),
        .init(
            .nullIsland, "RegionRequest.current_fix.latitude_e7",
            modified(Valid.request) {
                $0.currentFix!.latitudeE7 = 0
                $0.currentFix!.longitudeE7 = 0
            }),
        .init(.requiredFieldMissing, "BatchAck.batch_id", modified(Valid.ack) { $0.batchId = 0 }),
        .init(
            .requiredFieldMissing, "BatchAck.fix_results[0].first_sequence",
            modified(Valid.ack) { $0.fixResults[0].firstSequence = 0 }),
        .init(
            .rangeInverted, "BatchAck.fix_results[0].last_sequence",
            modified(Valid.ack) { $0.fixResults[0].lastSequence = 0 }),
        .init(
            .rangesOverlap, "BatchAck.fix_results[1].first_sequence",
            modified(Valid.ack) { $0.fixResults[1].firstSequence = 2 }),
        .init(
            .rangesNotSorted, "BatchAck.fence_event_results[1].first_sequence",
            modified(Valid.ack) {
                $0.fenceEventResults.append(AckRange(first: 0, last: 0, result: .accepted))
            }),
        .init(
            .requiredFieldMissing, "BatchAck.fix_results[0].result",
            modified(Valid.ack) { $0.fixResults[0].result = .unspecified }),
        .init(
            .rejectReasonMissing, "BatchAck.fix_results[1].reject_reason",
            modified(Valid.ack) { $0.fixResults[1].rejectReason = .unspecified }),
        .init(
            .rejectReasonWithoutRejection, "BatchAck.fix_results[0].reject_reason",
            modified(Valid.ack) { $0.fixResults[0].rejectReason = .tooOld }),
        .init(
            .stringTooLong, "BatchAck.fix_results[0].detail",
            modified(Valid.ack) { $0.fixResults[0].detail = String(repeating: "d", count: 257) }),
        .init(
            .valueOutOfRange, "BatchAck.tracking_policy.max_batch_size",
            modified(Valid.ack) { $0.trackingPolicy = modified(TrackingPolicy()) { $0.maxBatchSize = 0 } }),
        .init(
            .valueOutOfRange, "TrackingPolicy.time_interval_ms", modified(TrackingPolicy()) { $0.timeIntervalMs = 999 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.stationary_radius_m",
            modified(TrackingPolicy()) { $0.stationaryRadiusM = 1001 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.fix_window_ms", modified(TrackingPolicy()) { $0.fixWindowMs = 3_600_001 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.duty_cycle_off_ms",
            modified(TrackingPolicy()) { $0.dutyCycleOffMs = 86_400_001 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.fence_hysteresis_m",
            modified(TrackingPolicy()) { $0.fenceHysteresisM = 10_001 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.fence_confirm_ms",
            modified(TrackingPolicy()) { $0.fenceConfirmMs = 600_001 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.fence_max_accuracy_cm",
            modified(TrackingPolicy()) { $0.fenceMaxAccuracyCm = 0 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.retention_days", modified(TrackingPolicy()) { $0.retentionDays = 0 }),
        .init(
            .compact(.runLengthsMismatch), "FixColumn.run_lengths[1]", FixColumn(deltas: [1, 2], runLengths: [1, 0])),
        .init(
            .compact(.presenceMismatch), "CompactFixes.latitude_e7",
            modified(try! CompactFixes(fixes: [Valid.fix(1)])) {
                $0[column: 3]!.presence = [3]  // a bit past the single fix
            }),
    ]

    /// The rules added with revision 1 of the spec (install ids, sequence floors, boot ids, batch outcomes,
    /// commands, failure reasons, child regions).
    package static let revisionOneCases: [ViolationCase] = [
        .init(.requiredFieldMissing, "LocationBatch.install_id", modified(batch) { $0.installId = 0 }),
        .init(
            .timeAfterSend, "LocationBatch.live_fix.time_ms",
            modified(batch) { $0.liveFix!.timeMs = $0.sentAtMs + 600_001 }),
        .init(
            .rowsAndCompact, "LocationBatch.compact_fixes",
            modified(batch) { $0.compactFixes = CompactFixes() }),  // count 0 still counts
        .init(
            .sequenceFloorAboveBatch, "LocationBatch.fix_sequence_floor",
            modified(batch) { $0.fixSequenceFloor = 2 }),
        .init(
            .sequenceFloorAboveBatch, "LocationBatch.fix_sequence_floor",
            modified(batch) {
                $0.fixes = []
                $0.fixSequenceFloor = 4  // above the live fix, the batch's only fix
            }),
        .init(
            .sequenceFloorAboveBatch, "LocationBatch.fix_sequence_floor",
            modified(batch) {
                $0.compactFixes = try! CompactFixes(fixes: $0.fixes)
                $0.fixes = []
                $0.fixSequenceFloor = 2
            }),
        .init(
            .sequenceFloorAboveBatch, "LocationBatch.event_sequence_floor",
            modified(batch) { $0.eventSequenceFloor = 2 }),
        .init(
            .clockJump, "LocationBatch.fixes[1].time_ms",
            modified(batch) { $0.fixes[1].elapsedRealtimeMs! += 1001 }),
        .init(
            .clockJump, "LocationBatch.live_fix.time_ms",
            modified(batch) { $0.liveFix!.timeMs -= 1001 }),
        .init(
            .clockJump, "LocationBatch.compact_fixes[1].time_ms",
            modified(batch) {
                $0.fixes[1].timeMs += 1001
                $0.liveFix!.timeMs += 1001
                $0.compactFixes = try! CompactFixes(fixes: $0.fixes)
                $0.fixes = []
            }),
        .init(
            .clockJump, "LocationBatch.fixes[1].time_ms",
            modified(batch) {
                // Both fixes name the batch's boot themselves.
                $0.fixes[0].bootId = $0.bootId
                $0.fixes[1].bootId = $0.bootId
                $0.fixes[1].elapsedRealtimeMs! -= 1001
            }),
        .init(.dwellMsMissing, "FenceEvent.dwell_ms", modified(Valid.fenceEvent(1)) { $0.kind = .dwell }),
        .init(
            .failureReasonsLengthMismatch, "LocationBatch.armed_regions.failure_reasons",
            modified(batch) { $0.armedRegions!.failureReasons.append(.other) }),
        .init(
            .childOutsideParent, "RegionAssignment.regions[0].circle",
            modified(Valid.assignment) {
                $0.regions[1].level = .city
                $0.regions[0].parentId = $0.regions[1].id
                $0.regions[0].circle!.centerLatitudeE7! += 180  // about 2 m north: 2 + 200 > 200 + 1
            }),
        .init(
            .childOutsideParent, "RegionAssignment.regions[1].circle",
            modified(Valid.assignment) {
                $0.regions[0].level = .city
                $0.regions[1].parentId = $0.regions[0].id
                $0.regions[1].circle!.radiusM = 202  // larger than its parent at the same centre
            }),
        .init(
            .regionCountExceedsBudget, "RegionAssignment.regions",
            modified(Valid.assignment) {
                $0.mode = .delta
                $0.baseVersion = 1
                $0.slotBudget = 1
            }),
        .init(.requiredFieldMissing, "BatchAck.outcome", modified(Valid.ack) { $0.outcome = .unspecified }),
        .init(
            .rangesWithoutProcessing, "BatchAck.fix_results",
            modified(Valid.ack) {
                $0.outcome = .hold
                $0.holdReason = .serverBusy
            }),
        .init(
            .rangesWithoutProcessing, "BatchAck.fence_event_results",
            modified(Valid.ack) {
                $0.outcome = .tooLarge
                $0.fixResults = []
            }),
        .init(
            .holdReasonMissing, "BatchAck.hold_reason",
            modified(Valid.ack) {
                $0.outcome = .hold
                $0.fixResults = []
                $0.fenceEventResults = []
            }),
        .init(.holdReasonWithoutHold, "BatchAck.hold_reason", modified(Valid.ack) { $0.holdReason = .quotaExceeded }),
        .init(
            .rejectReasonRetired, "BatchAck.fix_results[1].reject_reason",
            modified(Valid.ack) { $0.fixResults[1].rejectReason = RejectReason(rawValue: 5) }),
        .init(
            .rejectReasonRetired, "BatchAck.fix_results[1].reject_reason",
            modified(Valid.ack) { $0.fixResults[1].rejectReason = RejectReason(rawValue: 6) }),
        .init(
            .duplicateCommandId, "BatchAck.commands[1].command_id",
            modified(Valid.ack) { $0.commands[1].commandId = 1 }),
        .init(
            .requiredFieldMissing, "BatchAck.commands[0].command_id",
            modified(Valid.ack) { $0.commands[0].commandId = 0 }),
        .init(
            .requiredFieldMissing, "BatchAck.commands[1].kind",
            modified(Valid.ack) { $0.commands[1].kind = .unspecified }
        ),
        .init(.requiredFieldMissing, "DeviceCommand.command_id", DeviceCommand(commandId: 0, kind: .uploadNow)),
        .init(
            .timeOutOfRange, "DeviceCommand.expires_at_ms",
            DeviceCommand(commandId: 1, kind: .recordFix, expiresAtMs: 60)),
        .init(
            .valueOutOfRange, "BatchAck.max_batch_bytes",
            modified(Valid.ack) {
                $0.outcome = .tooLarge
                $0.fixResults = []
                $0.fenceEventResults = []
                $0.maxBatchBytes = 16_383
            }),
        .init(
            .valueOutOfRange, "TrackingPolicy.max_batch_bytes",
            modified(TrackingPolicy()) { $0.maxBatchBytes = 67_108_865 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.max_batches_in_flight",
            modified(TrackingPolicy()) { $0.maxBatchesInFlight = 0 }),
        .init(
            .valueOutOfRange, "TrackingPolicy.max_batches_in_flight",
            modified(TrackingPolicy()) { $0.maxBatchesInFlight = 17 }),
        .init(
            .compact(.tooManyFixes), "LocationBatch.compact_fixes",
            modified(batch) {
                $0.fixes = []
                var compact = CompactFixes()
                compact.count = UInt32(CompactFixes.defaultFixLimit) + 1  // refused before anything is expanded
                $0.compactFixes = compact
            }),
    ]
}

/// An edge of the rules that proto/README.md's "Paths and edge cases" settles: a message and the exact
/// violations (code and path) the text says a validator reports, nothing more. Many of them are about what is
/// not reported: a missing value that must not feed a comparison, a rule that applies only in one mode.
package struct EdgeCase: Sendable {
    /// The vector id's last component: `semantic.<type>.edge.<name>`.
    package let name: String
    /// The violations the spec text gives, in any order.
    package let expected: [(code: Violation.Code, path: String)]
    package let violations: @Sendable () -> [Violation]
    package let messageBytes: [UInt8]
    package let messageType: String
    /// What the edge is, for the vector's comment.
    package let why: String

    package init<Message: Validatable>(
        _ name: String, _ message: Message, _ expected: [(Violation.Code, String)], _ why: String
    ) {
        self.name = name
        self.expected = expected.map { (code: $0.0, path: $0.1) }
        self.violations = { message.validate() }
        self.messageBytes = message.serializedBytes()
        self.messageType = Message.messageName
        self.why = why
    }
}

package enum EdgeCases {
    package static let all: [EdgeCase] = missingValues + regionEdges + compactEdges + otherEdges

    private static let batch = Valid.batch
    private static let time = Valid.time

    /// "Missing numbers and times do not feed comparisons", and `clock-jump`'s "a fix is never compared across a
    /// fix of another boot or without those fields".
    package static let missingValues: [EdgeCase] = [
        .init(
            "lifecycle-untimed-not-compared",
            modified(batch) {
                let event = $0.lifecycleEvents[0]
                $0.lifecycleEvents = [event, modified(event) { $0.timeMs = 0 }, event]
            },
            [(.requiredFieldMissing, "LocationBatch.lifecycle_events[1].time_ms")],
            "A lifecycle event without a time is not compared with its neighbours; equal times are in order."),
        .init(
            "lifecycle-order-skips-untimed",
            modified(batch) {
                let event = $0.lifecycleEvents[0]
                $0.lifecycleEvents = [event, modified(event) { $0.timeMs = 0 }, modified(event) { $0.timeMs -= 1 }]
            },
            [
                (.requiredFieldMissing, "LocationBatch.lifecycle_events[1].time_ms"),
                (.lifecycleEventsNotOrdered, "LocationBatch.lifecycle_events[2].time_ms"),
            ],
            "The timed lifecycle events are still oldest first: the third, older than the first, is out of order."),
        .init(
            "clock-jump-untimed-fix-not-compared",
            modified(batch) {
                $0.fixes[1].timeMs = 0
                $0.liveFix!.timeMs += 5_000  // 5 s off the first fix's clocks, but not its neighbour
            },
            [(.requiredFieldMissing, "LocationBatch.fixes[1].time_ms")],
            "A fix without time_ms is not compared for clock-jump, and the next fix is not compared across it."),
        .init(
            "clock-jump-not-across-other-boot",
            modified(batch) {
                $0.fixes[1].bootId = 0xB008
                $0.liveFix!.timeMs += 5_000
            },
            [],
            "A fix of another boot between two fixes of the batch's boot: no fix is compared with a neighbour."),
        .init(
            "clock-jump-not-across-no-elapsed",
            modified(batch) {
                $0.fixes[1].elapsedRealtimeMs = nil
                $0.liveFix!.timeMs += 5_000
            },
            [],
            "A fix without elapsed_realtime_ms between two others: the live fix is not compared across it."),
        .init(
            "base-version-without-assignment-version",
            modified(Valid.assignment) {
                $0.mode = .delta
                $0.baseVersion = 1
                $0.assignmentVersion = 0
            },
            [(.requiredFieldMissing, "RegionAssignment.assignment_version")],
            "Without assignment_version there is no base-version-not-older."),
    ]

    /// Parents, levels, ids and modes of a region assignment.
    package static let regionEdges: [EdgeCase] = [
        .init(
            "parent-level-child-unset",
            modified(Valid.assignment) {
                $0.regions[1].level = .city
                $0.regions[0].parentId = $0.regions[1].id
                $0.regions[0].level = .unspecified
            },
            [(.requiredFieldMissing, "RegionAssignment.regions[0].level")],
            "parent-level-not-coarser needs both levels set: a child at UNSPECIFIED under a CITY is not judged."),
        .init(
            "parent-level-parent-unknown",
            modified(Valid.assignment) {
                $0.regions[1].level = RegionLevel(rawValue: 6)
                $0.regions[0].parentId = $0.regions[1].id
            },
            [],
            "A parent at a level this revision does not know (6) is not compared with its SITE child."),
        .init(
            "parent-level-both-unknown",
            modified(Valid.assignment) {
                $0.regions[1].level = RegionLevel(rawValue: 7)
                $0.regions[0].level = RegionLevel(rawValue: 6)
                $0.regions[0].parentId = $0.regions[1].id
            },
            [],
            "Unknown levels (7 above 6) are not ordered by their numbers."),
        .init(
            "empty-id-is-nobodys-parent",
            modified(Valid.assignment) {
                $0.regions[1].id = ""
                $0.regions[1].circle!.centerLatitudeE7! += 100_000  // about 11 km north of regions[0]
            },
            [(.requiredFieldMissing, "RegionAssignment.regions[1].id")],
            "A region without parent_id has no parent, even when another region's id is empty."),
        .init(
            "empty-ids-are-duplicates",
            modified(Valid.assignment) {
                $0.regions[0].id = ""
                $0.regions[1].id = ""
            },
            [
                (.requiredFieldMissing, "RegionAssignment.regions[0].id"),
                (.requiredFieldMissing, "RegionAssignment.regions[1].id"),
                (.duplicateRegionId, "RegionAssignment.regions[1].id"),
            ],
            "Ids are compared as written: two empty ids are duplicates."),
        .init(
            "parent-is-last-with-id",
            modified(Valid.assignment) {
                $0.regions[0].parentId = "city:x"
                var coarse = Valid.region("city:x")
                coarse.level = .country
                coarse.circle!.radiusM = 1_000
                var fine = Valid.region("city:x")
                fine.circle!.centerLatitudeE7! += 100_000
                $0.regions += [coarse, fine]
            },
            [
                (.duplicateRegionId, "RegionAssignment.regions[3].id"),
                (.parentLevelNotCoarser, "RegionAssignment.regions[0].parent_id"),
                (.childOutsideParent, "RegionAssignment.regions[0].circle"),
            ],
            "With two regions of the parent's id, the parent is the last (a SITE 11 km away), not the first."),
        .init(
            "removed-and-upserted-only-in-delta",
            modified(Valid.assignment) { $0.removedRegionIds = ["shop:1"] },
            [(.removalsInFull, "RegionAssignment.removed_region_ids")],
            "A full replacement that removes one of its own regions: removals-in-full, not region-removed-and-upserted."
        ),
        .init(
            "removed-and-upserted-mode-unset",
            modified(Valid.assignment) {
                $0.mode = .unspecified
                $0.removedRegionIds = ["shop:1"]
            },
            [(.requiredFieldMissing, "RegionAssignment.mode")],
            "region-removed-and-upserted is a delta's rule; without a mode it is not judged."),
        .init(
            "polygon-vertex-out-of-range-judged",
            modified(Valid.region()) {
                $0.polygon = ViolationCases.polygon(3)
                $0.polygon!.latitudesE7[0] = 950_000_000
            },
            [
                (.valueOutOfRange, "Region.polygon.latitudes_e7[0]"),
                (.polygonOutsideCircle, "Region.polygon.latitudes_e7[0]"),
            ],
            "Distances are judged even out of range: a vertex at latitude 95 degrees is far outside the circle."),
        .init(
            "polygon-centre-out-of-range-judged",
            modified(Valid.region()) {
                $0.polygon = ViolationCases.polygon(3)
                $0.circle!.centerLatitudeE7 = 900_000_100
            },
            [
                (.valueOutOfRange, "Region.circle.center_latitude_e7"),
                (.polygonOutsideCircle, "Region.polygon.latitudes_e7[0]"),
                (.polygonOutsideCircle, "Region.polygon.latitudes_e7[1]"),
                (.polygonOutsideCircle, "Region.polygon.latitudes_e7[2]"),
            ],
            "A centre past the pole is still a centre: every vertex, 45 degrees away, is outside."),
        .init(
            "child-outside-parent-out-of-range-judged",
            modified(Valid.assignment) {
                $0.regions[1].level = .city
                $0.regions[1].circle!.centerLatitudeE7 = 950_000_000
                $0.regions[1].circle!.radiusM = 1_000_001
                $0.regions[0].parentId = $0.regions[1].id
            },
            [
                (.valueOutOfRange, "RegionAssignment.regions[1].circle.center_latitude_e7"),
                (.valueOutOfRange, "RegionAssignment.regions[1].circle.radius_m"),
                (.childOutsideParent, "RegionAssignment.regions[0].circle"),
            ],
            "A parent circle out of range (latitude 95 degrees, radius 1000001 m) is still judged as a parent."),
        .init(
            "refresh-anchor-missing-once",
            modified(Valid.assignment) {
                var refresh = RefreshPolicy()
                refresh.refreshDistanceM = 1000
                $0.refresh = refresh
            },
            [(.refreshAnchorMissing, "RegionAssignment.refresh.anchor_latitude_e7")],
            "Both anchor coordinates missing: refresh-anchor-missing once, at anchor_latitude_e7."),
    ]

    /// "A broken CompactFixes is reported once, for its first defect", and the compact messages on their own.
    package static let compactEdges: [EdgeCase] = [
        .init(
            "compact-first-broken-column-only",
            modified(batch) {
                $0.fixes = []
                var compact = try! CompactFixes(fixes: [Valid.fix(1), Valid.fix(2)])
                compact[column: 2] = FixColumn(deltas: [1, 2], runLengths: [2])  // run lengths
                compact[column: 3] = FixColumn(deltas: [1, 2, 3])  // too long
                compact[column: 4] = FixColumn(deltas: [1])  // partial without presence
                $0.compactFixes = compact
            },
            [(.compact(.runLengthsMismatch), "LocationBatch.compact_fixes.time_ms")],
            "Three broken columns: only the first, in field-number order, is reported."),
        .init(
            "compact-zero-run-before-length",
            modified(batch) {
                $0.fixes = []
                var compact = try! CompactFixes(fixes: [Valid.fix(1), Valid.fix(2)])
                compact[column: 2] = FixColumn(deltas: [1, 2], runLengths: [5, 0])
                $0.compactFixes = compact
            },
            [(.compact(.runLengthsMismatch), "LocationBatch.compact_fixes.time_ms")],
            "Run lengths [5, 0] for 2 fixes: the 0 comes first (run lengths before length), at the column."),
        .init(
            "compact-too-long-not-presence",
            modified(batch) {
                $0.fixes = []
                var compact = try! CompactFixes(fixes: [Valid.fix(1), Valid.fix(2)])
                compact[column: 3] = FixColumn(deltas: [1, 2, 3], presence: [0xFF])
                $0.compactFixes = compact
            },
            [(.compact(.columnTooLong), "LocationBatch.compact_fixes.latitude_e7")],
            "A column too long with a bad bitmap: length comes before presence."),
        .init(
            "compact-first-bad-value-only",
            modified(batch) {
                $0.fixes = []
                var compact = try! CompactFixes(fixes: [Valid.fix(1), Valid.fix(2)])
                compact[column: 3] = FixColumn(deltas: [Int64(Int32.max) + 1, 0])
                compact[column: 4] = FixColumn(deltas: [Int64(Int32.min) - 1, 0])
                $0.compactFixes = compact
            },
            [(.compact(.valueOutOfRange), "LocationBatch.compact_fixes[0].latitude_e7")],
            "Four values that do not fit their fields: only the first, column by column, is reported."),
        .init(
            "compact-fixes-alone-sequence",
            try! CompactFixes(fixes: [Valid.fix(2), Valid.fix(1)]),
            [(.sequenceNotIncreasing, "CompactFixes[1].sequence")],
            "A CompactFixes on its own is judged as a backlog: its sequences must increase."),
        .init(
            "compact-fixes-alone-no-batch-rules",
            try! CompactFixes(fixes: [
                Valid.fix(1), modified(Valid.fix(2)) { $0.elapsedRealtimeMs! += 5_000 },
            ]),
            [],
            "A CompactFixes on its own has no batch: no clock-jump."),
        .init(
            "fix-column-alone-length",
            FixColumn(deltas: [1, 2], runLengths: [1]),
            [(.compact(.runLengthsMismatch), "FixColumn.run_lengths")],
            "A FixColumn on its own: run lengths of another length than deltas are reported at run_lengths."),
        .init(
            "fix-column-alone-length-and-zero",
            FixColumn(deltas: [1, 2, 3], runLengths: [0, 1]),
            [
                (.compact(.runLengthsMismatch), "FixColumn.run_lengths"),
                (.compact(.runLengthsMismatch), "FixColumn.run_lengths[0]"),
            ],
            "A FixColumn on its own: the length at run_lengths and each 0 at run_lengths[j], both."),
    ]

    /// Requests and batches.
    package static let otherEdges: [EdgeCase] = [
        .init(
            "refine-region-id-form-only-with-refine",
            modified(Valid.request) { $0.refineRegionId = "city" },
            [(.refineRegionWithoutRefineReason, "RegionRequest.refine_region_id")],
            "A malformed refine_region_id without REFINE_ON_ENTRY is only refine-region-without-refine-reason."),
        .init(
            "install-id-required-at-revision-0",
            modified(batch) {
                $0.installId = 0
                $0.protocolRevision = 0
            },
            [(.requiredFieldMissing, "LocationBatch.install_id")],
            "install_id is required whatever protocol_revision says."),
    ]
}
