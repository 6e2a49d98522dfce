import ArgumentParser
import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireCatalogues
import LocationWireRandom

/// `locwire-bench planner`: the region planner (proto/BEHAVIOR.md "Region planning (server)") on a catalogue of a
/// million regions: index build time, the index's memory, plan latency at many random positions, and the literal
/// scan at a few of them for the ratio (checking that both give the same assignment).
struct Planner: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the region planner's index on a million-region catalogue against the literal scan.",
        discussion: """
            Build first: swift build -c release --package-path Benchmarks. Then, from the checkout:
            Benchmarks/.build/release/locwire-bench planner [--shape hierarchy|flat] [--positions 20000]
            Prints a Markdown table (and writes it to --output when given). A few minutes, mostly the scans and
            building the catalogue.
            """)

    enum Shape: String, ExpressibleByArgument, CaseIterable {
        /// 10 provinces × 100 cities × 100 districts × 10 sites (``RegionCatalogues/hierarchy(counts:seed:)``).
        case hierarchy
        /// A million roots.
        case flat
        case both
    }

    @Option(help: "Catalogue shape: hierarchy (10 × 100 × 100 × 10), flat (a million roots) or both.")
    var shape: Shape = .both
    @Option(help: "Plans timed per catalogue and kind of position.")
    var positions = 20_000
    @Option(help: "Plans by the literal scan per catalogue (each takes seconds).")
    var scanPositions = 3
    @Option(help: "Slot budget.")
    var budget = 20
    @Option(help: "Also write the table to this file.")
    var output: String?

    func run() throws {
        var lines = [
            "| catalogue | regions | index build | index memory (estimate / RSS growth) | positions | plan p50 | plan p99 | scan p50 | scan / index |",
            "|---|---:|---:|---:|---|---:|---:|---:|---:|",
        ]
        let shapes: [Shape] = shape == .both ? [.hierarchy, .flat] : [shape]
        for shape in shapes {
            lines += try measure(shape)
        }
        let table = lines.joined(separator: "\n") + "\n"
        print(table, terminator: "")
        if let output { try table.write(toFile: output, atomically: true, encoding: .utf8) }
    }

    func measure(_ shape: Shape) throws -> [String] {
        let now: Int64 = 1_700_000_000_000
        let catalogue =
            shape == .flat
            ? RegionCatalogues.flat(count: 1_000_000, seed: 1) : RegionCatalogues.hierarchy(seed: 1)
        let rssBefore = residentBytes()
        let start = Clock.nanoseconds()
        let planner = RegionPlanner(catalogue: catalogue)
        let buildSeconds = Double(Clock.nanoseconds() - start) / 1e9
        let rssGrowth = residentBytes() - rssBefore
        printToStandardError("planner: \(shape.rawValue) indexed in \(format(buildSeconds)) s")

        // Positions where devices are (within 2 km of a random region's centre: inside a site, a district, a
        // city and a province on the hierarchy) and anywhere on the globe.
        var random = SeededRandom(seed: 9)
        func near() -> (Int32, Int32) {
            let circle = catalogue[random.index(catalogue.count)].circle!
            let position = RegionCatalogues.destination(
                from: (Double(circle.centerLatitudeE7!) / 1e7, Double(circle.centerLongitudeE7!) / 1e7),
                bearingDegrees: random.uniform(0, 360), distanceM: random.uniform(0, 2_000))
            return (RegionCatalogues.e7(position.0), RegionCatalogues.e7(position.1))
        }
        func anywhere() -> (Int32, Int32) {
            (
                RegionCatalogues.e7(asin(random.uniform(-1, 1)) * 180 / .pi),
                RegionCatalogues.e7(random.uniform(-180, 180))
            )
        }
        var rows: [String] = []
        for (kind, position) in [("near a region", near), ("anywhere", anywhere)] {
            let points = (0..<positions).map { _ in position() }
            // Warm-up: caches and the allocator.
            for point in points.prefix(1_000) {
                consume(
                    planner.plan(
                        latitudeE7: point.0, longitudeE7: point.1, slotBudget: budget, nowMs: now, previous: nil
                    ).regions.count)
            }
            var latencies: [Double] = []
            latencies.reserveCapacity(points.count)
            for point in points {
                let begin = Clock.nanoseconds()
                let plan = planner.plan(
                    latitudeE7: point.0, longitudeE7: point.1, slotBudget: budget, nowMs: now, previous: nil)
                latencies.append(Double(Clock.nanoseconds() - begin))
                consume(plan.regions.count)
            }
            latencies.sort()
            let p50 = latencies[latencies.count / 2]
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
            var scans: [Double] = []
            for point in points.prefix(scanPositions) {
                let begin = Clock.nanoseconds()
                let scanned = RegionPlanner.planByScan(
                    catalogue: catalogue, latitudeE7: point.0, longitudeE7: point.1, slotBudget: budget, nowMs: now,
                    previous: nil)
                scans.append(Double(Clock.nanoseconds() - begin))
                let indexed = planner.plan(
                    latitudeE7: point.0, longitudeE7: point.1, slotBudget: budget, nowMs: now, previous: nil)
                guard scanned == indexed else {
                    throw ValidationError("planner: the index and the scan disagree at \(point) on \(shape.rawValue)")
                }
            }
            scans.sort()
            let scanP50 = scans.isEmpty ? Double.nan : scans[scans.count / 2]
            rows.append(
                "| \(shape.rawValue) | \(planner.regionCount) | \(format(buildSeconds)) s | "
                    + "\(megabytes(planner.indexMemoryBytes)) / \(megabytes(rssGrowth)) | \(kind) | "
                    + "\(format(p50 / 1000)) µs | \(format(p99 / 1000)) µs | \(format(scanP50 / 1e6)) ms | "
                    + "\(format(scanP50 / p50))× |")
            printToStandardError("planner: \(rows.last!)")
        }
        return rows
    }

    /// Resident set size, bytes, from /proc/self/statm (0 where there is none).
    func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    func megabytes(_ bytes: Int) -> String { "\(format(Double(bytes) / 1_048_576)) MiB" }

    func format(_ value: Double) -> String {
        value >= 100
            ? String(format: "%.0f", value)
            : value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }

    func printToStandardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
