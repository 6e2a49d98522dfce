import Foundation
import LocationWire
import LocationWireTools

/// A benchmark input: a message's canonical bytes and what it holds.
struct Workload {
    let name: String
    let typeName: String
    let bytes: [UInt8]
    let fixes: Int
    let description: String
}

enum Workloads {
    /// The raw 1 Hz trace of a fixture scenario, as a batch of `count` row fixes.
    static func batch(_ scenario: TraceSimulator.Scenario, fixes count: Int, seed: UInt64 = 1) -> LocationBatch {
        var simulator = TraceSimulator(scenario: scenario, seed: seed)
        var batch = LocationBatch()
        batch.deviceId = "ios-7F3A-bench"
        batch.batchId = 0x5EED_0000 + seed
        batch.bootId = 0xB007
        batch.installId = 0x1457_A11
        batch.protocolRevision = 1
        batch.fixes = simulator.fixes(count)
        batch.sentAtMs = (batch.fixes.last?.timeMs ?? 1_767_261_600_000) + 1500
        batch.datum = .wgs84
        return batch
    }

    static func compact(_ batch: LocationBatch) -> LocationBatch {
        var compact = batch
        compact.compactFixes = try! CompactFixes(fixes: batch.fixes)
        compact.fixes = []
        return compact
    }

    static func assignment(regions: Int) -> RegionAssignment {
        var assignment = RegionAssignment()
        assignment.assignmentVersion = 42
        assignment.issuedAtMs = 1_767_261_600_000
        assignment.expiresAtMs = 1_767_348_000_000
        assignment.mode = .fullReplacement
        assignment.slotBudget = 20
        assignment.datum = .wgs84
        var refresh = RefreshPolicy()
        refresh.refreshDistanceM = 2000
        refresh.anchorLatitudeE7 = 460_511_000
        refresh.anchorLongitudeE7 = 145_051_000
        refresh.onRefineEntry = true
        assignment.refresh = refresh
        for index in 0..<regions {
            var region = Region()
            region.id = "shop:\(10_000 + index)"
            region.version = 3
            let latitude = Int32(460_511_000 + index * 15_000)
            let longitude = Int32(145_051_000 - index * 11_000)
            region.circle = Circle(latitudeE7: latitude, longitudeE7: longitude, radiusM: 150)
            var polygon = Polygon()
            for vertex in 0..<20 {
                let angle = Double(vertex) / 20 * 2 * .pi
                polygon.latitudesE7.append(latitude + Int32(8_000 * sin(angle)))
                polygon.longitudesE7.append(longitude + Int32(11_000 * cos(angle)))
            }
            region.polygon = polygon
            region.level = .site
            region.parentId = "district:ljubljana-center"
            region.notifyOnEntry = true
            region.notifyOnExit = true
            region.notifyOnDwell = index % 3 == 0
            region.loiteringDelayMs = index % 3 == 0 ? 120_000 : 0
            region.priority = UInt32(index % 5)
            region.name = "Shop \(index)"
            assignment.regions.append(region)
        }
        return assignment
    }

    static func fenceEvent() -> FenceEvent {
        var event = FenceEvent()
        event.eventSequence = 1234
        event.regionId = "shop:10007"
        event.regionVersion = 3
        event.assignmentVersion = 42
        event.kind = .enter
        event.osEventTimeMs = 1_767_261_600_000
        event.detectedAtMs = 1_767_261_660_000
        var simulator = TraceSimulator(scenario: .walk, seed: 4)
        event.triggerFix = simulator.nextFix()
        event.source = .osRegionMonitor
        event.detectedElapsedRealtimeMs = 3_600_123
        return event
    }

    /// Every workload of the run; scaling workloads walk from 10 to 100,000 fixes.
    static func all() -> [Workload] {
        var workloads: [Workload] = []
        func add(_ name: String, _ message: some LocationWireMessage, fixes: Int, _ description: String) {
            workloads.append(
                Workload(
                    name: name, typeName: type(of: message).fullMessageName, bytes: message.serializedBytes(),
                    fixes: fixes, description: description))
        }
        let walk = batch(.walk, fixes: 1000)
        add("batch-walk-1000", walk, fixes: 1000, "1000 fixes of the walking scenario's 1 Hz trace, row form")
        add(
            "batch-drive-1000", batch(.drive, fixes: 1000), fixes: 1000,
            "1000 fixes of the driving scenario's 1 Hz trace, row form")
        add(
            "batch-compact-walk-1000", compact(walk), fixes: 1000,
            "the same 1000 walking fixes in the compact, columnar form")
        add(
            "batch-compact-drive-1000", compact(batch(.drive, fixes: 1000)), fixes: 1000,
            "the 1000 driving fixes, compact form")
        add("batch-walk-1", batch(.walk, fixes: 1), fixes: 1, "a one-fix batch: the latency of a single upload")
        add(
            "assignment-20", assignment(regions: 20), fixes: 0,
            "a RegionAssignment of 20 regions, each with a circle and a 20-vertex polygon")
        add("fence-event", fenceEvent(), fixes: 0, "one FenceEvent with its trigger fix")
        for count in [10, 100, 10_000, 100_000] {
            add(
                "scale-walk-\(count)", batch(.walk, fixes: count), fixes: count,
                "\(count) walking fixes, row form (scaling curve)")
        }
        return workloads
    }

    /// Writes the workloads as the peer harnesses read them: NAME.binpb and NAME.json metadata.
    static func write(_ workloads: [Workload], to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for workload in workloads {
            try Data(workload.bytes).write(to: directory.appendingPathComponent("\(workload.name).binpb"))
            let meta: [String: Any] = [
                "type": workload.typeName, "fixes": workload.fixes, "description": workload.description,
            ]
            try JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]).write(
                to: directory.appendingPathComponent("\(workload.name).json"))
        }
    }
}
