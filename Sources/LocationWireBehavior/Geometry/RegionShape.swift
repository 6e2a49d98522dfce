#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import LocationWire
import LocationWireGeometry

/// A region's circle and polygon, prepared for many point tests: the inside test of `§region-inside` and
/// `§polygon-inside`, the distance past the boundary (`§boundary-distance`) and the gap (`§region-gap`).
public struct RegionShape: Sendable {
    public let center: SpherePoint
    /// Circle radius, metres.
    public let radiusM: Double
    /// The squared unit-sphere chord of the radius: a point is within the circle when its squared chord to the
    /// centre is at most this.
    public let radiusSquaredChord: Double
    let polygon: GnomonicPolygon?

    /// Nil when the region has no circle centre, which a valid region always has. `radiusSlackM` moves the
    /// circle's edge, for the vector generator's edge check (`§distance-tolerance`).
    public init?(_ region: Region, radiusSlackM: Double = 0) {
        guard let circle = region.circle, let latitude = circle.centerLatitudeE7,
            let longitude = circle.centerLongitudeE7
        else { return nil }
        center = SpherePoint(latitudeE7: latitude, longitudeE7: longitude)
        radiusM = Double(circle.radiusM) + radiusSlackM
        radiusSquaredChord = Sphere.squaredChord(spanning: radiusM)
        // `§polygon-inside`, `§polygon-unprojectable`: a polygon of fewer than 3 vertices, with uneven lists, or
        // with a vertex on the far hemisphere is ignored, and the region is its circle.
        if let polygon = region.polygon, polygon.latitudesE7.count == polygon.longitudesE7.count,
            polygon.latitudesE7.count >= 3
        {
            self.polygon = GnomonicPolygon(polygon, around: center)
        } else {
            self.polygon = nil
        }
    }

    public var hasPolygon: Bool { polygon != nil }

    /// `§region-inside`: within the circle and, with a polygon, within the polygon.
    @inlinable public func contains(_ point: SpherePoint) -> Bool {
        guard point.squaredChord(to: center) <= radiusSquaredChord else { return false }
        return containsInPolygon(point)
    }

    @usableFromInline func containsInPolygon(_ point: SpherePoint) -> Bool {
        guard let polygon else { return true }
        return polygon.contains(point)
    }

    /// `§boundary-distance`, metres, for a point outside: past the circle; with a polygon, the larger of that
    /// and the distance past the nearest polygon edge in the tangent plane, which is 0 inside the polygon and
    /// infinity on the far hemisphere (`§boundary-outside-circle`: the circle's term matters only when a vertex
    /// lies outside the circle).
    public func distancePastBoundaryM(_ point: SpherePoint) -> Double {
        let pastCircle = point.distanceM(to: center) - radiusM
        guard let polygon else { return pastCircle }
        return max(pastCircle, polygon.contains(point) ? 0 : polygon.distanceToBoundaryM(point))
    }

    /// `§region-gap`, metres: how far the point is from the circle, 0 within it.
    @inlinable public func gapM(_ point: SpherePoint) -> Double {
        Self.gapM(point, center: center, radiusM: radiusM, radiusSquaredChord: radiusSquaredChord)
    }

    /// `§region-gap` of a bare circle, for callers that keep circles apart from their polygons (the planner's
    /// index reads a million of them and wants them small); `radiusSquaredChord` is
    /// `Sphere.squaredChord(spanning: radiusM)`.
    @inlinable public static func gapM(
        _ point: SpherePoint, center: SpherePoint, radiusM: Double, radiusSquaredChord: Double
    ) -> Double {
        let squaredChord = point.squaredChord(to: center)
        if squaredChord <= radiusSquaredChord { return 0 }
        return max(0, Sphere.distanceM(squaredChord: squaredChord) - radiusM)
    }
}

/// A polygon projected onto the plane tangent at its circle's centre (`§polygon-inside`). The gnomonic
/// projection maps great circles to straight lines, so edges stay straight, and it has no seam at the
/// antimeridian or the poles.
struct GnomonicPolygon: Sendable {
    let center: SpherePoint
    let east: (x: Double, y: Double, z: Double)
    let north: (x: Double, y: Double, z: Double)
    /// Projected vertices.
    let xs: [Double]
    let ys: [Double]

    /// Nil when a vertex lies on the far hemisphere (c·v ≤ 0, impossible in a valid region), where the
    /// projection has no point for it (`§polygon-unprojectable`).
    init?(_ polygon: Polygon, around center: SpherePoint) {
        self.center = center
        let phi = Sphere.radians(center.latitudeE7)
        let lambda = Sphere.radians(center.longitudeE7)
        east = (-sin(lambda), cos(lambda), 0)
        north = (-sin(phi) * cos(lambda), -sin(phi) * sin(lambda), cos(phi))
        var xs: [Double] = []
        var ys: [Double] = []
        xs.reserveCapacity(polygon.latitudesE7.count)
        ys.reserveCapacity(polygon.latitudesE7.count)
        for (latitude, longitude) in zip(polygon.latitudesE7, polygon.longitudesE7) {
            let vertex = SpherePoint(latitudeE7: latitude, longitudeE7: longitude)
            guard let plane = Self.project(vertex, center: center, east: east, north: north) else { return nil }
            xs.append(plane.x)
            ys.append(plane.y)
        }
        self.xs = xs
        self.ys = ys
    }

    /// (e·p / c·p, n·p / c·p), or nil when c·p ≤ 0.
    @inline(__always)
    static func project(
        _ point: SpherePoint, center: SpherePoint, east: (x: Double, y: Double, z: Double),
        north: (x: Double, y: Double, z: Double)
    ) -> (x: Double, y: Double)? {
        let towardsCenter = point.dot(center)
        guard towardsCenter > 0 else { return nil }
        let ex = east.x * point.x + east.y * point.y + east.z * point.z
        let ny = north.x * point.x + north.y * point.y + north.z * point.z
        return (ex / towardsCenter, ny / towardsCenter)
    }

    /// Even-odd crossings of a ray towards +x, with the edge rule `§polygon-inside` states.
    func contains(_ point: SpherePoint) -> Bool {
        guard let (x, y) = Self.project(point, center: center, east: east, north: north) else { return false }
        var inside = false
        let count = xs.count
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                var previous = count - 1
                for current in 0..<count {
                    let ax = xs[previous]
                    let ay = ys[previous]
                    let bx = xs[current]
                    let by = ys[current]
                    if (ay > y) != (by > y), x < ax + (y - ay) * (bx - ax) / (by - ay) { inside.toggle() }
                    previous = current
                }
            }
        }
        return inside
    }

    /// R times the least plane distance to an edge segment; infinity on the far hemisphere.
    func distanceToBoundaryM(_ point: SpherePoint) -> Double {
        guard let (x, y) = Self.project(point, center: center, east: east, north: north) else {
            return .infinity
        }
        var least = Double.infinity
        var previous = xs.count - 1
        for current in 0..<xs.count {
            let ax = xs[previous]
            let ay = ys[previous]
            let dx = xs[current] - ax
            let dy = ys[current] - ay
            let lengthSquared = dx * dx + dy * dy
            var along = lengthSquared > 0 ? ((x - ax) * dx + (y - ay) * dy) / lengthSquared : 0
            along = min(max(along, 0), 1)
            let offX = x - (ax + along * dx)
            let offY = y - (ay + along * dy)
            least = min(least, offX * offX + offY * offY)
            previous = current
        }
        return Sphere.radiusM * least.squareRoot()
    }
}
