import ArgumentParser
import CMallocCounter
import Foundation
import LocationWire

/// Decode inputs beyond the headline workloads, for the allocation and fallback targets of issue 14: a batch
/// with a 36-byte device id, fence events, lifecycle events and a status; a batch with an unknown field in every
/// fix; a batch whose fields arrive in descending order.
extension Workloads {
    /// `fixes` walking fixes under a UUID device id, `events` fence events (each with its trigger fix and a
    /// region id), `lifecycle` lifecycle events and a DeviceStatus.
    static func richBatch(fixes: Int, events: Int, lifecycle: Int) -> LocationBatch {
        var batch = batch(.walk, fixes: fixes)
        batch.deviceId = "5C2F8E1A-7B3D-4E9F-A0C6-2D8B4F1E9A37"
        let trigger = Workloads.fenceEvent()
        for index in 0..<events {
            var event = trigger
            event.eventSequence = UInt64(100 + index)
            event.regionId = "shop:\(10_000 + index)"
            event.kind = FenceEventKind(rawValue: Int32(1 + index % 2))
            event.osEventTimeMs += Int64(index) * 60_000
            event.triggerFix?.sequence = UInt64(5000 + index)
            batch.fenceEvents.append(event)
        }
        for index in 0..<lifecycle {
            var event = LifecycleEvent()
            event.kind = LifecycleEventKind(rawValue: Int32(1 + index % 3))
            event.timeMs = 1_767_261_600_000 + Int64(index) * 1000
            event.elapsedRealtimeMs = 3_600_000 + UInt64(index) * 1000
            event.bootId = 0xB007
            batch.lifecycleEvents.append(event)
        }
        var status = DeviceStatus()
        status.observedAtMs = 1_767_261_600_000
        status.authorization = LocationAuthorization(rawValue: 2)
        status.accuracy = LocationAccuracy(rawValue: 1)
        status.locationServicesEnabled = true
        status.lowPowerMode = false
        status.platform = Platform(rawValue: 1)
        status.osVersion = "17.4.1"
        status.appVersion = "3.2.0 (1234)"
        batch.deviceStatus = status
        return batch
    }

    /// `fixes` walking fixes, each carrying a private field (50001, a varint) that the schema does not know.
    static func unknownFieldBatch(fixes: Int) -> LocationBatch {
        var batch = batch(.walk, fixes: fixes)
        // Tag of field 50001, wire type 0 (three varint bytes), then the value 7.
        let privateField: [UInt8] = [0x88, 0xDA, 0x18, 0x07]
        for index in batch.fixes.indices {
            batch.fixes[index].unknownFields = UnknownFields(rawBytes: privateField)
        }
        return batch
    }

    /// The canonical bytes of `message` with the fields of the message and of every fix rewritten in
    /// descending field-number order (repeated occurrences keep their relative order): valid protobuf that no
    /// canonical encoder writes.
    static func descendingFieldOrder(_ batch: LocationBatch) -> [UInt8] {
        reordered(batch.serializedBytes(), nested: LocationBatch.Field.fixes.number)
    }

    /// Splits `bytes` into fields, reorders the fields of each sub-message of field `nested` the same way, and
    /// sorts by descending field number (stably).
    private static func reordered(_ bytes: [UInt8], nested: UInt32?) -> [UInt8] {
        var fields: [(number: UInt32, bytes: [UInt8])] = []
        var position = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        while position < bytes.count {
            let start = position
            let key = varint()
            let number = UInt32(key >> 3)
            switch key & 7 {
            case 0: _ = varint()
            case 1: position += 8
            case 5: position += 4
            case 2:
                let length = Int(varint())
                if number == nested {
                    let inner = reordered(Array(bytes[position..<position + length]), nested: nil)
                    fields.append((number, Array(bytes[start..<position]) + inner))
                    position += length
                    continue
                }
                position += length
            default: fatalError("groups do not occur in the benchmark's batches")
            }
            fields.append((number, Array(bytes[start..<position])))
        }
        let order = fields.indices.sorted { (fields[$1].number, $0) < (fields[$0].number, $1) }
        return order.flatMap { fields[$0].bytes }
    }
}

struct DecodeProfile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-profile",
        abstract: "Decode one input in a loop, for callgrind, and count its allocations per decode.",
        discussion: """
            For example: valgrind --tool=callgrind .build/release/locwire-bench decode-profile rich --iterations 50
            --no-allocations. Without --no-allocations it first prints allocations and requested bytes per decode
            (measured over --iterations decodes before the profiled loop). --write DIR writes every input as
            NAME.binpb and NAME.json, as `locwire-bench workloads` does, for the peer harnesses.
            """)

    enum Input: String, ExpressibleByArgument, CaseIterable {
        case batch1 = "batch-1", fence, assignment, batch1000 = "batch-1000", compact, rich, unknown, descending
    }

    @Argument(help: "One of: \(Input.allCases.map(\.rawValue).joined(separator: ", ")).")
    var input: Input = .rich
    @Option(help: "How many times.")
    var iterations = 200
    @Option(help: "Fixes in the rich, unknown and descending batches.")
    var fixes = 100
    @Option(help: "Fence events in the rich batch.")
    var events = 10
    @Option(help: "Lifecycle events in the rich batch.")
    var lifecycle = 5
    @Flag(help: "Skip the allocation count (under valgrind it only adds noise).")
    var noAllocations = false
    @Option(help: "Write every input to this directory and exit.")
    var write: String?
    @Flag(
        help:
            "Instead of the loop, time decoding with the harnesses' method (Method: 200 ms warm-up, --samples samples of at least 20 ms) and print the median ns per decode."
    )
    var time = false
    @Option(help: "Samples for --time.")
    var samples = 7

    static func bytes(of input: Input, fixes: Int, events: Int, lifecycle: Int) -> (type: String, bytes: [UInt8]) {
        let batchType = LocationBatch.fullMessageName
        switch input {
        case .batch1: return (batchType, Workloads.batch(.walk, fixes: 1).serializedBytes())
        case .fence: return (FenceEvent.fullMessageName, Workloads.fenceEvent().serializedBytes())
        case .assignment:
            return (RegionAssignment.fullMessageName, Workloads.assignment(regions: 20).serializedBytes())
        case .batch1000: return (batchType, Workloads.batch(.walk, fixes: 1000).serializedBytes())
        case .compact:
            return (batchType, Workloads.compact(Workloads.batch(.walk, fixes: 1000)).serializedBytes())
        case .rich:
            return (
                batchType, Workloads.richBatch(fixes: fixes, events: events, lifecycle: lifecycle).serializedBytes()
            )
        case .unknown: return (batchType, Workloads.unknownFieldBatch(fixes: fixes).serializedBytes())
        case .descending:
            return (batchType, Workloads.descendingFieldOrder(Workloads.batch(.walk, fixes: fixes)))
        }
    }

    func run() throws {
        if let write {
            let directory = URL(fileURLWithPath: write)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for input in Input.allCases {
                let (type, bytes) = Self.bytes(of: input, fixes: fixes, events: events, lifecycle: lifecycle)
                let name = "decode-\(input.rawValue)"
                try Data(bytes).write(to: directory.appendingPathComponent("\(name).binpb"))
                let meta: [String: Any] = ["type": type, "fixes": 0, "description": "decode-profile \(input)"]
                try JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]).write(
                    to: directory.appendingPathComponent("\(name).json"))
            }
            return
        }
        let (_, bytes) = Self.bytes(of: input, fixes: fixes, events: events, lifecycle: lifecycle)
        let decode: () throws -> Int
        switch input {
        case .fence: decode = { try FenceEvent(serializedBytes: bytes).regionId.utf8.count }
        case .assignment: decode = { try RegionAssignment(serializedBytes: bytes).regions.count }
        default: decode = { try LocationBatch(serializedBytes: bytes).fixes.count }
        }
        if input == .descending {
            let canonical = Workloads.batch(.walk, fixes: fixes)
            let decoded = try LocationBatch(serializedBytes: bytes)
            precondition(decoded == canonical, "reordering changed the batch")
        }
        _ = try decode()
        if time {
            let stats = Method(samples: samples, minSampleMilliseconds: 20).measure { consume(try! decode()) }
            print("\(input.rawValue): \(String(format: "%.1f", stats.median)) ns per decode (median of \(samples))")
            return
        }
        if !noAllocations {
            lw_allocation_counting_start()
            for _ in 0..<iterations { consume(try decode()) }
            let count = lw_allocation_counting_stop()
            let requested = lw_allocated_bytes()
            print(
                "\(input.rawValue): \(bytes.count) bytes, \(Double(count) / Double(iterations)) allocations and "
                    + "\(Double(requested) / Double(iterations)) bytes requested per decode")
        }
        for _ in 0..<iterations { consume(try decode()) }
    }
}
