import ArgumentParser
import CMallocCounter
import Foundation
import LocationWire

/// One decode input of the benchmark's workloads (seed 1) in a loop, for callgrind, with its allocation count:
/// the decode and allocation targets of issue 14 are checked with it (Benchmarks/NOTES.md, "Decode").
struct DecodeProfile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-profile",
        abstract: "Decode one workload input in a loop, for callgrind, and count its allocations per decode.",
        discussion: """
            For example: valgrind --tool=callgrind .build/release/locwire-bench decode-profile full --iterations 50
            --no-allocations. Without --no-allocations it first prints allocations and requested bytes per decode,
            counted over --iterations decodes before the profiled loop.
            """)

    enum Input: String, ExpressibleByArgument, CaseIterable {
        case batch1 = "batch-1", fence, assignment, batch1000 = "batch-1000", compact, full, unknown, reordered
    }

    @Argument(
        help:
            "One of: \(Input.allCases.map(\.rawValue).joined(separator: ", ")); full, unknown and reordered are batch-full-100, batch-unknown-100 and batch-reordered-100."
    )
    var input: Input = .full
    @Option(help: "How many times.")
    var iterations = 200
    @Option(
        help:
            "For full: repeat its fixes, fence events and lifecycle events this many times (allocations must not grow)."
    )
    var scale = 1
    @Flag(help: "Skip the allocation count (under valgrind it only adds noise).")
    var noAllocations = false
    @Flag(
        help: "Decode into one message kept across decodes (`decode(serializedBytes:)`), as the decode-reuse variant.")
    var reuse = false

    func bytes() -> [UInt8] {
        switch input {
        case .batch1: return Workloads.batch(.walk, fixes: 1, seed: 1).serializedBytes()
        case .fence: return Workloads.fenceEvent(seed: 1).serializedBytes()
        case .assignment: return Workloads.assignment(regions: 20, seed: 1).serializedBytes()
        case .batch1000: return Workloads.batch(.walk, fixes: 1000, seed: 1).serializedBytes()
        case .compact: return Workloads.compact(Workloads.batch(.walk, fixes: 1000, seed: 1)).serializedBytes()
        case .full:
            var batch = Workloads.fullBatch(seed: 1)
            let (fixes, events, lifecycle) = (batch.fixes, batch.fenceEvents, batch.lifecycleEvents)
            for _ in 1..<max(scale, 1) {
                batch.fixes += fixes
                batch.fenceEvents += events
                batch.lifecycleEvents += lifecycle
            }
            return batch.serializedBytes()
        case .unknown:
            return Workloads.withUnknownFields(Workloads.batch(.walk, fixes: 100, seed: 1), seed: 1).serializedBytes()
        case .reordered:
            return Workloads.descendingFieldOrder(Workloads.batch(.walk, fixes: 100, seed: 1).serializedBytes())
        }
    }

    func run() throws {
        switch input {
        case .fence: try profile(FenceEvent.self) { $0.regionId.utf8.count }
        case .assignment: try profile(RegionAssignment.self) { $0.regions.count }
        default: try profile(LocationBatch.self) { $0.fixes.count }
        }
    }

    /// Decodes the input `iterations` times (fresh, or with `--reuse` into one kept message), after counting the
    /// allocations of as many decodes unless `--no-allocations`.
    private func profile<Message: LocationWireMessage>(_ type: Message.Type, _ use: (Message) -> Int) throws {
        let bytes = bytes()
        var kept = Message()
        func decodeAll() throws {
            if reuse {
                for _ in 0..<iterations {
                    try kept.decode(serializedBytes: bytes)
                    consume(use(kept))
                }
            } else {
                for _ in 0..<iterations { consume(use(try Message(serializedBytes: bytes))) }
            }
        }
        consume(use(try Message(serializedBytes: bytes)))
        if !noAllocations {
            lw_allocation_counting_start()
            try decodeAll()
            let count = lw_allocation_counting_stop()
            let requested = lw_allocated_bytes()
            print(
                "\(input.rawValue): \(bytes.count) bytes, \(Double(count) / Double(iterations)) allocations and "
                    + "\(Double(requested) / Double(iterations)) bytes requested per decode")
        }
        try decodeAll()
    }
}
