import Foundation
import LocationWire
import LocationWireGeometry
import LocationWireRandom

/// Synthetic region catalogues for the planner's tests and benchmark, reproducible from a seed.
public enum RegionCatalogues {
    /// A realistic hierarchy: `counts[0]` provinces, each with `counts[1]` cities, each with `counts[2]`
    /// districts, each with `counts[3]` sites (10 × 100 × 100 × 10 is a million regions, 10 + 1000 + 100000 of
    /// them parents). Provinces 250 km, cities 20 km, districts 2 km, sites 150 m in radius, each nested inside
    /// its parent; districts carry a hexagonal polygon; priorities 0 to 3; ids `province:p3`, `city:p3-c17`,
    /// `district:p3-c17-d5`, `site:p3-c17-d5-s9`. Provinces spread over the whole globe, poles and
    /// antimeridian included.
    public static func hierarchy(counts: [Int] = [10, 100, 100, 10], seed: UInt64) -> [Region] {
        precondition(counts.count == 4)
        var random = SeededRandom(seed: seed)
        let levels: [(namespace: String, letter: String, radiusM: Double, level: RegionLevel)] = [
            ("province", "p", 250_000, .province), ("city", "c", 20_000, .city),
            ("district", "d", 2_000, .district), ("site", "s", 150, .site),
        ]
        var regions: [Region] = []
        regions.reserveCapacity(counts.reduce(1, *) + counts.prefix(3).reduce(1, *) * 2)
        func add(depth: Int, parentId: String, localPrefix: String, center: (Double, Double), parentRadiusM: Double) {
            let spec = levels[depth]
            for number in 0..<counts[depth] {
                let local = localPrefix.isEmpty ? "\(spec.letter)\(number)" : "\(localPrefix)-\(spec.letter)\(number)"
                let position: (Double, Double)
                if depth == 0 {
                    position = (asin(random.uniform(-1, 1)) * 180 / .pi, random.uniform(-180, 180))
                } else {
                    // Anywhere that keeps the child inside its parent's circle.
                    let reach = max(parentRadiusM - spec.radiusM, 0) * random.uniform(0, 1).squareRoot()
                    position = destination(from: center, bearingDegrees: random.uniform(0, 360), distanceM: reach)
                }
                var region = Region()
                region.id = "\(spec.namespace):\(local)"
                region.version = 1
                region.level = spec.level
                region.parentId = parentId
                region.priority = UInt32(random.index(4))
                region.notifyOnEntry = true
                region.notifyOnExit = true
                region.circle = Circle(
                    latitudeE7: e7(position.0), longitudeE7: e7(position.1), radiusM: UInt32(spec.radiusM))
                if spec.level == .district {
                    region.polygon = starPolygon(around: position, radiusM: spec.radiusM, vertices: 6, random: &random)
                }
                regions.append(region)
                if depth + 1 < counts.count {
                    add(
                        depth: depth + 1, parentId: region.id, localPrefix: local, center: position,
                        parentRadiusM: spec.radiusM)
                }
            }
        }
        add(depth: 0, parentId: "", localPrefix: "", center: (0, 0), parentRadiusM: 0)
        return regions
    }

    /// `count` roots and nothing else, sites of 100 to 500 m spread over the globe, priorities 0 to 3.
    public static func flat(count: Int, seed: UInt64) -> [Region] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { number in
            var region = Region()
            region.id = "site:f\(number)"
            region.version = 1
            region.level = .site
            region.priority = UInt32(random.index(4))
            region.notifyOnEntry = true
            region.circle = Circle(
                latitudeE7: e7(asin(random.uniform(-1, 1)) * 180 / .pi), longitudeE7: e7(random.uniform(-180, 180)),
                radiusM: UInt32(100 + random.index(401)))
            return region
        }
    }

    /// A small, hostile catalogue for agreement tests: clusters around a few anchors (some on the antimeridian,
    /// some near the poles), nested and overlapping circles, polygons, random priorities and expiries around
    /// `nowMs`, parents that expire, parents that do not exist, cycles, duplicate ids and regions without a
    /// circle. Returns the catalogue and the anchors (latitude, longitude in degrees) to plan around.
    public static func stress(
        count: Int, nowMs: Int64, seed: UInt64
    ) -> (regions: [Region], anchors: [(Double, Double)]) {
        var random = SeededRandom(seed: seed)
        var anchors: [(Double, Double)] = [(89.9, 10), (-89.95, -120), (0.5, 179.99), (-12, -179.995), (47.4, 8.5)]
        for _ in 0..<3 { anchors.append((random.uniform(-80, 80), random.uniform(-180, 180))) }
        var regions: [Region] = []
        for number in 0..<count {
            let anchor = anchors[random.index(anchors.count)]
            let radiusM = [30.0, 100, 300, 1_000, 2_000, 20_000, 200_000][random.index(7)] * random.uniform(0.5, 1.5)
            let position = destination(
                from: anchor, bearingDegrees: random.uniform(0, 360),
                distanceM: random.uniform(0, 1).squareRoot() * 60_000)
            var region = Region()
            region.id = "r:\(number)"
            region.version = 1 + UInt64(random.index(3))
            region.level = .site
            region.priority = UInt32(random.index(3))
            region.notifyOnEntry = true
            region.circle = Circle(latitudeE7: e7(position.0), longitudeE7: e7(position.1), radiusM: UInt32(radiusM))
            if random.index(3) == 0 {
                region.polygon = starPolygon(
                    around: position, radiusM: radiusM, vertices: 3 + random.index(8), random: &random)
            }
            switch random.index(10) {
            case 0: region.expiresAtMs = nowMs - Int64(random.index(1000))  // expired (or expiring right now)
            case 1: region.expiresAtMs = nowMs + 1 + Int64(random.index(100_000_000))
            case 2: region.expiresAtMs = -5
            default: break
            }
            if number > 0, random.index(4) != 0 {
                switch random.index(20) {
                case 0: region.parentId = "r:missing\(number)"
                // Later in the catalogue: cycles are possible.
                case 1: region.parentId = "r:\(number + 1 + random.index(5))"
                default: region.parentId = "r:\(random.index(number))"
                }
            }
            if random.index(50) == 0, number > 0 { region.id = "r:\(random.index(number))" }  // a duplicate id
            if random.index(100) == 0 { region.circle = nil }
            regions.append(region)
        }
        return (regions, anchors)
    }

    /// A position `distanceM` from `center` (degrees) along `bearingDegrees`, on the spec's sphere.
    public static func destination(
        from center: (Double, Double), bearingDegrees: Double, distanceM: Double
    )
        -> (Double, Double)
    {
        let phi1 = center.0 * .pi / 180
        let lambda1 = center.1 * .pi / 180
        let theta = bearingDegrees * .pi / 180
        let delta = distanceM / Sphere.radiusM
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
        var lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        while lambda2 > .pi { lambda2 -= 2 * .pi }
        while lambda2 < -.pi { lambda2 += 2 * .pi }
        return (phi2 * 180 / .pi, lambda2 * 180 / .pi)
    }

    /// Degrees to 1e-7 degree, clamped to the valid range.
    public static func e7(_ degrees: Double) -> Int32 {
        Int32(max(-1_800_000_000, min(1_800_000_000, (degrees * 1e7).rounded())))
    }

    /// A star-shaped polygon with every vertex between half and 90 % of the radius from the centre.
    static func starPolygon(
        around center: (Double, Double), radiusM: Double, vertices: Int, random: inout SeededRandom
    ) -> Polygon {
        var polygon = Polygon()
        for vertex in 0..<vertices {
            let point = destination(
                from: center, bearingDegrees: Double(vertex) * 360 / Double(vertices),
                distanceM: radiusM * random.uniform(0.5, 0.9))
            polygon.latitudesE7.append(e7(point.0))
            polygon.longitudesE7.append(e7(point.1))
        }
        return polygon
    }
}
