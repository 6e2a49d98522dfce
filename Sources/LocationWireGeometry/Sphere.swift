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

    /// Sine and cosine of `x` radians together, for |x| up to a few π (every angle a coordinate in 1e-7 degree
    /// can give): one Cody–Waite reduction by π/2 and Taylor polynomials on [−π/4, π/4], within 2e-16 of libm.
    /// Turning a fix into a ``SpherePoint`` takes four of these; with libm's separate calls that was over half
    /// the recording engine's time, and the spec allows any formula within 1 mm (`§distance-tolerance`).
    @inlinable public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        let quadrant = (x * (2 / Double.pi)).rounded(.toNearestOrEven)
        // π/2 in two parts, so the reduction keeps the low bits of x.
        let r = (x - quadrant * 1.5707963267948966) - quadrant * 6.123233995736766e-17
        let u = r * r
        // Taylor series to r^19/19! and r^20/20!, by Horner from the highest term: the error is below 1e-19 on
        // [−π/4, π/4], far under a double's precision.
        var sinePolynomial = -1.0 / 121_645_100_408_832_000
        sinePolynomial = sinePolynomial * u + 1.0 / 355_687_428_096_000
        sinePolynomial = sinePolynomial * u - 1.0 / 1_307_674_368_000
        sinePolynomial = sinePolynomial * u + 1.0 / 6_227_020_800
        sinePolynomial = sinePolynomial * u - 1.0 / 39_916_800
        sinePolynomial = sinePolynomial * u + 1.0 / 362_880
        sinePolynomial = sinePolynomial * u - 1.0 / 5_040
        sinePolynomial = sinePolynomial * u + 1.0 / 120
        sinePolynomial = sinePolynomial * u - 1.0 / 6
        sinePolynomial = sinePolynomial * u + 1
        var cosine = 1.0 / 2_432_902_008_176_640_000
        cosine = cosine * u - 1.0 / 6_402_373_705_728_000
        cosine = cosine * u + 1.0 / 20_922_789_888_000
        cosine = cosine * u - 1.0 / 87_178_291_200
        cosine = cosine * u + 1.0 / 479_001_600
        cosine = cosine * u - 1.0 / 3_628_800
        cosine = cosine * u + 1.0 / 40_320
        cosine = cosine * u - 1.0 / 720
        cosine = cosine * u + 1.0 / 24
        cosine = cosine * u - 0.5
        cosine = cosine * u + 1
        let sine = r * sinePolynomial
        switch Int(quadrant) & 3 {
        case 0: return (sine, cosine)
        case 1: return (cosine, -sine)
        case 2: return (-sine, -cosine)
        default: return (-cosine, sine)
        }
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
        let phi = Sphere.sinCos(Sphere.radians(latitudeE7))
        let lambda = Sphere.sinCos(Sphere.radians(longitudeE7))
        x = phi.cos * lambda.cos
        y = phi.cos * lambda.sin
        z = phi.sin
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

    /// The dot product of the two unit vectors: the cosine of the angle between them.
    @inlinable public func dot(_ other: SpherePoint) -> Double { x * other.x + y * other.y + z * other.z }
}
