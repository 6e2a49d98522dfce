#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The spec's earth: a sphere of radius 6371008.8 m (proto/BEHAVIOR.md "Geometry"). Every behaviour rule that
/// compares distances measures them here, so two implementations reach the same verdicts.
public enum Sphere {
    /// The mean earth radius, metres.
    public static let radiusM = 6_371_008.8

    /// The great-circle distance in metres between two coordinates in 1e-7 degree, by the haversine formula
    /// exactly as `§distance` writes it. Engines on hot paths compare chords instead (``SpherePoint``), which is
    /// the same function within far less than the 1 mm `§distance-tolerance` allows.
    public static func distanceM(
        latitudeE7 latitudeA: Int32, longitudeE7 longitudeA: Int32, latitudeE7 latitudeB: Int32,
        longitudeE7 longitudeB: Int32
    ) -> Double {
        let phiA = radians(latitudeA)
        let phiB = radians(latitudeB)
        let halfDeltaPhi = sin((phiB - phiA) / 2)
        let halfDeltaLambda = sin((radians(longitudeB) - radians(longitudeA)) / 2)
        let h = halfDeltaPhi * halfDeltaPhi + cos(phiA) * cos(phiB) * halfDeltaLambda * halfDeltaLambda
        return 2 * radiusM * asin(min(h, 1).squareRoot())
    }

    /// 1e-7 degree to radians, as `§distance` converts.
    @inlinable public static func radians(_ e7: Int32) -> Double { Double(e7) * 1e-7 * .pi / 180 }

    /// The squared chord of the unit sphere that spans `meters` of great circle: a distance d is at most
    /// `meters` exactly when the squared chord is at most this. Valid up to half the globe.
    @inlinable public static func squaredChord(spanning meters: Double) -> Double {
        let half = sin(min(max(meters, 0) / radiusM, .pi) / 2)
        return 4 * half * half
    }

    /// The great-circle distance, metres, of a chord of the unit sphere.
    @inlinable public static func distanceM(squaredChord: Double) -> Double {
        2 * radiusM * asin(min(squaredChord.squareRoot() / 2, 1))
    }
}

/// A coordinate as a unit vector, its trigonometry done once: an engine compares each fix with several anchors
/// or regions, and each comparison is then a handful of multiplications.
public struct SpherePoint: Sendable, Equatable {
    public let latitudeE7: Int32
    public let longitudeE7: Int32
    public let x: Double
    public let y: Double
    public let z: Double

    @inlinable public init(latitudeE7: Int32, longitudeE7: Int32) {
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        let phi = Sphere.radians(latitudeE7)
        let lambda = Sphere.radians(longitudeE7)
        let cosPhi = cos(phi)
        x = cosPhi * cos(lambda)
        y = cosPhi * sin(lambda)
        z = sin(phi)
    }

    /// The squared straight-line distance through the unit sphere.
    @inlinable public func squaredChord(to other: SpherePoint) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }

    /// The great-circle distance in metres (`§distance`).
    @inlinable public func distanceM(to other: SpherePoint) -> Double {
        Sphere.distanceM(squaredChord: squaredChord(to: other))
    }

    @inlinable func dot(_ other: SpherePoint) -> Double { x * other.x + y * other.y + z * other.z }
}
