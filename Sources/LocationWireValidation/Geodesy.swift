/// Just enough spherical geometry for validation, without Foundation. The spec (proto/README.md) defines
/// distances for validation as great-circle distances on a sphere of the earth's mean radius, 6371008.8 m, so
/// every implementation reaches the same verdict; the rules allow 1 m of slack for rounding.
enum Geodesy {
    static let earthRadiusM = 6_371_008.8

    /// True when the great-circle distance between the points is at most `meters` (points in 1e-7 degree).
    /// Compares chord lengths, so no inverse trigonometry is needed: for arcs up to half the globe the chord
    /// grows with the arc.
    static func isWithin(
        _ meters: Double, latitudeE7 lat1: Int32, longitudeE7 lon1: Int32, latitudeE7 lat2: Int32,
        longitudeE7 lon2: Int32
    ) -> Bool {
        let arc = min(meters / earthRadiusM, .pi)
        return chord(lat1, lon1, lat2, lon2) <= 2 * sin(arc / 2)
    }

    /// The straight-line distance through the earth in metres, a close under-estimate of the great-circle
    /// distance at region scales; used in messages only.
    static func approximateDistanceM(
        latitudeE7 lat1: Int32, longitudeE7 lon1: Int32, latitudeE7 lat2: Int32, longitudeE7 lon2: Int32
    ) -> Double {
        chord(lat1, lon1, lat2, lon2) * earthRadiusM
    }

    private static func chord(_ lat1: Int32, _ lon1: Int32, _ lat2: Int32, _ lon2: Int32) -> Double {
        let a = unitVector(lat1, lon1)
        let b = unitVector(lat2, lon2)
        let dx = a.x - b.x
        let dy = a.y - b.y
        let dz = a.z - b.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    private static func unitVector(_ latitudeE7: Int32, _ longitudeE7: Int32) -> (x: Double, y: Double, z: Double) {
        let latitude = Double(latitudeE7) * 1e-7 * .pi / 180
        let longitude = Double(longitudeE7) * 1e-7 * .pi / 180
        let cosLatitude = cos(latitude)
        return (cosLatitude * cos(longitude), cosLatitude * sin(longitude), sin(latitude))
    }

    /// sin by Taylor series after reduction to [-pi/2, pi/2]; error below 1e-15 there.
    static func sin(_ x: Double) -> Double {
        var angle = x.truncatingRemainder(dividingBy: 2 * .pi)
        if angle > .pi { angle -= 2 * .pi } else if angle < -.pi { angle += 2 * .pi }
        if angle > .pi / 2 { angle = .pi - angle } else if angle < -.pi / 2 { angle = -.pi - angle }
        let square = angle * angle
        var term = angle
        var sum = angle
        for n in stride(from: 2.0, through: 30.0, by: 2.0) {
            term *= -square / (n * (n + 1))
            sum += term
        }
        return sum
    }

    static func cos(_ x: Double) -> Double { sin(x + .pi / 2) }
}
