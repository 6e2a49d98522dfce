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
