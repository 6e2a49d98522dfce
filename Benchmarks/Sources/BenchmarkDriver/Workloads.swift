import Foundation
import LocationWire
import LocationWireJSON
import LocationWireRandom
import LocationWireSimulation

/// A benchmark workload: distinct inputs of one message type, which every harness rotates through
/// (Benchmarks/peers/PROTOCOL.md), so that no implementation is timed on one input it has learned.
struct Workload {
    let name: String
    let typeName: String
    /// The bytes each decode starts from; non-canonical for the reordered workload.
    let inputs: [[UInt8]]
    /// What an encoder writes back: the canonical encoding of each input.
    let canonical: [[UInt8]]
    /// Canonical proto3 JSON of each input, for `json-parse`; empty for the scaling curve, which measures only
    /// binary decode and encode (its JSON would take a gigabyte).
    let json: [[UInt8]]
    /// Fixes per input (0 for messages that are not batches).
    let fixesPerInput: Int
    let description: String
    /// Part of the headline table; the scaling curve's sizes are not.
    let isHeadline: Bool

    var inputBytes: Int { inputs.reduce(0) { $0 + $1.count } }
    // TEMPORARY until the coordinator lands: the old driver's single input.
    var bytes: [UInt8] { canonical[0] }
    var fixes: Int { fixesPerInput }
    var averageInputBytes: Double { Double(inputBytes) / Double(inputs.count) }
}

enum Workloads {
    /// Inputs per workload. The issue asks for at least 64; the 100,000-fix batch (6 MB, beyond this machine's
    /// caches on its own) has 8, or the harnesses would each hold gigabytes of decoded messages.
    static let inputCount = 64
    static let largeInputCount = 8

    /// The raw 1 Hz trace of a fixture scenario, as a batch of `count` row fixes. `seed` varies the trace, the
    /// ids and the device id, whose length stays 14 bytes (a Swift small string) unless `deviceId` is given.
    static func batch(
        _ scenario: TraceSimulator.Scenario, fixes count: Int, seed: UInt64, deviceId: String? = nil
    ) -> LocationBatch {
        var simulator = TraceSimulator(scenario: scenario, seed: seed)
        var batch = LocationBatch()
        batch.deviceId = deviceId ?? "ios-\(String(format: "%04X", seed & 0xFFFF))-bench"
        batch.batchId = 0x5EED_0000 + seed
        batch.bootId = 0xB007 &+ seed &* 0x9E37_79B9
        batch.installId = 0x1457_A11 &+ seed
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

    /// A device id of 36 bytes, a UUID's text form: longer than a Swift small string, so it is stored apart.
    static func uuid(_ random: inout SeededRandom) -> String {
        let high = random.next()
        let low = random.next()
        let hex = String(format: "%016llX%016llX", high, low)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// A batch of 100 fixes with everything else a batch carries: a 36-byte device id, 10 fence events with
    /// their trigger fixes, 5 lifecycle events and the device status.
    static func fullBatch(seed: UInt64) -> LocationBatch {
        var random = SeededRandom(seed: seed)
        var batch = batch(.walk, fixes: 100, seed: seed, deviceId: uuid(&random))
        for index in 0..<10 {
            var event = fenceEvent(seed: seed &* 31 &+ UInt64(index))
            event.eventSequence = UInt64(index + 1)
            batch.fenceEvents.append(event)
        }
        let kinds: [LifecycleEventKind] = [.launched, .enteredBackground, .relaunchedBySystem, .cameToForeground]
        for index in 0..<5 {
            var event = LifecycleEvent()
            event.kind = kinds[index % kinds.count]
            event.timeMs = batch.fixes[index * 20].timeMs
            event.elapsedRealtimeMs = 3_600_000 + UInt64(index) * 20_000
            event.relaunchReason = event.kind == .relaunchedBySystem ? .regionEvent : .unspecified
            event.bootId = batch.bootId
            batch.lifecycleEvents.append(event)
        }
        var status = DeviceStatus()
        status.observedAtMs = batch.sentAtMs - 500
        status.authorization = .always
        status.accuracy = .precise
        status.locationServicesEnabled = true
        status.backgroundRefreshEnabled = seed % 2 == 0
        status.lowPowerMode = seed % 3 == 0
        status.platform = seed % 2 == 0 ? .ios : .android
        status.osVersion = seed % 2 == 0 ? "17.4.\(seed % 4)" : "14 (API \(34 - Int(seed % 2)))"
        status.appVersion = "3.\(seed % 20).0"
        batch.deviceStatus = status
        return batch
    }

    /// Fields this schema does not declare, as a newer client would send them: a varint (field 30) and a string
    /// (field 31) in every fix, and a varint (field 99) in the batch. Decoders keep them and encoders write
    /// them back.
    static func withUnknownFields(_ source: LocationBatch, seed: UInt64) -> LocationBatch {
        var batch = source
        for index in batch.fixes.indices {
            let value = UInt8(truncatingIfNeeded: seed &+ UInt64(index)) & 0x7F
            batch.fixes[index].unknownFields = UnknownFields(rawBytes: [
                0xF0, 0x01, value, 0xFA, 0x01, 3, 0x61, 0x62, value,
            ])
        }
        batch.unknownFields = UnknownFields(rawBytes: [0x98, 0x06, 1])
        return batch
    }

    /// The same message with the fields of the batch and of each fix in descending field-number order (repeated
    /// elements keep their order among themselves), which protobuf parsers must accept (they must not assume
    /// canonical order) and which takes decoders off any path that expects field 1 first.
    static func descendingFieldOrder(_ canonical: [UInt8]) -> [UInt8] {
        reorder(canonical[...], nestedField: 7)
    }

    /// Splits `bytes` into fields, reorders `nestedField`'s payloads too, and sorts descending by number (a stable
    /// sort, so repeated elements stay in order).
    private static func reorder(_ bytes: ArraySlice<UInt8>, nestedField: UInt64?) -> [UInt8] {
        var fields: [(number: UInt64, bytes: [UInt8])] = []
        var offset = bytes.startIndex
        func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        while offset < bytes.endIndex {
            let start = offset
            let tag = varint()
            let number = tag >> 3
            switch tag & 7 {
            case 0: _ = varint()
            case 1: offset += 8
            case 5: offset += 4
            case 2:
                let length = Int(varint())
                let payload = bytes[offset..<offset + length]
                offset += length
                if number == nestedField {
                    let inner = reorder(payload, nestedField: nil)
                    var field = Array(bytes[start..<payload.startIndex])
                    field += inner
                    fields.append((number, field))
                    continue
                }
            default: preconditionFailure("the workloads use no groups")
            }
            fields.append((number, Array(bytes[start..<offset])))
        }
        let sorted = fields.enumerated().sorted { ($0.element.number, $1.offset) > ($1.element.number, $0.offset) }
        return sorted.flatMap(\.element.bytes)
    }

    static func assignment(regions: Int, seed: UInt64) -> RegionAssignment {
        var random = SeededRandom(seed: seed)
        var assignment = RegionAssignment()
        assignment.assignmentVersion = 42 + seed
        assignment.issuedAtMs = 1_767_261_600_000 + Int64(seed) * 60_000
        assignment.expiresAtMs = assignment.issuedAtMs + 86_400_000
        assignment.mode = .fullReplacement
        assignment.slotBudget = 20
        assignment.datum = .wgs84
        let anchorLatitude = 460_511_000 + Int32(random.uniform(-2e6, 2e6))
        let anchorLongitude = 145_051_000 + Int32(random.uniform(-3e6, 3e6))
        var refresh = RefreshPolicy()
        refresh.refreshDistanceM = 2000
        refresh.anchorLatitudeE7 = anchorLatitude
        refresh.anchorLongitudeE7 = anchorLongitude
        refresh.onRefineEntry = true
        assignment.refresh = refresh
        for index in 0..<regions {
            var region = Region()
            region.id = "shop:\(10_000 + random.index(90_000))"
            region.version = 1 + UInt64(random.index(9))
            let latitude = anchorLatitude + Int32(random.uniform(-150_000, 150_000))
            let longitude = anchorLongitude - Int32(random.uniform(-220_000, 220_000))
            let radius = UInt32(100 + random.index(200))
            region.circle = Circle(latitudeE7: latitude, longitudeE7: longitude, radiusM: radius)
            // A polygon inside the circle: at most 0.85 of the radius from its centre, in 1e-7 degrees (1e-7 degrees
            // of latitude is 1.1 cm; of longitude 0.77 cm at 46 N).
            var polygon = Polygon()
            let reach = Double(radius) * 0.85 * 100 / 1.113
            let rotation = random.uniform(0, 2 * .pi)
            for vertex in 0..<20 {
                let angle = rotation + Double(vertex) / 20 * 2 * .pi
                let scale = random.uniform(0.6, 1.0)
                polygon.latitudesE7.append(latitude + Int32(reach * scale * sin(angle)))
                polygon.longitudesE7.append(longitude + Int32(reach * scale * cos(angle) / 0.6947))
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

    static func fenceEvent(seed: UInt64) -> FenceEvent {
        var random = SeededRandom(seed: seed)
        var event = FenceEvent()
        event.eventSequence = 1000 + UInt64(random.index(10_000))
        event.regionId = "shop:\(10_000 + random.index(90_000))"
        event.regionVersion = 1 + UInt64(random.index(9))
        event.assignmentVersion = 42 + seed
        let kinds: [FenceEventKind] = [.enter, .exit, .dwell]
        event.kind = kinds[random.index(kinds.count)]
        event.osEventTimeMs = 1_767_261_600_000 + Int64(random.index(86_400_000))
        event.detectedAtMs = event.osEventTimeMs + Int64(random.index(60_000))
        var simulator = TraceSimulator(scenario: .walk, seed: seed &+ 4)
        event.triggerFix = simulator.nextFix()
        event.source = .osRegionMonitor
        event.detectedElapsedRealtimeMs = 3_600_000 + UInt64(random.index(1_000_000))
        if event.kind == .dwell { event.dwellMs = 120_000 }
        event.bootId = random.next()
        return event
    }

    /// Every workload of the run.
    /// The headline workloads' names, in the order of ``all()``.
    static let headlineNames = [
        "batch-walk-1", "fence-event", "assignment-20", "batch-walk-1000", "batch-drive-1000",
        "batch-compact-walk-1000", "batch-compact-drive-1000", "batch-full-100", "batch-unknown-100",
        "batch-reordered-100",
    ]

    /// The headline workloads only, without the scaling curve's (whose 100,000-fix inputs take seconds to build).
    static func headline() -> [Workload] { all(includingScale: false) }

    static func all(includingScale: Bool = true) -> [Workload] {
        var workloads: [Workload] = []
        func add<Message: LocationWireMessage>(
            _ name: String, fixes: Int, headline: Bool = true, count: Int = inputCount,
            reordered: Bool = false, _ description: String, _ make: (UInt64) -> Message
        ) {
            let messages = (1...UInt64(count)).map(make)
            let canonical = messages.map { $0.serializedBytes() }
            workloads.append(
                Workload(
                    name: name, typeName: Message.fullMessageName,
                    inputs: reordered ? canonical.map(descendingFieldOrder) : canonical, canonical: canonical,
                    json: headline ? messages.map { Array($0.jsonString().utf8) } : [], fixesPerInput: fixes,
                    description: description,
                    isHeadline: headline))
        }
        add("batch-walk-1", fixes: 1, "a one-fix batch, the latency of a single upload") {
            batch(.walk, fixes: 1, seed: $0)
        }
        add("fence-event", fixes: 0, "one FenceEvent with its trigger fix") { fenceEvent(seed: $0) }
        add(
            "assignment-20", fixes: 0,
            "a RegionAssignment of 20 regions, each with a circle and a 20-vertex polygon inside it"
        ) { assignment(regions: 20, seed: $0) }
        add("batch-walk-1000", fixes: 1000, "1000 fixes of a walking 1 Hz trace, row form") {
            batch(.walk, fixes: 1000, seed: $0)
        }
        add("batch-drive-1000", fixes: 1000, "1000 fixes of a driving 1 Hz trace, row form") {
            batch(.drive, fixes: 1000, seed: $0)
        }
        add("batch-compact-walk-1000", fixes: 1000, "1000 walking fixes in the compact, columnar form") {
            compact(batch(.walk, fixes: 1000, seed: $0))
        }
        add("batch-compact-drive-1000", fixes: 1000, "1000 driving fixes in the compact form") {
            compact(batch(.drive, fixes: 1000, seed: $0))
        }
        add(
            "batch-full-100", fixes: 100,
            "100 fixes with a 36-byte device id, 10 fence events (with trigger fixes), 5 lifecycle events and the device status"
        ) { fullBatch(seed: $0) }
        add(
            "batch-unknown-100", fixes: 100,
            "100 fixes, each with two fields this schema does not declare (a varint and a string), and one in the batch"
        ) { withUnknownFields(batch(.walk, fixes: 100, seed: $0), seed: $0) }
        add(
            "batch-reordered-100", fixes: 100, reordered: true,
            "100 fixes with the batch's and every fix's fields in descending number order (encoders write them back canonical)"
        ) { batch(.walk, fixes: 100, seed: $0) }
        precondition(workloads.map(\.name) == headlineNames, "Workloads.headlineNames is out of date")
        for count in [10, 100, 10_000, 100_000] where includingScale {
            add(
                "scale-walk-\(count)", fixes: count, headline: false,
                count: count >= 100_000 ? largeInputCount : inputCount,
                "\(count) walking fixes, row form (scaling curve)"
            ) { batch(.walk, fixes: count, seed: $0) }
        }
        return workloads
    }

    /// Writes the workloads in the format of Benchmarks/peers/PROTOCOL.md: NAME.meta.json, NAME.binpb.frames and
    /// NAME.json.frames.
    static func write(_ workloads: [Workload], to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func frames(_ items: [[UInt8]]) -> Data {
            var data = Data()
            for item in items {
                withUnsafeBytes(of: UInt32(item.count).littleEndian) { data.append(contentsOf: $0) }
                data.append(contentsOf: item)
            }
            return data
        }
        for workload in workloads {
            try frames(workload.inputs).write(to: directory.appendingPathComponent("\(workload.name).binpb.frames"))
            if !workload.json.isEmpty {
                try frames(workload.json).write(to: directory.appendingPathComponent("\(workload.name).json.frames"))
            }
            let meta: [String: Any] = [
                "type": workload.typeName, "inputs": workload.inputs.count, "fixes_per_input": workload.fixesPerInput,
                "input_bytes": workload.inputBytes, "canonical_bytes": workload.canonical.reduce(0) { $0 + $1.count },
                "json_bytes": workload.json.reduce(0) { $0 + $1.count }, "description": workload.description,
            ]
            try JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]).write(
                to: directory.appendingPathComponent("\(workload.name).meta.json"))
        }
    }
}
